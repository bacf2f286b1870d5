// A native if without else: the variable keeps its value on the other path.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_if_no_else(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  if (program_id(0) == 0)  // trace-error
    v = v + 10.0f;
  store(y + offs, v, offs < n);
}
