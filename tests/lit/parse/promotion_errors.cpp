// What promotion cannot do, refused at the user's line in both front ends
// with the fix: a compound assignment whose other operand would widen the
// variable (a C++ variable keeps its type; promotion.cpp has the ones that
// keep it), whether a device value or a host number (a mask + 1 is i32).
// RUN: not twintile compile --frontend=parse %s --kernel 'widens<16>' 2>&1 | FileCheck %s
// RUN: not twintile compile --frontend=trace %s --kernel 'widens<16>' 2>&1 | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void widens(Ptr<f16> h, Ptr<f32> x) {
  auto acc = load(h + arange(0, B));
  acc += load(x + arange(0, B));
  store(h + arange(0, B), acc);
}

template <int B>
TT_KERNEL void mask_plus_one(Ptr<i32> out, i32 n) {
  auto m = arange(0, B) < n;
  m += 1;
  store(out + arange(0, B), m);
}

// CHECK: promotion_errors.cpp:13:10: error: {{.*}}the other operand's type is wider than this variable's (or unsigned where it is signed), whose type cannot change: write `auto y = x + v` (or cast<T>(v) the other operand)
// CHECK: promotion_errors.cpp:20:5: error: overload resolution selected deleted operator '+=': the other operand's type is wider than this variable's
