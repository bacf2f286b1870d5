// A helper function on device values, inlined by the parser, called by the tracer.
#include <twintile.h>
using namespace tt;

Tile<f32> square(Tile<f32> v) { return v * v; }

template <int BLOCK>
TT_KERNEL void helper_function(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  store(y + offs, square(v) + square(v + 1.0f), offs < n);
}
