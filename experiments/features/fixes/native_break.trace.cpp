// native_break as the tracer's message says: the `for` as tt::for_range and the
// `if` as tt::if_else; the break, which the message does not mention, as a
// carried flag under which the rest of the iterations do nothing.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_break(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  auto [v_out, done] = for_range(0, n, 1, v, i32(0), [&](i32 k, Tile<f32> v, i32 done) {
    return if_else(done != 0, [&] { return carry(v, done); }, [&] {
      auto w = v + 1.0f;
      return if_else(k > 2, [&] { return carry(w, i32(1)); }, [&] { return carry(w, done); });
    });
  });
  store(y + offs, v_out, offs < n);
}
