// block_scope as the tracer's message says: the device `if` as tt::if_else
// (inside the host loop, which stays).
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void block_scope(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  for (int s = 0; s < 2; ++s) {
    v = if_else(sum(v, 0) > 0.0f, [&] {
      auto t = v * 0.5f;
      return t;
    }, [&] { return v; });
  }
  store(y + offs, v, offs < n);
}
