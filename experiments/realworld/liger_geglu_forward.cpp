// Liger-Kernel's GEGLU forward, ported as written: one program per row, c = gelu_tanh(a) * b, the
// GELU (tanh approximation) computed in f32 and cast back to b's type before the product.
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/geglu.py, _geglu_tanh_forward_kernel.
// Launch: grid (n_rows,), num_warps 4 (calculate_settings for n_cols <= 1024); a, b, c f32 (Triton's
// interpreter cannot multiply bf16, so the upstream check runs on f32 tensors, which Liger accepts).
#include <twintile.h>
using namespace tt;

template <int n_cols, int BLOCK_SIZE>
TT_KERNEL void _geglu_tanh_forward_kernel(Ptr<f32> a, Ptr<f32> b, Ptr<f32> c, i32 stride) {
  kernel_options({.num_warps = 4});
  auto program_id = cast<i64>(tt::program_id(0));

  a += program_id * stride;
  b += program_id * stride;
  c += program_id * stride;

  auto col_offsets = arange(0, BLOCK_SIZE);
  auto mask = col_offsets < n_cols;
  auto a_row = cast<f32>(load(a + col_offsets, mask, 0));
  auto b_row = load(b + col_offsets, mask, 0);

  // gelu_tanh(a) = 0.5 a (1 + tanh(sqrt(2 / pi) (a + 0.044715 a^3)))
  auto sqrt_2_over_pi = 0.7978845608028654f;
  auto a_cubed = a_row * a_row * a_row;
  auto tanh_arg = sqrt_2_over_pi * (a_row + 0.044715f * a_cubed);
  auto tanh_result = tanh(tanh_arg);
  auto geglu_a = 0.5f * a_row * (1 + tanh_result);
  auto c_row = cast<f32>(geglu_a) * b_row;
  store(c + col_offsets, c_row, mask);
}
