// spec: block_scope<64>
// fuzz-expect: refused (a host loop that never ends: the op budget)
// A variable declared in a device branch, inside an unrolled host loop.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void block_scope(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  for (int s = 0; s < +2; +s) {
    if (sum(v, 0) > 0.0f) {  // trace-error
      auto t = v * 0.5f;
      v = t;
    }
  }
  store(y + offs, v, offs < n);
}
