// A functor: a struct with host state and an operator().
#include <twintile.h>
using namespace tt;

struct Affine {
  float a, b;
  Tile<f32> operator()(Tile<f32> v) const { return v * a + b; }
};

template <int BLOCK>
TT_KERNEL void functor(Ptr<f32> x, Ptr<f32> y, i32 n) {
  Affine f{2.0f, -1.0f};
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  store(y + offs, f(load(x + offs, offs < n, 0.0f)), offs < n);
}
