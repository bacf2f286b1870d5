// FlagGems layer norm backward, the input gradient, rewritten for the tracing front end
// (the rest as in flaggems_layer_norm_backward.cpp): the two native loops become
// for_range (the first carrying dx_part2 and dx_part3). Upstream: flag-gems 5.0.2,
// flag_gems/ops/layernorm.py, layer_norm_backward_kernel. Launch: grid (cdiv(M,
// BLOCK_ROW_SIZE),); each program takes BLOCK_ROW_SIZE rows of N f32 values and makes two
// passes over their column blocks in device loops: the first sums dy * w and dy * w *
// x_hat, the second writes dX = rstd * (dy * w - (sum1 + x_hat * sum2) / N). One autotune
// config: BLOCK_ROW_SIZE 2, BLOCK_COL_SIZE 2048, num_warps 4. W is given, so Triton's `W
// is None` test (decided when it compiles) takes its else branch, the only one ported (a
// Ptr<f32> parameter cannot be None). Triton rebinds the pointer parameters dY, X, dX,
// Mean, Rstd to tiles of pointers; C++ cannot change a parameter's type, so those tiles
// are dY_rows, X_rows, dX_rows, Mean_rows, Rstd_rows.
#include <twintile.h>
using namespace tt;

template <int BLOCK_ROW_SIZE, int BLOCK_COL_SIZE>
TT_KERNEL void layer_norm_backward_kernel(Ptr<f32> dY, Ptr<f32> X, Ptr<f32> W, Ptr<f32> Mean, Ptr<f32> Rstd,
                                          Ptr<f32> dX, i32 M, i32 N) {
  kernel_options({.num_warps = 4});
  auto pid = program_id(0) * BLOCK_ROW_SIZE + expand_dims(arange(0, BLOCK_ROW_SIZE), 1);
  auto row_mask = pid < M;
  auto dY_rows = dY + pid * N;
  auto X_rows = X + pid * N;
  auto dX_rows = dX + pid * N;
  auto Mean_rows = Mean + pid;
  auto Rstd_rows = Rstd + pid;

  auto mean = cast<f32>(load(Mean_rows, row_mask));
  auto rstd = cast<f32>(load(Rstd_rows, row_mask));

  auto dx_part2 = zeros<f32>({BLOCK_ROW_SIZE, BLOCK_COL_SIZE});
  auto dx_part3 = zeros<f32>({BLOCK_ROW_SIZE, BLOCK_COL_SIZE});

  auto [p2, p3] = for_range(0, N, BLOCK_COL_SIZE, dx_part2, dx_part3,
                            [&](i32 off, Tile<f32> dx_part2, Tile<f32> dx_part3) {
    auto cols = off + arange(0, BLOCK_COL_SIZE);
    auto col_mask = expand_dims(cols, 0) < N;
    auto mask = row_mask && col_mask;
    auto dy = cast<f32>(load(dY_rows + expand_dims(cols, 0), mask));
    auto x = cast<f32>(load(X_rows + expand_dims(cols, 0), mask));
    x = where(mask, x - mean, 0.0);
    auto x_hat = x * rstd;
    auto w = cast<f32>(load(W + cols, cols < N));
    auto dx_hat = dy * w;
    dx_part2 += dx_hat;
    dx_part3 += dx_hat * x_hat;
    return carry(dx_part2, dx_part3);
  });
  dx_part2 = p2, dx_part3 = p3;

  auto dx_2 = expand_dims(sum(dx_part2, 1), 1);
  auto dx_3 = expand_dims(sum(dx_part3, 1), 1);

  for_range(0, N, BLOCK_COL_SIZE, [&](i32 off) {
    auto cols = off + arange(0, BLOCK_COL_SIZE);
    auto col_mask = expand_dims(cols, 0) < N;
    auto mask = row_mask && col_mask;
    auto dy = cast<f32>(load(dY_rows + expand_dims(cols, 0), mask));
    auto x = cast<f32>(load(X_rows + expand_dims(cols, 0), mask));
    auto w = cast<f32>(load(W + cols, cols < N));
    x = where(mask, x - mean, 0.0);
    auto x_hat = x * rstd;
    auto dx_hat = dy * w;
    auto dx = rstd * (dx_hat - (dx_2 + x_hat * dx_3) / N);
    store(dX_rows + cols, dx, mask);
  });
}
