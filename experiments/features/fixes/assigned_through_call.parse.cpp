// assigned_through_call as the parser's message says: the loop body assigns
// acc by name (the lambda returns the new value instead of assigning it).
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void assigned_through_call(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto acc = zeros<f32>({BLOCK});
  auto add = [&](Tile<f32> t) { return acc + t; };
  for (i32 k = 0; k < 3; k += 1)
    acc = add(load(x + offs, offs < n, 0.0f));
  store(y + offs, acc, offs < n);
}
