// FlagGems embedding forward (a gather of weight rows through an index tensor), ported
// as written. Upstream: flag-gems 5.0.2, flag_gems/ops/embedding.py, embedding_kernel.
// Launch: grid (M,) for M = indices.numel(); program i copies row in_ptr[i] (an i64) of
// the f32 weight matrix, N columns wide (N is a constexpr there, so a template parameter
// here), to row i of out_ptr; BLOCK_SIZE = next_power_of_2(N); num_warps 4 (Triton's
// default: the launch gives none).
#include <twintile.h>
using namespace tt;

template <int N, int BLOCK_SIZE>
TT_KERNEL void embedding_kernel(Ptr<f32> out_ptr, Ptr<i64> in_ptr, Ptr<f32> weight_ptr) {
  kernel_options({.num_warps = 4});
  auto pid = program_id(0);
  out_ptr += pid * N;
  in_ptr += pid;

  auto mask = arange(0, BLOCK_SIZE) < N;
  auto cols = arange(0, BLOCK_SIZE);

  auto row_idx = load(in_ptr);
  weight_ptr += row_idx * N;
  auto embedding_weight = load(weight_ptr + cols, mask, 0.0);
  store(out_ptr + cols, embedding_weight, mask);
}
