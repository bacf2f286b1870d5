// FlagGems count_nonzero along a dimension, ported as written. Upstream: flag-gems 5.0.2,
// flag_gems/ops/count_nonzero.py, count_nonzero_kernel. Launch: grid (numel / N,), one
// program per row of N contiguous f32 values (the dimension moved last); a device loop over
// the row's BLOCK_SIZE-wide blocks adds up the nonzero elements in an i64 0-d tile (Triton's
// `tl.full((), value=0, dtype=out_ptr.dtype.element_ty)`), stored to out_ptr[row]. One
// autotune config: BLOCK_SIZE 1024, num_warps 4. tle.program_id is FlagGems's wrapper of
// tl.program_id.
#include <twintile.h>
using namespace tt;

template <int BLOCK_SIZE>
TT_KERNEL void count_nonzero_kernel(Ptr<f32> x_ptr, Ptr<i64> out_ptr, i32 N, i32 numel) {
  kernel_options({.num_warps = 4});
  auto pid_x = program_id(0);

  auto nonzero_count = full<i64>({}, 0);
  for (i32 start_n = 0; start_n < N; start_n += BLOCK_SIZE) {
    auto cols_offsets = start_n + arange(0, BLOCK_SIZE);
    auto offset = pid_x * N + cols_offsets;
    auto mask = offset < numel && cols_offsets < N;
    auto x = load(x_ptr + offset, mask, 0);
    auto is_nonzero = cast<i64>(x != 0);
    nonzero_count += sum(is_nonzero);
  }

  store(out_ptr + pid_x, nonzero_count);
}
