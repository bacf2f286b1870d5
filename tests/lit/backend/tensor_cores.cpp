// dot on tensor cores: kernels no other test has seen, through both front
// ends. Tiles on the mma grid (M % 16, N % 8, K % 16, or % 32 for i8) lower
// to ldmatrix (.trans for the k-major b of 16-bit types) and mma.sync; the
// emulator runs them against the interpreter, ragged M, N and K tails masked.
// On sm_90a a dot whose warps hold whole 64-row warpgroup blocks runs on
// wgmma instead (wgmma.cpp): the checks of mma.sync's PTX name sm_80, and the
// runs on sm_90a run whichever the dot takes.
// RUN: twintile compile --frontend=trace %s --kernel 'linear_relu<64, 32, 32>' --target sm_80 --emit ptx --resources 2>%t.err | FileCheck %s --check-prefix=BF16
// RUN: FileCheck %s --check-prefix=RES < %t.err
// RUN: twintile compile --frontend=parse %s --kernel 'linear_relu<64, 32, 32>' --target sm_80 --emit ptx | FileCheck %s --check-prefix=BF16
// RUN: twintile compile --frontend=parse %s --kernel 'qgemm<32, 64, 64>' --target sm_80 --num-warps 8 --emit ptx | FileCheck %s --check-prefix=I8
// RUN: twintile run --frontend=trace %s --kernel 'linear_relu<64, 32, 32>' --grid 2,3 --arg x=8000 --arg w=5600 --arg bias=70 --arg y=7000 --arg M=100 --arg N=70 --arg K=80 | FileCheck %s --check-prefix=RUN-BF16
// RUN: twintile run --frontend=parse %s --kernel 'linear_relu<64, 32, 32>' --grid 2,3 --arg x=8000 --arg w=5600 --arg bias=70 --arg y=7000 --arg M=100 --arg N=70 --arg K=80 --target sm_80 | FileCheck %s --check-prefix=RUN-BF16
// RUN: twintile run --frontend=parse %s --kernel 'qgemm<32, 64, 64>' --grid 4,2 --arg a=9600 --arg b=9600 --arg c=10000 --arg M=100 --arg N=100 --arg K=96 --num-warps 8 | FileCheck %s --check-prefix=RUN-I8
// A tile off the grid (8 rows) stays on the FMA units:
// RUN: twintile compile --frontend=parse %s --kernel 'linear_relu<8, 32, 32>' --emit ptx | FileCheck %s --check-prefix=FMA
// The corpus matmul at Triton's tile sizes:
// RUN: twintile compile %S/../../../experiments/kernels/matmul.cpp --kernel 'matmul<128, 128, 32>' --target sm_80 --assume-aligned '*' --assume-divisible '*' --emit ptx --resources 2>%t.mm.err | FileCheck %s --check-prefix=MATMUL
// RUN: FileCheck %s --check-prefix=RES < %t.mm.err
// With the alignment Triton's JIT would infer, the loads feeding the dots
// become cp.async copies num_stages - 1 iterations ahead (3 by default; 1:
// none), still matching the interpreter with the K tail masked; a loop that
// stores is not pipelined (a copy issued ahead must not pass a store).
// RUN: twintile compile --frontend=parse %s --kernel 'linear_relu<64, 32, 32>' --target sm_80 --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=PIPE3
// RUN: twintile compile --frontend=trace %s --kernel 'linear_relu<64, 32, 32>' --num-stages 2 --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=PIPE2
// RUN: twintile compile --frontend=parse %s --kernel 'linear_relu<64, 32, 32>' --target sm_80 --num-stages 1 --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=NOPIPE
// RUN: twintile run --frontend=parse %s --kernel 'linear_relu<64, 32, 32>' --assume-aligned '*' --assume-divisible '*' --grid 2,3 --arg x=8960 --arg w=6400 --arg bias=80 --arg y=8960 --arg M=112 --arg N=80 --arg K=80 | FileCheck %s --check-prefix=RUN-PIPE
// RUN: twintile run --frontend=trace %s --kernel 'qgemm<32, 64, 64>' --num-stages 4 --assume-aligned '*' --assume-divisible '*' --grid 4,2 --arg a=12288 --arg b=12288 --arg c=12288 --arg M=128 --arg N=96 --arg K=96 | FileCheck %s --check-prefix=RUN-PIPE-I8
// A ring larger than the 48 KiB a kernel may declare statically lives in
// dynamic shared memory: the PTX declares it .extern, the manifest gives the
// size a launch provides, and the emulator runs it with that size. On sm_80
// (163 KiB a block) six stages of 128x128x64 do not fit: five, with a note.
// RUN: twintile compile --frontend=trace %s --kernel 'linear_relu<64, 64, 64>' --num-stages 4 --assume-aligned '*' --assume-divisible '*' --emit ptx -o %t.dyn.ptx --resources 2>%t.dyn.err
// RUN: FileCheck %s --check-prefix=DYN < %t.dyn.ptx
// RUN: FileCheck %s --check-prefix=DYN-MANIFEST < %t.dyn.json
// RUN: FileCheck %s --check-prefix=DYN-RES < %t.dyn.err
// RUN: twintile run --frontend=parse %s --kernel 'linear_relu<64, 64, 64>' --num-stages 4 --assume-aligned '*' --assume-divisible '*' --grid 2,2 --arg x=24576 --arg w=24576 --arg bias=128 --arg y=16384 --arg M=128 --arg N=128 --arg K=192 | FileCheck %s --check-prefix=RUN-DYN
// RUN: twintile compile --frontend=parse %s --kernel 'linear_relu<128, 128, 64>' --num-stages 6 --target sm_80 --assume-aligned '*' --assume-divisible '*' --emit ptx 2>&1 >/dev/null | FileCheck %s --check-prefix=DYN-80
// f32 operands as TF32 (Precision::Tf32, Triton's input_precision="tf32"):
// mma.sync m16n8k8, both front ends, against the interpreter's TF32; a
// precision that is neither is refused at the call.
// RUN: twintile compile --frontend=trace %s --kernel 'tf32_matmul<32, 32, 16>' --target sm_80 --emit ptx | FileCheck %s --check-prefix=TF32
// RUN: twintile compile --frontend=parse %s --kernel 'tf32_matmul<32, 32, 16>' --emit tile | FileCheck %s --check-prefix=TF32-IR
// RUN: twintile run --frontend=parse %s --kernel 'tf32_matmul<32, 32, 16>' --grid 2,2 --arg a=2400 --arg b=2400 --arg c=3600 --arg M=60 --arg N=60 --arg K=40 | FileCheck %s --check-prefix=RUN-TF32
// RUN: twintile run --frontend=trace %s --kernel 'tf32_matmul<32, 32, 16>' --assume-aligned '*' --assume-divisible '*' --grid 2,2 --arg a=2048 --arg b=2048 --arg c=4096 --arg M=64 --arg N=64 --arg K=32 | FileCheck %s --check-prefix=RUN-TF32
// RUN: not twintile compile --frontend=trace %s --kernel 'bad_precision<2>' 2>&1 | FileCheck %s --check-prefix=BAD-PRECISION
// RUN: not twintile compile --frontend=parse %s --kernel 'bad_precision<2>' 2>&1 | FileCheck %s --check-prefix=BAD-PRECISION
// An accumulator loaded before the loop comes into the MMA layout through
// shared memory that the ring's first copies then reuse: without a barrier
// between, the emulator reports the copies racing with the conversion's reads.
// RUN: twintile run --frontend=parse %s --kernel 'addmm<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --grid 2,2 --arg a=10240 --arg b=10240 --arg c=16384 --arg M=128 --arg N=128 --arg K=80 | FileCheck %s --check-prefix=RUN-ADDMM
// RUN: twintile run --frontend=trace %s --kernel 'addmm<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --num-stages 4 --grid 2,2 --arg a=10240 --arg b=10240 --arg c=16384 --arg M=128 --arg N=128 --arg K=80 | FileCheck %s --check-prefix=RUN-ADDMM
// RUN: twintile compile --frontend=parse %s --kernel 'progressive<32, 32, 32>' --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=STORES
// RUN: twintile run --frontend=parse %s --kernel 'progressive<32, 32, 32>' --assume-aligned '*' --assume-divisible '*' --grid 1 --arg a=2048 --arg b=2048 --arg c=1024 --arg partial=1024 --arg K=64 | FileCheck %s --check-prefix=RUN-STORES
#include <twintile.h>
using namespace tt;

// y = relu(x @ w + bias): bf16 in, f32 out.
template <int BM, int BN, int BK>
TT_KERNEL void linear_relu(Ptr<bf16> x, Ptr<bf16> w, Ptr<f32> bias, Ptr<f32> y, i32 M, i32 N, i32 K) {
  auto rm = program_id(0) * BM + arange(0, BM);
  auto rn = program_id(1) * BN + arange(0, BN);
  auto rk = arange(0, BK);
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    auto ka = rk + k;
    auto tx = load(x + expand_dims(rm, 1) * K + expand_dims(ka, 0), (expand_dims(rm, 1) < M) & (expand_dims(ka, 0) < K), 0.0f);
    auto tw = load(w + expand_dims(ka, 1) * N + expand_dims(rn, 0), (expand_dims(ka, 1) < K) & (expand_dims(rn, 0) < N), 0.0f);
    return dot(tx, tw, acc);
  });
  auto out = maximum(acc + expand_dims(load(bias + rn, rn < N, 0.0f), 0), 0.0f);
  store(y + expand_dims(rm, 1) * N + expand_dims(rn, 0), out, (expand_dims(rm, 1) < M) & (expand_dims(rn, 0) < N));
}

// c = a @ b on int8, accumulated in i32.
template <int BM, int BN, int BK>
TT_KERNEL void qgemm(Ptr<i8> a, Ptr<i8> b, Ptr<i32> c, i32 M, i32 N, i32 K) {
  auto rm = program_id(0) * BM + arange(0, BM);
  auto rn = program_id(1) * BN + arange(0, BN);
  auto rk = arange(0, BK);
  auto acc = for_range(0, K, BK, zeros<i32>({BM, BN}), [&](i32 k, Tile<i32> acc) {
    auto ka = rk + k;
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(ka, 0), (expand_dims(rm, 1) < M) & (expand_dims(ka, 0) < K), 0);
    auto tb = load(b + expand_dims(ka, 1) * N + expand_dims(rn, 0), (expand_dims(ka, 1) < K) & (expand_dims(rn, 0) < N), 0);
    return dot(ta, tb, acc);
  });
  store(c + expand_dims(rm, 1) * N + expand_dims(rn, 0), acc, (expand_dims(rm, 1) < M) & (expand_dims(rn, 0) < N));
}

// c = a @ b on f32 tiles, multiplied as TF32.
template <int BM, int BN, int BK>
TT_KERNEL void tf32_matmul(Ptr<f32> a, Ptr<f32> b, Ptr<f32> c, i32 M, i32 N, i32 K) {
  auto rm = program_id(0) * BM + arange(0, BM);
  auto rn = program_id(1) * BN + arange(0, BN);
  auto rk = arange(0, BK);
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    auto ka = rk + k;
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(ka, 0), (expand_dims(rm, 1) < M) & (expand_dims(ka, 0) < K), 0.0f);
    auto tb = load(b + expand_dims(ka, 1) * N + expand_dims(rn, 0), (expand_dims(ka, 1) < K) & (expand_dims(rn, 0) < N), 0.0f);
    return dot(ta, tb, acc, Precision::Tf32);
  });
  store(c + expand_dims(rm, 1) * N + expand_dims(rn, 0), acc, (expand_dims(rm, 1) < M) & (expand_dims(rn, 0) < N));
}

template <int P>
TT_KERNEL void bad_precision(Ptr<f32> a) {
  auto t = load(a + expand_dims(arange(0, 16), 1) * 16 + expand_dims(arange(0, 16), 0));
  store(a + expand_dims(arange(0, 16), 1) * 16 + expand_dims(arange(0, 16), 0), dot(t, t, t, static_cast<Precision>(P)));
}

// c = c + a @ b.
template <int BM, int BN, int BK>
TT_KERNEL void addmm(Ptr<f16> a, Ptr<f16> b, Ptr<f32> c, i32 M, i32 N, i32 K) {
  auto rm = program_id(0) * BM + arange(0, BM);
  auto rn = program_id(1) * BN + arange(0, BN);
  auto rk = arange(0, BK);
  auto cp = c + expand_dims(rm, 1) * N + expand_dims(rn, 0);
  auto acc = for_range(0, K, BK, load(cp), [&](i32 k, Tile<f32> acc) {
    auto ka = rk + k;
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(ka, 0), expand_dims(ka, 0) < K, 0.0f);
    auto tb = load(b + expand_dims(ka, 1) * N + expand_dims(rn, 0), expand_dims(ka, 1) < K, 0.0f);
    return dot(ta, tb, acc);
  });
  store(cp, acc);
}

// c = a @ b, and after each k step the running sum also to `partial`.
template <int BM, int BN, int BK>
TT_KERNEL void progressive(Ptr<f16> a, Ptr<f16> b, Ptr<f32> c, Ptr<f32> partial, i32 K) {
  auto rm = arange(0, BM);
  auto rn = arange(0, BN);
  auto rk = arange(0, BK);
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(rk + k, 0));
    auto tb = load(b + expand_dims(rk + k, 1) * BN + expand_dims(rn, 0));
    auto next = dot(ta, tb, acc);
    store(partial + expand_dims(rm, 1) * BN + expand_dims(rn, 0), next);
    return next;
  });
  store(c + expand_dims(rm, 1) * BN + expand_dims(rn, 0), acc);
}

// BF16: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// BF16: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// BF16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// RES: ptxas: {{[0-9]+ registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack|skipped}}
// I8: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// I8-NOT: .trans
// I8: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// RUN-BF16: ok: linear_relu on emu, grid (2, 3, 1), 128 threads, {{sm_90a|sm_80}}: matches the interpreter on 20670 elements of 4 buffers
// RUN-I8: ok: qgemm on emu, grid (4, 2, 1), 256 threads, sm_90a: matches the interpreter on 29200 elements of 3 buffers
// FMA-NOT: mma.sync
// FMA-NOT: ldmatrix
// FMA: fma.rn.f32
// MATMUL: .reqntid 128, 1, 1
// MATMUL: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// MATMUL: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// MATMUL: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PIPE3: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// PIPE3: cp.async.commit_group;
// PIPE3: cp.async.wait_group 1;
// PIPE3: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PIPE3: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PIPE3: cp.async.wait_all;
// PIPE2: cp.async.wait_group 0;
// NOPIPE-NOT: cp.async
// NOPIPE: mma.sync.aligned
// RUN-PIPE: ok: linear_relu on emu, grid (2, 3, 1), 128 threads, sm_90a: matches the interpreter
// RUN-PIPE-I8: ok: qgemm on emu, grid (4, 2, 1), 128 threads, sm_90a: matches the interpreter
// STORES-NOT: cp.async
// STORES: mma.sync.aligned
// RUN-STORES: ok: progressive on emu
// RUN-ADDMM: ok: addmm on emu, grid (2, 2, 1), 128 threads, sm_90a: matches the interpreter
// TF32: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// TF32-IR: dot {precision = "tf32"}
// RUN-TF32: ok: tf32_matmul on emu, grid (2, 2, 1), 128 threads, sm_90a: matches the interpreter
// BAD-PRECISION: tensor_cores.cpp:{{[0-9]+}}:81: error: dot: the precision must be Precision::Ieee or Precision::Tf32
// DYN: .extern .shared .align 1024 .b8 twintile_smem[];
// DYN: cp.async.wait_group 2;
// DYN-MANIFEST: "shared_bytes": 81920,
// DYN-MANIFEST-NEXT: "dynamic_shared_bytes": 81920,
// DYN-RES: ptxas: {{[0-9]+ registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack, 0 bytes smem \+ 81920 bytes dynamic smem|skipped}}
// RUN-DYN: ok: linear_relu on emu, grid (2, 2, 1), 128 threads, sm_90a: matches the interpreter
// DYN-80: note: num_stages 6 needs more shared memory than a block may use on sm_80; pipelined with 5
