// FlagGems variance and mean along the last dimension by Welford's method, rewritten for
// the tracing front end (the rest as in flaggems_var_mean.cpp): the native loop becomes
// for_range carrying the three tiles.
// Upstream: flag-gems 5.0.2, flag_gems/ops/var_mean.py, var_mean_welford_kernel (and its
// combine function welford_func). Launch: grid (cdiv(M, BLOCK_M),); each program takes
// BLOCK_M rows of N f32 values, keeps per-column running (mean, count, M2) tiles over
// blocks of BLOCK_N columns, then combines them along the row with a tuple reduce; Var =
// M2 / (N - correction). One autotune config: BLOCK_M 4, BLOCK_N 1024, num_warps 4.
// Triton rebinds the pointer parameters X, Var, Mean to tiles of pointers; C++ cannot
// change a parameter's type, so those tiles are X_rows, Var_rows, Mean_rows.
#include <twintile.h>
using namespace tt;

inline auto welford_func(f32 mean_x, f32 count_x, f32 M_x, f32 mean_y, f32 count_y, f32 M_y) {
  auto count = count_x + count_y;
  auto _count = maximum(count, 1);
  auto mc_x = mean_x * count_x;
  auto mc_y = mean_y * count_y;
  auto mean = (mc_x + mc_y) / _count;
  auto M = M_x + mc_x * mean_x + M_y + mc_y * mean_y - count * mean * mean;
  return carry(mean, count, M);
}

template <int BLOCK_M, int BLOCK_N>
TT_KERNEL void var_mean_welford_kernel(Ptr<f32> X, Ptr<f32> Var, Ptr<f32> Mean, i32 M, i32 N, f32 correction) {
  kernel_options({.num_warps = 4});
  // the rows of X this program computes
  auto pid = program_id(0) * BLOCK_M + expand_dims(arange(0, BLOCK_M), 1);
  auto X_rows = X + pid * N;
  auto Var_rows = Var + pid;
  auto Mean_rows = Mean + pid;
  auto row_mask = pid < M;

  auto _mean = zeros<f32>({BLOCK_M, BLOCK_N});
  auto _acc = zeros<f32>({BLOCK_M, BLOCK_N});
  auto _count = zeros<f32>({BLOCK_M, BLOCK_N});
  auto [mean1, acc1, count1] = for_range(0, N, BLOCK_N, _mean, _acc, _count,
                                         [&](i32 off, Tile<f32> _mean, Tile<f32> _acc, Tile<f32> _count) {
    auto cols = off + expand_dims(arange(0, BLOCK_N), 0);
    auto col_mask = cols < N;
    auto mask = row_mask && col_mask;

    auto x = cast<f32>(load(X_rows + cols, mask, 0.0));

    auto count = _count + mask;
    auto cnt = maximum(count, 1);
    auto cur_mean = (_mean * _count + x) / cnt;
    _acc += (x - cur_mean) * (x - _mean) * mask;
    _mean = cur_mean;
    _count = count;
    return carry(_mean, _acc, _count);
  });
  _mean = mean1, _acc = acc1, _count = count1;

  auto [mean, _, acc] = reduce(carry(_mean, _count, _acc), 1, welford_func);
  auto var = acc / (N - correction);
  mean = expand_dims(mean, 1);
  var = expand_dims(var, 1);
  // write mean and var
  store(Mean_rows, mean, row_mask);
  store(Var_rows, var, row_mask);
}
