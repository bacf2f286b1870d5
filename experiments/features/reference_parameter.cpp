// A helper that updates its argument through a reference.
#include <twintile.h>
using namespace tt;

void twice(Tile<f32> &t) { t = t * 2.0f; }

template <int BLOCK>
TT_KERNEL void reference_parameter(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  twice(v);
  auto &r = v;
  r = r + 1.0f;
  store(y + offs, v, offs < n);
}
