// '!' on a device mask: C++'s '!' makes a bool, so it is native control flow; '~' negates a mask.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void logical_not(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  auto outside = !(offs < n);  // trace-error parse-error
  store(y + offs, where(outside, 0.0f, v), offs < n);
}
