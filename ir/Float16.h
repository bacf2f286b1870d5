//===- Float16.h - IEEE half and bfloat16 rounding, as the GPU does it ---===//
#pragma once

#include "ir/Type.h"

#include <cstdint>

namespace twintile::ir {

/// Rounds `x` to the nearest value of float kind `k` (ties to even), with
/// subnormals, and overflow to infinity. f64 is the identity.
double roundToFloat(double x, ScalarKind k);

uint16_t encodeF16(double x);    // round, then IEEE binary16 bits
double decodeF16(uint16_t bits);
uint16_t encodeBF16(double x);   // round, then bfloat16 bits (NaN stays NaN)
double decodeBF16(uint16_t bits);

} // namespace twintile::ir
