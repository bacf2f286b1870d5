// Recursion whose end depends on a device value.
#include <twintile.h>
using namespace tt;

Tile<f32> halve_until_small(Tile<f32> v, f32 limit) {
  Tile<f32> r = v;
  if (max(v, 0) > limit) r = halve_until_small(v * 0.5f, limit);  // trace-error parse-error hybrid-error
  return r;
}

template <int BLOCK>
TT_KERNEL void recursion_device(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  store(y + offs, halve_until_small(load(x + offs, offs < n, 0.0f), f32(1.0f)), offs < n);
}
