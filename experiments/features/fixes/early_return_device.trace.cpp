// early_return_device as the tracer's message says: the `if` as tt::if_else,
// the code after the return in its else branch.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void early_return_device(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  if_else(sum(v, 0) > 0.0f, [&] {}, [&] { store(y + offs, v, offs < n); });
}
