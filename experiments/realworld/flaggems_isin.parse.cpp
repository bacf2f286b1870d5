// FlagGems isin by comparing every pair, rewritten for the parsing front end (the rest
// as in flaggems_isin.cpp): the reduce's combine function chosen by `invert ? reduce_all
// : reduce_any` becomes a choice between two reduces. Upstream: flag-gems 5.0.2,
// flag_gems/ops/isin.py, isin_by_comparation_kernel (and its helpers
// isin_by_comparation_impl and, from flag_gems/ops/any.py and all.py, reduce_any and
// reduce_all). Launch: grid (ctas_num,); program p takes the BLOCK_M-element tiles p, p
// + ctas_num, ... (tiles_per_cta of them) of the M values of in0, compares each with all
// N values of in1 in blocks of BLOCK_N, and writes whether any matched (all differed
// when invert) to the i1 out. BLOCK_M 1, BLOCK_N 256, num_warps 4: the wrapper's
// launch_arg for M <= 1024. The helper's pointer parameters are rebound to tiles of
// pointers upstream; C++ cannot change a parameter's type, so those tiles are out_rows,
// in0_tile and in1_tile.
#include <twintile.h>
using namespace tt;

inline i1 reduce_any(i1 a, i1 b) { return a || b; }
inline i1 reduce_all(i1 a, i1 b) { return a && b; }

template <int BLOCK_M, int BLOCK_N, bool invert>
inline void isin_by_comparation_impl(i32 global_pid, Ptr<i32> in0_ravel_ptr, Ptr<i32> in1_ravel_ptr, Ptr<i1> out_ptr,
                                     i32 M, i32 N) {
  auto row_off = global_pid * BLOCK_M;
  auto rows = row_off + expand_dims(arange(0, BLOCK_M), 1);
  auto row_mask = rows < M;
  auto out_rows = out_ptr + rows;
  auto in0_tile = in0_ravel_ptr + (rows + zeros<i32>({BLOCK_N}));
  auto in1_tile = in1_ravel_ptr + expand_dims(zeros<i32>({BLOCK_M}), 1);

  auto block = full<i1>({BLOCK_M, BLOCK_N}, invert ? 1 : 0);
  auto in0 = load(in0_tile, row_mask, 0);
  for (i32 col_off = 0; col_off < N; col_off += BLOCK_N) {
    auto cols = col_off + expand_dims(arange(0, BLOCK_N), 0);
    auto col_mask = cols < N;
    auto mask = row_mask && col_mask;
    auto in1 = load(in1_tile + cols, mask, 0);
    block = where(mask, where(invert, block && (in0 != in1), block || (in0 == in1)), invert);
  }
  auto out = invert ? reduce(block, 1, reduce_all) : reduce(block, 1, reduce_any);
  store(out_rows, expand_dims(out, 1), row_mask);
}

template <int BLOCK_M, int BLOCK_N, bool invert>
TT_KERNEL void isin_by_comparation_kernel(Ptr<i32> in0_ravel_ptr, Ptr<i32> in1_ravel_ptr, Ptr<i1> out_ptr, i32 M, i32 N,
                                          i32 tiles_per_cta) {
  kernel_options({.num_warps = 4});
  auto pid = program_id(0);
  auto ctas_num = num_programs(0);
  // grid-stride loop over tiles
  for (i32 j = 0; j < tiles_per_cta; j += 1) {
    auto global_pid = pid + j * ctas_num;
    isin_by_comparation_impl<BLOCK_M, BLOCK_N, invert>(global_pid, in0_ravel_ptr, in1_ravel_ptr, out_ptr, M, N);
  }
}
