// Shared by the handwritten CUDA baselines: 16-bit float storage with PTX
// conversions (cuda_fp16.h needs CCCL, which the pinned wheels lack), vector
// chunks of up to 16 bytes under a column mask, and a block-wide reduction
// (a warp butterfly, then every thread reads the four warps' partials).
#pragma once

#include <cstdint>

constexpr int kThreads = 128;  // num_warps = 4
constexpr int kWarps = kThreads / 32;

struct f16 { uint16_t bits; };   // IEEE binary16 storage
struct bf16 { uint16_t bits; };  // bfloat16 storage

__device__ __forceinline__ float toF32(float v) { return v; }
__device__ __forceinline__ float toF32(f16 v) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v.bits));
  return f;
}
__device__ __forceinline__ float toF32(bf16 v) { return __uint_as_float(uint32_t(v.bits) << 16); }

template <typename T> __device__ __forceinline__ T fromF32(float v);
template <> __device__ __forceinline__ float fromF32<float>(float v) { return v; }
template <> __device__ __forceinline__ f16 fromF32<f16>(float v) {
  f16 h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.bits) : "f"(v));
  return h;
}
template <> __device__ __forceinline__ bf16 fromF32<bf16>(float v) {
  bf16 h;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h.bits) : "f"(v));
  return h;
}

// N elements moved as one access (two for 32 bytes of f32: 16 bytes is the widest).
template <typename T, int N>
struct alignas(sizeof(T) * N < 16 ? sizeof(T) * N : 16) Pack {
  T v[N];
};

template <typename T, int VEC>
__device__ __forceinline__ bool aligned(const T *p) {
  return reinterpret_cast<uintptr_t>(p) % alignof(Pack<T, VEC>) == 0;
}

// Columns c .. c+VEC-1 of p as f32, `other` where c + j >= n: one vector access when the
// chunk lies below vecEnd, else element by element. vecEnd is n when p is aligned for
// Pack<T, VEC>, else 0: one compare per chunk, where a loop-invariant "aligned" flag
// would have nvcc unswitch the row loop into two copies of the kernel.
template <typename T, int VEC>
__device__ __forceinline__ void loadChunk(const T *p, int c, int n, int vecEnd, float other, float (&out)[VEC]) {
  if (VEC > 1 && c + VEC <= vecEnd) {
    const Pack<T, VEC> pk = *reinterpret_cast<const Pack<T, VEC> *>(p + c);
#pragma unroll
    for (int j = 0; j < VEC; ++j) out[j] = toF32(pk.v[j]);
  } else {
#pragma unroll
    for (int j = 0; j < VEC; ++j) out[j] = c + j < n ? toF32(p[c + j]) : other;
  }
}

template <typename T, int VEC>
__device__ __forceinline__ void storeChunk(T *p, int c, int n, int vecEnd, const float (&in)[VEC]) {
  if (VEC > 1 && c + VEC <= vecEnd) {
    Pack<T, VEC> pk;
#pragma unroll
    for (int j = 0; j < VEC; ++j) pk.v[j] = fromF32<T>(in[j]);
    *reinterpret_cast<Pack<T, VEC> *>(p + c) = pk;
  } else {
#pragma unroll
    for (int j = 0; j < VEC; ++j)
      if (c + j < n) p[c + j] = fromF32<T>(in[j]);
  }
}

struct Max { __device__ float operator()(float a, float b) const { return fmaxf(a, b); } };
struct Sum { __device__ float operator()(float a, float b) const { return a + b; } };

// Every thread gets the reduction over the whole block; partials[] is this reduction's own.
template <typename Op>
__device__ __forceinline__ float blockReduce(float v, float (&partials)[kWarps], Op op) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  if (threadIdx.x % 32 == 0) partials[threadIdx.x / 32] = v;
  __syncthreads();
  v = partials[0];
#pragma unroll
  for (int w = 1; w < kWarps; ++w) v = op(v, partials[w]);
  return v;
}

