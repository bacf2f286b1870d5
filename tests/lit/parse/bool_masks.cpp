// A C++ bool where a mask is wanted (host values compared) is refused at the
// user's call with the fix, in both front ends, instead of an error inside
// twintile.h; '&&' and friends on a device integer say to compare it first.
// The calls do not depend on the kernel's template parameter, so Clang
// reports all of them at once.
// RUN: not twintile compile --frontend=parse %s --kernel 'masks<64>' 2>&1 | FileCheck %s
// RUN: not twintile compile --frontend=trace %s --kernel 'masks<64>' 2>&1 | FileCheck %s
#include <twintile.h>
using namespace tt;

constexpr int kRows = 4;

template <int B>
TT_KERNEL void masks(Ptr<f32> x, i32 n, i32 m) {
  auto offs = arange(0, 64);
  auto v = load(x + offs);
  store(x + offs, v, kRows > 2);
  store(x + offs, load(x + offs, kRows > 2, 0.0f));
  store(x + offs, v, offs && n);
  store(x + offs, v, !n);
}

// CHECK: bool_masks.cpp:17:3: error: call to deleted function 'store': a mask is a device i1, and this one is a C++ bool (host values compared?): compare device values to make a mask, or leave the mask out
// CHECK: bool_masks.cpp:18:19: error: call to deleted function 'load': a mask is a device i1
// CHECK: bool_masks.cpp:19:27: error: overload resolution selected deleted operator '&&': '&&', '||' and '!' take masks (device i1): make one with a comparison, such as x != 0
// CHECK: bool_masks.cpp:20:22: error: overload resolution selected deleted operator '!': '&&', '||' and '!' take masks
// CHECK-NOT: no matching function
