// Clang's own errors pass through both front ends as Clang prints them, at
// the user's line. Here, operands of two element types: the language
// refuses them with a deleted overload whose reason says the fix (cast<T>()),
// instead of "invalid operands" and a list of candidates inside twintile.h.
// RUN: not twintile compile --frontend=parse %s --kernel 'mixed<64>' 2>&1 | FileCheck %s
// RUN: not twintile compile --frontend=trace %s --kernel 'mixed<64>' 2>&1 | FileCheck %s
// RUN: not twintile compile --frontend=parse %s --kernel 'halves<64>' 2>&1 | FileCheck %s --check-prefix=HALVES
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void mixed(Ptr<f32> x) {
  auto v = load(x + arange(0, B));
  store(x + arange(0, B), v + arange(0, B));
}

template <int B>
TT_KERNEL void halves(Ptr<f32> x, Ptr<f16> h) {
  auto offs = arange(0, B);
  auto keep = load(h + offs) < load(x + offs);
  store(x + offs, load(x + offs), keep);
}

// CHECK:      clang_errors.cpp:14:29: error: overload resolution selected deleted operator '+': operands of different element types: convert one with cast<T>(x) (twintile converts no element type implicitly)
// CHECK-NEXT:   14 |   store(x + arange(0, B), v + arange(0, B));
// CHECK-NEXT:      |                           ~ ^ ~~~~~~~~~~~~
// HALVES: clang_errors.cpp:20:30: error: overload resolution selected deleted operator '<': operands of different element types: convert one with cast<T>(x)
