// What a C++ caller of twintile's launch API (launch/Launch.h) writes to run softmax on a row
// whose length it learns at run time, its element type that of its buffers: the specialization
// named from both, compiled when a call first needs it and kept. The claims suite counts the
// dispatch's lines (between the markers); the build compiles this file (experiments/claims/
// CMakeLists.txt) so that the count is of code that builds.
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

template <class T> constexpr const char *typeName();
template <> constexpr const char *typeName<float>() { return "f32"; }
template <> constexpr const char *typeName<uint16_t>() { return "f16"; }  // f16 bits, as the launch API takes them

// dispatch: begin
template <class T>
twintile::Launch softmax(twintile::runtime::Device &device, std::vector<T> &x, std::vector<T> &y, int rows, int n_cols,
                         int stride) {
  static std::map<int, twintile::Kernel> kernels;  // by block size
  const int block = std::max(128, static_cast<int>(std::bit_ceil(static_cast<unsigned>(n_cols))));
  auto spec = "softmax<" + std::string(typeName<T>()) + "," + std::to_string(block) + ">";
  auto [it, fresh] = kernels.try_emplace(block);
  if (fresh) it->second = twintile::Kernel::fromFile(TWINTILE_KERNELS_DIR "/softmax.cpp", spec);
  return it->second.launch(device, {static_cast<uint32_t>(rows)}, x, y, n_cols, stride);
}
// dispatch: end

template twintile::Launch softmax<float>(twintile::runtime::Device &, std::vector<float> &, std::vector<float> &, int,
                                         int, int);
template twintile::Launch softmax<uint16_t>(twintile::runtime::Device &, std::vector<uint16_t> &,
                                            std::vector<uint16_t> &, int, int, int);

} // namespace claims
