// loop_bound_changes as the tracer's message says: the `for` as tt::for_range,
// carrying v and lim (for_range reads its bound once, where C++ re-reads it).
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void loop_bound_changes(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  i32 lim = n;
  auto [v_out, lim_out] = for_range(0, lim, 1, v, lim, [&](i32 k, Tile<f32> v, i32 lim) {
    return carry(v + 1.0f, lim - 1);
  });
  store(y + offs, v_out, offs < n);
}
