// A program's memory ops happen in order (IR.h), its threads do not: a barrier
// goes between accesses through one parameter that other threads may touch,
// and none where each thread touches its own elements again.
// RUN: twintile compile --frontend=trace %s --kernel 'reverse<256>' --emit ptx | FileCheck %s --check-prefix=REVERSE
// RUN: twintile compile --frontend=parse %s --kernel 'reverse<256>' --emit ptx | FileCheck %s --check-prefix=REVERSE
// RUN: twintile compile --frontend=trace %s --kernel 'twice<256>' --emit ptx | FileCheck %s --check-prefix=INPLACE
// RUN: twintile compile --frontend=trace %s --kernel 'bump<256>' --emit ptx | FileCheck %s --check-prefix=SCALAR
// The barriers stage says where each goes and why, before lowering:
// RUN: twintile compile --frontend=parse %s --kernel 'reverse<256>' --emit barriers | FileCheck %s --check-prefix=PLAN-REVERSE
// RUN: twintile compile --frontend=trace %s --kernel 'twice<256>' --emit barriers | FileCheck %s --check-prefix=PLAN-INPLACE
// RUN: twintile compile --frontend=parse %s --kernel 'bump<256>' --emit barriers | FileCheck %s --check-prefix=PLAN-SCALAR
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void reverse(Ptr<f32> x) {
  auto c = arange(0, B);
  auto v = load(x + (B - 1 - c));
  store(x + c, v);  // overwrites elements other threads loaded
}

template <int B>
TT_KERNEL void twice(Ptr<f32> x) {
  auto c = arange(0, B);
  store(x + c, load(x + c) * 2.0f);  // each thread rewrites what it read
}

template <int B>
TT_KERNEL void bump(Ptr<i32> counter, Ptr<i32> out) {
  store(counter, load(counter) + 1);            // thread 0 stores
  store(out + arange(0, B), full<i32>({B}, 0) + load(counter));  // every thread reads it back
}

// REVERSE: ld.global
// REVERSE: bar.sync 0;
// REVERSE: st.global
// INPLACE-NOT: bar.sync
// SCALAR: st.global.u32
// SCALAR: bar.sync 0;
// SCALAR: ld.global.u32
// PLAN-REVERSE: // barriers: 1, 1 of them decided from the accesses and the shared plan
// PLAN-REVERSE-NEXT: // decided  'store' at "{{.*}}memory_order.cpp":[[@LINE-23]]:3: after 'load' at "{{.*}}memory_order.cpp":[[@LINE-24]]:12: the two may touch one element from two threads, this one writing
// PLAN-INPLACE: // barriers: none
// PLAN-INPLACE-NOT: //
// PLAN-SCALAR: // barriers: 2, 2 of them decided
// PLAN-SCALAR-NEXT: // decided  'store' at {{.*}}: after 'load' at {{.*}}: the two may touch one element from two threads, this one writing
// PLAN-SCALAR-NEXT: // decided  'load' at {{.*}}: after 'store' at {{.*}}: the two may touch one element from two threads, that one writing
