// Kernels written for the run test alone (in no corpus): an affine ReLU over
// the rows of an f16 matrix with a per-column bias, and an integer histogram
// of clipped values with atomic adds.
#include <twintile.h>
using namespace tt;

// y[r, c] = max(x[r, c], 0) * scale + bias[c], one row per program, in f32.
template <int COLS>
TT_KERNEL void relu_affine(Ptr<f16> x, Ptr<f32> bias, Ptr<f16> y, f32 scale, i32 n_cols) {
  auto c = arange(0, COLS);
  auto m = c < n_cols;
  auto row = program_id(0) * n_cols;
  auto v = cast<f32>(load(x + row + c, m, 0.0f));
  store(y + row + c, cast<f16>(maximum(v, 0.0f) * scale + load(bias + c, m, 0.0f)), m);
}

// counts[clamp(v, 0, BINS - 1)] += 1 over the n values, BLOCK per program.
template <int BLOCK, int BINS>
TT_KERNEL void histogram(Ptr<i32> values, Ptr<i32> counts, i32 n) {
  auto i = program_id(0) * BLOCK + arange(0, BLOCK);
  auto m = i < n;
  auto v = minimum(maximum(load(values + i, m, 0), 0), BINS - 1);
  atomic_add(counts + v, full<i32>({BLOCK}, 1), m);
}
