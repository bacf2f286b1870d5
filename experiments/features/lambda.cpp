// A lambda helper defined in the kernel, capturing a host value.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void lambda(Ptr<f32> x, Ptr<f32> y, i32 n) {
  float scale = 3.0f;
  auto scaled = [&](Tile<f32> v) { return v * scale; };
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  store(y + offs, scaled(v) + 1.0f, offs < n);
}
