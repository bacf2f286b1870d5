// '!' on a device value: on masks, Triton's `not`; under `if`, native control flow.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void logical_not(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  auto negative = !(sum(v, 0) > 0.0f);  // trace-error
  if (negative) v = -v;
  store(y + offs, v, offs < n);
}
