// Liger-Kernel's fused add + RMSNorm backward, rewritten for the tracing front end (the row loop as
// for_range, carrying dW_row): each program walks its
// rows_per_program rows, accumulating a partial dW row (summed over programs by the host afterwards)
// before dX = rstd * m - (rstd^3 / n_cols) * dot(m, X) * X plus the residual's gradient dS_out.
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/fused_add_rms_norm.py, _fused_add_rms_norm_backward_kernel.
// Launch: grid (sm_count,) = (8,), rows_per_program = ceil(n_rows / 8) = 5, num_warps 4
// (calculate_settings(1000)); dY, dS_out, dX, X (S), W, RSTD, dW f32 (X_dtype f32), casting_mode 0
// (llama), has_dS_out, COMPUTE_DW.
#include <twintile.h>
using namespace tt;

constexpr int _CASTING_MODE_NONE = -1;
constexpr int _CASTING_MODE_LLAMA = 0;
constexpr int _CASTING_MODE_GEMMA = 1;

template <typename X_dtype, int rows_per_program, int casting_mode, int BLOCK_SIZE, bool has_dS_out,
          bool COMPUTE_DW = true>
TT_KERNEL void _fused_add_rms_norm_backward_kernel(Ptr<f32> dY_ptr, i32 dY_row_stride, Ptr<f32> dS_out_ptr,
                                                   i32 dS_out_row_stride, Ptr<f32> dX_ptr, i32 dX_row_stride,
                                                   Ptr<f32> X_ptr, i32 X_row_stride, Ptr<f32> W_ptr,
                                                   i32 W_row_stride, Ptr<f32> RSTD_ptr, i32 RSTD_row_stride,
                                                   Ptr<f32> dW_ptr, i32 dW_row_stride, i32 n_rows, i32 n_cols,
                                                   f32 offset) {
  kernel_options({.num_warps = 4});
  auto row_block_id = cast<i64>(program_id(0));
  auto row_start = row_block_id * rows_per_program;
  auto row_end = minimum((row_block_id + 1) * rows_per_program, n_rows);
  auto col_offsets = arange(0, BLOCK_SIZE);
  auto mask = col_offsets < n_cols;

  Tile<f32> dW_row = zeros<f32>({BLOCK_SIZE});  // carried, so made even without dW

  auto W_row = load(W_ptr + col_offsets, mask, 0.0f);
  W_row = W_row + cast<f32>(offset);

  dW_row = for_range(row_start, row_end, 1, dW_row, [&](i64 row_idx, Tile<f32> dW_row) {
    auto dy_base = dY_ptr + row_idx * dY_row_stride;
    auto dx_base = dX_ptr + row_idx * dX_row_stride;
    auto x_base = X_ptr + row_idx * X_row_stride;
    auto rstd_base = RSTD_ptr + row_idx * RSTD_row_stride;

    auto dY_row = load(dy_base + col_offsets, mask, 0.0f);
    auto X_row = load(x_base + col_offsets, mask, 0.0f);
    auto rstd_row = load(rstd_base);

    X_row = cast<f32>(X_row);

    // Calculate the gradient of W first to reduce peak register liveness
    if constexpr (COMPUTE_DW) {
      if constexpr (casting_mode == _CASTING_MODE_LLAMA) {
        dW_row += dY_row * cast<X_dtype>(X_row * rstd_row);
      } else {
        // here X_row is already in fp32 (see previous cast)
        dW_row += dY_row * (X_row * rstd_row);
      }
    }

    // Different backward graphs for different casting modes
    Tile<f32> m;
    if constexpr (casting_mode == _CASTING_MODE_LLAMA) {
      m = cast<f32>(dY_row * W_row);
    } else if constexpr (casting_mode == _CASTING_MODE_GEMMA) {
      dY_row = cast<f32>(dY_row);
      m = dY_row * W_row;
    } else {
      m = dY_row * W_row;
    }

    // dX = rstd * m - (rstd^3 / n_cols) * dot(m, X) * X + dS_out
    auto dot = sum(m * X_row, 0);
    auto c = -(1.0f / n_cols) * rstd_row * rstd_row * rstd_row * dot;
    auto dX_row = rstd_row * m + c * X_row;

    if constexpr (has_dS_out) {
      auto ds_base = dS_out_ptr + row_idx * dS_out_row_stride;
      auto dS_out_row = load(ds_base + col_offsets, mask, 0.0f);
      dX_row += dS_out_row;
    }

    store(dx_base + col_offsets, cast<X_dtype>(dX_row), mask);
    return dW_row;
  });

  if constexpr (COMPUTE_DW) store(dW_ptr + row_block_id * dW_row_stride + col_offsets, dW_row, mask);
}
