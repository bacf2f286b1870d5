// loop_bound_changes as the hybrid front end's message says: the device loop
// whose bound the body changes written as a while loop, which reads its
// condition every iteration (the index declared before it, stepped at the
// end of the body).
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void loop_bound_changes(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  i32 lim = n;
  i32 k = 0;
  while (k < lim) {
    v = v + 1.0f;
    lim = lim - 1;
    k += 1;
  }
  store(y + offs, v, offs < n);
}
