// '!' on a device value: C++'s '!' makes a bool, so it is native control flow; '~' negates a mask.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void logical_not(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  bool negative = !(sum(v, 0) > 0.0f);  // trace-error parse-error
  if (negative) v = -v;
  store(y + offs, v, offs < n);
}
