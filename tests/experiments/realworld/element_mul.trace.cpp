// A test fixture: element_mul.cpp rewritten for the tracing front end (the
// device loop as for_range).
#include <twintile.h>
using namespace tt;

template <int BLOCK_SIZE, int X_col_stride = 1>
TT_KERNEL void element_mul_kernel(Ptr<f32> X_ptr, i32 X_stride, Ptr<f32> grad_output_ptr, i32 n_cols) {
  auto program_id = cast<i64>(tt::program_id(0));
  X_ptr += program_id * X_stride;
  auto grad_output = load(grad_output_ptr);
  for_range(0, n_cols, BLOCK_SIZE, [&](i32 i) {
    auto X_offsets = i + arange(0, BLOCK_SIZE);
    auto X_ptrs = X_ptr + cast<i64>(X_offsets) * X_col_stride;
    auto X_block = load(X_ptrs, X_offsets < n_cols);
    store(X_ptrs, X_block * grad_output, X_offsets < n_cols);
  });
}
