// && on device values: on masks, Triton's `and` (both sides evaluated); under `if`, native control flow.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void short_circuit(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  if (n > 0 && program_id(0) >= 0)  // trace-error
    v = v + 1.0f;
  store(y + offs, v, offs < n);
}
