// break in a native while loop, with statements after it that must not run.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_break_while(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  i32 k = 0;
  while (k < 10) {  // trace-error
    k = k + 1;
    if (k == 3) break;
    v = v * 2.0f;
  }
  store(y + offs, v, offs < n);
}
