// FlagGems softmax over the last (inner) dimension, rewritten for the tracing front end:
// the four native device loops become for_range (the rest as in flaggems_softmax_inner.cpp).
// Upstream: flag-gems 5.0.2, flag_gems/ops/softmax.py, softmax_kernel_inner (and its
// helper prev_multiple_of). Launch: grid (M,), one program per row of N contiguous
// f32 values; num_warps 4. ONE_TILE_PER_CTA = false takes the looped path: an online
// max/sum pass over column blocks, then a pass writing exp(x - m) / z, the first
// (masked) block specialized.
#include <twintile.h>
using namespace tt;

// The largest multiple of b below a (Triton: tl.cdiv(a, b) * b - b).
inline i32 prev_multiple_of(i32 a, int b) { return (a + b - 1) / b * b - b; }

template <int TILE_N, bool ONE_TILE_PER_CTA>
TT_KERNEL void softmax_kernel_inner(Ptr<f32> output_ptr, Ptr<f32> input_ptr, i32 M, i32 N) {
  kernel_options({.num_warps = 4});
  auto pid_m = program_id(0);
  if constexpr (ONE_TILE_PER_CTA) {
    auto n_offsets = arange(0, TILE_N);
    auto offset = pid_m * N + n_offsets;
    auto input_ptrs = input_ptr + offset;
    auto mask = n_offsets < N;
    auto inp = load(input_ptrs, mask, -inf);
    auto m = max(inp, 0);
    auto e = exp(inp - m);
    auto z = sum(e, 0);
    auto out = e / z;
    auto output_ptrs = output_ptr + offset;
    store(output_ptrs, out, mask);
  } else {
    auto m = full<f32>({TILE_N}, -inf);
    auto z = full<f32>({TILE_N}, 0.0f);
    input_ptr += pid_m * N;
    output_ptr += pid_m * N;

    auto previous_multiple = prev_multiple_of(N, TILE_N);
    auto [m1, z1] = for_range(0, previous_multiple, TILE_N, m, z, [&](i32 start_n, Tile<f32> m, Tile<f32> z) {
      auto n_offsets = start_n + arange(0, TILE_N);
      auto inp = load(input_ptr + n_offsets);
      auto m_new = maximum(m, inp);
      auto all_neg_inf = m_new == -inf;
      z = where(all_neg_inf, z, z * exp(m - m_new) + exp(inp - m_new));
      m = m_new;
      return carry(m, z);
    });
    m = m1, z = z1;
    // the last, partial block
    auto [m2, z2] = for_range(previous_multiple, N, TILE_N, m, z, [&](i32 start_n, Tile<f32> m, Tile<f32> z) {
      auto n_offsets = start_n + arange(0, TILE_N);
      auto mask = n_offsets < N;
      auto inp = load(input_ptr + n_offsets, mask, -inf);
      auto m_new = maximum(m, inp);
      auto all_neg_inf = m_new == -inf;
      z = where(all_neg_inf, z, z * exp(m - m_new) + exp(inp - m_new));
      m = m_new;
      return carry(m, z);
    });
    m = m2, z = z2;

    auto m_reduced = max(m, 0);
    z = sum(z * exp(m - m_reduced), 0);
    m = m_reduced;

    previous_multiple = prev_multiple_of(N, TILE_N);
    // the first block written is the partial one
    for_range(0, TILE_N, TILE_N, [&](i32 start_n) {
      auto n_offsets = (previous_multiple - start_n) + arange(0, TILE_N);
      auto mask = n_offsets < N;
      auto inp = load(input_ptr + n_offsets, mask, -inf, {.eviction_policy = Evict::First});
      auto o = exp(inp - m) / z;
      store(output_ptr + n_offsets, o, mask);
    });
    for_range(TILE_N, N, TILE_N, [&](i32 start_n) {
      auto n_offsets = (previous_multiple - start_n) + arange(0, TILE_N);
      auto inp = load(input_ptr + n_offsets, {.eviction_policy = Evict::First});
      auto o = exp(inp - m) / z;
      store(output_ptr + n_offsets, o);
    });
  }
}
