// sort(x, true) would sort along dimension 1 (C++ converts the bool to the
// int dim); it is refused at its line with the order of Triton's arguments.
// RUN: not twintile compile --frontend=parse %s --kernel 'flag_first<16>' 2>&1 | FileCheck %s
// RUN: not twintile compile --frontend=trace %s --kernel 'flag_first<16>' 2>&1 | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int N>
TT_KERNEL void flag_first(Ptr<f32> x) {
  auto v = load(x + arange(0, N));
  store(x + arange(0, N), sort(v, true));
}
// CHECK: algorithms_refused.cpp:[[@LINE-2]]:27: error: call to deleted function 'sort': sort(x, dim, descending): the dimension comes first, as in Triton's tl.sort(x, dim, descending); write sort(x, -1, true)
