//===- HalfTypes.h - 16-bit floats as host code holds them ----------------===//
//
// A kernel library's functions (KernelLibrary.h) take f16 and bf16 buffers
// and scalars as these: the value's bits, two bytes, trivially copyable, so
// that a std::vector<f16> is the buffer the kernel reads. C++20 has no
// 16-bit float type; a program holding its halves as another type of two
// bytes (uint16_t, __half, _Float16) converts with std::bit_cast.
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <type_traits>

namespace twintile::runtime {

/// IEEE binary16.
struct f16 {
  uint16_t bits = 0;
  /// x rounded to the nearest f16 (ties to even; overflow to infinity).
  static f16 of(float x);
  float value() const;  // exact
  friend bool operator==(f16, f16) = default;  // of the bits: NaNs by their bits, +0 != -0
};

/// bfloat16: f32's exponent, 7 fraction bits.
struct bf16 {
  uint16_t bits = 0;
  static bf16 of(float x);  // to nearest, ties to even
  float value() const;      // exact
  friend bool operator==(bf16, bf16) = default;
};

static_assert(sizeof(f16) == 2 && std::is_trivially_copyable_v<f16> && std::is_standard_layout_v<f16>);
static_assert(sizeof(bf16) == 2 && std::is_trivially_copyable_v<bf16> && std::is_standard_layout_v<bf16>);

} // namespace twintile::runtime
