// Liger-Kernel's GroupNorm backward, ported as written: one program per (batch, group); a first pass
// over the group's channels adds each channel's dW and dB into DW and DB with atomics (every batch
// adds to the same channels) and sums the two terms c1, c2 of the input gradient; a second pass writes
// dX.
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/group_norm.py, _group_norm_backward_kernel.
// Launch: grid (batch_size, num_groups) = (3, 4), num_warps 4 (Triton's default); every buffer f32
// (dtype tl.float32); 12 channels, 3 per group, hidden_size 300 per channel, BLOCK_SIZE 128 (smaller
// than upstream's next_power_of_2(hidden_size), so the inner loops run 3 blocks).
#include <twintile.h>
using namespace tt;

template <int hidden_size, int channels_per_group, int BLOCK_SIZE, typename dtype>
TT_KERNEL void _group_norm_backward_kernel(Ptr<f32> X_ptr, i32 X_row_stride, i32 X_col_stride, Ptr<f32> W_ptr,
                                           Ptr<f32> Mean_ptr, i32 Mean_ptr_row_stride, i32 Mean_ptr_col_stride,
                                           Ptr<f32> RSTD_ptr, Ptr<f32> DX_ptr, Ptr<f32> DW_ptr, Ptr<f32> DB_ptr,
                                           Ptr<f32> UPSTREAM_ptr) {
  kernel_options({.num_warps = 4});
  auto batch_idx = program_id(0);
  auto group_idx = program_id(1);

  // this batch's rows
  X_ptr += batch_idx * X_row_stride;
  DX_ptr += batch_idx * X_row_stride;
  UPSTREAM_ptr += batch_idx * X_row_stride;

  // Mean and RSTD share their strides
  auto mean = load(Mean_ptr + batch_idx * Mean_ptr_row_stride + group_idx * Mean_ptr_col_stride);
  auto rstd = load(RSTD_ptr + batch_idx * Mean_ptr_row_stride + group_idx * Mean_ptr_col_stride);

  Tile<f32> c1 = 0.0f;
  Tile<f32> c2 = 0.0f;
  auto block_range = arange(0, BLOCK_SIZE);

  // the sums over every channel of the group
  for (i32 channel_idx = group_idx * channels_per_group; channel_idx < (group_idx + 1) * channels_per_group;
       channel_idx += 1) {
    Tile<f32> dW = 0.0f;
    Tile<f32> dB = 0.0f;
    auto W = load(W_ptr + channel_idx);
    for (int i = 0; i < hidden_size; i += BLOCK_SIZE) {
      auto hidden_size_offsets = i + block_range;
      auto mask = hidden_size_offsets < hidden_size;
      auto X = load(X_ptr + channel_idx * X_col_stride + hidden_size_offsets, mask, 0.0f);
      auto UPSTREAM_grad = load(UPSTREAM_ptr + channel_idx * X_col_stride + hidden_size_offsets, mask, 0.0f);

      auto x_hat = (X - mean) * rstd;
      dW += sum(UPSTREAM_grad * x_hat);
      dB += sum(UPSTREAM_grad);

      auto wdy = W * UPSTREAM_grad;
      c1 += sum(x_hat * wdy);
      c2 += sum(wdy);
    }

    // programs of other batches add to the same channel
    atomic_add(DW_ptr + channel_idx, cast<dtype>(dW));
    atomic_add(DB_ptr + channel_idx, cast<dtype>(dB));
  }

  constexpr int N = hidden_size * channels_per_group;
  c1 = c1 / N;
  c2 = c2 / N;

  for (i32 channel_idx = group_idx * channels_per_group; channel_idx < (group_idx + 1) * channels_per_group;
       channel_idx += 1) {
    auto W = load(W_ptr + channel_idx);
    for (int i = 0; i < hidden_size; i += BLOCK_SIZE) {
      auto hidden_size_offsets = i + block_range;
      auto mask = hidden_size_offsets < hidden_size;
      auto X = load(X_ptr + channel_idx * X_col_stride + hidden_size_offsets, mask, 0.0f);
      auto UPSTREAM_grad = load(UPSTREAM_ptr + channel_idx * X_col_stride + hidden_size_offsets, mask, 0.0f);

      auto x_hat = (X - mean) * rstd;
      auto wdy = W * UPSTREAM_grad;
      auto dx = (wdy - (x_hat * c1 + c2)) * rstd;
      store(DX_ptr + channel_idx * X_col_stride + hidden_size_offsets, dx, mask);
    }
  }
}
