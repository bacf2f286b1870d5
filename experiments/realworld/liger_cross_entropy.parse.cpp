// Liger-Kernel's cross entropy, rewritten for the parsing front end (the reduction test in a
// variable template; ?: as where): one program per row; a row whose target is ignore_index zeroes
// its gradient and returns early; otherwise an online-softmax pass over the vocabulary in
// BLOCK_SIZE chunks (max, sum, argmax, smoothing term), a second pass writing the gradient into X
// in place, then the loss, z-loss, token accuracy and predicted token. Upstream: liger-kernel
// 0.8.5, liger_kernel/ops/cross_entropy.py, liger_cross_entropy_kernel. Launch: grid (n_rows,),
// num_warps 32 (Hopper); X, weight, loss, z_loss, token_accuracy f32, Y and predicted_tokens i64;
// reduction "mean", label smoothing, z-loss, softcapping, class weights, every optional output on.
// BLOCK_SIZE 1024 (smaller than upstream's next_power_of_2(V), so the vocabulary loops run several
// blocks).
#include <twintile.h>
using namespace tt;

constexpr float LOG2_E = 1.4426950408889634f;

// A string template argument (Triton's `reduction: tl.constexpr` is a str).
template <int N> struct Str {
  char s[N];
  constexpr Str(const char (&v)[N]) {
    for (int i = 0; i < N; ++i) s[i] = v[i];
  }
  template <int M> constexpr bool operator==(const char (&v)[M]) const {
    if (M != N) return false;
    for (int i = 0; i < N; ++i)
      if (s[i] != v[i]) return false;
    return true;
  }
};

// The parser reads no member of a class-type template argument: compare it in a variable template.
template <Str r> constexpr bool is_mean = r == "mean";

template <float lse_square_scale, float label_smoothing, Str reduction, bool RETURN_Z_LOSS,
          bool RETURN_TOKEN_ACCURACY, bool RETURN_PREDICTED_TOKENS, int BLOCK_SIZE, bool HAS_WEIGHT,
          bool HAS_SOFTCAPPING, bool HAS_GRADIENTS>
TT_KERNEL void liger_cross_entropy_kernel(Ptr<f32> X_ptr, i32 X_stride, Ptr<i64> Y_ptr, i32 Y_stride,
                                          Ptr<f32> weight_ptr, Ptr<f32> loss_ptr, Ptr<f32> z_loss_ptr,
                                          i32 loss_stride, Ptr<f32> token_accuracy_ptr,
                                          i32 token_accuracy_stride, Ptr<i64> predicted_tokens_ptr,
                                          i32 predicted_tokens_stride, i32 n_cols, i32 n_non_ignore,
                                          f32 sum_non_ignore_weight, f32 weight_sum, i32 ignore_index,
                                          f32 softcap) {
  kernel_options({.num_warps = 32});
  auto program_id = cast<i64>(tt::program_id(0));

  Y_ptr += program_id * Y_stride;
  auto y = load(Y_ptr);

  X_ptr += program_id * X_stride;

  if (y == ignore_index) {
    for (i32 i = 0; i < n_cols; i += BLOCK_SIZE) {
      auto X_offsets = i + arange(0, BLOCK_SIZE);
      store(X_ptr + X_offsets, 0.0f, X_offsets < n_cols);
    }
    if constexpr (RETURN_TOKEN_ACCURACY) {
      token_accuracy_ptr += program_id * token_accuracy_stride;
      store(token_accuracy_ptr, 0.0f);
    }
    if constexpr (RETURN_PREDICTED_TOKENS) {
      predicted_tokens_ptr += program_id * predicted_tokens_stride;
      store(predicted_tokens_ptr, -1);
    }
    return;
  }

  loss_ptr += program_id * loss_stride;
  if constexpr (RETURN_Z_LOSS) z_loss_ptr += program_id * loss_stride;
  if constexpr (RETURN_TOKEN_ACCURACY) token_accuracy_ptr += program_id * token_accuracy_stride;
  if constexpr (RETURN_PREDICTED_TOKENS) predicted_tokens_ptr += program_id * predicted_tokens_stride;

  if constexpr (HAS_SOFTCAPPING) softcap = cast<f32>(softcap);
  if constexpr (HAS_WEIGHT) {
    sum_non_ignore_weight = cast<f32>(sum_non_ignore_weight);
    weight_sum = cast<f32>(weight_sum);
  }

  f32 weight_y;
  if constexpr (HAS_WEIGHT) weight_y = cast<f32>(load(weight_ptr + y));

  // first pass: online max and sum
  Tile<f32> m = -inf;
  Tile<f32> d = 0.0f;
  Tile<i32> argmax_idx = 0;
  auto ori_X_y = cast<f32>(load(X_ptr + y));
  if constexpr (HAS_SOFTCAPPING) ori_X_y = softcap * tanh(ori_X_y / softcap);

  Tile<f32> scaled_x_sum = 0.0f;
  auto eps = label_smoothing / n_cols;

  for (i32 i = 0; i < n_cols; i += BLOCK_SIZE) {
    auto X_offsets = i + arange(0, BLOCK_SIZE);
    auto X_block = cast<f32>(load(X_ptr + X_offsets, X_offsets < n_cols, -inf));
    if constexpr (HAS_SOFTCAPPING) {
      X_block = softcap * tanh(X_block / softcap);
      X_block = where(X_offsets < n_cols, X_block, -inf);
    }
    auto block_max = max(X_block);

    if constexpr (RETURN_TOKEN_ACCURACY || RETURN_PREDICTED_TOKENS) {
      auto is_max_mask = X_block == block_max;
      auto masked_offsets = where(is_max_mask, X_offsets, n_cols);
      auto current_block_argmax_idx = min(masked_offsets);
      auto is_new_max = block_max > m;
      argmax_idx = where(is_new_max, current_block_argmax_idx, argmax_idx);
    }

    if constexpr (label_smoothing > 0) {
      if constexpr (HAS_WEIGHT) {
        auto weight_block = load(weight_ptr + X_offsets, X_offsets < n_cols);
        scaled_x_sum += sum(where(X_offsets < n_cols, -eps * X_block * weight_block, 0.0f));
      } else {
        scaled_x_sum += sum(where(X_offsets < n_cols, -eps * X_block, 0.0f));
      }
    }
    auto m_new = maximum(m, block_max);
    d = d * exp2((m - m_new) * LOG2_E) + sum(exp2((X_block - m_new) * LOG2_E));
    m = m_new;
  }

  auto lse = m + log(d);

  // second pass: the gradient, written over X
  if constexpr (HAS_GRADIENTS) {
    for (i32 i = 0; i < n_cols; i += BLOCK_SIZE) {
      auto X_offsets = i + arange(0, BLOCK_SIZE);
      auto X_block = cast<f32>(load(X_ptr + X_offsets, X_offsets < n_cols, -inf));
      Tile<f32> intermediate;
      if constexpr (HAS_SOFTCAPPING) {
        intermediate = tanh(X_block / softcap);
        X_block = softcap * intermediate;
      }

      if constexpr (!HAS_WEIGHT) {
        X_block = exp2((X_block - m) * LOG2_E) / d;
        X_block += 2 * lse_square_scale * lse * X_block;
        X_block += -eps;
        if constexpr (is_mean<reduction>) X_block = X_block / n_non_ignore;
      } else {
        auto weight_block = load(weight_ptr + X_offsets, X_offsets < n_cols);
        auto softmax_X = exp2((X_block - m) * LOG2_E) / d;
        auto dloss_ori = (1 - label_smoothing) * softmax_X;
        dloss_ori = dloss_ori * weight_y;
        auto dloss_smooth = eps * (-weight_block + softmax_X * weight_sum);
        auto dz_loss = 2 * lse_square_scale * lse * softmax_X;
        if constexpr (is_mean<reduction>) {
          dloss_ori = dloss_ori / sum_non_ignore_weight;
          dloss_smooth = dloss_smooth / sum_non_ignore_weight;
          dz_loss = dz_loss / n_non_ignore;
        }
        X_block = dloss_ori + dloss_smooth + dz_loss;
      }

      if constexpr (HAS_SOFTCAPPING) X_block = X_block * (1 - intermediate * intermediate);

      store(X_ptr + X_offsets, X_block, X_offsets < n_cols);
    }

    // the target's gradient, recomputed in f32 and written over what the loop stored
    debug_barrier();
    auto softmax_X_y = exp2((ori_X_y - m) * LOG2_E) / d;
    Tile<f32> dx_y;
    if constexpr (!HAS_WEIGHT) {
      dx_y = softmax_X_y;
      dx_y += 2 * lse_square_scale * lse * dx_y;
      dx_y += -eps;
      dx_y += -(1 - label_smoothing);
      if constexpr (is_mean<reduction>) dx_y = dx_y / n_non_ignore;
    } else {
      auto dloss_ori_y = (1 - label_smoothing) * softmax_X_y - (1 - label_smoothing);
      dloss_ori_y = dloss_ori_y * weight_y;
      auto dloss_smooth_y = eps * (-weight_y + softmax_X_y * weight_sum);
      auto dz_loss_y = 2 * lse_square_scale * lse * softmax_X_y;
      if constexpr (is_mean<reduction>) {
        dloss_ori_y = dloss_ori_y / sum_non_ignore_weight;
        dloss_smooth_y = dloss_smooth_y / sum_non_ignore_weight;
        dz_loss_y = dz_loss_y / n_non_ignore;
      }
      dx_y = dloss_ori_y + dloss_smooth_y + dz_loss_y;
    }
    if constexpr (HAS_SOFTCAPPING) {
      auto t_y = ori_X_y / softcap;
      dx_y = dx_y * (1 - t_y * t_y);
    }
    store(X_ptr + y, dx_y);
  }

  debug_barrier();

  // the loss
  Tile<f32> loss = lse - ori_X_y;
  if constexpr (HAS_WEIGHT) loss = weight_y * loss;

  if constexpr (label_smoothing > 0) {
    Tile<f32> smooth_loss;
    if constexpr (HAS_WEIGHT) smooth_loss = scaled_x_sum + eps * lse * weight_sum;
    else smooth_loss = scaled_x_sum + label_smoothing * lse;
    loss = loss * (1 - label_smoothing) + smooth_loss;
  }

  auto z_loss = lse_square_scale * lse * lse;
  if constexpr (is_mean<reduction>) {
    if constexpr (HAS_WEIGHT) loss = loss / sum_non_ignore_weight;
    else loss = loss / n_non_ignore;
    z_loss = z_loss / n_non_ignore;
  }
  loss += z_loss;

  store(loss_ptr, loss);
  if constexpr (RETURN_Z_LOSS) store(z_loss_ptr, z_loss);
  if constexpr (RETURN_TOKEN_ACCURACY) {
    auto is_correct = where(argmax_idx == y, f32(1.0f), f32(0.0f));
    store(token_accuracy_ptr, is_correct);
  }
  if constexpr (RETURN_PREDICTED_TOKENS) store(predicted_tokens_ptr, argmax_idx);
}
