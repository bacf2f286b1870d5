// carry(...) holds at most six values (for_range, while_loop and reduce over
// several tiles); a seventh is refused in both front ends with what to write,
// the user's line in Clang's note (was "implicit instantiation of undefined
// template").
// RUN: not twintile compile --frontend=parse %s --kernel 'seven<16>' 2>&1 | FileCheck %s
// RUN: not twintile compile --frontend=trace %s --kernel 'seven<16>' 2>&1 | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void seven(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + arange(0, B));
  auto all = carry(v, v, v, v, v, v, v);
  store(y + arange(0, B), v);
}
// CHECK: error: static assertion failed due to requirement 'sizeof...(T) <= 6': carry(...) holds at most six values: group the others in a struct of tiles
// CHECK: carry_limit.cpp:[[@LINE-4]]:{{[0-9]+}}: note: in instantiation of template class 'tt::Carried<
