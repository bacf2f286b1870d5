// The tracer refuses a native device loop at its own line, naming the combinator.
// RUN: not twintile compile --frontend=trace %s --kernel 'prefix<64>' 2>&1 | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void prefix(Ptr<f32> x, i32 n) {
  auto acc = zeros<f32>({BLOCK});
  for (i32 k = 0; k < n; k += BLOCK)
    acc += load(x + k + arange(0, BLOCK));
  store(x + arange(0, BLOCK), acc);
}

// CHECK:      native_loop.cpp:[[@LINE-5]]:{{[0-9]+}}: error: a device value is used as a C++ condition
// CHECK-SAME: tt::for_range(lo, hi, step, carried..., body)
// CHECK-NEXT: for (i32 k = 0; k < n; k += BLOCK)
// CHECK-NEXT: {{ *}}^
