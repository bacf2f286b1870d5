// native_break_while as the tracer's message says: the `while` as
// tt::while_loop and the `if` as tt::if_else; the break, which the message does
// not mention, as a carried flag the loop's condition tests.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_break_while(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  i32 k = 0;
  auto [k_out, v_out, done] = while_loop(
      [](i32 k, Tile<f32>, i32 done) { return k < 10 && done == 0; },
      [](i32 k, Tile<f32> v, i32 done) {
        k = k + 1;
        return if_else(k == 3, [&] { return carry(k, v, i32(1)); }, [&] { return carry(k, v * 2.0f, done); });
      },
      k, v, i32(0));
  store(y + offs, v_out, offs < n);
}
