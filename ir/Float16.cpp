#include "ir/Float16.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace twintile::ir {

namespace {

struct Format {
  int mantissaBits;  // explicit fraction bits
  int minExp;        // exponent of the smallest normal
  int maxExp;        // exponent of the largest finite
};

constexpr Format kF16{10, -14, 15};
constexpr Format kBF16{7, -126, 127};
constexpr Format kF32{23, -126, 127};

double roundTo(double x, Format f) {
  if (!std::isfinite(x) || x == 0) return x;
  int e = 0;
  std::frexp(x, &e);  // |x| = m * 2^e with m in [0.5, 1): the leading bit is 2^(e-1)
  int quantum = std::max(e - 1, f.minExp) - f.mantissaBits;
  double r = std::ldexp(std::nearbyint(std::ldexp(x, -quantum)), quantum);
  double maxFinite = std::ldexp(2.0 - std::ldexp(1.0, -f.mantissaBits), f.maxExp);
  if (std::fabs(r) > maxFinite) return std::copysign(std::numeric_limits<double>::infinity(), x);
  return r;
}

/// Bits of an already-rounded value in a format with `expBits` exponent bits.
uint16_t encode(double r, Format f, int expBits) {
  uint16_t sign = std::signbit(r) ? 0x8000 : 0;
  int bias = (1 << (expBits - 1)) - 1;
  uint16_t expMask = static_cast<uint16_t>(((1 << expBits) - 1) << f.mantissaBits);
  if (std::isnan(r)) return sign | expMask | (1u << (f.mantissaBits - 1));
  if (std::isinf(r)) return sign | expMask;
  double a = std::fabs(r);
  if (a == 0) return sign;
  int e = 0;
  std::frexp(a, &e);
  int exp = e - 1;
  if (exp < f.minExp)  // subnormal: fraction counts units of 2^(minExp - mantissaBits)
    return sign | static_cast<uint16_t>(std::ldexp(a, f.mantissaBits - f.minExp));
  uint16_t frac = static_cast<uint16_t>(std::ldexp(a, f.mantissaBits - exp) - std::ldexp(1.0, f.mantissaBits));
  return sign | static_cast<uint16_t>((exp + bias) << f.mantissaBits) | frac;
}

double decode(uint16_t bits, Format f, int expBits) {
  int bias = (1 << (expBits - 1)) - 1;
  bool neg = bits & 0x8000;
  int exp = (bits >> f.mantissaBits) & ((1 << expBits) - 1);
  int frac = bits & ((1 << f.mantissaBits) - 1);
  double v;
  if (exp == (1 << expBits) - 1)
    v = frac ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (exp == 0)
    v = std::ldexp(frac, f.minExp - f.mantissaBits);
  else
    v = std::ldexp(frac + std::ldexp(1.0, f.mantissaBits), exp - bias - f.mantissaBits);
  return neg ? -v : v;
}

} // namespace

double roundToFloat(double x, ScalarKind k) {
  switch (k) {
  case ScalarKind::F16: return roundTo(x, kF16);
  case ScalarKind::BF16: return roundTo(x, kBF16);
  case ScalarKind::F32:
    // The hardware conversion; beyond FLT_MAX the C++ one is undefined, so round by hand.
    if (std::fabs(x) <= std::numeric_limits<float>::max()) return static_cast<float>(x);
    return roundTo(x, kF32);
  default: return x;
  }
}

uint16_t encodeF16(double x) { return encode(roundTo(x, kF16), kF16, 5); }
double decodeF16(uint16_t bits) { return decode(bits, kF16, 5); }
uint16_t encodeBF16(double x) { return encode(roundTo(x, kBF16), kBF16, 8); }
double decodeBF16(uint16_t bits) { return decode(bits, kBF16, 8); }

} // namespace twintile::ir
