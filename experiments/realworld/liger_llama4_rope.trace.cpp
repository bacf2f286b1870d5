// Liger-Kernel's Llama 4 RoPE, rewritten for the tracing front end (the early return as an if_else
// whose else branch runs the rest of the kernel, a lambda; the two head tests as if_else): one
// program per (batch, seq) position and head rotates the query head and the key head numbered pid_h (where they exist)
// in place by the complex frequencies, BLOCK_SIZE (real, imaginary) pairs at a time; a program past
// the batch returns early. Upstream: liger-kernel 0.8.5, liger_kernel/ops/llama4_rope.py,
// _llama4_rope_kernel. Launch: grid (batch_size * seq_len + 3, max(n_q_heads, n_k_heads)) = (13, 6)
// (3 programs more than upstream's along axis 0, so that the bounds check's early return runs),
// num_warps 2 and num_stages 2 (_select_kernel_meta(20)); q, k f32 (2, 5, 6, 40) and (2, 5, 3, 40),
// freqs (5, 20, 2) f32 (the complex freqs_cis viewed as real); head_dim_half 20, BLOCK_SIZE 16,
// imag_sign 1.0.
#include <twintile.h>
using namespace tt;

template <int head_dim_half, int n_q_heads, int n_k_heads, int BLOCK_SIZE>
TT_KERNEL void _llama4_rope_kernel(Ptr<f32> q_ptr, Ptr<f32> k_ptr, Ptr<f32> freqs_complex_ptr, i32 q_row_stride,
                                   i32 k_row_stride, i32 q_head_stride, i32 k_head_stride, i32 freqs_row_stride,
                                   i32 seq_len, i32 batch_size, f32 imag_sign) {
  kernel_options({.num_warps = 2, .num_stages = 2});
  // 2D grid
  auto pid_bs = cast<i64>(program_id(0));  // over batch*seq
  auto pid_h = program_id(1);              // over heads

  auto batch_idx = pid_bs / seq_len;
  auto seq_idx = pid_bs % seq_len;

  auto rest = [&] {
  // Base pointers for this (batch, seq) position
  auto base_offset = batch_idx * seq_len + seq_idx;
  auto q_base = q_ptr + base_offset * q_row_stride;
  auto k_base = k_ptr + base_offset * k_row_stride;
  auto freq_base = seq_idx * freqs_row_stride;

  // Tiling over dim/2
  for (int d_start = 0; d_start < head_dim_half; d_start += BLOCK_SIZE) {
    auto d_indices = d_start + arange(0, BLOCK_SIZE);
    auto mask_d = d_indices < head_dim_half;

    // Compute offsets for the block
    auto freq_offsets = expand_dims(d_indices, 1) * 2 + expand_dims(arange(0, 2), 0);
    // Load the block
    auto freqs_complex = load(freqs_complex_ptr + freq_base + freq_offsets, expand_dims(mask_d, 1), 0.0f);
    auto [freqs_real, freqs_imag] = split(freqs_complex);
    freqs_imag = freqs_imag * imag_sign;

    // Process one query head per program in pid_h
    if_else(pid_h < n_q_heads, [&] {
      auto q_head_ptr = q_base + pid_h * q_head_stride;
      auto q_real = load(q_head_ptr + d_indices * 2, mask_d, 0.0f);
      auto q_imag = load(q_head_ptr + d_indices * 2 + 1, mask_d, 0.0f);

      // Complex multiply with FMAs: (a+ib)*(c+i d) = (a*c - b*d) + i(a*d + b*c)
      auto new_q_real = fma(q_real, freqs_real, -(q_imag * freqs_imag));
      auto new_q_imag = fma(q_real, freqs_imag, q_imag * freqs_real);

      store(q_head_ptr + d_indices * 2, new_q_real, mask_d);
      store(q_head_ptr + d_indices * 2 + 1, new_q_imag, mask_d);
    }, [] {});

    // Process one key head per program in pid_h
    if_else(pid_h < n_k_heads, [&] {
      auto k_head_ptr = k_base + pid_h * k_head_stride;
      auto k_real = load(k_head_ptr + d_indices * 2, mask_d, 0.0f);
      auto k_imag = load(k_head_ptr + d_indices * 2 + 1, mask_d, 0.0f);

      auto new_k_real = fma(k_real, freqs_real, -(k_imag * freqs_imag));
      auto new_k_imag = fma(k_real, freqs_imag, k_imag * freqs_real);

      store(k_head_ptr + d_indices * 2, new_k_real, mask_d);
      store(k_head_ptr + d_indices * 2 + 1, new_k_imag, mask_d);
    }, [] {});
  }
  };

  // Bounds check
  if_else(batch_idx >= batch_size || seq_idx >= seq_len, [] {}, rest);
}
