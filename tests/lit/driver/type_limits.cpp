// A result type past the IR's limits (here a ninth dimension) is the
// kernel's error at the op that makes it, in both front ends — not an
// internal error from the verifier later.
// RUN: not twintile compile --frontend=parse %s --kernel 'kernel<64>' 2>&1 | FileCheck %s
// RUN: not twintile compile --frontend=trace %s --kernel 'kernel<64>' 2>&1 | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void kernel(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + arange(0, B));
  auto w = expand_dims(expand_dims(expand_dims(expand_dims(expand_dims(expand_dims(expand_dims(expand_dims(v, 0), 0), 0), 0), 0), 0), 0), 0);
  store(y + arange(0, B), reshape(w, {B}));
}

// CHECK: type_limits.cpp:12:12: error: the result of 'expand_dims': type tile<1x1x1x1x1x1x1x1x64xf32> has more than 8 dimensions
// CHECK-NOT: internal error
