// device_print of a scalar and a tile.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void device_print(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  tt::device_print("block sum", sum(v, 0));
  store(y + offs, v, offs < n);
}
