// FlagGems negative log-likelihood loss forward, rewritten for the tracing front end (the
// rest as in flaggems_nll_loss_forward.cpp): `if counter == tl.num_programs(0):` on device
// values becomes if_else. Upstream: flag-gems
// 5.0.2, flag_gems/ops/nllloss.py, nll_loss_forward_kernel. Launch: grid (cdiv(N, BLOCK_N),);
// inp is N x C f32 log-probabilities, tgt N i64 class indices, wgt C f32 class weights;
// each program gathers inp[n, tgt[n]] and wgt[tgt[n]] for its BLOCK_N rows, skipping rows
// whose target is ignore_index. reduction 1 (mean): the block's sums go to out[0] (loss)
// and out[1] (weight) with relaxed atomic adds, out[2] counts the programs done (a
// release add), and the program that sees the count reach num_programs writes
// out[3] = out[0] / out[1]. BLOCK_N 128 (the kernel's default); num_warps 4 (Triton's
// default: the launch gives none). A weight is passed, so only the else branch of Triton's
// compile-time `wgt_ptr is None` test is ported.
#include <twintile.h>
using namespace tt;

template <int reduction, int BLOCK_N>
TT_KERNEL void nll_loss_forward_kernel(Ptr<f32> inp_ptr, Ptr<i64> tgt_ptr, Ptr<f32> wgt_ptr, Ptr<f32> out_ptr,
                                       i32 ignore_index, i32 N, i32 C) {
  kernel_options({.num_warps = 4});
  auto pid_n = program_id(0);
  auto offsets_n = pid_n * BLOCK_N + arange(0, BLOCK_N);

  auto mask_n = offsets_n < N;

  auto tgt = load(tgt_ptr + offsets_n, mask_n, 0);
  device_assert(tgt >= 0 && tgt < C, "Invalid target value");
  auto ignore_mask = !(tgt == ignore_index) && mask_n;

  auto wgt_tgt = cast<f32>(load(wgt_ptr + tgt, ignore_mask, 0));

  auto inp_tgt_ptrs = inp_ptr + offsets_n * C + tgt;
  auto inp_tgt = cast<f32>(load(inp_tgt_ptrs, ignore_mask, 0));
  auto out = inp_tgt * wgt_tgt * -1;

  // none
  if constexpr (reduction == 0) {
    store(out_ptr + offsets_n, out, mask_n);
  }
  // mean
  else if constexpr (reduction == 1) {
    auto total_out = sum(out);
    auto total_wgt = sum(wgt_tgt);
    atomic_add(out_ptr, total_out, Sem::Relaxed);      // output
    atomic_add(out_ptr + 1, total_wgt, Sem::Relaxed);  // weight
    atomic_add(out_ptr + 2, 1, Sem::Release);          // counter
    auto counter = load(out_ptr + 2);
    if_else(counter == num_programs(0), [&] {
      total_out = load(out_ptr);
      total_wgt = load(out_ptr + 1);
      store(out_ptr + 3, total_out / total_wgt);
    }, [&] {});
  }
  // sum
  else {
    auto total_out = sum(out);
    atomic_add(out_ptr, total_out, Sem::Relaxed);
  }
}
