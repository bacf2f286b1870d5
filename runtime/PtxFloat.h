//===- PtxFloat.h - IEEE rounding as the GPU does it (internal) ----------===//
//
// Conversions to f16, bf16 and f32 in any of PTX's four rounding modes, by
// integer arithmetic on the value (exact, subnormals and overflow included),
// and f32/f64 arithmetic in a directed rounding mode through <cfenv>.
// NaN results are the canonical NaNs the GPU produces (0x7fff, 0x7fffffff).
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/PtxProgram.h"

#include <cstdint>

namespace twintile::runtime::ptx {

constexpr uint32_t kCanonicalNaN32 = 0x7fffffff;
constexpr uint64_t kCanonicalNaN64 = 0x7fffffffffffffffull;
constexpr uint16_t kCanonicalNaN16 = 0x7fff;

/// x rounded (mode RN, RZ, RM or RP) to a binary format with `fracBits`
/// fraction bits and `expBits` exponent bits; the result's bits.
uint64_t roundToFormat(double x, int fracBits, int expBits, Rnd mode);

uint16_t toF16(double x, Rnd mode = Rnd::RN);
uint16_t toBF16(double x, Rnd mode = Rnd::RN);
uint16_t toF16(float x);   // round to nearest even: the common case, fast
uint16_t toBF16(float x);
float toF32(double x, Rnd mode = Rnd::RN);
double fromF16(uint16_t bits);
double fromBF16(uint16_t bits);

/// Sign-preserving flush of subnormals to zero.
float flush(float x);
double flushF16(double x);  // below f16's smallest normal

/// Arithmetic rounded in `mode` (RN, RZ, RM, RP).
float addF32(float a, float b, Rnd mode);
float mulF32(float a, float b, Rnd mode);
float fmaF32(float a, float b, float c, Rnd mode);
float divF32(float a, float b, Rnd mode);
float sqrtF32(float a, Rnd mode);
double addF64(double a, double b, Rnd mode);
double mulF64(double a, double b, Rnd mode);
double fmaF64(double a, double b, double c, Rnd mode);
double divF64(double a, double b, Rnd mode);
double sqrtF64(double a, Rnd mode);

/// Integer to float in `mode`.
float intToF32(uint64_t bits, bool isSigned, Rnd mode);
double intToF64(uint64_t bits, bool isSigned, Rnd mode);

/// To an integral value: RNI (ties to even), RZI, RMI, RPI.
double roundIntegral(double x, Rnd mode);

} // namespace twintile::runtime::ptx
