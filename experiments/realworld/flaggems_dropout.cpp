// FlagGems dropout forward with Philox random numbers, ported as written.
// Upstream: flag-gems 5.0.2, flag_gems/ops/dropout.py, dropout_forward_kernel. Launch:
// grid (cdiv(N, BLOCK * 4),); each program draws BLOCK Philox 4x32-10 blocks (key: the
// 64-bit philox_seed; counter: philox_offset + the lane) and uses their four words for
// four consecutive BLOCK-wide slices of X: Y = X / (1 - p) where the uniform word is
// above p, else 0; dropout_mask records which (i1). BLOCK 1024 and num_warps 16 (the
// heuristics' choice for N > 1024). The counters are declared Tile<u32> because Triton
// rebinds the scalar c0 to a tile (`c0 += i4`).
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void dropout_forward_kernel(Ptr<f32> X, Ptr<f32> Y, Ptr<i1> dropout_mask, i32 N, f32 p,
                                      i64 philox_seed, i64 philox_offset) {
  kernel_options({.num_warps = 16});
  constexpr int UNROLL = 4;  // philox generates 128 random bits at a time
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

  auto mask0 = u0 > p;
  auto mask1 = u1 > p;
  auto mask2 = u2 > p;
  auto mask3 = u3 > p;
  p = 1.0 / (1.0 - p);

  auto off_0 = program_id(0) * BLOCK * UNROLL + arange(0, BLOCK);
  auto off_1 = off_0 + BLOCK;
  auto off_2 = off_1 + BLOCK;
  auto off_3 = off_2 + BLOCK;

  auto x0 = load(X + off_0, off_0 < N, 0.0, {.eviction_policy = Evict::First});
  auto x1 = load(X + off_1, off_1 < N, 0.0, {.eviction_policy = Evict::First});
  auto x2 = load(X + off_2, off_2 < N, 0.0, {.eviction_policy = Evict::First});
  auto x3 = load(X + off_3, off_3 < N, 0.0, {.eviction_policy = Evict::First});

  auto y0 = x0 * p * mask0;
  auto y1 = x1 * p * mask1;
  auto y2 = x2 * p * mask2;
  auto y3 = x3 * p * mask3;

  store(dropout_mask + off_0, mask0, off_0 < N, {.eviction_policy = Evict::First});
  store(dropout_mask + off_1, mask1, off_1 < N, {.eviction_policy = Evict::First});
  store(dropout_mask + off_2, mask2, off_2 < N, {.eviction_policy = Evict::First});
  store(dropout_mask + off_3, mask3, off_3 < N, {.eviction_policy = Evict::First});

  store(Y + off_0, y0, off_0 < N, {.eviction_policy = Evict::First});
  store(Y + off_1, y1, off_1 < N, {.eviction_policy = Evict::First});
  store(Y + off_2, y2, off_2 < N, {.eviction_policy = Evict::First});
  store(Y + off_3, y3, off_3 < N, {.eviction_policy = Evict::First});
}
