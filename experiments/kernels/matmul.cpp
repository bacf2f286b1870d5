// matmul: C[M, N] = A[M, K] @ B[K, N], row-major f16 in, f32 accumulation, f16 out.
// One program computes a BM x BN block of C, looping over K in steps of BK with
// for_range and dot; masks make ragged M, N and K exact.
// Meant for: (BM, BN, BK) in {(16, 16, 16), (32, 32, 16), (64, 64, 32)}; grid
// (cdiv(M, BM), cdiv(N, BN)).
#include <twintile.h>
using namespace tt;

template <int BM, int BN, int BK>
TT_KERNEL void matmul(Ptr<f16> a, Ptr<f16> b, Ptr<f16> c, i32 M, i32 N, i32 K) {
  auto rm = program_id(0) * BM + arange(0, BM);
  auto rn = program_id(1) * BN + arange(0, BN);
  auto rk = arange(0, BK);
  auto acc = zeros<f32>({BM, BN});
  acc = for_range(0, K, BK, acc, [&](i32 k, Tile<f32> acc) {
    auto ka = rk + k;
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(ka, 0),
                   (expand_dims(rm, 1) < M) & (expand_dims(ka, 0) < K), 0.0f);
    auto tb = load(b + expand_dims(ka, 1) * N + expand_dims(rn, 0),
                   (expand_dims(ka, 1) < K) & (expand_dims(rn, 0) < N), 0.0f);
    return dot(ta, tb, acc);
  });
  auto mask = (expand_dims(rm, 1) < M) & (expand_dims(rn, 0) < N);
  store(c + expand_dims(rm, 1) * N + expand_dims(rn, 0), cast<f16>(acc), mask);
}
