// goto over host code.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void goto_statement(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  goto body;  // parse-error
body:
  store(y + offs, load(x + offs, offs < n, 0.0f), offs < n);
}
