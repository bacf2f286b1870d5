// Liger-Kernel's sparsemax backward, ported as written: one program per row; a first pass over the
// row's column blocks counts the support (o > 0) and sums the incoming gradient on it, a second writes
// gi = go - mean(go over the support) on the support and 0 elsewhere.
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/sparsemax.py, _sparsemax_backward_kernel.
// Launch: grid (n_rows,) = (7,), BLOCK_SIZE 1024 (smaller than upstream's next_power_of_2(n_cols), so
// the loops run 3 blocks), num_warps 4 (a kernel parameter too: calculate_settings's for a 1024
// block); o, go, gi f32; n_cols 2500.
#include <twintile.h>
using namespace tt;

template <int BLOCK_SIZE, int num_warps>
TT_KERNEL void _sparsemax_backward_kernel(Ptr<f32> o_ptr, Ptr<f32> go_ptr, Ptr<f32> gi_ptr, i32 stride, i32 n_cols) {
  kernel_options({.num_warps = num_warps});
  auto row = cast<i64>(program_id(0));
  auto o_row = o_ptr + row * stride;
  auto go_row = go_ptr + row * stride;
  auto gi_row = gi_ptr + row * stride;

  auto offs = arange(0, BLOCK_SIZE);

  Tile<f32> supp_cnt = zeros<f32>({});
  Tile<f32> go_sum = zeros<f32>({});

  for (i32 i = 0; i < cdiv(n_cols, BLOCK_SIZE); i += 1) {
    auto offs_iter = i * BLOCK_SIZE + offs;
    auto mask_iter = offs_iter < n_cols;
    auto o_val = cast<f32>(load(o_row + offs_iter, mask_iter, 0.0f, {.cache_modifier = Cache::Ca}));
    auto go_val = cast<f32>(load(go_row + offs_iter, mask_iter, 0.0f));
    auto supp = o_val > 0.0f;
    go_sum += sum(where(supp, go_val, 0.0f));
    supp_cnt += sum(cast<f32>(supp));
  }

  for (i32 i = 0; i < cdiv(n_cols, BLOCK_SIZE); i += 1) {
    auto offs_iter = i * BLOCK_SIZE + offs;
    auto mask_iter = offs_iter < n_cols;
    auto o_val = cast<f32>(load(o_row + offs_iter, mask_iter, 0.0f, {.cache_modifier = Cache::Ca}));
    auto go_val = cast<f32>(load(go_row + offs_iter, mask_iter, 0.0f));
    auto supp = o_val > 0.0f;
    auto gi_val = where(supp, go_val - cast<f32>(cast<f32>(go_sum / maximum(supp_cnt, 1e-6f))), 0.0f);
    store(gi_row + offs_iter, cast<f32>(gi_val), mask_iter, {.cache_modifier = Cache::Wb});
  }
}
