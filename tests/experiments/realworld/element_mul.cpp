// A test fixture for experiments/realworld/check.py: Liger-Kernel 0.8.5's
// element_mul_kernel (liger_kernel/ops/utils.py) ported as written: each row
// of X scaled in place by the scalar at grad_output_ptr, a device loop over
// the row's column blocks. One program per row.
#include <twintile.h>
using namespace tt;

template <int BLOCK_SIZE, int X_col_stride = 1>
TT_KERNEL void element_mul_kernel(Ptr<f32> X_ptr, i32 X_stride, Ptr<f32> grad_output_ptr, i32 n_cols) {
  auto program_id = cast<i64>(tt::program_id(0));
  X_ptr += program_id * X_stride;
  auto grad_output = load(grad_output_ptr);
  for (i32 i = 0; i < n_cols; i += BLOCK_SIZE) {
    auto X_offsets = i + arange(0, BLOCK_SIZE);
    auto X_ptrs = X_ptr + cast<i64>(X_offsets) * X_col_stride;
    auto X_block = load(X_ptrs, X_offsets < n_cols);
    store(X_ptrs, X_block * grad_output, X_offsets < n_cols);
  }
}
