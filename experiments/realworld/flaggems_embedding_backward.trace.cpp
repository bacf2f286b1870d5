// FlagGems embedding backward (a scatter-add of gradient rows through an index tensor),
// rewritten for the tracing front end (the rest as in flaggems_embedding_backward.cpp):
// `if (row_idx != padding_idx)` on device values becomes if_else. Upstream:
// flag-gems 5.0.2, flag_gems/ops/embedding.py, embedding_backward_kernel. Launch: grid
// (M,) for M = indices.numel(); program i adds row i of grad_out (N f32 columns; N is a constexpr there, so a template parameter here)
// into row indices[i] of grad_in with atomic adds, skipping rows whose index is
// padding_idx when HAS_PADDING_IDX; BLOCK_SIZE = next_power_of_2(N); num_warps 4
// (Triton's default: the launch gives none).
#include <twintile.h>
#include <type_traits>
using namespace tt;

template <bool HAS_PADDING_IDX, int N, int BLOCK_SIZE>
TT_KERNEL void embedding_backward_kernel(Ptr<f32> grad_in, Ptr<f32> grad_out, Ptr<i64> indices, i32 padding_idx) {
  kernel_options({.num_warps = 4});
  auto pid = program_id(0);
  grad_out += pid * N;
  indices += pid;

  auto mask = arange(0, BLOCK_SIZE) < N;
  auto cols = arange(0, BLOCK_SIZE);

  auto row_idx = cast<i32>(load(indices));
  if constexpr (!HAS_PADDING_IDX) {
    grad_in += row_idx * N;
    auto embedding_grad = load(grad_out + cols, mask, 0.0);
    if constexpr (std::is_same_v<decltype(embedding_grad), Tile<bf16>>) {
      embedding_grad = cast<f32>(embedding_grad);
    }
    atomic_add(grad_in + cols, embedding_grad, mask);
  } else {
    if_else(row_idx != padding_idx, [&] {
      grad_in += row_idx * N;
      auto embedding_grad = load(grad_out + cols, mask, 0.0);
      if constexpr (std::is_same_v<decltype(embedding_grad), Tile<bf16>>) {
        embedding_grad = cast<f32>(embedding_grad);
      }
      atomic_add(grad_in + cols, embedding_grad, mask);
    }, [&] {});
  }
}
