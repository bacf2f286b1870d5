// Liger-Kernel's LayerNorm backward, rewritten for the tracing front end (the row loop as for_range,
// carrying dW_row and db_row): each program walks its rows_per_program rows,
// writing dX per row and accumulating partial dW and dB rows (summed over programs by the host).
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/layer_norm.py, _layer_norm_backward_kernel.
// Launch: grid (sm_count,) = (8,), rows_per_program = ceil(37 / 8) = 5 (the last program 2 rows),
// BLOCK_SIZE 1024 and num_warps 4 (calculate_settings(1000)); X, W, Mean, RSTD, DX, DW, DB, DY f32.
#include <twintile.h>
using namespace tt;

template <int rows_per_program, int BLOCK_SIZE, bool COMPUTE_DW = true, bool COMPUTE_DB = true>
TT_KERNEL void _layer_norm_backward_kernel(Ptr<f32> X_ptr, i32 stride_x, Ptr<f32> W_ptr, Ptr<f32> Mean_ptr,
                                           i32 stride_mean, Ptr<f32> RSTD_ptr, i32 stride_rstd, Ptr<f32> DX_ptr,
                                           i32 stride_dx, Ptr<f32> DW_ptr, i32 stride_dw, Ptr<f32> DB_ptr,
                                           i32 stride_db, Ptr<f32> DY_ptr, i32 stride_dy, i32 n_rows, i32 n_cols) {
  kernel_options({.num_warps = 4});
  auto row_block_id = cast<i64>(program_id(0));
  auto row_start = row_block_id * rows_per_program;
  auto row_end = minimum((row_block_id + 1) * rows_per_program, n_rows);
  auto cols = arange(0, BLOCK_SIZE);
  auto mask = cols < n_cols;

  Tile<f32> dW_row = zeros<f32>({BLOCK_SIZE}), db_row = zeros<f32>({BLOCK_SIZE});  // carried, so made always

  // W read once for every row
  auto w = load(W_ptr + cols, mask, 0.0f);
  auto w_f32 = cast<f32>(w);

  auto grads = for_range(row_start, row_end, 1, dW_row, db_row, [&](i64 row_idx, Tile<f32> dW_row, Tile<f32> db_row) {
    auto row_X_ptr = X_ptr + row_idx * stride_x;
    auto row_DX_ptr = DX_ptr + row_idx * stride_dx;
    auto row_DY_ptr = DY_ptr + row_idx * stride_dy;
    auto row_Mean_ptr = Mean_ptr + row_idx * stride_mean;
    auto row_RSTD_ptr = RSTD_ptr + row_idx * stride_rstd;

    auto x = load(row_X_ptr + cols, mask, 0.0f);
    auto dy = load(row_DY_ptr + cols, mask, 0.0f);
    auto mean = load(row_Mean_ptr);
    auto rstd = load(row_RSTD_ptr);

    auto x_f32 = cast<f32>(x);
    auto dy_f32 = cast<f32>(dy);
    auto mean_f32 = cast<f32>(mean);
    auto rstd_f32 = cast<f32>(rstd);

    auto x_hat = (x_f32 - mean_f32) * rstd_f32;
    auto wdy = w_f32 * dy_f32;
    auto c1 = sum(x_hat * wdy, 0) / n_cols;
    auto c2 = sum(wdy, 0) / n_cols;
    auto dx = (wdy - (x_hat * c1 + c2)) * rstd_f32;

    store(row_DX_ptr + cols, dx, mask);

    // this program's share of the weight and bias gradients
    if constexpr (COMPUTE_DW) {
      auto dw = dy_f32 * x_hat;
      dW_row += dw;
    }
    if constexpr (COMPUTE_DB) {
      auto db = dy_f32;
      db_row += db;
    }
    return carry(dW_row, db_row);
  });
  dW_row = grads.a, db_row = grads.b;

  if constexpr (COMPUTE_DW) store(DW_ptr + row_block_id * stride_dw + cols, dW_row, mask);
  if constexpr (COMPUTE_DB) store(DB_ptr + row_block_id * stride_db + cols, db_row, mask);
}
