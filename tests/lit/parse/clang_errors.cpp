// Clang's own errors pass through the parsing front end as Clang prints them: here,
// operands of two element types, which the language asks to convert with cast<T>().
// RUN: not twintile compile --frontend=parse %s --kernel 'mixed<64>' 2>&1 | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void mixed(Ptr<f32> x) {
  auto v = load(x + arange(0, B));
  store(x + arange(0, B), v + arange(0, B));
}

// CHECK:      clang_errors.cpp:10:29: error: invalid operands to binary expression
// CHECK-NEXT:   10 |   store(x + arange(0, B), v + arange(0, B));
// CHECK-NEXT:      |                           ~ ^ ~~~~~~~~~~~~
