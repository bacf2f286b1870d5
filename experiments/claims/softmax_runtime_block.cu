// The handwritten CUDA softmax of experiments/baselines/softmax.cu with its block size a
// runtime argument instead of a template parameter: the claims suite's test of "block sizes
// must be compile-time constants to vectorize" (experiments/suites/claims.py, `vectorize`).
//
// softmax.cu keeps each thread's BLOCK / 128 columns in a register array and moves them in
// 16-byte vectors; both need BLOCK at compile time (an array's size is a constant). With
// `block` known only at run time, the row goes through dynamic shared memory (sized at
// launch: block floats) and each thread walks its columns in a loop of run-time trip
// count. Two ways to write that loop, one entry point each:
//
//   softmax_runtime_scalar_T  one column per iteration, as the loop reads naturally: what
//                             the compiler can make of a run-time bound by itself;
//   softmax_runtime_vector_T  VEC columns per iteration as one 16-byte access where x's and
//                             y's row pointers are aligned (softmax.cu's chunks), the vector
//                             width a constant, the block size still a run-time value.
//
// Same semantics as the corpus kernel: row r = blockIdx.x normalizes columns c < min(n_cols,
// block) of x[r*stride ...] into y. Launch: 128 threads, block * 4 bytes of dynamic shared
// memory. Compiled for its PTX only (nvcc -ptx): the suite counts access widths.

#include "../baselines/common.cuh"

template <typename T>
__device__ __forceinline__ float rowMaxToShared(const T *xr, float *row, int end, int first, int step) {
  float m = -INFINITY;
  for (int c = first; c < end; c += step) {
    float v = toF32(xr[c]);
    row[c] = v;
    m = fmaxf(m, v);
  }
  return m;
}

template <typename T, int VEC>
__device__ __forceinline__ float rowMaxToSharedVec(const T *xr, float *row, int end, int vecEnd) {
  float m = -INFINITY;
  for (int c = threadIdx.x * VEC; c < end; c += kThreads * VEC) {
    float v[VEC];
    loadChunk<T, VEC>(xr, c, end, vecEnd, -INFINITY, v);
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      if (c + j < end) row[c + j] = v[j];
      m = fmaxf(m, v[j]);
    }
  }
  return m;
}

template <typename T, bool Vectorized>
__device__ __forceinline__ void softmaxRuntimeRow(const T *x, T *y, int n_cols, int stride, int block) {
  constexpr int kMaxVec = 16 / sizeof(T);
  constexpr float kLog2e = 1.4426950408889634f;
  extern __shared__ float row[];  // block floats, given at launch
  __shared__ alignas(16) float maxPartials[kWarps];
  __shared__ alignas(16) float sumPartials[kWarps];

  const T *xr = x + int(blockIdx.x) * stride;
  T *yr = y + int(blockIdx.x) * stride;
  const int end = n_cols < block ? n_cols : block;
  const int tid = threadIdx.x;
  const int vecEnd = aligned<T, kMaxVec>(xr) && aligned<T, kMaxVec>(yr) ? end : 0;

  float m = Vectorized ? rowMaxToSharedVec<T, kMaxVec>(xr, row, end, vecEnd)
                       : rowMaxToShared(xr, row, end, tid, kThreads);
  m = blockReduce(m, maxPartials, Max{});

  // Each thread reads back only the columns it wrote: no barrier between the passes.
  const int first = Vectorized ? tid * kMaxVec : tid, step = Vectorized ? kThreads * kMaxVec : kThreads,
            width = Vectorized ? kMaxVec : 1;
  float s = 0.0f;
  for (int c = first; c < end; c += step)
    for (int j = 0; j < width && c + j < end; ++j) s += row[c + j] = exp2f((row[c + j] - m) * kLog2e);
  const float inv = 1.0f / blockReduce(s, sumPartials, Sum{});

  for (int c = first; c < end; c += step) {
    if constexpr (!Vectorized) {
      yr[c] = fromF32<T>(row[c] * inv);
    } else {
      float v[kMaxVec];
#pragma unroll
      for (int j = 0; j < kMaxVec; ++j) v[j] = c + j < end ? row[c + j] * inv : 0.0f;
      storeChunk<T, kMaxVec>(yr, c, end, vecEnd, v);
    }
  }
}

#define SOFTMAX_RUNTIME(T)                                                                           \
  extern "C" __global__ void __launch_bounds__(kThreads)                                            \
      softmax_runtime_scalar_##T(const T *x, T *y, int n_cols, int stride, int block) {             \
    softmaxRuntimeRow<T, false>(x, y, n_cols, stride, block);                                        \
  }                                                                                                  \
  extern "C" __global__ void __launch_bounds__(kThreads)                                            \
      softmax_runtime_vector_##T(const T *x, T *y, int n_cols, int stride, int block) {             \
    softmaxRuntimeRow<T, true>(x, y, n_cols, stride, block);                                         \
  }

using f32 = float;
SOFTMAX_RUNTIME(f32)
SOFTMAX_RUNTIME(f16)
