// A host loop counting an unsigned 64-bit integer down past zero.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void unsigned_host_loop(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  for (unsigned long i = 2; i < 3; --i) v = v + 1.0f;
  store(y + offs, v, offs < n);
}
