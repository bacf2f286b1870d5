// Liger-Kernel's SwiGLU backward, ported as written: one program per row recomputes silu(a * g) from
// the saved inputs and overwrites a and b in place with their gradients, db = dc silu(a g) and
// da = dc (silu(a g) (1 - sigmoid(a g)) + sigmoid(a g)) b g, for the gate multiplier g.
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/swiglu.py, _swiglu_backward_kernel.
// Launch: grid (n_rows,) = (37,), num_warps 4 (calculate_settings(1000)), the one-row path (not
// Blackwell's tiled one); dc, a, b f32; n_cols 1000, BLOCK_SIZE 1024, gate_multiplier 1.5.
#include <twintile.h>
using namespace tt;

template <int n_cols, int BLOCK_SIZE>
TT_KERNEL void _swiglu_backward_kernel(Ptr<f32> dc_ptr, Ptr<f32> a_ptr, Ptr<f32> b_ptr, i32 stride,
                                       f32 gate_multiplier) {
  kernel_options({.num_warps = 4});
  auto program_id = cast<i64>(tt::program_id(0));

  // locate start index
  dc_ptr += program_id * stride;
  a_ptr += program_id * stride;
  b_ptr += program_id * stride;

  auto col_offsets = arange(0, BLOCK_SIZE);
  auto mask = col_offsets < n_cols;

  auto dc_row = load(dc_ptr + col_offsets, mask, 0);
  // sigmoid requires type float32
  auto a_row = cast<f32>(load(a_ptr + col_offsets, mask, 0)) * cast<f32>(gate_multiplier);
  auto b_row = load(b_ptr + col_offsets, mask, 0);

  // recomputation to save memory. a_row already holds a * gate_multiplier.
  auto sig_a = sigmoid(a_row);
  auto silu_a = a_row * sig_a;
  auto db_row = dc_row * silu_a;
  // chain rule pulls an extra factor of gate_multiplier through the pre-activation scaling
  auto da_row = dc_row * (silu_a * (1 - sig_a) + sig_a) * b_row * cast<f32>(gate_multiplier);

  store(a_ptr + col_offsets, da_row, mask);
  store(b_ptr + col_offsets, db_row, mask);
}
