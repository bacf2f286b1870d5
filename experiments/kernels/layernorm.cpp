// layernorm (forward): y = (x - mean) / sqrt(var + eps) * w + b over each row,
// statistics in f32; w and b are f32 vectors of n_cols.
// Meant for: T in {f16, f32}, BLOCK in {256, 1024} with BLOCK >= n_cols; grid: one
// program per row.
#include <twintile.h>
using namespace tt;

template <typename T, int BLOCK>
TT_KERNEL void layernorm(Ptr<T> x, Ptr<T> y, Ptr<f32> w, Ptr<f32> b, i32 n_cols, i32 stride, f32 eps) {
  auto cols = arange(0, BLOCK);
  auto mask = cols < n_cols;
  auto row = program_id(0) * stride;
  auto v = cast<f32>(load(x + row + cols, mask, 0.0f));
  auto n = cast<f32>(n_cols);
  auto mean = sum(v, 0) / n;
  auto d = where(mask, v - mean, 0.0f);
  auto rstd = rsqrt(sum(d * d, 0) / n + eps);
  auto out = d * rstd * load(w + cols, mask, 0.0f) + load(b + cols, mask, 0.0f);
  store(y + row + cols, cast<T>(out), mask);
}
