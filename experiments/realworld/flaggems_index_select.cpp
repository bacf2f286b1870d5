// FlagGems index_select along the last dimension, ported as written. Upstream:
// flag-gems 5.0.2, flag_gems/ops/index_select.py, index_select_kernel. Launch: grid
// (cdiv(M, BLOCK_M), cdiv(index_len, BLOCK_N)); out[r, j] = inp[r, index[j]] for the M
// rows of N f32 values, index an i64 vector; indices outside [0, N) are skipped (their
// outputs are not written). BLOCK_M and BLOCK_N as the heuristics pick them for N = 100
// (4 and 16); num_warps 4 (Triton's default: the launch gives none).
#include <twintile.h>
using namespace tt;

template <int BLOCK_M, int BLOCK_N>
TT_KERNEL void index_select_kernel(Ptr<f32> inp, Ptr<f32> out, i32 M, i32 N, Ptr<i64> index, i32 index_len) {
  kernel_options({.num_warps = 4});
  auto pid_x = program_id(0);
  auto pid_y = program_id(1);
  auto rows_offsets = pid_x * BLOCK_M + expand_dims(arange(0, BLOCK_M), 1);
  auto rows_mask = rows_offsets < M;
  auto cols_offsets = pid_y * BLOCK_N + arange(0, BLOCK_N);

  auto out_mask = rows_mask && (cols_offsets < index_len);

  auto indices = load(index + cols_offsets, cols_offsets < index_len, 0);
  auto valid_lower_bound = indices >= 0;
  auto valid_upper_bound = indices < N;
  auto index_valid_mask = valid_lower_bound & valid_upper_bound;

  auto inp_off = rows_offsets * N + expand_dims(indices, 0);
  auto out_off = rows_offsets * index_len + expand_dims(cols_offsets, 0);

  auto final_mask = out_mask & index_valid_mask;
  auto selected = load(inp + inp_off, final_mask, 0.0);
  store(out + out_off, selected, final_mask);
}
