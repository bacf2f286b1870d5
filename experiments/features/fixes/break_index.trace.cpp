// break_index as the tracer's message says: the `for` as tt::for_range and the
// `if` as tt::if_else; the index read after the loop carried, and the break,
// which the message does not mention, as a carried flag.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void break_index(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  i32 k = 0;
  auto [k_out, done] = for_range(0, 10, 1, k, i32(0), [&](i32 i, i32 k, i32 done) {
    return if_else(done != 0, [&] { return carry(k, done); }, [&] {
      return if_else(i == 3, [&] { return carry(i, i32(1)); }, [&] { return carry(i + 1, done); });
    });
  });
  store(y + offs, v + cast<f32>(k_out), offs < n);
}
