// What the unsigned types refuse, at the user's line in both front ends and
// with what to write: a negative host number meeting an unsigned value, and
// unsigned loop bounds (a loop's comparison is signed).
// RUN: not twintile compile --frontend=parse %s --kernel 'negative_literal<16>' 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not twintile compile --frontend=trace %s --kernel 'negative_literal<16>' 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not twintile compile --frontend=parse %s --kernel 'native_loop<16>' 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not twintile compile --frontend=parse %s --kernel 'combinator_loop<16>' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not twintile compile --frontend=trace %s --kernel 'combinator_loop<16>' 2>&1 | FileCheck %s --check-prefix=RANGE
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void negative_literal(Ptr<u32> x) {
  auto v = load(x + arange(0, B));
  store(x + arange(0, B), v + -1);
}

template <int B>
TT_KERNEL void native_loop(Ptr<u32> x, u32 n) {
  auto acc = zeros<u32>({B});
  for (u32 i = 0; i < n; i = i + 1u) acc = acc + load(x + arange(0, B));
  store(x + arange(0, B), acc);
}

template <int B>
TT_KERNEL void combinator_loop(Ptr<u32> x, u32 n) {
  auto acc = for_range(0, n, 1, zeros<u32>({B}), [&](i32, Tile<u32> a) { return a + load(x + arange(0, B)); });
  store(x + arange(0, B), acc);
}

// NEG: unsigned_refused.cpp:15:31: error: the constant -1 does not fit in u32 (the type it meets here), which holds no negative number: write x - 1 for x + -1
// LOOP: unsigned_refused.cpp:21:3: error: a device loop's bounds and step are signed integers (i32 or i64), got u32: cast<i32>(n) or cast<i64>(n) an unsigned one
// RANGE: unsigned_refused.cpp:27:{{[0-9]+}}: error: {{.*}}a device loop's bounds and step are signed integers (i32 or i64): cast<i32>(n) or cast<i64>(n) an unsigned one
