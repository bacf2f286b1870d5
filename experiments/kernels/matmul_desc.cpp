// matmul_desc: matmul.cpp's product through tensor descriptors (Triton's
// tl.make_tensor_descriptor), as Triton writes it for TMA: each program one
// BM x BN block of C, its K loop loading both operands' blocks by descriptor,
// the result stored by descriptor; out-of-bounds elements read as zero and
// are not written, so ragged M, N and K need no masks.
// Not in the corpus (corpus.json): the tensor-core suite compiles it beside
// Triton's matmul_desc (experiments/baselines/triton_kernels.py), for TMA on
// sm_90a. Grid (cdiv(M, BM), cdiv(N, BN)).
#include <twintile.h>
using namespace tt;

template <int BM, int BN, int BK>
TT_KERNEL void matmul_desc(Ptr<f16> a, Ptr<f16> b, Ptr<f16> c, i32 M, i32 N, i32 K) {
  auto da = make_tensor_descriptor(a, {M, K}, {K, 1}, {BM, BK});
  auto db = make_tensor_descriptor(b, {K, N}, {N, 1}, {BK, BN});
  auto dc = make_tensor_descriptor(c, {M, N}, {N, 1}, {BM, BN});
  i32 rm = program_id(0) * BM, rn = program_id(1) * BN;
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    return dot(da.load({rm, k}), db.load({k, rn}), acc);
  });
  dc.store({rm, rn}, cast<f16>(acc));
}
