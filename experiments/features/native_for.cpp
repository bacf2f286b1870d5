// A counted native loop over a device bound, carrying an accumulator.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_for(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  auto acc = zeros<f32>({BLOCK});
  for (i32 k = 0; k < 3; k += 1)  // trace-error
    acc = acc + v;
  store(y + offs, acc, offs < n);
}
