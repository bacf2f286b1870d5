// Liger-Kernel's sparsemax forward, ported as written: one program per row; from the row sorted in
// descending order (by the host) it finds the support size k (the largest k with 1 + k z_k > sum of the
// first k), the threshold tau = (sum of the support - 1) / k, and writes max(x - tau, 0).
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/sparsemax.py, _sparsemax_forward_kernel.
// Launch: grid (n_rows,) = (13,), BLOCK_SIZE 1024 and num_warps 4 (calculate_settings(1000); num_warps
// is a kernel parameter too); x, sorted_x, o f32; n_cols 1000.
#include <twintile.h>
using namespace tt;

template <int BLOCK_SIZE, int num_warps>
TT_KERNEL void _sparsemax_forward_kernel(Ptr<f32> x_ptr, i32 x_stride_row, Ptr<f32> sorted_x_ptr,
                                         i32 sorted_x_stride_row, Ptr<f32> o_ptr, i32 o_stride_row, i32 n_cols) {
  kernel_options({.num_warps = num_warps});
  auto pid_row = cast<i64>(program_id(0));
  auto ptr_x_data_row = x_ptr + pid_row * x_stride_row;
  auto ptr_sorted_x_data_row = sorted_x_ptr + pid_row * sorted_x_stride_row;
  auto ptr_output_row = o_ptr + pid_row * o_stride_row;

  auto offs = arange(0, BLOCK_SIZE);
  auto mask = offs < n_cols;

  auto z_sorted_block =
      cast<f32>(load(ptr_sorted_x_data_row + offs, mask, -inf, {.cache_modifier = Cache::Cg}));

  auto z_valid = where(mask, z_sorted_block, 0.0f);
  auto cssv = cumsum(z_valid, 0);

  auto r = cast<f32>(offs + 1);
  auto t_vec = (cssv - 1.0f) / r;

  auto support = (z_sorted_block > t_vec) & mask;

  auto k_int = sum(cast<i32>(support), 0);
  auto k_clamped_int = maximum(k_int, 1);
  auto k = cast<f32>(k_clamped_int);

  auto s = sum(where(support, z_sorted_block, 0.0f), 0);

  auto tau = (s - 1.0f) / k;

  auto x_block = cast<f32>(load(ptr_x_data_row + offs, mask, 0.0f, {.cache_modifier = Cache::Cg}));

  auto y = maximum(x_block - tau, 0.0f);

  store(ptr_output_row + offs, cast<f32>(y), mask, {.cache_modifier = Cache::Cs});
}
