// Assigning one struct of tiles to another.
#include <twintile.h>
using namespace tt;

struct Halves {
  Tile<f32> lo, hi;
};
Halves split(Tile<f32> v) { return Halves{minimum(v, 0.0f), maximum(v, 0.0f)}; }

template <int BLOCK>
TT_KERNEL void struct_assignment(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  Halves p = split(v);
  p = split(v * 2.0f);
  store(y + offs, p.lo + p.hi, offs < n);
}
