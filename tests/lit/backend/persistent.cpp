// A persistent matmul in Triton's style (09-persistent-matmul): a grid of
// fewer programs than tiles, each looping over tiles by num_programs in
// grouped order for L2, its K loop pipelined inside the tile loop, and its
// tiles read and written through tensor descriptors. Both front ends give
// the same IR; on sm_90a the inner loop's dot is on wgmma with its copies
// ahead (the outer loop, which stores, is not pipelined) and each tile is
// stored by TMA, on sm_80 on mma.sync with masked stores; the emulator matches the interpreter on ragged sizes, each
// program taking several tiles.
// RUN: twintile diff %s --kernel 'persistent_matmul<64, 64, 32, 4>' | FileCheck %s --check-prefix=SAME
// RUN: twintile compile --frontend=parse %s --kernel 'persistent_matmul<128, 128, 64, 8>' --num-warps 8 --assume-aligned '*' --assume-divisible '*' --emit pipelines | FileCheck %s --check-prefix=PLAN
// RUN: twintile compile --frontend=trace %s --kernel 'persistent_matmul<128, 128, 64, 8>' --num-warps 8 --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=HOPPER
// RUN: twintile compile --frontend=parse %s --kernel 'persistent_matmul<128, 128, 64, 8>' --target sm_80 --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=AMPERE
// RUN: twintile run --frontend=parse %s --kernel 'persistent_matmul<64, 64, 32, 4>' --grid 3 --arg a=20000 --arg b=20000 --arg c=40000 --arg M=200 --arg N=150 --arg K=90 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'persistent_matmul<128, 128, 64, 8>' --num-warps 8 --num-stages 4 --assume-aligned '*' --assume-divisible '*' --grid 5 --arg a=65536 --arg b=65536 --arg c=131072 --arg M=256 --arg N=512 --arg K=128 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'persistent_matmul<128, 128, 64, 8>' --target sm_80 --grid 2 --arg a=40000 --arg b=40000 --arg c=80000 --arg M=200 --arg N=300 --arg K=100 | FileCheck %s --check-prefix=RAN
#include <twintile.h>
using namespace tt;

template <int BM, int BN, int BK, int GROUP>
TT_KERNEL void persistent_matmul(Ptr<f16> a, Ptr<f16> b, Ptr<f16> c, i32 M, i32 N, i32 K) {
  auto da = make_tensor_descriptor(a, {M, K}, {K, 1}, {BM, BK});
  auto db = make_tensor_descriptor(b, {K, N}, {N, 1}, {BK, BN});
  auto dc = make_tensor_descriptor(c, {M, N}, {N, 1}, {BM, BN});
  i32 tiles_m = cdiv(M, BM), tiles_n = cdiv(N, BN);
  for_range(program_id(0), tiles_m * tiles_n, num_programs(0), [&](i32 tile) {
    i32 in_group = GROUP * tiles_n;  // GROUP rows of tiles, walked column by column
    i32 first_m = tile / in_group * GROUP;
    i32 group_m = minimum(tiles_m - first_m, GROUP);
    i32 rm = (first_m + tile % group_m) * BM;
    i32 rn = tile % in_group / group_m * BN;
    auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
      return dot(da.load({rm, k}), db.load({k, rn}), acc);
    });
    dc.store({rm, rn}, cast<f16>(acc));
  });
}

// SAME: equal: the parse and trace IR
// PLAN: not pipelined: 'descriptor_store' at {{.*}} writes memory
// PLAN: pipelined: 2 loads copied 2 iterations ahead into a ring of 3 stages (4 buffers each: the wgmma of one iteration stays in flight into the next); TMA: 32768 bytes a stage, on 4 mbarriers
// PLAN: copied ahead: TMA, 1 box of 128 x 64 f16 through tensor map 0, rows along dim 0, wgmma panels of 128 bytes
// PLAN: copied ahead: TMA, 2 boxes of 64 x 64 f16 through tensor map 1, rows along dim 0, wgmma panels of 128 bytes
// HOPPER-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// HOPPER-DAG: mbarrier.try_wait.parity.shared::cta.b64
// HOPPER-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// HOPPER-DAG: stmatrix.sync.aligned.m8n8.x4.shared.b16
// HOPPER-DAG: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// HOPPER-DAG: cp.async.bulk.wait_group 0;
// HOPPER-NOT: cp.async.cg
// AMPERE: cp.async.cg.shared.global
// AMPERE: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// AMPERE-NOT: wgmma
// AMPERE-NOT: bulk_group
// AMPERE-NOT: stmatrix
// RAN: ok: persistent_matmul on emu, {{.*}}: matches the interpreter
