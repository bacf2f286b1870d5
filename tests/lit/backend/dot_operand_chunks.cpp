// A load only tensor-core dots read takes chunks as wide as its pointer's
// contiguity allows (16 bytes: 8 f16 along K for a, along N for b) even
// without the alignment promises: the accesses stay 2-byte loads, but the 8
// of a chunk share one address (immediate offsets), and the chunk is staged
// by one 16-byte shared store. Without promises the rows here are ragged (K =
// 37: every row starts at another alignment), so the masks and the narrow
// loads must hold; the emulator runs it against the interpreter on both
// targets, at 4 and 8 warps.
// RUN: twintile compile --frontend=parse %s --kernel 'mm<64, 64, 32>' --emit layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: twintile compile --frontend=trace %s --kernel 'mm<64, 64, 32>' --emit ptx | FileCheck %s --check-prefix=PTX
// RUN: twintile run --frontend=parse %s --kernel 'mm<64, 64, 32>' --grid 2,2 --arg a=4000 --arg b=4000 --arg c=10000 --arg M=100 --arg N=90 --arg K=37 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'mm<64, 64, 32>' --num-warps 8 --target sm_80 --grid 2,2 --arg a=4000 --arg b=4000 --arg c=10000 --arg M=100 --arg N=90 --arg K=37 | FileCheck %s --check-prefix=RAN
#include <twintile.h>
using namespace tt;

template <int BM, int BN, int BK>
TT_KERNEL void mm(Ptr<f16> a, Ptr<f16> b, Ptr<f32> c, i32 M, i32 N, i32 K) {
  auto rm = program_id(0) * BM + arange(0, BM);
  auto rn = program_id(1) * BN + arange(0, BN);
  auto rk = arange(0, BK);
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    auto ka = rk + k;
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(ka, 0),
                   (expand_dims(rm, 1) < M) & (expand_dims(ka, 0) < K), 0.0f);
    auto tb = load(b + expand_dims(ka, 1) * N + expand_dims(rn, 0),
                   (expand_dims(ka, 1) < K) & (expand_dims(rn, 0) < N), 0.0f);
    return dot(ta, tb, acc);
  });
  store(c + expand_dims(rm, 1) * N + expand_dims(rn, 0), acc,
        (expand_dims(rm, 1) < M) & (expand_dims(rn, 0) < N));
}

// LAYOUT: load {{.*}} : tile<64x32xf16> {{.*}} #blocked<spt=[1,8] tpw=[8,4]
// LAYOUT: load {{.*}} : tile<32x64xf16> {{.*}} #blocked<spt=[1,8] tpw=[4,8]
// PTX-NOT: ld.global.v
// PTX: ld.global.b16
// PTX: st.shared.v4.b32
// PTX: wgmma.mma_async
// RAN: ok: mm on emu, {{.*}}: matches the interpreter
