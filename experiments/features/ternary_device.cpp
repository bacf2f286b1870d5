// ?: on a device condition (Triton's `a if cond else b`: an if yielding a value).
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void ternary_device(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  f32 s = sum(v, 0) > 0.0f ? f32(1.0f) : f32(-1.0f);  // trace-error
  store(y + offs, v * s, offs < n);
}
