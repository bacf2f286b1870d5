// Liger-Kernel's GroupNorm forward, ported as written: one program per (batch, group) sums x and x^2
// over the group's hidden_size elements in BLOCK_SIZE chunks, then normalizes them with the weight and
// bias of each element's channel, and stores the group's mean and rstd.
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/group_norm.py, _group_norm_forward_kernel.
// Launch: grid (batch_size, num_groups) = (3, 4), num_warps 4 (Triton's default); X, Y, Mean, RSTD,
// W, B f32; 12 channels, 3 per group, 300 elements per channel: hidden_size 900, BLOCK_SIZE 256
// (smaller than upstream's next_power_of_2(hidden_size), so the loops run 4 blocks).
#include <twintile.h>
using namespace tt;

template <int BLOCK_SIZE>
TT_KERNEL void _group_norm_forward_kernel(Ptr<f32> Y_ptr, i32 Y_row_stride, i32 Y_col_stride, Ptr<f32> X_ptr,
                                          i32 X_row_stride, i32 X_col_stride, Ptr<f32> Mean_ptr, i32 Mean_row_stride,
                                          i32 Mean_col_stride, Ptr<f32> RSTD_ptr, i32 RSTD_row_stride,
                                          i32 RSTD_col_stride, Ptr<f32> W_ptr, Ptr<f32> B_ptr, i32 hidden_size,
                                          i32 channels_per_group, f32 eps) {
  kernel_options({.num_warps = 4});
  auto batch_idx = program_id(0);
  auto group_idx = program_id(1);

  X_ptr += batch_idx * X_row_stride + group_idx * X_col_stride;
  Y_ptr += batch_idx * Y_row_stride + group_idx * Y_col_stride;

  auto block_range = arange(0, BLOCK_SIZE);

  // the group's sum and sum of squares
  Tile<f32> s = 0.0f;
  Tile<f32> squared_sum = 0.0f;
  for (i32 i = 0; i < hidden_size; i += BLOCK_SIZE) {
    auto hidden_size_offsets = i + block_range;
    auto mask = hidden_size_offsets < hidden_size;
    auto X = load(X_ptr + hidden_size_offsets, mask, 0.0f);
    s += sum(X);
    squared_sum += sum(X * X);
  }

  auto m = s / hidden_size;

  // var = E[x^2] - E[x]^2
  auto variance = (squared_sum / hidden_size) - (m * m);

  auto rstd = rsqrt(variance + cast<f32>(eps));

  // one pass over the whole group, each element with its own channel's weight and bias
  auto hidden_size_per_channel = hidden_size / channels_per_group;
  for (i32 i = 0; i < hidden_size; i += BLOCK_SIZE) {
    auto hidden_size_offsets = i + block_range;
    auto mask = hidden_size_offsets < hidden_size;
    auto X = load(X_ptr + hidden_size_offsets, mask, m);
    auto local_channel = hidden_size_offsets / hidden_size_per_channel;
    auto global_channel = group_idx * channels_per_group + local_channel;
    auto W = load(W_ptr + global_channel, mask);
    auto B = load(B_ptr + global_channel, mask);
    auto Y = (X - m) * rstd * W + B;
    store(Y_ptr + hidden_size_offsets, Y, mask);
  }

  store(Mean_ptr + batch_idx * Mean_row_stride + group_idx * Mean_col_stride, m);
  store(RSTD_ptr + batch_idx * RSTD_row_stride + group_idx * RSTD_col_stride, rstd);
}
