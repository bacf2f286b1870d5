// A member of a temporary struct returned by a helper.
#include <twintile.h>
using namespace tt;

struct Halves {
  Tile<f32> lo, hi;
};
Halves split(Tile<f32> v) { return Halves{minimum(v, 0.0f), maximum(v, 0.0f)}; }

template <int BLOCK>
TT_KERNEL void member_of_temporary(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  store(y + offs, split(load(x + offs, offs < n, 0.0f)).hi, offs < n);
}
