// A static local variable.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void static_local(Ptr<f32> x, Ptr<f32> y, i32 n) {
  static int calls = 0;  // parse-error
  ++calls;
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  store(y + offs, load(x + offs, offs < n, 0.0f), offs < n);
}
