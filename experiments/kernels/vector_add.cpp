// vector_add: out[i] = x[i] + y[i], BLOCK elements per program.
// Meant for: BLOCK in {128, 256, 1024}; grid cdiv(n, BLOCK).
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void vector_add(Ptr<f32> x, Ptr<f32> y, Ptr<f32> out, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  store(out + offs, load(x + offs, mask) + load(y + offs, mask), mask);
}
