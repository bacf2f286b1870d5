// A host if on a template parameter specializes.
#include <twintile.h>
using namespace tt;

template <int BLOCK, bool NEGATE>
TT_KERNEL void host_if(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  if (NEGATE) v = -v;
  store(y + offs, v, offs < n);
}
