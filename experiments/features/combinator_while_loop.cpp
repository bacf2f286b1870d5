// while_loop with a counter and a tile.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void combinator_while_loop(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  auto [k, w] = while_loop([](i32 k, Tile<f32>) { return k < 4; },
                           [](i32 k, Tile<f32> w) { return carry(k + 1, w * 0.5f); }, i32(0), v);
  store(y + offs, w, offs < n);
}
