// Liger-Kernel's generalized Jensen-Shannon divergence, rewritten for the tracing front end (the loops as
// for_range; the main loop as a lambda that
// the early-return test's if_else runs in its else branch): one program per row of
// log-probabilities X (student) and Y (teacher), walking the vocabulary in BLOCK_SIZE chunks and
// writing the per-element loss and the gradient dX; a row whose label is ignore_index gets a zero
// gradient and returns early.
// Upstream: liger-kernel 0.8.5, liger_kernel/ops/jsd.py, _jsd_kernel (launched by
// liger_kernel/ops/backends/_triton/jsd.py).
// Launch: grid (BT,), num_warps 4 (Triton's default); X, Y, loss, dX f32, label i64; beta 0.5 (the
// general case), HAS_LABEL; BLOCK_SIZE 4096 = min(4096, next_power_of_2(V)) for V = 5000, so two
// blocks a row. Upstream writes dX in place over X; here dX is its own buffer.
#include <twintile.h>
using namespace tt;

template <float beta, int ignore_index, int BLOCK_SIZE, bool HAS_LABEL>
TT_KERNEL void _jsd_kernel(Ptr<f32> X_ptr, i32 X_stride, Ptr<f32> Y_ptr, i32 Y_stride, Ptr<f32> loss_ptr,
                           i32 loss_stride, Ptr<f32> dX_ptr, i32 dX_stride, Ptr<i64> label_ptr, i32 n_non_ignore,
                           i32 n_cols) {
  kernel_options({.num_warps = 4});
  // JSD(beta) = beta KL(P || M) + (1 - beta) KL(Q || M), M = beta P + (1 - beta) Q, P = e^Y, Q = e^X
  auto pid = cast<i64>(program_id(0));
  X_ptr += pid * X_stride;
  dX_ptr += pid * dX_stride;
  Y_ptr += pid * Y_stride;
  loss_ptr += pid * loss_stride;
  label_ptr += pid;

  auto rest = [&] {
  for_range(0, n_cols, BLOCK_SIZE, [&](i32 i) {
    auto offsets = i + arange(0, BLOCK_SIZE);
    auto mask = offsets < n_cols;
    auto X = cast<f32>(load(X_ptr + offsets, mask, -inf));
    auto Y = cast<f32>(load(Y_ptr + offsets, mask, -inf));

    Tile<f32> loss, dX;
    if constexpr (beta == 0.0f) {  // forward KL
      auto Y_max = max(Y, 0);
      auto Y_shifted = Y - Y_max;
      auto Y_prob = exp(Y_shifted) * exp(Y_max);
      loss = Y_prob * (Y - X);
      dX = -Y_prob;
    } else if constexpr (beta == 1.0f) {  // reverse KL
      auto X_max = max(X, 0);
      auto X_shifted = X - X_max;
      auto X_prob = exp(X_shifted) * exp(X_max);
      loss = X_prob * (X - Y);
      dX = loss + X_prob;
    } else {
      auto max_val = maximum(X, Y);
      auto X_shifted = X - max_val;
      auto Y_shifted = Y - max_val;
      // log M from the shifted exponentials, so that M cannot underflow to zero
      auto M_shifted = beta * exp(Y_shifted) + (1 - beta) * exp(X_shifted);
      auto log_M = max_val + log(M_shifted);

      auto Q = exp(X);
      auto P = exp(Y);
      auto beta_P = beta * P;
      auto one_minus_beta_Q = (1 - beta) * Q;

      loss = beta_P * (Y - log_M) + one_minus_beta_Q * (X - log_M);
      dX = one_minus_beta_Q * (X - log_M);
    }

    auto scale = 1.0f / n_non_ignore;
    loss = loss * scale;
    dX = dX * scale;

    store(loss_ptr + offsets, loss, mask);
    store(dX_ptr + offsets, dX, mask);
  });
  };

  if constexpr (HAS_LABEL) {
    auto label = load(label_ptr);
    if_else(label == ignore_index, [&] {
      for_range(0, n_cols, BLOCK_SIZE, [&](i32 i) {
        auto offsets = i + arange(0, BLOCK_SIZE);
        store(dX_ptr + offsets, 0.0f, offsets < n_cols);
      });
    }, rest);
  } else {
    rest();
  }
}
