// wgmma's accumulator layout and what reads it. On sm_90a a dot on wgmma
// gives each warp 16 adjacent rows (two 8-row blocks: the MMA layout with
// repsPerWarp 2 along M, `rpw=[2,1]`), where mma.sync's gives a warp 8-row
// blocks 8 * warps apart; a's rows are then staged in order. Everything that
// reads such a tile must follow: reductions along either dim (and argmax's
// first index), a scan along M (its result laid out without the repeats, the
// tile converted: a thread's registers along M are not one run), a scan
// along N (in registers), a transpose, a
// broadcast back, and a second dot reading it as a on mma.sync (N = 8 is no
// wgmma panel) and as a on wgmma. The emulator runs each against the
// interpreter, with ragged M and N; 4 and 8 warps.
// RUN: twintile compile --frontend=parse %s --kernel 'consumers<128, 64, 32>' --emit layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: twintile compile --frontend=trace %s --kernel 'consumers<128, 64, 32>' --emit ptx | FileCheck %s --check-prefix=PTX
// RUN: twintile run --frontend=parse %s --kernel 'consumers<128, 64, 32>' --grid 2 --arg a=8000 --arg b=4000 --arg b2=4000 --arg b3=1000 --arg out=100000 --arg M=200 --arg N=50 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'consumers<128, 64, 32>' --num-warps 8 --grid 2 --arg a=8000 --arg b=4000 --arg b2=4000 --arg b3=1000 --arg out=100000 --arg M=170 --arg N=64 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'consumers<64, 128, 64>' --grid 3 --arg a=16000 --arg b=16000 --arg b2=16000 --arg b3=2000 --arg out=150000 --arg M=150 --arg N=100 | FileCheck %s --check-prefix=RAN
// RUN: twintile compile --frontend=parse %s --kernel 'column_scan<256, 128, 16>' --num-warps 8 --emit layouts | FileCheck %s --check-prefix=SCAN
// RUN: twintile run --frontend=trace %s --kernel 'column_scan<256, 128, 16>' --num-warps 8 --grid 1 --arg a=4096 --arg b=2048 --arg out=32768 | FileCheck %s --check-prefix=RAN-SCAN
#include <twintile.h>
using namespace tt;

// acc = a @ b, BM x BN, then every consumer, each stored at its own place in
// `out` (rows beyond M and columns beyond N masked off).
template <int BM, int BN, int BK>
TT_KERNEL void consumers(Ptr<f16> a, Ptr<f16> b, Ptr<f16> b2, Ptr<f16> b3, Ptr<f32> out, i32 M, i32 N) {
  auto rm = program_id(0) * BM + arange(0, BM);
  auto rn = arange(0, BN), rk = arange(0, BK), r8 = arange(0, 8);
  auto rowOk = expand_dims(rm, 1) < M;
  auto colOk = expand_dims(rn, 0) < N;
  auto ta = load(a + expand_dims(rm, 1) * BK + expand_dims(rk, 0), rowOk, 0.0f);
  auto tb = load(b + expand_dims(rk, 1) * BN + expand_dims(rn, 0));
  auto acc = dot(ta, tb, zeros<f32>({BM, BN}));
  acc = where(rowOk & colOk, acc, zeros<f32>({BM, BN}));
  i32 at = program_id(0) * (6 * BM * BN + 2 * BM + 2 * BN);
  auto tile = expand_dims(rm - program_id(0) * BM, 1) * BN + expand_dims(rn, 0);
  store(out + at + tile, acc - expand_dims(sum(acc, 1), 1) / 64.0f);   // reduce along N, broadcast back
  store(out + at + BM * BN + tile, cumsum(acc, 0));                     // scan along M
  store(out + at + 2 * BM * BN + tile, cumsum(acc, 1));                 // scan along N
  auto tt = trans(acc);                                                 // [BN, BM]
  store(out + at + 3 * BM * BN + expand_dims(rn, 1) * BM + expand_dims(rm - program_id(0) * BM, 0), tt);
  auto p = cast<f16>(acc);
  auto tb2 = load(b2 + expand_dims(rn, 1) * BK + expand_dims(rk, 0));  // [BN, BK]: wgmma again
  store(out + at + 4 * BM * BN + expand_dims(rm - program_id(0) * BM, 1) * BK + expand_dims(rk, 0),
        dot(p, tb2, zeros<f32>({BM, BK})));
  auto tb3 = load(b3 + expand_dims(rn, 1) * 8 + expand_dims(r8, 0));   // [BN, 8]: mma.sync
  store(out + at + 5 * BM * BN + expand_dims(rm - program_id(0) * BM, 1) * 8 + expand_dims(r8, 0),
        dot(p, tb3, zeros<f32>({BM, 8})));
  i32 tail = at + 6 * BM * BN;
  store(out + tail + rm - program_id(0) * BM, max(acc, 1));
  store(out + tail + BM + rm - program_id(0) * BM, cast<f32>(argmax(acc, 1)));
  store(out + tail + 2 * BM + rn, sum(acc, 0));
  store(out + tail + 2 * BM + BN + rn, cast<f32>(argmin(acc, 0)));
}

// LAYOUT: = dot {{.*}} // %{{[0-9]+}}: #blocked<spt=[1,2] tpw=[8,4] rpw=[2,1] wpc=[4,1] order=[1,0] dims=[0,1]>
// LAYOUT: = dot {{.*}} // %{{[0-9]+}}: #blocked<spt=[1,2] tpw=[8,4] rpw=[2,1] wpc=[4,1] order=[1,0] dims=[0,1]>
// LAYOUT: = dot {{.*}} // %{{[0-9]+}}: #blocked<spt=[1,2] tpw=[8,4] wpc=[4,1] order=[1,0] dims=[0,1]>

// PTX-DAG: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// RAN: ok: consumers on emu, {{.*}}: matches the interpreter

// A scan along M of a wgmma result: its result is laid out with one block per
// warp along M (rpw gone), the accumulator converted to it, and the scan runs
// in registers and shuffles; through shared memory, 256 x 128 f32 twice
// would not fit in a block's shared memory.
template <int BM, int BN, int BK>
TT_KERNEL void column_scan(Ptr<f16> a, Ptr<f16> b, Ptr<f32> out) {
  auto rm = arange(0, BM), rn = arange(0, BN), rk = arange(0, BK);
  auto ta = load(a + expand_dims(rm, 1) * BK + expand_dims(rk, 0));
  auto tb = load(b + expand_dims(rk, 1) * BN + expand_dims(rn, 0));
  auto acc = dot(ta, tb, zeros<f32>({BM, BN}));
  store(out + expand_dims(rm, 1) * BN + expand_dims(rn, 0), cumsum(acc, 0));
}

// SCAN: = dot {{.*}} // %{{[0-9]+}}: #blocked<spt=[1,2] tpw=[8,4] rpw=[2,1] wpc=[8,1] order=[1,0] dims=[0,1]>
// SCAN: = cumsum {{.*}} // %{{[0-9]+}}: #blocked<spt=[1,2] tpw=[8,4] wpc=[8,1] order=[1,0] dims=[0,1]>
// RAN-SCAN: ok: column_scan on emu, {{.*}}: matches the interpreter
