// native_for as the tracer's message says: the `for` as tt::for_range, carrying acc.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_for(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  auto acc = zeros<f32>({BLOCK});
  acc = for_range(0, 3, 1, acc, [&](i32 k, Tile<f32> acc) { return acc + v; });
  store(y + offs, acc, offs < n);
}
