// row_argmax: for each row, the index of its largest element (the first on ties) and
// that element.
// Meant for: BLOCK in {128, 1024} with BLOCK >= n_cols; grid: one program per row.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void row_argmax(Ptr<f32> x, Ptr<i32> index, Ptr<f32> value, i32 n_cols, i32 stride) {
  auto cols = arange(0, BLOCK);
  auto row = program_id(0);
  auto v = load(x + row * stride + cols, cols < n_cols, -inf);
  store(index + row, argmax(v, 0));
  store(value + row, max(v, 0));
}
