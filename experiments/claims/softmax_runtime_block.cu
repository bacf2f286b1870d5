// Softmax with its row staged through shared memory, the block size a run-time argument or a
// compile-time constant: the claims suite's test of "block sizes must be compile-time constants
// to vectorize" (experiments/suites/claims.py, `vectorize`), beside the handwritten kernel of
// experiments/baselines/softmax.cu (the block size a template parameter, the row in registers).
//
// softmax.cu keeps each thread's BLOCK / 128 columns in a register array, which needs BLOCK at
// compile time (an array's size is a constant), and moves them in 16-byte vectors written by
// hand. With `block` known only at run time the row goes through dynamic shared memory (sized
// at launch: block floats) and each thread walks its columns in a loop of run-time trip count.
// The same code is instantiated with the block size a run-time argument and with it a
// constant, so that each pair differs in that alone; two loops, each in both forms:
//
//   contiguous  thread t takes the block / 128 columns from t * block / 128 on, one scalar
//               access each, unmasked and their alignment assumed where the thread's columns
//               lie wholly in the row and x's and y's rows are aligned (tested at run time):
//               the compiler's chance to vectorize, its trip count a constant in one form;
//   vector      VEC columns per iteration as one 16-byte access where x's and y's rows are
//               aligned (softmax.cu's chunks, chunk k of thread t at (k * 128 + t) * VEC): the
//               vectors written by hand, their width a constant in both forms.
//
// Entry points: softmax_runtime_{contiguous,vector}_T(x, y, n_cols, stride, block) and
// softmax_constant_{contiguous,vector}_T_1024(x, y, n_cols, stride). Same semantics as the
// corpus kernel: row r = blockIdx.x normalizes columns c < min(n_cols, block) of
// x[r*stride ...] into y; block a multiple of 128. Launch: 128 threads, block * 4 bytes of
// dynamic shared memory. Compiled for their PTX only (nvcc -ptx): the suite counts access
// widths; none is run.

#include "../baselines/common.cuh"

enum class Loop { Contiguous, Vector };

template <typename T, Loop L>
__device__ __forceinline__ void softmaxSharedRow(const T *x, T *y, int n_cols, int stride, int block) {
  constexpr int VEC = 16 / sizeof(T);
  constexpr float kLog2e = 1.4426950408889634f;
  extern __shared__ float row[];  // block floats, given at launch
  __shared__ alignas(16) float maxPartials[kWarps];
  __shared__ alignas(16) float sumPartials[kWarps];

  const T *xr = x + int(blockIdx.x) * stride;
  T *yr = y + int(blockIdx.x) * stride;
  const int end = n_cols < block ? n_cols : block;
  const int vecEnd = aligned<T, VEC>(xr) && aligned<T, VEC>(yr) ? end : 0;
  // A thread's columns: `width` at a time from `first`, `step` apart, while below `last`.
  const int per = block / kThreads;
  const int first = L == Loop::Vector ? threadIdx.x * VEC : threadIdx.x * per;
  const int step = L == Loop::Vector ? kThreads * VEC : per, width = L == Loop::Vector ? VEC : per;
  const int last = L == Loop::Vector ? end : first + per < end ? first + per : end;
  // Contiguous: all the thread's columns in the row, each run of VEC of them 16-byte aligned.
  const bool whole = L == Loop::Contiguous && first + per <= vecEnd && per % VEC == 0;

  float m = -INFINITY;
  if constexpr (L == Loop::Contiguous) {
    if (whole) {
      const T *p = static_cast<const T *>(__builtin_assume_aligned(xr + first, 16));
      for (int j = 0; j < per; ++j) m = fmaxf(m, row[first + j] = toF32(p[j]));
    } else {
      for (int c = first; c < last; ++c) m = fmaxf(m, row[c] = toF32(xr[c]));
    }
  } else {
    for (int c = first; c < end; c += step) {
      float v[VEC];
      loadChunk<T, VEC>(xr, c, end, vecEnd, -INFINITY, v);
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        if (c + j < end) row[c + j] = v[j];
        m = fmaxf(m, v[j]);
      }
    }
  }
  m = blockReduce(m, maxPartials, Max{});

  // Each thread reads back only the columns it wrote: no barrier between the passes.
  float s = 0.0f;
  for (int c = first; c < last; c += step)
    for (int j = 0; j < width && c + j < end; ++j) s += row[c + j] = exp2f((row[c + j] - m) * kLog2e);
  const float inv = 1.0f / blockReduce(s, sumPartials, Sum{});

  if constexpr (L == Loop::Contiguous) {
    if (whole) {
      T *q = static_cast<T *>(__builtin_assume_aligned(yr + first, 16));
      for (int j = 0; j < per; ++j) q[j] = fromF32<T>(row[first + j] * inv);
    } else {
      for (int c = first; c < last; ++c) yr[c] = fromF32<T>(row[c] * inv);
    }
  } else {
    for (int c = first; c < end; c += step) {
      float v[VEC];
#pragma unroll
      for (int j = 0; j < VEC; ++j) v[j] = c + j < end ? row[c + j] * inv : 0.0f;
      storeChunk<T, VEC>(yr, c, end, vecEnd, v);
    }
  }
}

#define SOFTMAX_SHARED(T, BLOCK)                                                                     \
  extern "C" __global__ void __launch_bounds__(kThreads)                                            \
      softmax_runtime_contiguous_##T(const T *x, T *y, int n_cols, int stride, int block) {         \
    softmaxSharedRow<T, Loop::Contiguous>(x, y, n_cols, stride, block);                              \
  }                                                                                                  \
  extern "C" __global__ void __launch_bounds__(kThreads)                                            \
      softmax_runtime_vector_##T(const T *x, T *y, int n_cols, int stride, int block) {             \
    softmaxSharedRow<T, Loop::Vector>(x, y, n_cols, stride, block);                                  \
  }                                                                                                  \
  extern "C" __global__ void __launch_bounds__(kThreads)                                            \
      softmax_constant_contiguous_##T##_##BLOCK(const T *x, T *y, int n_cols, int stride) {         \
    softmaxSharedRow<T, Loop::Contiguous>(x, y, n_cols, stride, BLOCK);                              \
  }                                                                                                  \
  extern "C" __global__ void __launch_bounds__(kThreads)                                            \
      softmax_constant_vector_##T##_##BLOCK(const T *x, T *y, int n_cols, int stride) {             \
    softmaxSharedRow<T, Loop::Vector>(x, y, n_cols, stride, BLOCK);                                  \
  }

using f32 = float;
SOFTMAX_SHARED(f32, 1024)
SOFTMAX_SHARED(f16, 1024)
