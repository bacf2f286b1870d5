// native_nested_break as the tracer's message says: both `for`s as
// tt::for_range and the `if` as tt::if_else; the break, which the message does
// not mention, as a carried flag under which the inner loop's rest does nothing.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_nested_break(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  v = for_range(0, 3, 1, v, [&](i32 i, Tile<f32> v) {
    auto [w, done] = for_range(0, 10, 1, v, i32(0), [&](i32 j, Tile<f32> v, i32 done) {
      return if_else(done != 0, [&] { return carry(v, done); }, [&] {
        return if_else(j == 2, [&] { return carry(v, i32(1)); }, [&] { return carry(v + 1.0f, done); });
      });
    });
    return w * 2.0f;
  });
  store(y + offs, v, offs < n);
}
