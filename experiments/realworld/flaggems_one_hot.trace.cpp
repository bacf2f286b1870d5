// FlagGems one_hot, rewritten for the tracing front end (the rest as in
// flaggems_one_hot.cpp): the native loop over the class blocks becomes for_range. Upstream: flag-gems 5.0.2, flag_gems/ops/one_hot.py,
// one_hot_kernel. Launch: grid (cdiv(numel, BLOCK_M),); each program loads BLOCK_M i64
// class indices and, in a device loop over the num_classes columns in BLOCK_N-wide blocks,
// stores the i64 rows out[i, c] = (index[i] == c). BLOCK_M 32 and BLOCK_N
// min(next_power_of_2(num_classes), 128) as the wrapper picks them; num_warps 4 (Triton's
// default: the launch gives none).
#include <twintile.h>
using namespace tt;

template <int BLOCK_M, int BLOCK_N>
TT_KERNEL void one_hot_kernel(Ptr<i64> index_ptr, Ptr<i64> out_ptr, i32 num_classes, i32 numel) {
  kernel_options({.num_warps = 4});
  auto pid = program_id(0);

  auto row_start = pid * BLOCK_M;
  auto row_offsets = row_start + arange(0, BLOCK_M);
  auto row_mask = row_offsets < numel;

  auto target_classes = load(index_ptr + row_offsets, row_mask, 0);

  for_range(0, num_classes, BLOCK_N, [&](i32 col_st) {
    auto col_offsets = col_st + arange(0, BLOCK_N);
    auto col_mask = col_offsets < num_classes;
    auto result = expand_dims(target_classes, 1) == expand_dims(col_offsets, 0);
    auto result_i64 = cast<i64>(result);
    auto offs_2d = expand_dims(row_offsets, 1) * num_classes + expand_dims(col_offsets, 0);
    store(out_ptr + offs_2d, result_i64, expand_dims(row_mask, 1) & expand_dims(col_mask, 0));
  });
}
