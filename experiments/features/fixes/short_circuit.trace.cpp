// short_circuit as the tracer's message says: the `if` on the device condition
// as tt::if_else (the && on the masks stays: Triton's `and`).
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void short_circuit(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  v = if_else(n > 0 && program_id(0) >= 0, [&] { return v + 1.0f; }, [&] { return v; });
  store(y + offs, v, offs < n);
}
