// '&&', '||' and '!' on masks make a C++ bool (through the language's explicit
// operator bool), not a mask: every operation that takes a mask refuses a
// bool at the user's call with the fix ('&', '|', '~'), in both front ends,
// instead of an error inside twintile.h. The calls do not depend on the
// kernel's template parameter, so Clang reports all four at once.
// RUN: not twintile compile --frontend=parse %s --kernel 'masks<64>' 2>&1 | FileCheck %s
// RUN: not twintile compile --frontend=trace %s --kernel 'masks<64>' 2>&1 | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void masks(Ptr<f32> x, i32 n, i32 m) {
  auto offs = arange(0, 64);
  auto v = load(x + offs);
  store(x + offs, v, offs < n && offs < m);
  store(x + offs, v, !(offs < n));
  store(x + offs, where(offs < n || offs > m, v, 0.0f));
  store(x + offs, load(x + offs, !(offs < n), 0.0f));
}

// CHECK: bool_masks.cpp:15:3: error: call to deleted function 'store': a mask is a device i1, and this one is a C++ bool, as '&&', '||' and '!' make of masks: combine masks with '&' and '|', negate one with '~'
// CHECK: bool_masks.cpp:16:3: error: call to deleted function 'store': a mask is a device i1
// CHECK: bool_masks.cpp:17:19: error: call to deleted function 'where': a mask is a device i1
// CHECK: bool_masks.cpp:18:19: error: call to deleted function 'load': a mask is a device i1
// CHECK-NOT: no matching function
