// A return inside a native device loop: it ends the loop and skips the rest
// of the kernel (the store after the loop must not run).
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void early_return_loop(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto v = load(x + offs, mask, 0.0f);
  for (i32 k = 0; k < n; k += 1) {  // trace-error
    v = v + 1.0f;
    if (k == 3) {
      store(y + offs, v, mask);
      return;
    }
  }
  store(y + offs, v * 0.0f, mask);
}
