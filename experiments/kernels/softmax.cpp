// softmax: each program normalizes one row, y = exp(x - max x) / sum exp(x - max x),
// computed in f32 whatever the storage type T.
// Meant for: T in {f16, bf16, f32}, BLOCK in {128, 256, 512, 1024} with BLOCK >= n_cols;
// grid: one program per row.
#include <twintile.h>
using namespace tt;

template <typename T, int BLOCK>
TT_KERNEL void softmax(Ptr<T> x, Ptr<T> y, i32 n_cols, i32 stride) {
  auto cols = arange(0, BLOCK);
  auto row = program_id(0) * stride;
  auto v = cast<f32>(load(x + row + cols, cols < n_cols, -inf));
  auto e = exp(v - max(v, 0));
  store(y + row + cols, cast<T>(e / sum(e, 0)), cols < n_cols);
}
