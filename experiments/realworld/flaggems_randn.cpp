// FlagGems randn (standard normal floats from Philox random numbers), ported as written.
// Upstream: flag-gems 5.0.2, flag_gems/ops/randn.py, randn_kernel (and its helpers
// pair_uniform_to_normal_fast and high_precision_fast_sin_cos). Launch: grid
// (cdiv(N, BLOCK * 4),); each program draws BLOCK Philox 4x32-10 blocks (key: the 64-bit
// philox_seed; counter: philox_offset + the lane), turns each block's four words into four
// uniforms and, by Box-Muller with polynomial sine and cosine, into four normals, stored
// to four consecutive BLOCK-wide slices of out_ptr (f32). BLOCK 256 and num_warps 8 (the
// first of the autotune configs). uint_to_uniform_float is twintile's
// uniform_float (the same formula). The counters are declared Tile<u32> because Triton
// rebinds the scalar c0 to a tile (`c0 += i4`); Python's tuple results are std::pair.
#include <twintile.h>
#include <utility>
using namespace tt;

inline std::pair<Tile<f32>, Tile<f32>> high_precision_fast_sin_cos(Tile<f32> x) {
  // Normalize to [-π, π]
  auto two_pi = 6.283185307179586;
  x = x - two_pi * floor(x / two_pi + 0.5);
  auto x2 = x * x;

  // --- SIN: 7th-order minimax (x * P(x²)) ---
  // Coefficients optimized for [-π, π], max error ~1.5e-9
  auto s_c0 = 0.99999999999999999999;
  auto s_c1 = -0.16666666666666666654;
  auto s_c2 = 0.00833333333333332876;
  auto s_c3 = -0.00019841269841269616;
  auto s_c4 = 2.755731922398589e-6;
  auto s_c5 = -2.505210838544172e-8;

  auto sin_x = x * (s_c0 + x2 * (s_c1 + x2 * (s_c2 + x2 * (s_c3 + x2 * (s_c4 + x2 * s_c5)))));

  // --- COS: 6th-order minimax (Q(x²)) ---
  auto c_c0 = 1.0;
  auto c_c1 = -0.49999999999999999983;
  auto c_c2 = 0.04166666666666666636;
  auto c_c3 = -0.00138888888888888742;
  auto c_c4 = 2.4801587301587299e-5;
  auto c_c5 = -2.755731922398581e-7;

  auto cos_x = c_c0 + x2 * (c_c1 + x2 * (c_c2 + x2 * (c_c3 + x2 * (c_c4 + x2 * c_c5))));

  return {sin_x, cos_x};
}

inline std::pair<Tile<f32>, Tile<f32>> pair_uniform_to_normal_fast(Tile<f32> u1, Tile<f32> u2) {
  u1 = maximum(1.0e-7, u1);
  auto theta = 6.283185307179586 * u2;
  auto r = sqrt(-2.0 * log(u1));
  auto [sin_t, cos_t] = high_precision_fast_sin_cos(theta);
  return {r * cos_t, r * sin_t};
}

template <int BLOCK>
TT_KERNEL void randn_kernel(Ptr<f32> out_ptr, i32 N, i64 philox_seed, i64 philox_offset) {
  kernel_options({.num_warps = 8});
  Tile<u32> c0 = cast<u32>(philox_offset & 0xFFFFFFFF);
  Tile<u32> c1 = cast<u32>((philox_offset >> 32) & 0xFFFFFFFF);
  auto i4 = program_id(0) * BLOCK + arange(0, BLOCK);
  c0 += i4;
  auto _O = c0 * 0;
  auto [r0, r1, r2, r3] = philox(philox_seed, c0, c1, _O, _O);
  auto u0 = uniform_float(r0);
  auto u1 = uniform_float(r1);
  auto u2 = uniform_float(r2);
  auto u3 = uniform_float(r3);
  auto [n0, n1] = pair_uniform_to_normal_fast(u0, u1);
  auto [n2, n3] = pair_uniform_to_normal_fast(u2, u3);
  auto off_0 = program_id(0) * BLOCK * 4 + arange(0, BLOCK);
  auto off_1 = off_0 + BLOCK;
  auto off_2 = off_1 + BLOCK;
  auto off_3 = off_2 + BLOCK;

  store(out_ptr + off_0, n0, off_0 < N, {.eviction_policy = Evict::First});
  store(out_ptr + off_1, n1, off_1 < N, {.eviction_policy = Evict::First});
  store(out_ptr + off_2, n2, off_2 < N, {.eviction_policy = Evict::First});
  store(out_ptr + off_3, n3, off_3 < N, {.eviction_policy = Evict::First});
}
