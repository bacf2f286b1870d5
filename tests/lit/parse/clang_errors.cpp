// Clang's own errors pass through both front ends as Clang prints them, at
// the user's line. Here, a bitwise '&' between a float tile and an integer
// tile: the language refuses it with a deleted overload whose reason says the
// fix, instead of "invalid operands" and a list of candidates inside
// twintile.h (bitwise operators take integers; the others promote mixed
// element types: promotion.cpp).
// RUN: not twintile compile --frontend=parse %s --kernel 'bitwise<64>' 2>&1 | FileCheck %s
// RUN: not twintile compile --frontend=trace %s --kernel 'bitwise<64>' 2>&1 | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void bitwise(Ptr<f32> x) {
  auto v = load(x + arange(0, B));
  store(x + arange(0, B), v & arange(0, B));
}

// CHECK:      clang_errors.cpp:15:29: error: overload resolution selected deleted operator '&': bitwise operators take integers: convert a float with cast<T>(x), or take its bits with bitcast<T>(x)
// CHECK-NEXT:   15 |   store(x + arange(0, B), v & arange(0, B));
// CHECK-NEXT:      |                           ~ ^ ~~~~~~~~~~~~
