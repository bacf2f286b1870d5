// The first attempts a Triton user makes that have no meaning here are
// refused at their line with what to write: Python's min/max of two values
// (here min(x, axis) reduces), a host float where a reduction's axis goes
// (max(t, 0.0f) would have reduced over axis 0), and a host number as an
// accumulator of device values.
// RUN: not twintile compile --frontend=parse %s --kernel 'refusals<64>' 2>&1 | FileCheck %s
// RUN: not twintile compile --frontend=trace %s --kernel 'refusals<64>' 2>&1 | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void refusals(Ptr<f32> x, i32 n) {
  auto t = load(x + arange(0, B));
  auto a = min(cast<i64>(arange(0, B)), n);     // Python's min of two values
  auto r = max(t, 0.0f);                         // not a reduction over axis 0
  auto acc = 0.0;                                // a host accumulator
  acc += sum(t, 0);
  store(x + arange(0, B), r + a);
}

// CHECK: triton_idioms_refused.cpp:14:12: error: call to deleted function 'min': reductions take a tile and a host int axis (sum(x, 0)); for two values element by element write minimum(a, b), maximum(a, b) or a + b
// CHECK: triton_idioms_refused.cpp:15:12: error: call to deleted function 'max'
// CHECK: triton_idioms_refused.cpp:17:7: error: overload resolution selected deleted operator '+=': a host number cannot hold a device value: declare the variable as one, such as `f32 acc = 0.0f` or `Tile<f32> acc = 0.0f`
