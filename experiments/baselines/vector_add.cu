// Handwritten CUDA baseline for experiments/kernels/vector_add.cpp:
//
//   template <int BLOCK> vector_add(Ptr<f32> x, Ptr<f32> y, Ptr<f32> out, i32 n)
//   out[i] = x[i] + y[i] for i in [pid * BLOCK, pid * BLOCK + BLOCK), masked by i < n.
//
// Launch like the corpus kernel: grid cdiv(n, BLOCK), 128 threads (num_warps = 4).
// Entry points, one per corpus specialization (spec `vector_add<B>` -> `vector_add_B`):
//   vector_add_128, vector_add_256, vector_add_1024.
//
// Each thread owns BLOCK / 128 elements, grouped in VEC-wide chunks (VEC <= 4 floats,
// i.e. up to 128-bit accesses); chunk k of thread t starts at element (k * 128 + t) * VEC
// of the block, so a warp's accesses are contiguous and coalesced. Every block but the
// last is full: it moves its chunks as unmasked vectors when all three pointers are
// VEC-aligned (a block-uniform test; blocks start at pid * BLOCK, a multiple of VEC).
// The tail block (or misaligned pointers) goes element by element under the mask, with
// the same element-to-thread mapping.
//
// Correctness (host-less argument): (k, t, j) -> (k * 128 + t) * VEC + j is a bijection
// from [0, BLOCK/(128 VEC)) x [0, 128) x [0, VEC) onto [0, BLOCK), so every element of
// the program's block is handled exactly once, by the same index arithmetic as
// `program_id(0) * BLOCK + arange(0, BLOCK)` (i32, as in the corpus). Elements with
// i >= n are neither loaded nor stored, as under the corpus's mask; the vector path is
// taken only when the whole block is below n, so it touches no masked element. No
// aliasing is ruled out (no __restrict__): in-place calls (out == x) behave as in the
// corpus kernel, since each element is read before its own store and by no other thread.

constexpr int kThreads = 128;  // num_warps = 4

template <int N>
struct alignas(4 * N) Floats {
  float v[N];
};

template <int BLOCK>
__device__ __forceinline__ void vectorAdd(const float *x, const float *y, float *out, int n) {
  static_assert(BLOCK % kThreads == 0, "BLOCK must be a multiple of the thread count");
  constexpr int kPerThread = BLOCK / kThreads;
  constexpr int VEC = kPerThread < 4 ? kPerThread : 4;
  constexpr int kChunks = kPerThread / VEC;
  using Pack = Floats<VEC>;
  const int base = blockIdx.x * BLOCK;  // i32, as program_id(0) * BLOCK
  const int tid = threadIdx.x;
  const auto bits = reinterpret_cast<unsigned long long>(x) | reinterpret_cast<unsigned long long>(y) |
                    reinterpret_cast<unsigned long long>(out);
  if (VEC > 1 && base + BLOCK <= n && bits % sizeof(Pack) == 0) {
    // Full block: unmasked vector accesses, all loads before any store (as the corpus
    // kernel loads both tiles before storing, so out == x stays correct).
    Pack a[kChunks], b[kChunks];
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const int i = base + (k * kThreads + tid) * VEC;
      a[k] = *reinterpret_cast<const Pack *>(x + i);
      b[k] = *reinterpret_cast<const Pack *>(y + i);
    }
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const int i = base + (k * kThreads + tid) * VEC;
#pragma unroll
      for (int j = 0; j < VEC; ++j) a[k].v[j] += b[k].v[j];
      *reinterpret_cast<Pack *>(out + i) = a[k];
    }
    return;
  }
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {  // tail block (or misaligned): masked scalars
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      const int i = base + (k * kThreads + tid) * VEC + j;
      if (i < n) out[i] = x[i] + y[i];
    }
  }
}

#define VECTOR_ADD(BLOCK)                                                                 \
  extern "C" __global__ void __launch_bounds__(kThreads)                                 \
      vector_add_##BLOCK(const float *x, const float *y, float *out, int n) {            \
    vectorAdd<BLOCK>(x, y, out, n);                                                       \
  }

VECTOR_ADD(128)
VECTOR_ADD(256)
VECTOR_ADD(1024)
