// The loop index after a break: the increment does not run on the breaking iteration.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void break_index(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  i32 k = 0;
  for (k = 0; k < 10; k += 1) {  // trace-error
    if (k == 3) break;
  }
  store(y + offs, v + cast<f32>(k), offs < n);
}
