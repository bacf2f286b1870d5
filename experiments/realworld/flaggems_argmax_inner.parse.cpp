// FlagGems argmax over the last (inner) dimension, rewritten for the parsing front end:
// `if (remainder)` on a device i32 becomes `if (remainder != 0)` (the rest as in
// flaggems_argmax_inner.cpp).
// Upstream: flag-gems 5.0.2, flag_gems/ops/argmax.py, argmax_kernel_inner. Launch: grid
// (M,), one program per row of N contiguous f32 values, writing the row's argmax (the
// first on ties) as an i64; num_warps 4. ONE_TILE_PER_CTA = false takes the looped
// path: N / TILE_N full blocks, then the remainder block under `if (remainder)`.
#include <twintile.h>
using namespace tt;

template <int TILE_N, bool ONE_TILE_PER_CTA>
TT_KERNEL void argmax_kernel_inner(Ptr<f32> inp, Ptr<i64> out_index, i32 M, i32 N) {
  kernel_options({.num_warps = 4});
  auto pid_m = program_id(0);

  auto min_value = -inf;  // get_dtype_min(f32)

  if constexpr (ONE_TILE_PER_CTA) {
    auto n_offset = arange(0, TILE_N);
    auto offset = pid_m * N + n_offset;
    auto mask = n_offset < N;
    auto inp_ptrs = inp + offset;
    auto inp_vals = load(inp_ptrs, mask, min_value);
    auto local_max = max(inp_vals, 0);
    auto local_argmax = argmax(inp_vals, 0);
    auto out_index_ptrs = out_index + pid_m;
    store(out_index_ptrs, local_argmax);
  } else {
    Tile<f32> max_values = min_value;
    Tile<i32> argmax_values = 0;

    auto loop_time = N / TILE_N;
    auto remainder = N % TILE_N;
    for (i32 start_n = 0; start_n < loop_time; start_n += 1) {
      auto n_offset = start_n * TILE_N + arange(0, TILE_N);
      auto offset = pid_m * N + n_offset;
      auto inp_ptrs = inp + offset;
      auto inp_vals = load(inp_ptrs);
      auto local_max = max(inp_vals, 0);
      auto local_argmax = argmax(inp_vals, 0);
      auto update = local_max > max_values;
      max_values = where(update, local_max, max_values);
      argmax_values = where(update, start_n * TILE_N + local_argmax, argmax_values);
    }

    if (remainder != 0) {
      auto n_offset = loop_time * TILE_N + arange(0, TILE_N);
      auto offset = pid_m * N + n_offset;
      auto mask = n_offset < N;
      auto inp_ptrs = inp + offset;
      auto inp_vals = load(inp_ptrs, mask, min_value);
      auto local_max = max(inp_vals, 0);
      auto local_argmax = argmax(inp_vals, 0);
      auto update = local_max > max_values;
      max_values = where(update, local_max, max_values);
      argmax_values = where(update, loop_time * TILE_N + local_argmax, argmax_values);
    }

    auto out_index_ptrs = out_index + pid_m;
    store(out_index_ptrs, argmax_values);
  }
}
