// Handwritten CUDA baseline for experiments/kernels/layernorm.cpp:
//
//   template <typename T, int BLOCK>
//   layernorm(Ptr<T> x, Ptr<T> y, Ptr<f32> w, Ptr<f32> b, i32 n_cols, i32 stride, f32 eps)
//   row r = program_id(0), v = f32(x[r*stride + c]) (0 where c >= n_cols), c < BLOCK:
//   mean = sum v / n_cols; d = (c < n_cols ? v - mean : 0); rstd = rsqrt(sum d^2 / n_cols + eps);
//   y[r*stride + c] = T(d * rstd * w[c] + b[c]) for c < n_cols.
//
// Launch like the corpus kernel: one block per row, 128 threads (num_warps = 4).
// Entry points, one per corpus specialization (spec `layernorm<T,B>` -> `layernorm_T_B`):
//   layernorm_{f16,f32}_{256,1024}.
//
// Same structure as softmax.cu (whose helpers are repeated here so that each baseline
// compiles on its own): f16 as raw 16-bit storage with PTX cvt, each thread owning
// BLOCK / 128 columns in chunks of up to 16 bytes (chunk k of thread t at column
// (k * 128 + t) * VEC), vector accesses when the row (or w, b) pointer is aligned and the
// chunk is wholly below n_cols. The row stays in registers, so the variance is the exact
// two-pass one (sum of squared deviations), not E[x^2] - mean^2. w and b are loaded
// before the first reduction, so their latency hides behind the two block reductions.
//
// Correctness (host-less argument): the (k, t, j) -> column map is a bijection onto
// [0, BLOCK), so each column of `arange(0, BLOCK)` is held by exactly one thread, masked
// exactly when c >= n_cols. Masked columns load 0, so they add nothing to the first sum,
// and d is set to 0 there, so they add nothing to the second; both sums are divided by
// n_cols (IEEE division, as the corpus's f32 `/`). blockReduce leaves every thread with the
// whole block's sum (xor butterfly in each warp, then all 4 warp partials read after one
// barrier); the two sums use distinct shared arrays, so no barrier is needed between
// them. rsqrtf is rsqrt.approx (relative error ~2^-22, what tile compilers emit);
// d * rstd * w + b is one mul and one fma. Masked columns are not stored. No
// __restrict__: y == x works (each block reads its row before writing it).

#include "common.cuh"

template <typename T, int BLOCK>
__device__ __forceinline__ void layernormRow(const T *x, T *y, const float *w, const float *b, int n_cols,
                                             int stride, float eps) {
  static_assert(BLOCK % kThreads == 0, "BLOCK must be a multiple of the thread count");
  constexpr int kPerThread = BLOCK / kThreads;
  constexpr int kMaxVec = 16 / sizeof(T);
  constexpr int VEC = kPerThread < kMaxVec ? kPerThread : kMaxVec;
  constexpr int kChunks = kPerThread / VEC;
  __shared__ alignas(16) float meanPartials[kWarps];
  __shared__ alignas(16) float varPartials[kWarps];

  const int row = int(blockIdx.x) * stride;  // i32, as program_id(0) * stride
  const int tid = threadIdx.x;
  const T *xr = x + row;
  T *yr = y + row;
  const int vecEndXY = aligned<T, VEC>(xr) && aligned<T, VEC>(yr) ? n_cols : 0;
  const int vecEndWB = aligned<float, VEC>(w) && aligned<float, VEC>(b) ? n_cols : 0;

  float v[kChunks][VEC], wk[kChunks][VEC], bk[kChunks][VEC];
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
    const int c = (k * kThreads + tid) * VEC;
    loadChunk(xr, c, n_cols, vecEndXY, 0.0f, v[k]);
    loadChunk(w, c, n_cols, vecEndWB, 0.0f, wk[k]);
    loadChunk(b, c, n_cols, vecEndWB, 0.0f, bk[k]);
  }

  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < kChunks; ++k)
#pragma unroll
    for (int j = 0; j < VEC; ++j) s += v[k][j];
  const float n = float(n_cols);
  const float mean = blockReduce(s, meanPartials, Sum{}) / n;

  float s2 = 0.0f;
#pragma unroll
  for (int k = 0; k < kChunks; ++k)
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      const float d = (k * kThreads + tid) * VEC + j < n_cols ? v[k][j] - mean : 0.0f;
      v[k][j] = d;
      s2 = fmaf(d, d, s2);
    }
  const float rstd = rsqrtf(blockReduce(s2, varPartials, Sum{}) / n + eps);

#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
#pragma unroll
    for (int j = 0; j < VEC; ++j) v[k][j] = fmaf(v[k][j] * rstd, wk[k][j], bk[k][j]);
    storeChunk(yr, (k * kThreads + tid) * VEC, n_cols, vecEndXY, v[k]);
  }
}

#define LAYERNORM(T, BLOCK)                                                                         \
  extern "C" __global__ void __launch_bounds__(kThreads) layernorm_##T##_##BLOCK(                  \
      const T *x, T *y, const float *w, const float *b, int n_cols, int stride, float eps) {      \
    layernormRow<T, BLOCK>(x, y, w, b, n_cols, stride, eps);                                      \
  }

using f32 = float;
LAYERNORM(f16, 256)
LAYERNORM(f16, 1024)
LAYERNORM(f32, 256)
LAYERNORM(f32, 1024)
