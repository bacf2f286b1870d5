// A host loop over a template parameter unrolls.
#include <twintile.h>
using namespace tt;

template <int BLOCK, int STEPS>
TT_KERNEL void host_unroll(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  auto acc = v;
  for (int i = 1; i < STEPS; ++i) acc = acc + v * float(i);
  store(y + offs, acc, offs < n);
}
