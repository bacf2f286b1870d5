// native_if as the tracer's message says: the `if` on a device value as tt::if_else.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_if(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  auto s = sum(v, 0);
  Tile<f32> out = if_else(s > 0.0f, [&] { return v * 2.0f; }, [&] { return v - 1.0f; });
  store(y + offs, out, offs < n);
}
