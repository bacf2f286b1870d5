// Masks combined with & and a where() select, the portable way to branch per lane.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void mask_combination(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto inside = (offs < n) & (offs >= 0);
  auto v = load(x + offs, inside, 0.0f);
  store(y + offs, where(v > 0.0f, v, 0.1f * v), inside);
}
