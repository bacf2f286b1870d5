// Handwritten CUDA baseline for experiments/kernels/softmax.cpp:
//
//   template <typename T, int BLOCK> softmax(Ptr<T> x, Ptr<T> y, i32 n_cols, i32 stride)
//   row r = program_id(0): y[r*stride + c] = exp(v_c - max v) / sum exp(v - max v) for
//   c < min(n_cols, BLOCK), v = f32(x[r*stride + c]); masked columns load as -inf.
//
// Launch like the corpus kernel: one block per row, 128 threads (num_warps = 4).
// Entry points, one per corpus specialization (spec `softmax<T,B>` -> `softmax_T_B`):
//   softmax_{f16,bf16,f32}_{128,256,512,1024}.
//
// f16/bf16 are handled as raw 16-bit storage with PTX conversions (below), not through
// cuda_fp16.h/cuda_bf16.h: those need CCCL's <nv/target>, which the pinned CUDA wheels of
// scripts/setup do not ship. The generated PTX is the same cvt instructions.
//
// Each thread owns BLOCK / 128 columns in VEC-wide chunks (VEC elements = up to 16 bytes);
// chunk k of thread t starts at column (k * 128 + t) * VEC, so warps access contiguous,
// coalesced memory. A chunk moves as one vector when x's and y's row pointers are aligned
// (a block-uniform test: it depends on x, y and stride) and the chunk is wholly below
// n_cols; otherwise element by element under the mask. The row lives in registers: max and sum
// are each one warp butterfly (__shfl_xor_sync) plus one cross-warp step through shared
// memory (4 partials, read back by every thread as one 16-byte load).
//
// Correctness (host-less argument): (k, t, j) -> (k * 128 + t) * VEC + j is a bijection
// onto [0, BLOCK), so each column of `arange(0, BLOCK)` is held by exactly one thread and
// masked exactly when c >= n_cols, as in the corpus. Masked columns hold -inf, so they
// neither raise the max nor add to the sum: exp2((-inf - m) * log2 e) = 0 for finite m.
// An xor butterfly over offsets 16..1 leaves every lane with the reduction of all 32
// lanes; lane 0 of each warp writes its partial before __syncthreads and every thread
// reads all 4 after it, so all threads agree on max and sum. The two reductions use
// distinct shared arrays, so no second barrier is needed before reuse. exp(d) is
// computed from d = v - m (rounded once, as in the corpus) as ex2.approx(d * log2 e)
// (relative error ~2^-22, what tile compilers emit for f32 exp), and e / s as
// e * (1 / s) with an IEEE reciprocal: within a few ulp of the corpus's f32 semantics,
// far inside f16/bf16 rounding. A row of all -inf (or
// n_cols <= 0) gives NaN, as in the corpus. No __restrict__: in-place (y == x) works,
// since each block reads its whole row before writing it, and rows are disjoint.

#include "common.cuh"

template <typename T, int BLOCK>
__device__ __forceinline__ void softmaxRow(const T *x, T *y, int n_cols, int stride) {
  static_assert(BLOCK % kThreads == 0, "BLOCK must be a multiple of the thread count");
  constexpr int kPerThread = BLOCK / kThreads;
  constexpr int kMaxVec = 16 / sizeof(T);
  constexpr int VEC = kPerThread < kMaxVec ? kPerThread : kMaxVec;
  constexpr int kChunks = kPerThread / VEC;
  constexpr float kLog2e = 1.4426950408889634f;
  __shared__ alignas(16) float maxPartials[kWarps];
  __shared__ alignas(16) float sumPartials[kWarps];

  const int row = int(blockIdx.x) * stride;  // i32, as program_id(0) * stride
  const int tid = threadIdx.x;
  const T *xr = x + row;
  T *yr = y + row;
  const int vecEnd = aligned<T, VEC>(xr) && aligned<T, VEC>(yr) ? n_cols : 0;

  float v[kChunks][VEC];
#pragma unroll
  for (int k = 0; k < kChunks; ++k)
    loadChunk(xr, (k * kThreads + tid) * VEC, n_cols, vecEnd, -INFINITY, v[k]);
  float m = -INFINITY;
#pragma unroll
  for (int k = 0; k < kChunks; ++k)
#pragma unroll
    for (int j = 0; j < VEC; ++j) m = fmaxf(m, v[k][j]);
  m = blockReduce(m, maxPartials, Max{});

  float s = 0.0f;  // exp(v - m) as ex2.approx((v - m) * log2 e)
#pragma unroll
  for (int k = 0; k < kChunks; ++k)
#pragma unroll
    for (int j = 0; j < VEC; ++j) s += v[k][j] = exp2f((v[k][j] - m) * kLog2e);
  const float inv = 1.0f / blockReduce(s, sumPartials, Sum{});

#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
#pragma unroll
    for (int j = 0; j < VEC; ++j) v[k][j] *= inv;
    storeChunk(yr, (k * kThreads + tid) * VEC, n_cols, vecEnd, v[k]);
  }
}

#define SOFTMAX(T, BLOCK)                                                                \
  extern "C" __global__ void __launch_bounds__(kThreads)                                \
      softmax_##T##_##BLOCK(const T *x, T *y, int n_cols, int stride) {                 \
    softmaxRow<T, BLOCK>(x, y, n_cols, stride);                                          \
  }

using f32 = float;
#ifdef SOFTMAX_ONE_T  // one alone (the claims suite: -DSOFTMAX_ONE_T=f32 -DSOFTMAX_ONE_BLOCK=1024)
#define SOFTMAX_ONE(T, BLOCK) SOFTMAX(T, BLOCK)  // expands the two before SOFTMAX pastes them
SOFTMAX_ONE(SOFTMAX_ONE_T, SOFTMAX_ONE_BLOCK)
#else
SOFTMAX(f16, 128)
SOFTMAX(f16, 256)
SOFTMAX(f16, 512)
SOFTMAX(f16, 1024)
SOFTMAX(bf16, 128)
SOFTMAX(bf16, 256)
SOFTMAX(bf16, 512)
SOFTMAX(bf16, 1024)
SOFTMAX(f32, 128)
SOFTMAX(f32, 256)
SOFTMAX(f32, 512)
SOFTMAX(f32, 1024)
#endif
