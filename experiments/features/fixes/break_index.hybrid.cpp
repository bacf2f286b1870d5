// break_index as the hybrid front end's message says: the loop of another
// form (its index declared before it, read after it) written as a while
// loop; the break stays, directly in the loop's body, before the step.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void break_index(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  i32 k = 0;
  while (k < 10) {
    if (k == 3) break;
    k += 1;
  }
  store(y + offs, v + cast<f32>(k), offs < n);
}
