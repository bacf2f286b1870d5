// row_cumsum: the inclusive prefix sum of each row.
// Meant for: T in {i32, f32}, BLOCK in {128, 1024} with BLOCK >= n_cols; grid: one
// program per row.
#include <twintile.h>
using namespace tt;

template <typename T, int BLOCK>
TT_KERNEL void row_cumsum(Ptr<T> x, Ptr<T> y, i32 n_cols, i32 stride) {
  auto cols = arange(0, BLOCK);
  auto row = program_id(0) * stride;
  auto mask = cols < n_cols;
  store(y + row + cols, cumsum(load(x + row + cols, mask, 0), 0), mask);
}
