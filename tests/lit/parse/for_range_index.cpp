// for_range's index is i64 where a bound is i64, i32 otherwise, in both front
// ends alike: a body may take it as i64 (an i32 index is then widened), or as
// i32 or auto only when no bound is i64 (refused at the call otherwise, with
// the fix), whether the body is a lambda written there, one in a variable or
// a function object.
// RUN: twintile diff %s --kernel 'index<1>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'index<1>' --grid 1 --arg out=24 --arg n=8 --arg m=5 | FileCheck %s --check-prefix=EMU
// RUN: twintile run --frontend=trace %s --kernel 'index<1>' --grid 1 --arg out=24 --arg n=8 --arg m=5 | FileCheck %s --check-prefix=EMU
// RUN: twintile compile --frontend=parse %s --kernel 'index<1>' --emit tile | FileCheck %s
// RUN: not twintile compile --frontend=parse %s --kernel 'narrow<1>' 2>&1 | FileCheck %s --check-prefix=NARROW
// RUN: not twintile compile --frontend=trace %s --kernel 'narrow<1>' 2>&1 | FileCheck %s --check-prefix=NARROW
// RUN: not twintile compile --frontend=parse %s --kernel 'generic<1>' 2>&1 | FileCheck %s --check-prefix=GENERIC
// RUN: not twintile compile --frontend=trace %s --kernel 'generic<1>' 2>&1 | FileCheck %s --check-prefix=GENERIC
// RUN: twintile diff %s --kernel 'named<1>' | FileCheck %s --check-prefix=NAMED
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void index(Ptr<i32> out, i64 n, i32 m) {
  for_range(i64(0), n, 1, [&](i64 i) { store(out + i, cast<i32>(i * 2)); });
  for_range(0, m, 1, [&](auto i) { store(out + 8 + i, i * 3); });
  for_range(0, m, 1, [&](i64 i) { store(out + 16 + i, cast<i32>(i * 4)); });
}

template <int B>
TT_KERNEL void narrow(Ptr<i32> out, i64 n) {
  for_range(i64(0), n, 1, [&](i32 i) { store(out + i, i * 2); });
}

struct Twice {
  Ptr<i32> out;
  void operator()(i64 i) const { store(out + i, cast<i32>(i * 2)); }
};

template <int B>
TT_KERNEL void named(Ptr<i32> out, i32 m, i64 n) {
  auto body = [&](i64 i) { store(out + 8 + i, cast<i32>(i * 5)); };
  for_range(0, m, 1, body);
  for_range(0, m, 1, Twice{out + 16});
}

template <int B>
TT_KERNEL void generic(Ptr<i32> out, i64 n) {
  for_range(i64(0), n, 1, [&](auto i) { store(out + i, cast<i32>(i)); });
}

// CHECK:      ^(%{{[0-9]+}}: i64):
// CHECK:      ^(%{{[0-9]+}}: i32):
// CHECK:      ^(%[[I:[0-9]+]]: i32):
// CHECK-NEXT:   cast %[[I]] : i64
// SAME: equal: the parse and trace IR of index<1> are structurally identical
// EMU: ok: index on emu
// NARROW: for_range_index.cpp:27:{{[0-9]+}}: error: for_range's index is i64 because a bound is i64, but the body takes it as i32 (or auto, which is compiled for i32): take it as i64
// GENERIC: for_range_index.cpp:44:{{[0-9]+}}: error: for_range's index is i64 because a bound is i64
// NAMED: equal: the parse and trace IR of named<1> are structurally identical
