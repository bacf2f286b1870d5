// FlagGems log_softmax along a middle dimension, rewritten for the tracing front end (the
// rest as in flaggems_log_softmax.cpp): the two native loops become for_range (the first
// carrying m and z). Upstream: flag-gems 5.0.2, flag_gems/ops/log_softmax.py,
// log_softmax_kernel. Launch: grid (cdiv(M, BLOCK_M), K) over an input viewed as [M, N, K]
// (the reduced dimension N in the middle, stride K); each program takes BLOCK_M rows at
// one k, runs an online max/sum over N in blocks of BLOCK_N (f32), then a second pass
// writes x - max - log(sum). f16 input and output (the store converts the f32 result); the
// kernel's defaults BLOCK_M 8, BLOCK_N 256, and num_warps 8 as the wrapper launches it.
#include <twintile.h>
using namespace tt;

template <int BLOCK_M, int BLOCK_N>
TT_KERNEL void log_softmax_kernel(Ptr<f16> output_ptr, Ptr<f16> input_ptr, i32 M, i32 N, i32 K) {
  kernel_options({.num_warps = 8});
  auto pid_m = program_id(0);
  auto pid_k = program_id(1);
  auto m_offset = pid_m * BLOCK_M + arange(0, BLOCK_M);

  auto m = full<f32>({BLOCK_M, BLOCK_N}, -inf);
  auto z = full<f32>({BLOCK_M, BLOCK_N}, 0.0);
  auto [m1, z1] = for_range(0, N, BLOCK_N, m, z, [&](i32 start_n, Tile<f32> m, Tile<f32> z) {
    auto n_offset = start_n + arange(0, BLOCK_N);
    auto offset = expand_dims(m_offset, 1) * N * K + expand_dims(n_offset, 0) * K + pid_k;
    auto mask = expand_dims(m_offset, 1) < M && expand_dims(n_offset, 0) < N;
    auto input_ptrs = input_ptr + offset;
    auto inp = cast<f32>(load(input_ptrs, mask, -inf));
    auto m_new = maximum(inp, m);
    auto all_neg_inf = m_new == -inf;
    z = where(all_neg_inf, z, z * exp(m - m_new) + exp(inp - m_new));
    m = m_new;
    return carry(m, z);
  });
  m = m1, z = z1;

  auto m_reduced = max(m, 1);
  z = sum(z * exp(m - expand_dims(m_reduced, 1)), 1);
  m = m_reduced;

  for_range(0, N, BLOCK_N, [&](i32 start_n) {
    auto n_offset = start_n + arange(0, BLOCK_N);
    auto offset = expand_dims(m_offset, 1) * N * K + expand_dims(n_offset, 0) * K + pid_k;
    auto mask = expand_dims(m_offset, 1) < M && expand_dims(n_offset, 0) < N;
    auto input_ptrs = input_ptr + offset;
    auto inp = cast<f32>(load(input_ptrs, mask, -inf));
    auto o = inp - expand_dims(m, 1) - log(expand_dims(z, 1));
    store(output_ptr + offset, o, mask);
  });
}
