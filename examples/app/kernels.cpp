// bias_relu_rowmax: y = max(x * scale + bias, 0) along each row of x (n_cols
// columns, rows `stride` elements apart), and each row's largest y in
// rowmax. Grid: one program per row, BLOCK >= n_cols.
#include <twintile.h>

#include "block.h"

using namespace tt;

template <typename T, int BLOCK = kBlock>
TT_KERNEL void bias_relu_rowmax(Ptr<T> x, Ptr<f32> bias, Ptr<T> y, Ptr<f32> rowmax, i32 n_cols, i32 stride,
                                f32 scale) {
  auto cols = arange(0, BLOCK);
  auto mask = cols < n_cols;
  auto row = program_id(0);
  auto v = cast<f32>(load(x + row * stride + cols, mask, 0.0f)) * scale + load(bias + cols, mask, 0.0f);
  auto out = maximum(v, 0.0f);
  store(y + row * stride + cols, cast<T>(out), mask);
  store(rowmax + row, max(where(mask, out, 0.0f), 0));
}
