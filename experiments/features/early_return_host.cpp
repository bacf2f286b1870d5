// An early return on a path the host decides.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void early_return_host(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  if (BLOCK >= 64) {
    store(y + offs, v * 2.0f, offs < n);
    return;
  }
  store(y + offs, v, offs < n);
}
