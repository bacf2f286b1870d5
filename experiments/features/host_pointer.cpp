// A host pointer into a host array.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void host_pointer(Ptr<f32> x, Ptr<f32> y, i32 n) {
  int factors[2] = {2, 3};
  int *f = factors;  // parse-error
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  store(y + offs, load(x + offs, offs < n, 0.0f) * float(f[0] * f[1]), offs < n);
}
