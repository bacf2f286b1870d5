// Softmax with its row staged through shared memory, the block size a run-time argument or a
// compile-time constant: the claims suite's test of "block sizes must be compile-time constants
// to vectorize" (experiments/suites/claims.py, `vectorize`), beside the handwritten kernel of
// experiments/baselines/softmax.cu (the block size a template parameter, the row in registers).
//
// softmax.cu keeps each thread's BLOCK / 128 columns in a register array, which needs BLOCK at
// compile time (an array's size is a constant). With `block` known only at run time the row
// goes through dynamic shared memory (sized at launch: block floats) and each thread walks its
// columns in a loop of run-time trip count. The same code is instantiated with the block size
// a run-time argument and with it a constant, so that each pair differs in that alone; two
// loops, each in both forms:
//
//   scalar  one column per iteration, thread t taking columns t, t + 128, ...: the loop as it
//           reads naturally (a thread's columns are 512 bytes apart: no compiler makes one
//           access of them, whatever the bound);
//   vector  VEC columns per iteration as one 16-byte access where x's and y's row pointers are
//           aligned (softmax.cu's chunks): the vector width a constant.
//
// Entry points: softmax_runtime_{scalar,vector}_T(x, y, n_cols, stride, block) and
// softmax_constant_{scalar,vector}_T_1024(x, y, n_cols, stride). Same semantics as the corpus
// kernel: row r = blockIdx.x normalizes columns c < min(n_cols, block) of x[r*stride ...] into
// y. Launch: 128 threads, block * 4 bytes of dynamic shared memory. Compiled for their PTX only
// (nvcc -ptx): the suite counts access widths; none is run.

#include "../baselines/common.cuh"

template <typename T, int VEC>
__device__ __forceinline__ float rowToShared(const T *xr, float *row, int end, int vecEnd) {
  float m = -INFINITY;
  if constexpr (VEC == 1) {
    for (int c = threadIdx.x; c < end; c += kThreads) {
      float v = toF32(xr[c]);
      row[c] = v;
      m = fmaxf(m, v);
    }
  } else {
    for (int c = threadIdx.x * VEC; c < end; c += kThreads * VEC) {
      float v[VEC];
      loadChunk<T, VEC>(xr, c, end, vecEnd, -INFINITY, v);
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        if (c + j < end) row[c + j] = v[j];
        m = fmaxf(m, v[j]);
      }
    }
  }
  return m;
}

template <typename T, int VEC>
__device__ __forceinline__ void softmaxSharedRow(const T *x, T *y, int n_cols, int stride, int block) {
  constexpr float kLog2e = 1.4426950408889634f;
  extern __shared__ float row[];  // block floats, given at launch
  __shared__ alignas(16) float maxPartials[kWarps];
  __shared__ alignas(16) float sumPartials[kWarps];

  const T *xr = x + int(blockIdx.x) * stride;
  T *yr = y + int(blockIdx.x) * stride;
  const int end = n_cols < block ? n_cols : block;
  const int vecEnd = aligned<T, VEC>(xr) && aligned<T, VEC>(yr) ? end : 0;

  const float m = blockReduce(rowToShared<T, VEC>(xr, row, end, vecEnd), maxPartials, Max{});

  // Each thread reads back only the columns it wrote: no barrier between the passes.
  const int first = threadIdx.x * VEC, step = kThreads * VEC;
  float s = 0.0f;
  for (int c = first; c < end; c += step)
    for (int j = 0; j < VEC && c + j < end; ++j) s += row[c + j] = exp2f((row[c + j] - m) * kLog2e);
  const float inv = 1.0f / blockReduce(s, sumPartials, Sum{});

  for (int c = first; c < end; c += step) {
    if constexpr (VEC == 1) {
      yr[c] = fromF32<T>(row[c] * inv);
    } else {
      float v[VEC];
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[j] = c + j < end ? row[c + j] * inv : 0.0f;
      storeChunk<T, VEC>(yr, c, end, vecEnd, v);
    }
  }
}

#define SOFTMAX_SHARED(T, BLOCK)                                                                     \
  extern "C" __global__ void __launch_bounds__(kThreads)                                            \
      softmax_runtime_scalar_##T(const T *x, T *y, int n_cols, int stride, int block) {             \
    softmaxSharedRow<T, 1>(x, y, n_cols, stride, block);                                             \
  }                                                                                                  \
  extern "C" __global__ void __launch_bounds__(kThreads)                                            \
      softmax_runtime_vector_##T(const T *x, T *y, int n_cols, int stride, int block) {             \
    softmaxSharedRow<T, 16 / sizeof(T)>(x, y, n_cols, stride, block);                                \
  }                                                                                                  \
  extern "C" __global__ void __launch_bounds__(kThreads)                                            \
      softmax_constant_scalar_##T##_##BLOCK(const T *x, T *y, int n_cols, int stride) {             \
    softmaxSharedRow<T, 1>(x, y, n_cols, stride, BLOCK);                                             \
  }                                                                                                  \
  extern "C" __global__ void __launch_bounds__(kThreads)                                            \
      softmax_constant_vector_##T##_##BLOCK(const T *x, T *y, int n_cols, int stride) {             \
    softmaxSharedRow<T, 16 / sizeof(T)>(x, y, n_cols, stride, BLOCK);                                \
  }

using f32 = float;
SOFTMAX_SHARED(f32, 1024)
SOFTMAX_SHARED(f16, 1024)
