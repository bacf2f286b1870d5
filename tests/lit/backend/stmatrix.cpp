// stmatrix on sm_90a: a tile in an MMA-family layout (a thread holding
// column pairs of 8x8 blocks, as a dot's result or, here, a [48, 8] load with
// 2-element runs at 2 warps, which its copy's alignment gives it: a load only
// dots read would take runs as long as its rows) is staged for a dot four blocks to an
// instruction, the rest by .x2 and .x1: three blocks left are an x2 and an
// x1, none dropped. The emulator runs it against the interpreter; on sm_80,
// ordinary shared stores.
// RUN: twintile compile --frontend=parse %s --kernel 'oddb<16, 48>' --num-warps 2 --assume-aligned '*' --emit ptx | FileCheck %s --check-prefix=PTX
// RUN: twintile run --frontend=trace %s --kernel 'oddb<16, 48>' --num-warps 2 --assume-aligned '*' --grid 1 --arg a=768 --arg b=384 --arg out=128 --arg copy=384 --arg ld=4 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'oddb<16, 48>' --num-warps 1 --assume-aligned '*' --grid 1 --arg a=768 --arg b=384 --arg out=128 --arg copy=384 --arg ld=4 | FileCheck %s --check-prefix=RAN
// RUN: twintile compile --frontend=parse %s --kernel 'oddb<16, 48>' --num-warps 2 --assume-aligned '*' --target sm_80 --emit ptx | FileCheck %s --check-prefix=AMPERE
// The same instruction writes a layout conversion: a product made f16 and
// stored in 16-byte chunks (the matmul epilogue) goes through shared memory
// by stmatrix and comes back one 16-byte load per chunk.
// RUN: twintile compile --frontend=parse %s --kernel 'epilogue<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=EPI
// The same without a loop: the store's pointers (row offsets plus column
// offsets, index arithmetic only) take the 16-byte chunks of the shape's
// memory ops, not a broadcast row's layout.
// RUN: twintile compile --frontend=parse %s --kernel 'epilogue_once<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=EPI
// RUN: twintile run --frontend=parse %s --kernel 'epilogue_once<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --grid 1 --arg a=2048 --arg b=2048 --arg c=5120 --arg ldc=80 | FileCheck %s --check-prefix=RAN-EPI
// RUN: twintile run --frontend=trace %s --kernel 'epilogue<64, 64, 32>' --assume-aligned '*' --assume-divisible '*' --grid 1 --arg a=2048 --arg b=2048 --arg c=5120 --arg kk=32 --arg ldc=80 | FileCheck %s --check-prefix=RAN-EPI
#include <twintile.h>
using namespace tt;

// b [K, 8] loaded with rows 2 * ld apart (4-byte divisibility: 2-element
// runs), and copied out the same way.
template <int M, int K>
TT_KERNEL void oddb(Ptr<f16> a, Ptr<f16> b, Ptr<f32> out, Ptr<f16> copy, i32 ld) {
  auto rm = arange(0, M), rk = arange(0, K), r8 = arange(0, 8);
  auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(rk, 0));
  auto tb = load(b + expand_dims(rk, 1) * (ld * 2) + expand_dims(r8, 0));
  store(copy + expand_dims(rk, 1) * (ld * 2) + expand_dims(r8, 0), tb);
  store(out + expand_dims(rm, 1) * 8 + expand_dims(r8, 0), dot(ta, tb, zeros<f32>({M, 8})));
}

template <int M, int N, int K>
TT_KERNEL void epilogue(Ptr<f16> a, Ptr<f16> b, Ptr<f16> c, i32 kk, i32 ldc) {
  auto rm = arange(0, M), rn = arange(0, N), rk = arange(0, K);
  auto acc = for_range(0, kk, K, zeros<f32>({M, N}), [&](i32 k, Tile<f32> acc) {
    auto ta = load(a + expand_dims(rm, 1) * kk + expand_dims(rk + k, 0));
    auto tb = load(b + expand_dims(rk + k, 1) * N + expand_dims(rn, 0));
    return dot(ta, tb, acc);
  });
  store(c + expand_dims(rm, 1) * ldc + expand_dims(rn, 0), cast<f16>(acc));
}

template <int M, int N, int K>
TT_KERNEL void epilogue_once(Ptr<f16> a, Ptr<f16> b, Ptr<f16> c, i32 ldc) {
  auto rm = arange(0, M), rn = arange(0, N), rk = arange(0, K);
  auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(rk, 0));
  auto tb = load(b + expand_dims(rk, 1) * N + expand_dims(rn, 0));
  store(c + expand_dims(rm, 1) * ldc + expand_dims(rn, 0), cast<f16>(dot(ta, tb, zeros<f32>({M, N}))));
}

// EPI: stmatrix.sync.aligned.m8n8.x4.shared.b16
// EPI: ld.shared.v4.u32
// EPI: st.global.v4.b32
// RAN-EPI: ok: epilogue{{(_once)?}} on emu, {{.*}}: matches the interpreter
// PTX-DAG: stmatrix.sync.aligned.m8n8.x2.shared.b16
// PTX-DAG: stmatrix.sync.aligned.m8n8.x1.shared.b16
// RAN: ok: oddb on emu, {{.*}}: matches the interpreter
// AMPERE-NOT: stmatrix
