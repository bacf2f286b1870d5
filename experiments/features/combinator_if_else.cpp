// if_else on a device condition returning a value.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void combinator_if_else(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  auto r = if_else(sum(v, 0) > 0.0f, [&] { return v * 2.0f; }, [&] { return v - 1.0f; });
  store(y + offs, r, offs < n);
}
