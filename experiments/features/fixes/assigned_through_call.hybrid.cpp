// assigned_through_call as the hybrid front end's message says: the lambda
// defined inside the device loop, where the rewrite sees what it assigns.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void assigned_through_call(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto acc = zeros<f32>({BLOCK});
  for (i32 k = 0; k < 3; k += 1) {
    auto add = [&](Tile<f32> t) { acc = acc + t; };
    add(load(x + offs, offs < n, 0.0f));
  }
  store(y + offs, acc, offs < n);
}
