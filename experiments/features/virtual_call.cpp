// A virtual call on a host object.
#include <twintile.h>
using namespace tt;

struct Op {
  virtual ~Op() = default;
  virtual Tile<f32> apply(Tile<f32> v) const = 0;
};
struct AddOne : Op {
  Tile<f32> apply(Tile<f32> v) const override { return v + 1.0f; }
};

template <int BLOCK>
TT_KERNEL void virtual_call(Ptr<f32> x, Ptr<f32> y, i32 n) {
  AddOne add;
  const Op &op = add;
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  store(y + offs, op.apply(load(x + offs, offs < n, 0.0f)), offs < n);  // parse-error
}
