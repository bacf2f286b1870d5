// native_continue as the tracer's message says: the `for` as tt::for_range and
// the `if` as tt::if_else; the continue, which the message does not mention,
// as the else branch holding the rest of the iteration.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_continue(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  v = for_range(0, 4, 1, v, [&](i32 k, Tile<f32> v) {
    return if_else(k == 1, [&] { return v; }, [&] { return v + 1.0f; });
  });
  store(y + offs, v, offs < n);
}
