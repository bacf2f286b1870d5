// A matmul's wgmma left in flight from one iteration into the next (PipelinePlan.cpp's
// planAsyncDot) only where nothing else reads what the MMAs in flight read or
// write: both operands in buffers no later iteration overwrites (copied loads,
// invariants), the accumulator carried and read by nothing else. Each kernel
// runs in the emulator against the interpreter, which reports any read of an
// accumulator in flight and any write to shared memory an in-flight wgmma reads.
// RUN: twintile compile --frontend=parse %s --kernel 'inv<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=ASYNC
// RUN: twintile compile --frontend=parse %s --kernel 'chain<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=ASYNC
// RUN: twintile compile --frontend=parse %s --kernel 'extra<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=ASYNC
// RUN: twintile compile --frontend=parse %s --kernel 'swapped<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=SYNC
// RUN: twintile compile --frontend=parse %s --kernel 'casted<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=SYNC
// RUN: twintile compile --frontend=parse %s --kernel 'prev<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=SYNC
// RUN: twintile run --frontend=parse %s --kernel 'inv<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --grid 1 --arg a=12288 --arg b=2048 --arg c=4096 --arg K=192 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'chain<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --grid 1 --arg a=6144 --arg b=6144 --arg c=4096 --arg K=96 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'chain<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --grid 1 --arg a=64 --arg b=64 --arg c=4096 --arg K=0 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'extra<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --grid 1 --arg a=6144 --arg b=6144 --arg c=4096 --arg K=96 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'swapped<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --grid 1 --arg a=6144 --arg b=6144 --arg c=4096 --arg K=96 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'casted<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --grid 1 --arg a=6144 --arg b=6144 --arg c=4096 --arg K=96 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'prev<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --grid 1 --arg a=6144 --arg b=6144 --arg c=4096 --arg K=96 | FileCheck %s --check-prefix=RAN
#include <twintile.h>
using namespace tt;

// b from before the loop, a a copied load; b is invariant (staged once).
template <int BM, int BN, int BK>
TT_KERNEL void inv(Ptr<f16> a, Ptr<f16> b, Ptr<f32> c, i32 K) {
  auto rm = arange(0, BM);
  auto rn = arange(0, BN);
  auto rk = arange(0, BK);
  auto tb = load(b + expand_dims(rk, 1) * BN + expand_dims(rn, 0));
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(rk + k, 0));
    return dot(ta, tb, acc);
  });
  store(c + expand_dims(rm, 1) * BN + expand_dims(rn, 0), acc);
}

// swapped: the dot's result yielded at another position.
template <int BM, int BN, int BK>
TT_KERNEL void swapped(Ptr<f16> a, Ptr<f16> b, Ptr<f32> c, i32 K) {
  auto rm = arange(0, BM);
  auto rn = arange(0, BN);
  auto rk = arange(0, BK);
  auto [x, y] = for_range(0, K, BK, zeros<f32>({BM, BN}), zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> x, Tile<f32> y) {
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(rk + k, 0));
    auto tb = load(b + expand_dims(rk + k, 1) * BN + expand_dims(rn, 0));
    return carry(y, dot(ta, tb, x));
  });
  store(c + expand_dims(rm, 1) * BN + expand_dims(rn, 0), x + y);
}

// an extra carried value converted in yielded (a reduction) beside the async acc.
template <int BM, int BN, int BK>
TT_KERNEL void extra(Ptr<f16> a, Ptr<f16> b, Ptr<f32> c, i32 K) {
  auto rm = arange(0, BM);
  auto rn = arange(0, BN);
  auto rk = arange(0, BK);
  auto [acc, m] = for_range(0, K, BK, zeros<f32>({BM, BN}), zeros<f32>({BM}), [&](i32 k, Tile<f32> acc, Tile<f32> m) {
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(rk + k, 0));
    auto tb = load(b + expand_dims(rk + k, 1) * BN + expand_dims(rn, 0));
    auto tx = load(c + expand_dims(rm, 1) * BN + expand_dims(rn, 0));
    return carry(dot(ta, tb, acc), m + sum(tx, 1));
  });
  store(c + expand_dims(rm, 1) * BN + expand_dims(rn, 0), acc + expand_dims(m, 1));
}

// two loops in a row, the second's init the first's result; an if and an inner loop in the body.
template <int BM, int BN, int BK>
TT_KERNEL void chain(Ptr<f16> a, Ptr<f16> b, Ptr<f32> c, i32 K) {
  auto rm = arange(0, BM);
  auto rn = arange(0, BN);
  auto rk = arange(0, BK);
  auto body = [&](i32 k, Tile<f32> acc) {
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(rk + k, 0));
    auto tb = load(b + expand_dims(rk + k, 1) * BN + expand_dims(rn, 0));
    return dot(ta, tb, acc);
  };
  auto acc1 = for_range(0, K, BK, zeros<f32>({BM, BN}), body);
  auto acc2 = for_range(0, K, BK, acc1, body);
  store(c + expand_dims(rm, 1) * BN + expand_dims(rn, 0), acc2);
}

// a computed in the loop from a load (cast): staged by the dot every iteration.
template <int BM, int BN, int BK>
TT_KERNEL void casted(Ptr<f32> a, Ptr<f16> b, Ptr<f32> c, i32 K) {
  auto rm = arange(0, BM);
  auto rn = arange(0, BN);
  auto rk = arange(0, BK);
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    auto ta = cast<f16>(load(a + expand_dims(rm, 1) * K + expand_dims(rk + k, 0)));
    auto tb = load(b + expand_dims(rk + k, 1) * BN + expand_dims(rn, 0));
    return dot(ta, tb, acc);
  });
  store(c + expand_dims(rm, 1) * BN + expand_dims(rn, 0), acc);
}

// the previous accumulator carried beside the new one.
template <int BM, int BN, int BK>
TT_KERNEL void prev(Ptr<f16> a, Ptr<f16> b, Ptr<f32> c, i32 K) {
  auto rm = arange(0, BM);
  auto rn = arange(0, BN);
  auto rk = arange(0, BK);
  auto [acc, old] = for_range(0, K, BK, zeros<f32>({BM, BN}), zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc, Tile<f32> old) {
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(rk + k, 0));
    auto tb = load(b + expand_dims(rk + k, 1) * BN + expand_dims(rn, 0));
    return carry(dot(ta, tb, acc), acc);
  });
  store(c + expand_dims(rm, 1) * BN + expand_dims(rn, 0), acc - old);
}

// ASYNC: (4 buffers each: the wgmma of one iteration stays in flight into the next)
// SYNC-NOT: stays in flight
// SYNC: pipelined:
// RAN: ok: {{[a-z]+}} on emu, grid (1, 1, 1), 128 threads, sm_90a: matches the interpreter
