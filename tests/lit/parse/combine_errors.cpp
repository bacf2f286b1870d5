// What reduce and associative_scan refuse, from both front ends, at the
// user's line: a combine function that touches memory, computes on a tile,
// or returns another type (the parsing front end reads native `if` there
// and refuses the branch; the tracer cannot see it); an axis out of range.
// RUN: not twintile compile --frontend=parse %s --kernel 'loads<16>' 2>&1 | FileCheck %s --check-prefix=LOAD
// RUN: not twintile compile --frontend=trace %s --kernel 'loads<16>' 2>&1 | FileCheck %s --check-prefix=LOAD
// RUN: not twintile compile --frontend=parse %s --kernel 'captures_tile<16>' 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not twintile compile --frontend=trace %s --kernel 'captures_tile<16>' 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not twintile compile --frontend=parse %s --kernel 'returns_mask<16>' 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not twintile compile --frontend=trace %s --kernel 'returns_mask<16>' 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not twintile compile --frontend=parse %s --kernel 'bad_axis<16>' 2>&1 | FileCheck %s --check-prefix=AXIS
// RUN: not twintile compile --frontend=trace %s --kernel 'bad_axis<16>' 2>&1 | FileCheck %s --check-prefix=AXIS
// RUN: not twintile compile --frontend=parse %s --kernel 'branches<16>' 2>&1 | FileCheck %s --check-prefix=BRANCH
// RUN: not twintile compile --frontend=trace %s --kernel 'branches<16>' 2>&1 | FileCheck %s --check-prefix=BRANCH-TRACE
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void loads(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + arange(0, B));
  store(y, reduce(v, 0, [&](f32 a, f32 b) { return a + load(x) * b; }));
}
// LOAD: combine_errors.cpp:21:56: error: 'load' in the combine function, which may only compute on the two scalars it is given (arithmetic, comparisons, where, casts), as Triton's combine_fn

template <int B>
TT_KERNEL void captures_tile(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + arange(0, B));
  store(y, reduce(v, 0, [&](f32 a, f32 b) { return a + b * v; }));
}
// TILE: combine_errors.cpp:28:{{58|60}}: error: a tile<16xf32> in the combine function, which may only compute on the two scalars it is given (arithmetic, comparisons, where, casts), as Triton's combine_fn: a tile from outside it cannot be used there

template <int B>
TT_KERNEL void returns_mask(Ptr<f32> x, Ptr<i1> y) {
  auto v = load(x + arange(0, B));
  store(y + arange(0, B), associative_scan(v, 0, [](f32 a, f32 b) { return a < b; }) > 0.0f);
}
// TYPE: combine_errors.cpp:35:27: error: the combine function returns i1, not one f32 (the type of the elements it combines)

template <int B>
TT_KERNEL void bad_axis(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + arange(0, B));
  store(y, reduce(v, 1, [](f32 a, f32 b) { return a + b; }));
}
// AXIS: combine_errors.cpp:42:12: error: reduce axis 1 is out of range for tile<16xf32>

template <int B>
TT_KERNEL void branches(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + arange(0, B));
  store(y, reduce(v, 0, [](f32 a, f32 b) {
    if (a > b) return a;
    return b;
  }));
}
// BRANCH: combine_errors.cpp:50:5: error: 'if' in the combine function, which may only compute on the two scalars it is given
// BRANCH-TRACE: combine_errors.cpp:50:13: error: a device value is used as a C++ condition
