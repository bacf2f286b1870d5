// A struct of tiles returned from a helper.
#include <twintile.h>
using namespace tt;

struct Pair {
  Tile<f32> lo, hi;
};

Pair split(Tile<f32> v) { return Pair{minimum(v, 0.0f), maximum(v, 0.0f)}; }

template <int BLOCK>
TT_KERNEL void struct_of_tiles(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  Pair p = split(load(x + offs, offs < n, 0.0f));
  store(y + offs, p.hi * 2.0f + p.lo, offs < n);
}
