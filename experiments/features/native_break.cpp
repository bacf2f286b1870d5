// break in a native device loop.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_break(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  for (i32 k = 0; k < n; k += 1) {  // trace-error
    v = v + 1.0f;
    if (k > 2) break;
  }
  store(y + offs, v, offs < n);
}
