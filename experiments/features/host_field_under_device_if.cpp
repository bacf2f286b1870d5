// A host struct's field assigned under a device condition.
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
  if (sum(v, 0) > 0.0f) c.scale = 2.0f;  // trace-error parse-error hybrid-error
  store(y + offs, v * c.scale, offs < n);
}
