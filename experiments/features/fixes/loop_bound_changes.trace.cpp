// loop_bound_changes as the tracer's message says: a loop whose bound the body
// changes needs its condition read every iteration, so tt::while_loop, carrying
// k, v and lim (the message: for_range reads its bounds once).
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void loop_bound_changes(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  i32 lim = n;
  i32 k = 0;
  auto [k_out, v_out, lim_out] = while_loop(
      [](i32 k, Tile<f32> v, i32 lim) { return k < lim; },
      [](i32 k, Tile<f32> v, i32 lim) { return carry(k + 1, v + 1.0f, lim - 1); }, k, v, lim);
  store(y + offs, v_out, offs < n);
}
