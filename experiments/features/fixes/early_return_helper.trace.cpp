// early_return_helper as the tracer's message says: the `for` as tt::for_range
// and both `if`s as tt::if_else (the one in scaled is refused next, with the
// same message); the returns, which the message does not mention, as a
// carried flag and result.
#include <twintile.h>
using namespace tt;

template <class T>
T scaled(T v) {
  return if_else(sum(v, 0) > 0.0f, [&] { return v * 2.0f; }, [&] { return v - 1.0f; });
}

inline i32 firstSquareAbove(i32 n, i32 limit) {
  auto [result, done] = for_range(0, n, 1, n, i32(0), [&](i32 k, i32 result, i32 done) {
    return if_else(done != 0, [&] { return carry(result, done); }, [&] {
      return if_else(k * k > limit, [&] { return carry(k, i32(1)); }, [&] { return carry(result, done); });
    });
  });
  return result;
}

template <int BLOCK>
TT_KERNEL void early_return_helper(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  i32 k = firstSquareAbove(n, 10);  // 4, when n > 4
  store(y + offs, scaled(v) + cast<f32>(k), offs < n);
}
