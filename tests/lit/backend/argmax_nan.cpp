// argmax and argmin ignore NaN (IR.h): the ordered comparisons never take a
// NaN, and a thread's first element, if NaN, enters as the worst value with
// no index, so it loses every tie, even to a real -inf; a row of NaNs gives
// 0. Rows of NaNs, -infs and signed zeros, and integers with ties, within
// threads (visited from the highest index down, a tie taken by >=), across
// lanes and across warps, both front ends, against the interpreter.
// RUN: twintile run --frontend=parse %s --kernel 'edges<1024>' --arg index=6 --arg lowest=6 --arg ints=12 --grid 6 | FileCheck %s
// RUN: twintile run --frontend=trace %s --kernel 'edges<1024>' --arg index=6 --arg lowest=6 --arg ints=12 --grid 6 --num-warps 1 | FileCheck %s
// RUN: twintile run --frontend=parse %s --kernel 'edges<128>' --arg index=6 --arg lowest=6 --arg ints=12 --grid 6 --num-warps 8 | FileCheck %s
// RUN: twintile run --frontend=trace %s --kernel 'edges<32>' --arg index=6 --arg lowest=6 --arg ints=12 --grid 6 | FileCheck %s
// One NaN test per thread (its first element, shared by argmax and argmin),
// none per element or combination.
// RUN: twintile compile --frontend=parse %s --kernel 'edges<1024>' --emit ptx | FileCheck %s --check-prefix=PTX
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void edges(Ptr<i32> index, Ptr<i32> lowest, Ptr<i32> ints) {
  auto cols = arange(0, B);
  auto row = program_id(0);
  auto r = cols * 0 + row;
  auto x = cast<f32>(cols);
  auto zero = x * 0.0f, nan = (zero + inf) - inf;
  auto v = nan;                                                   // row 0: all NaN
  v = where(r == 1, where(cols < B / 2, nan, -inf), v);         // NaNs, then -infs
  v = where(r == 2, where(cols == 3, -zero, where(cols == B - 5, zero, -inf)), v);  // -0 ties +0
  v = where(r == 3, where(cols % 3 == 0, nan, cast<f32>(cols % 5)), v);
  v = where(r == 4, where(cols == B - 1, zero + 1.0f, nan), v);        // one number, last
  v = where(r == 5, where(cols % 2 == 0, zero + inf, nan), v);         // +inf ties
  store(index + row, argmax(v, 0));
  store(lowest + row, argmin(v, 0));
  // Integers, with ties within a thread and (at 32) wrapped copies.
  auto k = (cols + row) % 7 - 3;
  store(ints + 2 * row, argmax(k, 0));
  store(ints + 2 * row + 1, argmin(k, 0));
}

// CHECK: ok: edges on emu, {{.*}}: matches the interpreter
// PTX: setp.nan.f32
// PTX-NOT: setp.{{nan|num}}
// PTX: ret;
