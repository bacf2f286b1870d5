// break leaves only the innermost native loop.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_nested_break(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  for (i32 i = 0; i < 3; i += 1) {  // trace-error
    for (i32 j = 0; j < 10; j += 1) {
      if (j == 2) break;
      v = v + 1.0f;
    }
    v = v * 2.0f;
  }
  store(y + offs, v, offs < n);
}
