// native_while as the tracer's message says: the `while` as tt::while_loop,
// carrying k and v.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_while(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  i32 k = 0;
  auto [k_out, v_out] = while_loop([](i32 k, Tile<f32>) { return k < 4; },
                                   [](i32 k, Tile<f32> v) { return carry(k + 1, v * 0.5f); }, k, v);
  store(y + offs, v_out, offs < n);
}
