// Recursion over a host value: a tree sum of tiles, unrolled.
#include <twintile.h>
using namespace tt;

Tile<f32> power(Tile<f32> v, int k) {
  if (k == 1) return v;
  return power(v, k - 1) * v;
}

template <int BLOCK>
TT_KERNEL void recursion_host(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  store(y + offs, power(v, 3), offs < n);
}
