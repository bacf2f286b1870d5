// host_field_under_device_if as the parser's message says: the field assigned
// under the device condition made a device variable (f32, not float).
#include <twintile.h>
using namespace tt;

struct Config {
  f32 scale;
};

template <int BLOCK>
TT_KERNEL void host_field_under_device_if(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  Config c{1.0f};
  if (sum(v, 0) > 0.0f) c.scale = 2.0f;
  store(y + offs, v * c.scale, offs < n);
}
