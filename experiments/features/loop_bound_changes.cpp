// A device loop whose bound the body changes: re-read every iteration, as in C++.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void loop_bound_changes(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  i32 lim = n;
  for (i32 k = 0; k < lim; k += 1) {  // trace-error
    v = v + 1.0f;
    lim = lim - 1;
  }
  store(y + offs, v, offs < n);
}
