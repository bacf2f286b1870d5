// What a C++ caller of twintile's launch API (launch/Launch.h) writes to run softmax on a row
// whose element type and length it learns at run time (the buffers' host type tells f32 from
// the 16-bit types, the tag f16 from bf16): the specialization named from both, compiled when a
// call first needs it and kept; a row no variant holds refused, as the CUDA dispatch refuses it.
// The claims suite counts the dispatch's lines and the variants they name (between the
// markers); the build compiles this file (experiments/claims/CMakeLists.txt) so that the count
// is of code that builds.
#include "launch/Launch.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#ifndef TWINTILE_KERNELS_DIR
#define TWINTILE_KERNELS_DIR "experiments/kernels"
#endif

namespace claims {

enum class DType { f16, bf16, f32 };

// dispatch: begin
template <class T>  // float for f32; uint16_t, the bits, for f16 and bf16 (the launch API's host types)
twintile::Launch softmax(twintile::runtime::Device &device, DType type, std::vector<T> &x, std::vector<T> &y, int rows,
                         int n_cols, int stride) {
  static const char *names[] = {"f16", "bf16", "f32"};
  static std::map<std::string, twintile::Kernel> kernels;  // by specialization, compiled at its first call
  if (n_cols < 1 || n_cols > 1024) {
    twintile::Launch refused;
    refused.error = "softmax: no variant holds a row of " + std::to_string(n_cols) + " columns";
    return refused;
  }
  const int block = std::max(128, static_cast<int>(std::bit_ceil(static_cast<unsigned>(n_cols))));
  const std::string spec = "softmax<" + std::string(names[static_cast<int>(type)]) + "," + std::to_string(block) + ">";
  auto [it, fresh] = kernels.try_emplace(spec);
  if (fresh) it->second = twintile::Kernel::fromFile(TWINTILE_KERNELS_DIR "/softmax.cpp", spec);
  return it->second.launch(device, {static_cast<uint32_t>(rows)}, x, y, n_cols, stride);
}
// dispatch: end

template twintile::Launch softmax<float>(twintile::runtime::Device &, DType, std::vector<float> &,
                                         std::vector<float> &, int, int, int);
template twintile::Launch softmax<uint16_t>(twintile::runtime::Device &, DType, std::vector<uint16_t> &,
                                            std::vector<uint16_t> &, int, int, int);

} // namespace claims
