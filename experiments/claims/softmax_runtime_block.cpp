// The corpus softmax (experiments/kernels/softmax.cpp) with its block size a host variable,
// not a template parameter: the claims suite's twintile side of "block sizes must be
// compile-time constants to vectorize" (experiments/suites/claims.py, `vectorize`). The tracing
// front end runs the kernel's host code when it traces, so the value it reads then is a
// constant of that compile: traced in the program (`twintile::trace`, then the launch API's
// Kernel::fromIR), the value the program set; compiled from this file (`twintile compile`, as
// the suite does), its initializer. The parsing front end refuses it (a mutable global).
#include <twintile.h>
using namespace tt;

int softmax_block = 1024;  // what the host program chose

template <typename T>
TT_KERNEL void softmax_runtime_block(Ptr<T> x, Ptr<T> y, i32 n_cols, i32 stride) {
  const int block = softmax_block;
  auto cols = arange(0, block);
  auto row = program_id(0) * stride;
  auto v = cast<f32>(load(x + row + cols, cols < n_cols, -inf));
  auto e = exp(v - max(v, 0));
  store(y + row + cols, cast<T>(e / sum(e, 0)), cols < n_cols);
}
