// assigned_through_call as the tracer's message says: the `for` as
// tt::for_range carrying acc, which the unchanged lambda updates.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void assigned_through_call(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto acc = zeros<f32>({BLOCK});
  auto add = [&](Tile<f32> t) { acc = acc + t; };
  acc = for_range(0, 3, 1, acc, [&](i32 k, Tile<f32> carried) {
    acc = carried;
    add(load(x + offs, offs < n, 0.0f));
    return acc;
  });
  store(y + offs, acc, offs < n);
}
