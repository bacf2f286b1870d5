// Liger-Kernel's LayerNorm forward, ported as written: one program per row; mean and variance in
// f32 over the row (the padding masked out of the variance), y = (x - mean) rstd w + b, and the row's
// mean and rstd stored for the backward pass.
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/layer_norm.py, _layer_norm_forward_kernel.
// Launch: grid (n_rows,) = (37,), BLOCK_SIZE 1024 and num_warps 4 (calculate_settings(1000)); X, Y,
// W, B, Mean, RSTD f32.
#include <twintile.h>
using namespace tt;

template <int BLOCK_SIZE>
TT_KERNEL void _layer_norm_forward_kernel(Ptr<f32> Y_ptr, i32 Y_row_stride, Ptr<f32> X_ptr, i32 X_row_stride,
                                          Ptr<f32> W_ptr, i32 W_row_stride, Ptr<f32> B_ptr, i32 B_row_stride,
                                          Ptr<f32> Mean_ptr, i32 Mean_row_stride, Ptr<f32> RSTD_ptr,
                                          i32 RSTD_row_stride, i32 n_cols, f32 eps) {
  kernel_options({.num_warps = 4});
  auto row_idx = cast<i64>(program_id(0));
  auto col_offsets = arange(0, BLOCK_SIZE);
  auto mask = col_offsets < n_cols;

  // W and B read once, in f32
  auto W_row = load(W_ptr + col_offsets, mask, 0.0f);
  auto B_row = load(B_ptr + col_offsets, mask, 0.0f);
  auto W_f32 = cast<f32>(W_row);
  auto B_f32 = cast<f32>(B_row);

  auto row_X_ptr = X_ptr + row_idx * X_row_stride;
  auto row_Y_ptr = Y_ptr + row_idx * Y_row_stride;
  auto row_Mean_ptr = Mean_ptr + row_idx * Mean_row_stride;
  auto row_RSTD_ptr = RSTD_ptr + row_idx * RSTD_row_stride;

  auto X_row = load(row_X_ptr + col_offsets, mask, 0.0f);
  auto X_f32 = cast<f32>(X_row);

  // the statistics in f32
  auto mean = sum(X_f32, 0) / n_cols;
  auto X_centered = X_f32 - mean;
  auto X_centered_masked = where(mask, X_centered, 0.0f);
  auto var = sum(X_centered_masked * X_centered_masked, 0) / n_cols;
  auto rstd = rsqrt(var + cast<f32>(eps));

  store(row_Mean_ptr, mean);
  store(row_RSTD_ptr, rstd);

  auto Y_f32 = X_centered * rstd * W_f32 + B_f32;

  store(row_Y_ptr + col_offsets, cast<f32>(Y_f32), mask);
}
