// rmsnorm: y = x / sqrt(mean(x^2) + eps) * w over each row, in f32.
// Meant for: T in {f16, bf16, f32}, BLOCK in {256, 1024} with BLOCK >= n_cols; grid:
// one program per row.
#include <twintile.h>
using namespace tt;

template <typename T, int BLOCK>
TT_KERNEL void rmsnorm(Ptr<T> x, Ptr<T> y, Ptr<f32> w, i32 n_cols, i32 stride, f32 eps) {
  auto cols = arange(0, BLOCK);
  auto mask = cols < n_cols;
  auto row = program_id(0) * stride;
  auto v = cast<f32>(load(x + row + cols, mask, 0.0f));
  auto rms = rsqrt(sum(v * v, 0) / cast<f32>(n_cols) + eps);
  store(y + row + cols, cast<T>(v * rms * load(w + cols, mask, 0.0f)), mask);
}
