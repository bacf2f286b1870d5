// try/catch around host code.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void exceptions(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  try {  // parse-error
    store(y + offs, load(x + offs, offs < n, 0.0f), offs < n);
  } catch (...) {
  }
}
