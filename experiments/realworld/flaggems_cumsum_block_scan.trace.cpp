// FlagGems cumsum along rows, the last kernel of its reduce-then-scan scheme, rewritten
// for the tracing front end (the rest as in flaggems_cumsum_block_scan.cpp): the native
// loop becomes for_range carrying prefix (its index is i64, as Triton's, since the bounds
// are). Upstream: flag-gems 5.0.2, flag_gems/ops/cumsum.py,
// reduce_then_scan_block_scan_kernel_row. Launch: grid (M, num_ctas); program (m, n)
// scans tiles_per_cta tiles of TILE_SIZE f32 values of row m, starting from the inclusive
// prefix of the blocks before it (previous_sum_ptr[m, n - 1], 0 for n = 0), carrying the
// running prefix from tile to tile; num_warps 4 (TILE_SIZE <= 2048). The accumulator type
// get_scan_accum_type(f32) is f32; Python's min on tensors is minimum; prefix is declared
// a Tile because sum(x, 0) is a 0-d tile, which a scalar f32 cannot take.
#include <twintile.h>
using namespace tt;

template <int TILE_SIZE>
TT_KERNEL void reduce_then_scan_block_scan_kernel_row(Ptr<f32> in_ptr, Ptr<f32> previous_sum_ptr, Ptr<f32> out_ptr,
                                                      i32 N, i32 num_tiles_n, i32 tiles_per_cta) {
  kernel_options({.num_warps = 4});
  auto pid_m = cast<i64>(program_id(0));
  auto pid_n = cast<i64>(program_id(1));
  auto block_offset = pid_n * (tiles_per_cta * TILE_SIZE);
  auto block_end = minimum(block_offset + tiles_per_cta * TILE_SIZE, N);
  using acc_dtype = f32;

  Tile<acc_dtype> prefix = cast<acc_dtype>(load(previous_sum_ptr + pid_m * num_tiles_n + pid_n - 1, pid_n > 0, 0));
  prefix = for_range(block_offset, block_end, TILE_SIZE, prefix, [&](i64 start, Tile<acc_dtype> prefix) {
    auto offsets = start + arange(0, TILE_SIZE);
    auto mask = offsets < N;
    auto x = cast<acc_dtype>(load(in_ptr + pid_m * N + offsets, mask));
    auto tile_scan = prefix + cumsum(x, 0);
    prefix += sum(x, 0);
    store(out_ptr + pid_m * N + offsets, tile_scan, mask, {.cache_modifier = Cache::Cg});
    return prefix;
  });
}
