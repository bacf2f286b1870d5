// What a CUDA C++ caller writes to run softmax on a row whose element type and length it learns
// at run time: the twelve instantiations of experiments/baselines/softmax.cu (three element
// types × four block sizes, each compiled ahead of time into this object) and a dispatch that
// picks one. The claims suite counts the dispatch's lines and the variants they name (between
// the markers) and compiles this file (nvcc -c) so that the count is of code that builds.
#include "../../baselines/softmax.cu"

enum class DType { f16, bf16, f32 };

// dispatch: begin
cudaError_t softmax(DType type, const void *x, void *y, int rows, int n_cols, int stride, cudaStream_t stream) {
  const int block = n_cols < 1 ? 0 : n_cols <= 128 ? 128 : n_cols <= 256 ? 256 : n_cols <= 512 ? 512
                  : n_cols <= 1024 ? 1024 : 0;
  if (block == 0) return cudaErrorInvalidValue;  // no instantiation holds the row
#define SOFTMAX_CASE(T, B)                                                                        \
  if (type == DType::T && block == B) {                                                           \
    softmax_##T##_##B<<<rows, kThreads, 0, stream>>>(static_cast<const T *>(x), static_cast<T *>(y), \
                                                     n_cols, stride);                              \
    return cudaGetLastError();                                                                    \
  }
  SOFTMAX_CASE(f16, 128)
  SOFTMAX_CASE(f16, 256)
  SOFTMAX_CASE(f16, 512)
  SOFTMAX_CASE(f16, 1024)
  SOFTMAX_CASE(bf16, 128)
  SOFTMAX_CASE(bf16, 256)
  SOFTMAX_CASE(bf16, 512)
  SOFTMAX_CASE(bf16, 1024)
  SOFTMAX_CASE(f32, 128)
  SOFTMAX_CASE(f32, 256)
  SOFTMAX_CASE(f32, 512)
  SOFTMAX_CASE(f32, 1024)
#undef SOFTMAX_CASE
  return cudaErrorInvalidValue;
}
// dispatch: end
