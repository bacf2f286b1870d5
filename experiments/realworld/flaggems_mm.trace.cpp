// FlagGems general matrix multiply C = A @ B, rewritten for the tracing front end (the rest
// as in flaggems_mm.cpp): the native loop over K blocks becomes for_range carrying acc.
// Upstream: flag-gems 5.0.2, flag_gems/ops/mm.py, mm_kernel_general (and its helper
// prev_multiple_of). Launch: grid (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),), program ids
// grouped GROUP_M block rows at a time for L2 reuse; f16 A [M, K], B [K, N] and C [M, N]
// (row-major strides), accumulated in f32 by tl.dot: full K blocks in a device loop, then
// the last (masked) block peeled. One config (BLOCK_M 32, BLOCK_N 32, BLOCK_K 16, num_warps
// 4) and GROUP_M 8, as the wrapper passes it. Triton rebinds rm, rn (to i64), acc (to C's
// type) and the parameter C (to a tile of pointers); C++ cannot change a variable's type,
// so those are rm64, rn64, acc_c and C_tile.
#include <twintile.h>
#include <type_traits>
using namespace tt;

// The largest multiple of b below a.
inline i32 prev_multiple_of(i32 a, int b) { return cdiv(a, b) * b - b; }

template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M>
TT_KERNEL void mm_kernel_general(Ptr<f16> A, Ptr<f16> B, Ptr<f16> C, i32 M, i32 N, i32 K, i32 stride_am,
                                 i32 stride_ak, i32 stride_bk, i32 stride_bn, i32 stride_cm, i32 stride_cn) {
  kernel_options({.num_warps = 4});
  // matrix multiplication
  auto pid = program_id(0);
  auto grid_m = cdiv(M, BLOCK_M);
  auto grid_n = cdiv(N, BLOCK_N);
  // program ids reordered for L2 reuse
  auto width = GROUP_M * grid_n;
  auto group_id = pid / width;
  auto group_size = minimum(grid_m - group_id * GROUP_M, GROUP_M);
  auto pid_m = group_id * GROUP_M + (pid % group_size);
  auto pid_n = (pid % width) / (group_size);
  // the product itself
  auto rm = pid_m * BLOCK_M + arange(0, BLOCK_M);
  auto rn = pid_n * BLOCK_N + arange(0, BLOCK_N);
  auto ram = cast<i64>(max_contiguous(multiple_of(rm % M, BLOCK_M), BLOCK_M));
  auto rbn = cast<i64>(max_contiguous(multiple_of(rn % N, BLOCK_N), BLOCK_N));
  auto rm64 = cast<i64>(rm);
  auto rn64 = cast<i64>(rn);
  auto prev_multiple = prev_multiple_of(K, BLOCK_K);

  auto acc = zeros<f32>({BLOCK_M, BLOCK_N});
  acc = for_range(0, prev_multiple, BLOCK_K, acc, [&](i32 start_k, Tile<f32> acc) {
    auto rk = cast<i64>(start_k + arange(0, BLOCK_K));
    auto a = load(A + (expand_dims(ram, 1) * stride_am + expand_dims(rk, 0) * stride_ak));
    auto b = load(B + (expand_dims(rk, 1) * stride_bk + expand_dims(rbn, 0) * stride_bn));
    if constexpr (!std::is_same_v<decltype(a), decltype(b)>) {
      a = cast<f16>(a);
      b = cast<f16>(b);
    }
    acc += dot(a, b, zeros<f32>({BLOCK_M, BLOCK_N}));
    return acc;
  });

  // the last block, peeled
  auto rk = cast<i64>(prev_multiple + arange(0, BLOCK_K));
  auto mask_k = rk < K;
  auto a = load(A + (expand_dims(ram, 1) * stride_am + expand_dims(rk, 0) * stride_ak), expand_dims(mask_k, 0), 0.0);
  auto b = load(B + (expand_dims(rk, 1) * stride_bk + expand_dims(rbn, 0) * stride_bn), expand_dims(mask_k, 1), 0.0);
  if constexpr (!std::is_same_v<decltype(a), decltype(b)>) {
    a = cast<f16>(a);
    b = cast<f16>(b);
  }
  acc += dot(a, b, zeros<f32>({BLOCK_M, BLOCK_N}));

  auto acc_c = cast<f16>(acc);
  // rm and rn computed again (fewer live registers)
  rm64 = cast<i64>(pid_m * BLOCK_M + arange(0, BLOCK_M));
  rn64 = cast<i64>(pid_n * BLOCK_N + arange(0, BLOCK_N));
  auto C_tile = C + (expand_dims(rm64, 1) * stride_cm + expand_dims(rn64, 0) * stride_cn);
  auto mask = expand_dims(rm64 < M, 1) & expand_dims(rn64 < N, 0);
  // the write-back
  store(C_tile, acc_c, mask);
}
