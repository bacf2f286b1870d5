// dot on Hopper's warpgroup MMA: kernels no other test has seen, through both
// front ends. On sm_90a a dot of f16 or bf16 into f32 whose warps (4 or 8,
// all along M) hold 16 rows of every 64-row block runs on wgmma.mma_async
// m64nNk16, both operands read from shared memory through descriptors (b
// n-major, imm-trans-b 1, when it is loaded n-contiguous; k-major, 0, when
// loaded k-contiguous and transposed); the operands are fenced for the async
// proxy before the barrier, the shared array aligned to 1024 bytes for the
// swizzle, and the accumulators waited for before use. The emulator runs each
// against the interpreter on ragged sizes. Elsewhere (64 rows at 8 warps, or
// sm_80) the same kernels stay on mma.sync.
// RUN: twintile compile --frontend=parse %s --kernel 'gemm_bt<128, 128, 64>' --emit ptx | FileCheck %s --check-prefix=BT
// RUN: twintile compile --frontend=trace %s --kernel 'gemm_bt<128, 128, 64>' --emit ptx | FileCheck %s --check-prefix=BT
// RUN: twintile run --frontend=parse %s --kernel 'gemm_bt<128, 128, 64>' --grid 2,2 --arg a=20000 --arg b=20000 --arg c=40000 --arg M=200 --arg N=200 --arg K=100 | FileCheck %s --check-prefix=RUN-BT
// RUN: twintile run --frontend=trace %s --kernel 'gemm_bt<64, 64, 32>' --grid 4,4 --arg a=20000 --arg b=20000 --arg c=40000 --arg M=200 --arg N=200 --arg K=100 | FileCheck %s --check-prefix=RUN-BT64
// RUN: twintile compile --frontend=parse %s --kernel 'biased<128, 256, 64>' --num-warps 8 --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=WIDE
// RUN: twintile run --frontend=trace %s --kernel 'biased<128, 256, 64>' --num-warps 8 --num-stages 4 --assume-aligned '*' --assume-divisible '*' --grid 2,2 --arg a=40960 --arg b=81920 --arg bias=512 --arg c=163840 --arg M=160 --arg N=400 --arg K=160 | FileCheck %s --check-prefix=RUN-WIDE
// RUN: twintile compile --frontend=parse %s --kernel 'gemm_bt<128, 128, 64>' --emit shared | FileCheck %s --check-prefix=SHARED
// RUN: twintile compile --frontend=parse %s --kernel 'gemm_bt<64, 64, 32>' --num-warps 8 --emit ptx | FileCheck %s --check-prefix=SYNC
// RUN: twintile compile --frontend=parse %s --kernel 'gemm_bt<128, 128, 64>' --target sm_80 --emit ptx | FileCheck %s --check-prefix=SYNC
#include <twintile.h>
using namespace tt;

// c = a @ b^T: b is [N, K], k contiguous (an nn.Linear weight), bf16.
template <int BM, int BN, int BK>
TT_KERNEL void gemm_bt(Ptr<bf16> a, Ptr<bf16> b, Ptr<f32> c, i32 M, i32 N, i32 K) {
  auto rm = program_id(0) * BM + arange(0, BM);
  auto rn = program_id(1) * BN + arange(0, BN);
  auto rk = arange(0, BK);
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    auto ka = rk + k;
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(ka, 0), (expand_dims(rm, 1) < M) & (expand_dims(ka, 0) < K), 0.0f);
    auto tb = load(b + expand_dims(rn, 1) * K + expand_dims(ka, 0), (expand_dims(rn, 1) < N) & (expand_dims(ka, 0) < K), 0.0f);
    return dot(ta, trans(tb), acc);
  });
  store(c + expand_dims(rm, 1) * N + expand_dims(rn, 0), acc, (expand_dims(rm, 1) < M) & (expand_dims(rn, 0) < N));
}

// c = a @ b + bias, f16 in, f16 out.
template <int BM, int BN, int BK>
TT_KERNEL void biased(Ptr<f16> a, Ptr<f16> b, Ptr<f16> bias, Ptr<f16> c, i32 M, i32 N, i32 K) {
  auto rm = program_id(0) * BM + arange(0, BM);
  auto rn = program_id(1) * BN + arange(0, BN);
  auto rk = arange(0, BK);
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    auto ka = rk + k;
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(ka, 0), (expand_dims(rm, 1) < M) & (expand_dims(ka, 0) < K), 0.0f);
    auto tb = load(b + expand_dims(ka, 1) * N + expand_dims(rn, 0), (expand_dims(ka, 1) < K) & (expand_dims(rn, 0) < N), 0.0f);
    return dot(ta, tb, acc);
  });
  auto out = acc + expand_dims(cast<f32>(load(bias + rn, rn < N, 0.0f)), 0);
  store(c + expand_dims(rm, 1) * N + expand_dims(rn, 0), cast<f16>(out), (expand_dims(rm, 1) < M) & (expand_dims(rn, 0) < N));
}

// BT: .shared .align 1024 .b8 twintile_smem[
// BT: fence.proxy.async.shared::cta;
// BT-NEXT: // end inline asm
// BT-NEXT: bar.sync 0;
// BT: wgmma.fence.sync.aligned;
// BT: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{[{]}}%f{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// BT: wgmma.commit_group.sync.aligned;
// BT: wgmma.wait_group.sync.aligned 0;
// BT-NOT: mma.sync
// BT-NOT: ldmatrix
// RUN-BT: ok: gemm_bt on emu, grid (2, 2, 1), 128 threads, sm_90a: matches the interpreter
// RUN-BT64: ok: gemm_bt on emu, grid (4, 4, 1), 128 threads, sm_90a: matches the interpreter
// WIDE: .reqntid 256, 1, 1
// WIDE: cp.async.cg.shared.global
// WIDE: cp.async.wait_group 1;
// WIDE: fence.proxy.async.shared::cta;
// WIDE-NEXT: // end inline asm
// WIDE-NEXT: bar.sync 0;
// WIDE: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// RUN-WIDE: ok: biased on emu, grid (2, 2, 1), 256 threads, sm_90a: matches the interpreter
// SHARED: {{ }}0    32768  window  'dot' {{.*}}: a and b staged for wgmma
// SYNC-NOT: wgmma
// SYNC: ldmatrix.sync.aligned
// SYNC: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
