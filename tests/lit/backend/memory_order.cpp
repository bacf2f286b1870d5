// A program's memory ops happen in order (IR.h), its threads do not: a barrier
// goes between accesses through one parameter that other threads may touch,
// and none where each thread touches its own elements again.
// RUN: twintile compile --frontend=trace %s --kernel 'reverse<256>' --emit ptx | FileCheck %s --check-prefix=REVERSE
// RUN: twintile compile --frontend=parse %s --kernel 'reverse<256>' --emit ptx | FileCheck %s --check-prefix=REVERSE
// RUN: twintile compile --frontend=trace %s --kernel 'twice<256>' --emit ptx | FileCheck %s --check-prefix=INPLACE
// RUN: twintile compile --frontend=trace %s --kernel 'bump<256>' --emit ptx | FileCheck %s --check-prefix=SCALAR
// The same pointer value is not the same addresses in the next iteration of
// a loop it is defined in, and a tile smaller than the program has copies
// that load an element its owner then stores: both need the barrier, and
// the emulator, running programs' threads interleaved, tells.
// RUN: twintile compile --frontend=parse %s --kernel 'slide<256>' --emit barriers | FileCheck %s --check-prefix=PLAN-SLIDE
// RUN: twintile run --frontend=parse %s --kernel 'slide<256>' --grid 1 --arg x=1024 --arg n=4 --interleave 4 | FileCheck %s --check-prefix=RAN
// RUN: twintile compile --frontend=trace %s --kernel 'copies<32>' --emit barriers | FileCheck %s --check-prefix=PLAN-COPIES
// RUN: twintile run --frontend=trace %s --kernel 'copies<32>' --grid 1 --arg x=32 --arg y=32 | FileCheck %s --check-prefix=RAN
// A pointer tile that addresses one word from two elements (x + c / 2, or
// rows over a run-time stride that may be 0) is not proven the same thread's
// again: only one contiguous dim is.
// RUN: twintile compile --frontend=parse %s --kernel 'halves<256>' --emit barriers | FileCheck %s --check-prefix=PLAN-HALVES
// RUN: twintile run --frontend=parse %s --kernel 'halves<256>' --grid 1 --arg x=128 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'rows<4, 64>' --grid 1 --arg x=64 --arg stride=0 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'rows<4, 64>' --grid 1 --arg x=256 --arg stride=64 | FileCheck %s --check-prefix=RAN
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

// Overlapping tiles updated in place: each iteration's starts B/4 after the
// last one's, so its elements were other threads' in the iteration before.
template <int B>
TT_KERNEL void slide(Ptr<f32> x, i32 n) {
  auto c = arange(0, B);
  for_range(0, n, 1, [&](i32 k) {
    auto p = x + k * (B / 4) + c;
    store(p, load(p) * 0.5f + cast<f32>(k));
  });
}

// 32 elements over 128 threads: four copies of each load it, its owner
// stores it; every copy writes what it loaded into the reshape's window.
template <int B>
TT_KERNEL void copies(Ptr<f32> x, Ptr<f32> y) {
  auto c = arange(0, B);
  auto v = load(x + c);
  store(x + c, v + 1.0f);
  store(y + expand_dims(arange(0, 4), 1) * (B / 4) + expand_dims(arange(0, B / 4), 0), reshape(v, {4, B / 4}));
}

// Two elements to a word: both add one to it.
template <int B>
TT_KERNEL void halves(Ptr<f32> x) {
  auto p = x + arange(0, B) / 2;
  store(p, load(p) + 1.0f);
}

// Rows `stride` apart, updated in place: with stride 0, every row is the first.
template <int M, int N>
TT_KERNEL void rows(Ptr<f32> x, i32 stride) {
  auto p = x + expand_dims(arange(0, M), 1) * stride + expand_dims(arange(0, N), 0);
  store(p, load(p) * 2.0f);
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
// PLAN-REVERSE-NEXT: // decided  'store' at "{{.*}}memory_order.cpp":{{[0-9]+}}:3: after 'load' at "{{.*}}memory_order.cpp":{{[0-9]+}}:12: the two may touch one element from two threads, this one writing
// PLAN-INPLACE: // barriers: none
// PLAN-INPLACE-NOT: //
// PLAN-SCALAR: // barriers: 2, 2 of them decided
// PLAN-SCALAR-NEXT: // decided  'store' at {{.*}}: after 'load' at {{.*}}: the two may touch one element from two threads, this one writing
// PLAN-SCALAR-NEXT: // decided  'load' at {{.*}}: after 'store' at {{.*}}: the two may touch one element from two threads, that one writing
// PLAN-SLIDE: // barriers: 1, 1 of them decided
// PLAN-SLIDE-NEXT: // decided  'load' at {{.*}}: after 'store' at {{.*}} in an earlier iteration: the two may touch one element from two threads, that one writing
// PLAN-COPIES: // barriers: 2, 1 of them decided
// PLAN-COPIES-NEXT: // decided  'store' at {{.*}}: after 'load' at {{.*}}: the two may touch one element from two threads, this one writing
// PLAN-HALVES: // barriers: 1, 1 of them decided
// PLAN-HALVES-NEXT: // decided  'store' at {{.*}}: after 'load' at {{.*}}: the two may touch one element from two threads, this one writing
// RAN: ok: {{slide|copies|halves|rows}} on emu, grid (1, 1, 1), 128 threads, sm_90a: matches the interpreter
