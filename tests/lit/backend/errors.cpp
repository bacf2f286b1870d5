// The backend's refusals and the driver's checks of its options: each is a
// located or named error, never a crash.
// RUN: not twintile compile --frontend=trace %s --kernel 'bigdot<192>' --emit ptx 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not twintile compile --frontend=trace %s --kernel 'bigdot<16>' --emit ptx --assume-aligned nope 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not twintile compile --frontend=trace %s --kernel 'bigdot<16>' --emit ptx --assume-divisible a 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not twintile compile --frontend=trace %s --kernel 'bigdot<16>' --emit ptx --target sm_70 2>&1 | FileCheck %s --check-prefix=TARGET
#include <twintile.h>
using namespace tt;

template <int N>
TT_KERNEL void bigdot(Ptr<f32> a, Ptr<f32> c) {
  auto i = arange(0, N);
  auto offs = expand_dims(i, 1) * N + expand_dims(i, 0);
  auto x = load(a + offs);
  store(c + offs, dot(x, x, zeros<f32>({N, N})));
}

// SHARED: errors.cpp:[[@LINE-3]]:{{[0-9]+}}: error: 'dot' needs 294912 bytes of shared memory, more than the 232448 a block may use on sm_90a; use smaller tiles
// NAME: error: kernel 'bigdot' has no parameter 'nope'
// KIND: error: 'a' is ptr<f32>, not an integer: it cannot be assumed divisible
// TARGET: --target: sm_70 not in {sm_90a,sm_80}
// RUN: not twintile compile --frontend=trace %s --kernel '' --emit ptx 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: --kernel: must name a kernel
