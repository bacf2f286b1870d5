// native_if_no_else as the tracer's message says: the `if` as tt::if_else, the
// else branch keeping the value.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_if_no_else(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  v = if_else(program_id(0) == 0, [&] { return v + 10.0f; }, [&] { return v; });
  store(y + offs, v, offs < n);
}
