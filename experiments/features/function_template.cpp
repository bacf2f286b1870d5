// A function template helper, instantiated per element type.
#include <twintile.h>
using namespace tt;

template <typename T> Tile<T> twice(Tile<T> v) { return v + v; }

template <int BLOCK>
TT_KERNEL void function_template(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  auto k = twice<i32>(offs);
  store(y + offs, twice<f32>(v) + cast<f32>(k - k), offs < n);
}
