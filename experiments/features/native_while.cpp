// A native while loop on a device condition, carrying two values.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_while(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  i32 k = 0;
  while (k < 4) {  // trace-error
    v = v * 0.5f;
    k = k + 1;
  }
  store(y + offs, v, offs < n);
}
