// host_field_under_device_if as the hybrid front end's message says: a
// variable of the language's types assigned in the field's place, and used
// after the statement (a device value cannot be set back into a host field).
#include <twintile.h>
using namespace tt;

struct Config {
  float scale;
};

template <int BLOCK>
TT_KERNEL void host_field_under_device_if(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  Config c{1.0f};
  f32 scale = c.scale;
  if (sum(v, 0) > 0.0f) scale = 2.0f;
  store(y + offs, v * scale, offs < n);
}
