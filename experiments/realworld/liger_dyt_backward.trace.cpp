// Liger-Kernel's DyT (dynamic tanh, y = tanh(alpha x) * gamma + beta) backward, rewritten for the
// tracing front end (the row loop as for_range, carrying da, dg and db):
// a 2-D grid, column blocks along x and a grid-stride loop over rows along y; each program writes dX
// for its rows and partial dgamma, dbeta rows and a partial dalpha, summed by the host afterwards.
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/dyt.py, _dyt_bwd_kernel (autotuned upstream; here
// the config BLOCK_N 1024, num_warps 4, num_stages 1).
// Launch: grid (cdiv(N, BLOCK_N), NUM_SMS) = (1, 8), M 37 rows, N 1000; every buffer f32, HAVE_BETA.
#include <twintile.h>
using namespace tt;

template <bool HAVE_BETA, int N, int BLOCK_N>
TT_KERNEL void _dyt_bwd_kernel(Ptr<f32> DY, Ptr<f32> DX, Ptr<f32> DA, Ptr<f32> DG, Ptr<f32> DB, Ptr<f32> X,
                               Ptr<f32> Alpha, Ptr<f32> Gamma, i32 M) {
  kernel_options({.num_warps = 4, .num_stages = 1});
  auto col = cast<i64>(program_id(0)) * BLOCK_N + arange(0, BLOCK_N);
  auto mask = col < N;
  auto start_row_id = cast<i64>(program_id(1));

  auto alpha = cast<f32>(load(Alpha));
  Tile<f32> da = 0.0f;
  auto gamma = cast<f32>(load(Gamma + col, mask, 0.0f));
  auto dg = zeros<f32>({BLOCK_N});
  Tile<f32> db = zeros<f32>({BLOCK_N});  // carried, so made even without beta
  auto sums = for_range(start_row_id, M, num_programs(1), da, dg, db,
                        [&](i64 row_id, Tile<f32> da, Tile<f32> dg, Tile<f32> db) {
    auto x = cast<f32>(load(X + row_id * N + col, mask, 0.0f));
    auto dy = cast<f32>(load(DY + row_id * N + col, mask, 0.0f));
    auto tanh_x = tanh(alpha * x);
    if constexpr (HAVE_BETA) db += dy;
    dg += dy * tanh_x;
    auto tmp = (1 - tanh_x * tanh_x) * dy * gamma;
    da += sum(x * tmp, 0);
    auto dx = alpha * tmp;
    store(DX + row_id * N + col, dx, mask);
    return carry(da, dg, db);
  });
  da = sums.a, dg = sums.b, db = sums.c;

  store(DG + start_row_id * N + col, dg, mask);
  if constexpr (HAVE_BETA) store(DB + start_row_id * N + col, db, mask);
  store(DA + start_row_id * cdiv(N, 512) + program_id(0), da);
}
