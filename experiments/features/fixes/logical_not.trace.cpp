// logical_not as the tracer's message says: the `if` on the device value as
// tt::if_else (the message points at the line that computes the condition).
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void logical_not(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  auto negative = !(sum(v, 0) > 0.0f);
  v = if_else(negative, [&] { return -v; }, [&] { return v; });
  store(y + offs, v, offs < n);
}
