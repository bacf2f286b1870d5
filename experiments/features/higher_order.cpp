// A higher-order helper: a function template taking a lambda.
#include <twintile.h>
using namespace tt;

template <class F> Tile<f32> apply_twice(F f, Tile<f32> v) { return f(f(v)); }

template <int BLOCK>
TT_KERNEL void higher_order(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  store(y + offs, apply_twice([](Tile<f32> t) { return t + 1.0f; }, v), offs < n);
}
