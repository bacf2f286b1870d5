// Liger-Kernel's KL divergence forward, rewritten for the tracing front end (the column loop as
// for_range, carrying loss_sum): one program per row walks the columns in
// BLOCK_SIZE chunks, loss = y_true (log max(y_true, eps) - y) with y the prediction in log space,
// either stored per element (reduction none) or summed into one value per row.
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/kl_div.py, _kldiv_kernel_forward.
// Launch: grid (BT,) = (19,), num_warps 4 (get_num_warps(1024)); y, y_true, loss f32; V 3000,
// BLOCK_SIZE 1024 (smaller than upstream's next_power_of_2(V), so the loop runs 3 blocks);
// reduction batchmean (the host divides afterwards), log_target false.
#include <twintile.h>
using namespace tt;

constexpr int _REDUCTION_MODE_NONE = 0;
constexpr int _REDUCTION_MODE_SUM = 1;
constexpr int _REDUCTION_MODE_MEAN = 2;
constexpr int _REDUCTION_MODE_BATCHMEAN = 3;

template <int BLOCK_SIZE, int reduction, bool log_target = false>
TT_KERNEL void _kldiv_kernel_forward(Ptr<f32> y_ptr, i32 y_stride, Ptr<f32> gt_ptr, i32 gt_stride, Ptr<f32> loss_ptr,
                                     i32 loss_stride, i32 n_cols, f32 eps) {
  kernel_options({.num_warps = 4});
  auto pid = cast<i64>(program_id(0));
  y_ptr += pid * y_stride;
  gt_ptr += pid * gt_stride;
  loss_ptr += pid * loss_stride;

  auto base_offsets = arange(0, BLOCK_SIZE);

  eps = cast<f32>(eps);

  Tile<f32> loss_sum = 0.0f;
  loss_sum = for_range(0, n_cols, BLOCK_SIZE, loss_sum, [&](i32 i, Tile<f32> loss_sum) {
    auto offsets = i + base_offsets;
    auto mask = offsets < n_cols;
    auto y = cast<f32>(load(y_ptr + offsets, mask, 0.0f));
    auto y_true = cast<f32>(load(gt_ptr + offsets, mask, 0.0f));

    // KL(y_true || y), y given as a log-probability
    Tile<f32> loss;
    if constexpr (!log_target) loss = y_true * (log(maximum(y_true, eps)) - y);
    else loss = exp(y_true) * (y_true - y);

    if constexpr (reduction == _REDUCTION_MODE_NONE) store(loss_ptr + offsets, loss, mask);
    else loss_sum += sum(loss, 0);
    return loss_sum;
  });

  if constexpr (reduction != _REDUCTION_MODE_NONE) store(loss_ptr, loss_sum);
}
