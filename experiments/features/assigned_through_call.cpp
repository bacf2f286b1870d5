// A device loop whose body changes a variable through a lambda.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void assigned_through_call(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto acc = zeros<f32>({BLOCK});
  auto add = [&](Tile<f32> t) { acc = acc + t; };
  for (i32 k = 0; k < 3; k += 1)  // trace-error parse-error
    add(load(x + offs, offs < n, 0.0f));  // hybrid-error
  store(y + offs, acc, offs < n);
}
