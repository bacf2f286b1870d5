// Liger-Kernel's RMSNorm forward, ported as written: one program per row, y = x * rstd * (offset + w),
// rstd = 1 / sqrt(mean(x^2) + eps) also cached per row.
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/rms_norm.py, _rms_norm_forward_kernel.
// Launch: grid (n_rows,), num_warps 4 (calculate_settings for n_cols <= 1024); X, W, Y, RSTD f32
// (so every .to(tl.float32) is a no-op), casting_mode 0 (llama), elementwise_affine.
#include <twintile.h>
using namespace tt;

constexpr int _CASTING_MODE_NONE = -1;
constexpr int _CASTING_MODE_LLAMA = 0;
constexpr int _CASTING_MODE_GEMMA = 1;

template <int casting_mode, bool elementwise_affine, int BLOCK_SIZE>
TT_KERNEL void _rms_norm_forward_kernel(Ptr<f32> Y_ptr, i32 Y_row_stride, Ptr<f32> X_ptr, i32 X_row_stride,
                                        Ptr<f32> W_ptr, i32 W_row_stride, Ptr<f32> RSTD_ptr, i32 RSTD_row_stride,
                                        i32 n_cols, f32 eps, f32 offset) {
  kernel_options({.num_warps = 4});
  auto row_idx = cast<i64>(program_id(0));
  auto col_offsets = arange(0, BLOCK_SIZE);
  auto mask = col_offsets < n_cols;

  auto y_base = Y_ptr + row_idx * Y_row_stride;
  auto x_base = X_ptr + row_idx * X_row_stride;
  auto rstd_base = RSTD_ptr + row_idx * RSTD_row_stride;

  auto X_row = load(x_base + col_offsets, mask, 0);
  Tile<f32> W_row;
  if constexpr (elementwise_affine) W_row = load(W_ptr + col_offsets, mask, 0);

  // f32 in, so the llama and gemma up-casts keep the type
  if constexpr (casting_mode == _CASTING_MODE_LLAMA) X_row = cast<f32>(X_row);
  if constexpr (casting_mode == _CASTING_MODE_GEMMA) {
    if constexpr (elementwise_affine) W_row = cast<f32>(W_row);
    X_row = cast<f32>(X_row);
  }
  if constexpr (casting_mode == _CASTING_MODE_NONE) {
    eps = cast<f32>(eps);
    offset = cast<f32>(offset);
  } else {
    eps = cast<f32>(eps);
    offset = cast<f32>(offset);
  }

  auto mean_square = sum(X_row * X_row, 0) / n_cols;
  auto rstd = rsqrt(mean_square + eps);
  store(rstd_base, rstd);

  X_row = X_row * rstd;
  if constexpr (casting_mode == _CASTING_MODE_LLAMA) X_row = cast<f32>(X_row);

  Tile<f32> Y_row;
  if constexpr (elementwise_affine) Y_row = X_row * (offset + W_row);
  else Y_row = X_row;
  if constexpr (casting_mode == _CASTING_MODE_GEMMA) Y_row = cast<f32>(Y_row);

  store(y_base + col_offsets, Y_row, mask);
}
