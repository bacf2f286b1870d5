// The pipelines stage: the software-pipelining plan, made before lowering
// and printed beside the IR. Each loop with a dot says whether it is
// pipelined and why not; each tile load it keeps says why; each load copied
// ahead says its copy width, staged rows (and on sm_90a, for a dot on wgmma,
// the width of the swizzled panels its descriptors read), stage size and
// ring offset.
// RUN: twintile compile --frontend=parse %s --kernel 'mm<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=MM
// RUN: twintile compile --frontend=trace %s --kernel 'mm<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=MM
// RUN: twintile compile --frontend=parse %s --kernel 'mm<64, 64, 32>' --emit pipelines | FileCheck %s --check-prefix=UNALIGNED
// RUN: twintile compile --frontend=parse %s --kernel 'mm<64, 64, 32>' --num-stages 1 --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=ONE
// RUN: twintile compile --frontend=parse %s --kernel 'attend<16, 16>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=INVARIANT
// RUN: twintile compile --frontend=parse %s --kernel 'scaled<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=SCALED
// RUN: twintile compile --frontend=parse %s --kernel 'progressive<32, 32, 32>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=WRITES
// The rings of eight stages of 128x128x64 (32 KiB each) do not fit in the
// 163 KiB a block may use on sm_80: the plan is made again with five.
// RUN: twintile compile --frontend=parse %s --kernel 'mm<128, 128, 64>' --num-stages 8 --target sm_80 --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=FEWER
// Nested loops: a load the outer loop copies ahead has no registers, so
// the inner loop reads it from the outer ring; a tile the outer loop carries
// is, to the inner loop, a value from before it: staged once. On sm_90a the
// inner loop's wgmma stays in flight from one iteration into the next (a
// fourth buffer), and is waited for when the inner loop ends.
// RUN: twintile compile --frontend=parse %s --kernel 'outer_a<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=OUTER
// RUN: twintile compile --frontend=trace %s --kernel 'carried_a<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=CARRIED
// RUN: twintile run --frontend=parse %s --kernel 'outer_a<32, 32, 16>' --assume-aligned '*' --assume-divisible '*' --grid 1 --arg a=1024 --arg b=2048 --arg c=1024 --arg K=32 --arg J=64 | FileCheck %s --check-prefix=RUN-NESTED
// RUN: twintile run --frontend=parse %s --kernel 'outer_a<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --grid 1 --arg a=4096 --arg b=8192 --arg c=4096 --arg K=64 --arg J=128 | FileCheck %s --check-prefix=RUN-NESTED
// A dot whose a is computed in the loop (staged by the dot into the same
// window every iteration) waits for its MMAs in each iteration: they read it.
// RUN: twintile compile --frontend=parse %s --kernel 'scaled<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=SCALED-SYNC
// RUN: twintile run --frontend=parse %s --kernel 'scaled<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --grid 1 --arg a=8192 --arg b=8192 --arg c=4096 --arg K=128 | FileCheck %s --check-prefix=RUN-SCALED
// RUN: twintile run --frontend=trace %s --kernel 'carried_a<64, 64, 32>' --assume-aligned '*' --assume-divisible J --grid 1 --arg a=2048 --arg b=8192 --arg c=4096 --arg K=2 --arg J=128 | FileCheck %s --check-prefix=RUN-NESTED
// RUN: twintile run --frontend=trace %s --kernel 'carried_a<32, 32, 16>' --assume-aligned '*' --assume-divisible J --grid 1 --arg a=512 --arg b=1024 --arg c=1024 --arg K=2 --arg J=64 | FileCheck %s --check-prefix=RUN-NESTED
// A kernel without loops has no plan, and the stage says so by printing
// nothing beside the IR.
// RUN: twintile compile --frontend=trace %s --kernel 'plain<128>' --emit pipelines | FileCheck %s --check-prefix=PLAIN
#include <twintile.h>
using namespace tt;

template <int BM, int BN, int BK>
TT_KERNEL void mm(Ptr<f16> a, Ptr<f16> b, Ptr<f32> c, i32 M, i32 N, i32 K) {
  auto rm = program_id(0) * BM + arange(0, BM);
  auto rn = program_id(1) * BN + arange(0, BN);
  auto rk = arange(0, BK);
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    auto ka = rk + k;
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(ka, 0), expand_dims(ka, 0) < K, 0.0f);
    auto tb = load(b + expand_dims(ka, 1) * N + expand_dims(rn, 0), expand_dims(ka, 1) < K, 0.0f);
    return dot(ta, tb, acc);
  });
  store(c + expand_dims(rm, 1) * N + expand_dims(rn, 0), acc, (expand_dims(rm, 1) < M) & (expand_dims(rn, 0) < N));
}

// q is loaded once, before the loop: staged once in front of the ring.
template <int BM, int BN>
TT_KERNEL void attend(Ptr<f16> q, Ptr<f16> k, Ptr<f32> o, i32 n) {
  auto r = arange(0, BM);
  auto d = arange(0, 16);
  auto tq = load(q + expand_dims(r, 1) * 16 + expand_dims(d, 0));
  auto acc = for_range(0, n, BN, zeros<f32>({BM, BN}), [&](i32 j, Tile<f32> acc) {
    auto cols = arange(0, BN) + j;
    auto tk = load(k + expand_dims(d, 1) * n + expand_dims(cols, 0));
    return dot(tq, tk, acc);
  });
  store(o + expand_dims(r, 1) * BN + expand_dims(arange(0, BN), 0), acc);
}

// a is scaled before the dot: its registers exist, so it is not copied ahead.
template <int BM, int BN, int BK>
TT_KERNEL void scaled(Ptr<f16> a, Ptr<f16> b, Ptr<f32> c, i32 K) {
  auto rm = arange(0, BM);
  auto rn = arange(0, BN);
  auto rk = arange(0, BK);
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(rk + k, 0));
    auto tb = load(b + expand_dims(rk + k, 1) * BN + expand_dims(rn, 0));
    return dot(ta * ta, tb, acc);
  });
  store(c + expand_dims(rm, 1) * BN + expand_dims(rn, 0), acc);
}

// The loop stores: a copy issued ahead must not pass a store.
template <int BM, int BN, int BK>
TT_KERNEL void progressive(Ptr<f16> a, Ptr<f16> b, Ptr<f32> partial, i32 K) {
  auto rm = arange(0, BM);
  auto rn = arange(0, BN);
  auto rk = arange(0, BK);
  for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(rk + k, 0));
    auto tb = load(b + expand_dims(rk + k, 1) * BN + expand_dims(rn, 0));
    auto next = dot(ta, tb, acc);
    store(partial + expand_dims(rm, 1) * BN + expand_dims(rn, 0), next);
    return next;
  });
}

// ta loaded in the outer loop, multiplied in the inner one.
template <int BM, int BN, int BK>
TT_KERNEL void outer_a(Ptr<f16> a, Ptr<f16> b, Ptr<f32> c, i32 K, i32 J) {
  auto rm = arange(0, BM);
  auto rn = arange(0, BN);
  auto rk = arange(0, BK);
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(rk + k, 0));
    return for_range(0, J, BN, acc, [&](i32 j, Tile<f32> inner) {
      auto tb = load(b + expand_dims(rk + k, 1) * J + expand_dims(rn + j, 0));
      return dot(ta, tb, inner);
    });
  });
  store(c + expand_dims(rm, 1) * BN + expand_dims(rn, 0), acc);
}

// ta carried by the outer loop (squared each time), multiplied in the inner one.
template <int BM, int BN, int BK>
TT_KERNEL void carried_a(Ptr<f16> a, Ptr<f16> b, Ptr<f32> c, i32 K, i32 J) {
  auto rm = arange(0, BM);
  auto rn = arange(0, BN);
  auto rk = arange(0, BK);
  auto ta0 = load(a + expand_dims(rm, 1) * BK + expand_dims(rk, 0));
  auto [acc, last] = for_range(0, K, 1, zeros<f32>({BM, BN}), ta0, [&](i32, Tile<f32> acc, Tile<f16> ta) {
    auto sum = for_range(0, J, BN, acc, [&](i32 j, Tile<f32> inner) {
      auto tb = load(b + expand_dims(rk, 1) * J + expand_dims(rn + j, 0));
      return dot(ta, tb, inner);
    });
    return carry(sum, ta * ta);
  });
  store(c + expand_dims(rm, 1) * BN + expand_dims(rn, 0), acc);
}

template <int B>
TT_KERNEL void plain(Ptr<f32> x) {
  auto i = arange(0, B);
  store(x + i, load(x + i) * 2.0f);
}

// MM: // pipelines: num_stages 3; the rings take at most 32768 bytes of shared memory at once, of 232448 a block may use
// MM: ^(%[[IV:[0-9]+]]: i32, %{{[0-9]+}}: tile<64x64xf32>): {{.*}}// %[[IV]]: pipelined: 2 loads copied 2 iterations ahead into a ring of 3 stages (4 buffers each: the wgmma of one iteration stays in flight into the next); shared ring 32768 bytes
// MM: add {{.*}} : tile<32xi32> {{.*}}// %{{[0-9]+}}: address op, evaluated again for the iteration a copy fetches
// MM: load {{.*}} : tile<64x32xf16> {{.*}}// %{{[0-9]+}}: copied ahead: cp.async of 16 bytes (8 x f16), rows along dim 0, wgmma panels of 64 bytes, 4096 bytes per buffer at ring offset 0
// MM: load {{.*}} : tile<32x64xf16> {{.*}}// %{{[0-9]+}}: copied ahead: cp.async of 16 bytes (8 x f16), rows along dim 0, wgmma panels of 128 bytes, 4096 bytes per buffer at ring offset 16384
// MM-NOT: address op
// MM: dot

// UNALIGNED: ^(%[[IV:[0-9]+]]: i32, %{{[0-9]+}}: tile<64x64xf32>): {{.*}}// %[[IV]]: not pipelined: no load qualifies
// UNALIGNED: load {{.*}} : tile<64x32xf16> {{.*}}// %{{[0-9]+}}: not copied ahead: a thread's contiguous, aligned runs are 2 bytes; a copy moves 4, 8 or 16 (the axes stage shows what is known of the address; --assume-aligned and --assume-divisible promise more)
// UNALIGNED-NOT: {{[0-9]}}: copied ahead

// ONE: // pipelines: num_stages 1; the rings take at most 0 bytes
// ONE: // %{{[0-9]+}}: not pipelined: num_stages 1: no copies ahead
// ONE-NOT: {{[0-9]}}: copied ahead

// INVARIANT: %[[Q:[0-9]+]] = load {{.*}} : tile<16x16xf16> loc("{{.*}}pipelines.cpp":[[@LINE-93]]:{{[0-9]+}})  // %[[Q]]: staged once before the loop at "{{.*}}pipelines.cpp":[[@LINE-92]]:{{[0-9]+}}: rows along dim 0, at ring offset 0
// INVARIANT: // %{{[0-9]+}}: pipelined: 1 load copied 2 iterations ahead into a ring of 3 stages; 1 loop-invariant dot operand staged once before it; shared ring 2048 bytes
// INVARIANT: load {{.*}} // %{{[0-9]+}}: copied ahead: cp.async of {{4|8|16}} bytes {{.*}} at ring offset 512

// SCALED: // %{{[0-9]+}}: pipelined: 1 load copied 2 iterations ahead
// SCALED: load {{.*}} : tile<64x32xf16> {{.*}}// %{{[0-9]+}}: not copied ahead: 'mul' uses it, not a tensor-core dot's a or b
// SCALED: load {{.*}} : tile<32x64xf16> {{.*}}// %{{[0-9]+}}: copied ahead:

// WRITES: // %{{[0-9]+}}: not pipelined: 'store' at "{{.*}}pipelines.cpp":{{[0-9]+}}:{{[0-9]+}} writes memory (or prints): a copy issued ahead must not pass it
// WRITES-NOT: {{[0-9]}}: copied ahead

// FEWER: // pipelines: num_stages 8, planned with 5: 8 stages need more shared memory than a block may use on sm_80; the rings take at most 163840 bytes of shared memory at once, of 166912 a block may use
// FEWER: // %{{[0-9]+}}: pipelined: 2 loads copied 4 iterations ahead into a ring of 5 stages; shared ring 163840 bytes

// OUTER: // %{{[0-9]+}}: pipelined: 1 load copied 2 iterations ahead into a ring of 3 stages; shared ring 12288 bytes
// OUTER: load {{.*}} : tile<64x32xf16> {{.*}}// %{{[0-9]+}}: copied ahead: cp.async of 16 bytes
// OUTER: // %{{[0-9]+}}: pipelined: 1 load copied 2 iterations ahead into a ring of 3 stages (4 buffers each: the wgmma of one iteration stays in flight into the next); shared ring 16384 bytes
// OUTER-NOT: staged once

// CARRIED: ^(%[[LOOP:[0-9]+]]: i32, %{{[0-9]+}}: tile<64x64xf32>, %[[TA:[0-9]+]]: tile<64x32xf16>): {{.*}}// %[[LOOP]]: not pipelined: no tile load in the loop's own body (a nested loop's loads are its own); %[[TA]]: staged once before the loop at {{.*}}: rows along dim 0, wgmma panels of 64 bytes, at ring offset 0
// CARRIED: // %{{[0-9]+}}: pipelined: 1 load copied 2 iterations ahead into a ring of 3 stages (4 buffers each: the wgmma of one iteration stays in flight into the next); 1 loop-invariant dot operand staged once before it; shared ring 20480 bytes

// RUN-NESTED: ok: {{outer_a|carried_a}} on emu, grid (1, 1, 1), 128 threads, sm_90a: matches the interpreter

// PLAIN: // pipelines: num_stages 3; the rings take at most 0 bytes
// PLAIN-NOT: //
// SCALED-SYNC: pipelined: 1 load copied 2 iterations ahead into a ring of 3 stages; shared ring 12288 bytes
// RUN-SCALED: ok: scaled on emu, grid (1, 1, 1), 128 threads, sm_90a: matches the interpreter
