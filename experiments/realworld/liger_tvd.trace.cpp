// Liger-Kernel's total variation distance, rewritten for the tracing front end (the loops as
// for_range, the main one carrying loss_sum; the rest of the kernel as a lambda that the early-return
// test's if_else runs in its else branch): one program per row of distributions
// p and q walks the columns in BLOCK_SIZE chunks, writing the gradient 0.5 sgn(p - q) scaled and
// summing the loss 0.5 |p - q| per row; a row whose label is ignore_index gets a zero gradient and
// returns early.
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/tvd.py, _tv_distance_kernel.
// Launch: grid (BT,) = (11,), num_warps 4 (get_num_warps(1024)); p, q, loss, grads f32, label i64;
// V 2500, BLOCK_SIZE 1024 (smaller than upstream's next_power_of_2(V), so the loops run 3 blocks);
// ignore_index -100, HAS_LABEL, reduction batchmean.
#include <twintile.h>
using namespace tt;

constexpr int _REDUCTION_MODE_NONE = 0;
constexpr int _REDUCTION_MODE_SUM = 1;
constexpr int _REDUCTION_MODE_MEAN = 2;
constexpr int _REDUCTION_MODE_BATCHMEAN = 3;

template <int ignore_index, int BLOCK_SIZE, bool HAS_LABEL, int reduction>
TT_KERNEL void _tv_distance_kernel(Ptr<f32> p_ptr, i32 p_stride, Ptr<f32> q_ptr, i32 q_stride, Ptr<f32> loss_ptr,
                                   i32 loss_stride, Ptr<f32> grads_ptr, i32 grads_stride, Ptr<i64> label_ptr,
                                   i32 n_cols, f32 scale) {
  kernel_options({.num_warps = 4});
  auto pid = cast<i64>(program_id(0));
  p_ptr += pid * p_stride;
  q_ptr += pid * q_stride;
  loss_ptr += pid * loss_stride;
  grads_ptr += pid * grads_stride;
  label_ptr += pid;

  auto base_offsets = arange(0, BLOCK_SIZE);

  scale = cast<f32>(scale);

  auto rest = [&] {
  Tile<f32> loss_sum = 0.0f;
  loss_sum = for_range(0, n_cols, BLOCK_SIZE, loss_sum, [&](i32 i, Tile<f32> loss_sum) {
    auto offsets = i + base_offsets;
    auto mask = offsets < n_cols;

    auto p = load(p_ptr + offsets, mask, 0.0f);
    auto q = load(q_ptr + offsets, mask, 0.0f);

    // TVD(P || Q) = 0.5 |P - Q|; its derivative in p is 0.5 sgn(p - q), zero where they are equal
    auto tv_loss = 0.5f * abs(p - q);
    auto grad_res = where(p == q, 0.0f, where(p > q, 0.5f * scale, -0.5f * scale));

    store(grads_ptr + offsets, grad_res, mask);

    if constexpr (reduction == _REDUCTION_MODE_NONE) store(loss_ptr + offsets, tv_loss, mask);
    else loss_sum += sum(tv_loss, 0);
    return loss_sum;
  });

  if constexpr (reduction != _REDUCTION_MODE_NONE) store(loss_ptr, loss_sum * scale);
  };

  if constexpr (HAS_LABEL) {
    auto label = load(label_ptr);
    if_else(label == ignore_index, [&] {
      for_range(0, n_cols, BLOCK_SIZE, [&](i32 i) {
        auto offsets = i + base_offsets;
        auto mask = offsets < n_cols;
        store(grads_ptr + offsets, 0.0f, mask);
        if constexpr (reduction == _REDUCTION_MODE_NONE) store(loss_ptr + offsets, 0.0f, mask);
      });
    }, rest);
  } else {
    rest();
  }
}
