// device_assert of a property that holds.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void device_assert(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  tt::device_assert(offs >= 0, "offsets are not negative");
  store(y + offs, load(x + offs, offs < n, 0.0f), offs < n);
}
