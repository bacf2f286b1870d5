// An early return under a device condition.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void early_return_device(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  if (program_id(0) > 100) return;  // trace-error parse-error
  store(y + offs, v, offs < n);
}
