// An early return under a device condition: a program whose block sums to
// more than zero stores nothing (as the Triton and Pallas baselines write it).
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void early_return_device(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  if (sum(v, 0) > 0.0f) return;  // trace-error
  store(y + offs, v, offs < n);
}
