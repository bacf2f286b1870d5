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
// RUN: not twintile compile --frontend=parse %s --kernel 'leaks<16>' 2>&1 | FileCheck %s --check-prefix=LEAK
// RUN: not twintile compile --frontend=trace %s --kernel 'leaks<16>' 2>&1 | FileCheck %s --check-prefix=LEAK
// RUN: not twintile compile --frontend=parse %s --kernel 'pointers<16>' 2>&1 | FileCheck %s --check-prefix=PTRS
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void loads(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + arange(0, B));
  store(y, reduce(v, 0, [&](f32 a, f32 b) { return a + load(x) * b; }));
}
// LOAD: combine_errors.cpp:24:56: error: 'load' in the combine function, which may only compute on the scalars it is given (arithmetic, comparisons, where, casts), as Triton's combine_fn

template <int B>
TT_KERNEL void captures_tile(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + arange(0, B));
  store(y, reduce(v, 0, [&](f32 a, f32 b) { return a + b * v; }));
}
// TILE: combine_errors.cpp:31:{{58|60}}: error: a tile<16xf32> in the combine function, which may only compute on the scalars it is given (arithmetic, comparisons, where, casts), as Triton's combine_fn: a tile from outside it cannot be used there

template <int B>
TT_KERNEL void returns_mask(Ptr<f32> x, Ptr<i1> y) {
  auto v = load(x + arange(0, B));
  store(y + arange(0, B), associative_scan(v, 0, [](f32 a, f32 b) { return a < b; }) > 0.0f);
}
// TYPE: combine_errors.cpp:38:27: error: the combine function returns i1, not one f32 (the type of the elements it combines)

template <int B>
TT_KERNEL void bad_axis(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + arange(0, B));
  store(y, reduce(v, 1, [](f32 a, f32 b) { return a + b; }));
}
// AXIS: combine_errors.cpp:45:12: error: reduce axis 1 is out of range for tile<16xf32>

template <int B>
TT_KERNEL void branches(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + arange(0, B));
  store(y, reduce(v, 0, [](f32 a, f32 b) {
    if (a > b) return a;
    return b;
  }));
}
// BRANCH: combine_errors.cpp:53:5: error: 'if' in the combine function, which may only compute on the scalars it is given
// BRANCH-TRACE: combine_errors.cpp:53:13: error: a device value is used as a C++ condition

// A value of the combine function kept in a kernel variable does not exist
// after it (as for a for_range body's; was an internal error).
template <int B>
TT_KERNEL void leaks(Ptr<i32> x, Ptr<i32> y) {
  auto v = load(x + arange(0, B));
  i32 kept = 0;
  auto r = reduce(v, 0, [&](i32 a, i32 b) {
    kept = a;
    return a + b;
  });
  store(y, r + kept);
}
// LEAK: combine_errors.cpp:70:{{14|16}}: error: a value from inside an earlier combinator's body or combine function is used here, outside it (a variable assigned there keeps a value that exists only there): return it from the body instead

template <int B>
TT_KERNEL void pointers(Ptr<f32> x, Ptr<f32> y) {
  auto p = x + arange(0, B);
  store(y, load(reduce(p, 0, [](Ptr<f32> a, Ptr<f32>) { return a; })));
}
// PTRS: combine_errors.cpp:77:17: error: reduce needs a tile of numbers, got tile<16xptr<f32>>
