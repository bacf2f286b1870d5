// for_range with two carried values, unpacked with structured bindings.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void combinator_for_range(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  auto [a, b] = for_range(0, 3, 1, v, zeros<f32>({BLOCK}), [&](i32, Tile<f32> a, Tile<f32> b) {
    return carry(a * 0.5f, b + a);
  });
  store(y + offs, a + b, offs < n);
}
