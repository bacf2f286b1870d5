// Liger-Kernel's rotary position embedding, ported as written: one program per token rotates the
// first rd columns of every q and k head in place, [x1, x2] -> [x1 cos - x2 sin, x2 cos + x1 sin].
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/rope.py, _triton_rope (as rope_forward launches it).
// Launch: grid (bsz * seq_len,) = (10,), num_warps 4 (Triton's default); q, k, cos, sin f32;
// bsz 2, seq_len 5, 6 q heads, 3 kv heads, head_dim 40, partial rotary_dim 24, cos batch 1.
#include <twintile.h>
using namespace tt;

template <int bs, int cos_bs, int n_qh, int n_kh, int hd, int pad_n_qh, int pad_n_kh, int pad_hd, int pad_rd,
          int rd, int BLOCK_SIZE, bool BACKWARD_PASS = false>
TT_KERNEL void _triton_rope(Ptr<f32> q_ptr, i32 q_row_stride, Ptr<f32> k_ptr, i32 k_row_stride, Ptr<f32> cos,
                            i32 cos_row_stride, Ptr<f32> sin, i32 sin_row_stride, i32 sl) {
  kernel_options({.num_warps = 4});
  auto pid = cast<i64>(program_id(0));

  q_ptr = q_ptr + pid * q_row_stride;
  k_ptr = k_ptr + pid * k_row_stride;

  // the token's batch and position; cos and sin rows hold the left half only
  auto batch_idx = pid / sl;
  auto cos_row_idx = pid % sl;
  cos = cos + where(cos_bs == 1, cos_row_idx * cos_row_stride,
                    batch_idx * (sl * cos_row_stride) + cos_row_idx * cos_row_stride);
  sin = sin + where(cos_bs == 1, cos_row_idx * sin_row_stride,
                    batch_idx * (sl * sin_row_stride) + cos_row_idx * sin_row_stride);

  auto cos_offsets = arange(0, pad_rd / 2);
  auto cos_mask = cos_offsets < rd / 2;
  auto cos_row = load(cos + cos_offsets, cos_mask, 0);
  auto sin_row = load(sin + cos_offsets, cos_mask, 0);

  // left half of the rotary part of every head
  auto first_half_q_offsets = expand_dims(arange(0, pad_n_qh), 1) * hd + expand_dims(arange(0, pad_rd / 2), 0);
  auto first_half_k_offsets = expand_dims(arange(0, pad_n_kh), 1) * hd + expand_dims(arange(0, pad_rd / 2), 0);
  auto first_q_mask = (expand_dims(arange(0, pad_n_qh), 1) < n_qh) & (expand_dims(arange(0, pad_rd / 2), 0) < rd / 2);
  auto first_k_mask = (expand_dims(arange(0, pad_n_kh), 1) < n_kh) & (expand_dims(arange(0, pad_rd / 2), 0) < rd / 2);
  auto q_tile_1 = cast<f32>(load(q_ptr + first_half_q_offsets, first_q_mask, 0));
  auto k_tile_1 = cast<f32>(load(k_ptr + first_half_k_offsets, first_k_mask, 0));

  // right half
  auto second_half_q_offsets = first_half_q_offsets + (rd / 2);
  auto second_half_k_offsets = first_half_k_offsets + (rd / 2);
  auto second_q_mask = first_q_mask;
  auto second_k_mask = first_k_mask;
  auto q_tile_2 = cast<f32>(load(q_ptr + second_half_q_offsets, second_q_mask, 0));
  auto k_tile_2 = cast<f32>(load(k_ptr + second_half_k_offsets, second_k_mask, 0));

  if constexpr (!BACKWARD_PASS) {
    auto new_q_tile_1 = q_tile_1 * cos_row - q_tile_2 * sin_row;
    store(q_ptr + first_half_q_offsets, new_q_tile_1, first_q_mask);
    auto new_q_tile_2 = q_tile_2 * cos_row + q_tile_1 * sin_row;
    store(q_ptr + second_half_q_offsets, new_q_tile_2, second_q_mask);

    auto new_k_tile_1 = k_tile_1 * cos_row - k_tile_2 * sin_row;
    store(k_ptr + first_half_k_offsets, new_k_tile_1, first_k_mask);
    auto new_k_tile_2 = k_tile_2 * cos_row + k_tile_1 * sin_row;
    store(k_ptr + second_half_k_offsets, new_k_tile_2, second_k_mask);
  } else {
    // the inverse rotation
    auto new_q_tile_1 = q_tile_1 * cos_row + q_tile_2 * sin_row;
    store(q_ptr + first_half_q_offsets, new_q_tile_1, first_q_mask);
    auto new_q_tile_2 = q_tile_2 * cos_row - q_tile_1 * sin_row;
    store(q_ptr + second_half_q_offsets, new_q_tile_2, second_q_mask);

    auto new_k_tile_1 = k_tile_1 * cos_row + k_tile_2 * sin_row;
    store(k_ptr + first_half_k_offsets, new_k_tile_1, first_k_mask);
    auto new_k_tile_2 = k_tile_2 * cos_row - k_tile_1 * sin_row;
    store(k_ptr + second_half_k_offsets, new_k_tile_2, second_k_mask);
  }
}
