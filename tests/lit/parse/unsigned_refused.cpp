// What the unsigned types refuse, at the user's line in both front ends and
// with what to write: a negative host number meeting an unsigned value (a
// u64 too), a signed and an unsigned integer under / or % (as Triton does),
// a signed value shifted right by an unsigned amount (Triton shifts it
// arithmetically into an unsigned result), and unsigned loop bounds (a
// loop's comparison is signed).
// RUN: not twintile compile --frontend=parse %s --kernel 'negative_u64<16>' 2>&1 | FileCheck %s --check-prefix=NEG64
// RUN: not twintile compile --frontend=trace %s --kernel 'negative_u64<16>' 2>&1 | FileCheck %s --check-prefix=NEG64
// RUN: not twintile compile --frontend=parse %s --kernel 'mixed_div<16>' 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: not twintile compile --frontend=trace %s --kernel 'mixed_div<16>' 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: not twintile compile --frontend=parse %s --kernel 'signed_shift<16>' 2>&1 | FileCheck %s --check-prefix=SHR
// RUN: not twintile compile --frontend=trace %s --kernel 'signed_shift<16>' 2>&1 | FileCheck %s --check-prefix=SHR
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
  // NEG: unsigned_refused.cpp:[[@LINE-1]]:31: error: the constant -1 does not fit in u32 (the type it meets here), which holds no negative number: subtract a positive one (x - 1, not x + -1)
}

template <int B>
TT_KERNEL void native_loop(Ptr<u32> x, u32 n) {
  auto acc = zeros<u32>({B});
  for (u32 i = 0; i < n; i = i + 1u) acc = acc + load(x + arange(0, B));
  // LOOP: unsigned_refused.cpp:[[@LINE-1]]:3: error: a device loop's bounds and step are signed integers (i32 or i64), got u32: cast<i32>(n) or cast<i64>(n) an unsigned one
  store(x + arange(0, B), acc);
}

template <int B>
TT_KERNEL void combinator_loop(Ptr<u32> x, u32 n) {
  auto acc = for_range(0, n, 1, zeros<u32>({B}), [&](i32, Tile<u32> a) { return a + load(x + arange(0, B)); });
  // RANGE: unsigned_refused.cpp:[[@LINE-1]]:{{[0-9]+}}: error: {{.*}}a device loop's bounds and step are signed integers (i32 or i64): cast<i32>(n) or cast<i64>(n) an unsigned one
  store(x + arange(0, B), acc);
}

template <int B>
TT_KERNEL void negative_u64(Ptr<u64> x, Ptr<i32> o) {
  auto i = arange(0, B);
  store(o + i, where(load(x + i) > -1, 1, 0));
  // NEG64: unsigned_refused.cpp:[[@LINE-1]]:{{[0-9]+}}: error: the constant -1 does not fit in u64 (the type it meets here), which holds no negative number
}

template <int B>
TT_KERNEL void mixed_div(Ptr<u32> a, Ptr<i32> b, Ptr<u32> o) {
  auto i = arange(0, B);
  store(o + i, load(a + i) / load(b + i));
  // DIV: unsigned_refused.cpp:[[@LINE-1]]:{{[0-9]+}}: error: '/' of u32 and i32: a signed and an unsigned integer do not divide (as in Triton); cast<T> one of them to the other's signedness
}

template <int B>
TT_KERNEL void signed_shift(Ptr<i32> v, Ptr<u32> s, Ptr<i32> o) {
  auto i = arange(0, B);
  store(o + i, load(v + i) >> load(s + i));
  // SHR: unsigned_refused.cpp:[[@LINE-1]]:{{[0-9]+}}: error: '>>' of i32 by u32: a signed value shifted by an unsigned amount would be unsigned, shifted arithmetically by Triton and logically by C++; cast<T> one of them
}
