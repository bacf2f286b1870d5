//===- PtxFloat.cpp - IEEE rounding as the GPU does it --------------------===//
#include "runtime/PtxFloat.h"

#include <bit>
#include <cfenv>
#include <cmath>

#ifdef __clang__
#pragma STDC FENV_ACCESS ON
#endif

namespace twintile::runtime::ptx {

uint64_t roundToFormat(double x, int fracBits, int expBits, Rnd mode) {
  uint64_t sign = std::signbit(x) ? uint64_t(1) << (fracBits + expBits) : 0;
  uint64_t expAll = ((uint64_t(1) << expBits) - 1) << fracBits;
  if (std::isnan(x)) return (expAll | ((uint64_t(1) << fracBits) - 1));  // canonical: positive, all fraction bits
  if (std::isinf(x)) return sign | expAll;
  double a = std::fabs(x);
  if (a == 0) return sign;
  int bias = (1 << (expBits - 1)) - 1;
  int emin = 1 - bias;
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1): the leading bit is 2^(e-1)
  int quantum = std::max(e - 1, emin) - fracBits;
  double scaled = std::ldexp(a, -quantum);  // exact: a power-of-two scaling
  double whole = std::floor(scaled);
  double frac = scaled - whole;             // exact: scaled < 2^(fracBits + 1)
  uint64_t n = static_cast<uint64_t>(whole);
  bool negative = sign != 0;
  bool up = false;
  switch (mode) {
  case Rnd::RZ: break;
  case Rnd::RM: up = negative && frac > 0; break;
  case Rnd::RP: up = !negative && frac > 0; break;
  default: up = frac > 0.5 || (frac == 0.5 && (n & 1)); break;
  }
  n += up;
  // n * 2^quantum, with n < 2^(fracBits + 1) (or equal after rounding up).
  uint64_t hidden = uint64_t(1) << fracBits;
  int field;
  if (n < hidden) {
    field = 0;  // subnormal (quantum is emin - fracBits)
  } else {
    if (n == hidden << 1) {
      n >>= 1;
      ++quantum;
    }
    field = quantum + fracBits + bias;
  }
  if (field >= (1 << expBits) - 1) {  // overflow: infinity or the largest finite, by mode
    bool toInf = mode == Rnd::RN || mode == Rnd::None || (mode == Rnd::RM && negative) || (mode == Rnd::RP && !negative);
    return toInf ? (sign | expAll) : (sign | (expAll - (uint64_t(1) << fracBits)) | (hidden - 1));
  }
  return sign | (uint64_t(field) << fracBits) | (n & (hidden - 1));
}

uint16_t toF16(double x, Rnd mode) {
  if (std::isnan(x)) return kCanonicalNaN16;
  return static_cast<uint16_t>(roundToFormat(x, 10, 5, mode));
}

uint16_t toBF16(double x, Rnd mode) {
  if (std::isnan(x)) return kCanonicalNaN16;
  return static_cast<uint16_t>(roundToFormat(x, 7, 8, mode));
}

uint16_t toF16(float x) {
  uint32_t f = std::bit_cast<uint32_t>(x);
  uint32_t a = f & 0x7fffffff;
  uint16_t sign = static_cast<uint16_t>((f >> 16) & 0x8000);
  if (a > 0x7f800000) return kCanonicalNaN16;
  if (a >= 0x477ff000) return sign | 0x7c00;  // 65520 and above round to infinity
  if (a < 0x38800000) return toF16(static_cast<double>(x), Rnd::RN);  // f16 subnormals: the general path
  uint32_t m = a - 0x38000000;  // rebias the exponent from 127 to 15
  return sign | static_cast<uint16_t>((m + 0xfff + ((m >> 13) & 1)) >> 13);
}

uint16_t toBF16(float x) {
  uint32_t f = std::bit_cast<uint32_t>(x);
  if ((f & 0x7fffffff) > 0x7f800000) return kCanonicalNaN16;
  return static_cast<uint16_t>((f + 0x7fff + ((f >> 16) & 1)) >> 16);  // a carry into the exponent is right
}

float toF32(double x, Rnd mode) {
  if (std::isnan(x)) return std::bit_cast<float>(kCanonicalNaN32);
  if (mode == Rnd::RN || mode == Rnd::None) {
    if (std::fabs(x) <= 3.4028234663852886e38) return static_cast<float>(x);
  }
  return std::bit_cast<float>(static_cast<uint32_t>(roundToFormat(x, 23, 8, mode)));
}

namespace {

double decode16(uint16_t bits, int fracBits, int expBits) {
  int bias = (1 << (expBits - 1)) - 1;
  int exp = (bits >> fracBits) & ((1 << expBits) - 1);
  int frac = bits & ((1 << fracBits) - 1);
  double v;
  if (exp == (1 << expBits) - 1) v = frac ? NAN : INFINITY;
  else if (exp == 0) v = std::ldexp(frac, 1 - bias - fracBits);
  else v = std::ldexp(frac + (1 << fracBits), exp - bias - fracBits);
  return (bits & 0x8000) ? -v : v;
}

int fenvMode(Rnd mode) {
  switch (mode) {
  case Rnd::RZ: case Rnd::RZI: return FE_TOWARDZERO;
  case Rnd::RM: case Rnd::RMI: return FE_DOWNWARD;
  case Rnd::RP: case Rnd::RPI: return FE_UPWARD;
  default: return FE_TONEAREST;
  }
}

/// Runs f with the rounding mode set; operands pass through volatile
/// locals so that the operation happens between the two fesetround calls.
template <typename T, typename F>
T directed(Rnd mode, F f) {
  int m = fenvMode(mode);
  if (m == FE_TONEAREST) return f();
  std::fesetround(m);
  volatile T r = f();
  std::fesetround(FE_TONEAREST);
  return r;
}

} // namespace

double fromF16(uint16_t bits) {
  uint32_t exp = (bits >> 10) & 0x1f, frac = bits & 0x3ff;
  if (exp == 0 || exp == 31) return decode16(bits, 10, 5);
  uint32_t f = (uint32_t(bits & 0x8000) << 16) | ((exp + 112) << 23) | (frac << 13);
  return std::bit_cast<float>(f);
}
double fromBF16(uint16_t bits) { return std::bit_cast<float>(uint32_t(bits) << 16); }

float flush(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }
double flushF16(double x) { return std::fabs(x) < 6.103515625e-05 ? std::copysign(0.0, x) : x; }

float addF32(float a, float b, Rnd mode) {
  volatile float va = a, vb = b;
  return directed<float>(mode, [&] { return va + vb; });
}
float mulF32(float a, float b, Rnd mode) {
  volatile float va = a, vb = b;
  return directed<float>(mode, [&] { return va * vb; });
}
float fmaF32(float a, float b, float c, Rnd mode) {
  volatile float va = a, vb = b, vc = c;
  return directed<float>(mode, [&] {
    float a = va, b = vb, c = vc;
    return std::fma(a, b, c);
  });
}
float divF32(float a, float b, Rnd mode) {
  volatile float va = a, vb = b;
  return directed<float>(mode, [&] { return va / vb; });
}
float sqrtF32(float a, Rnd mode) {
  volatile float va = a;
  return directed<float>(mode, [&] { return std::sqrt(static_cast<float>(va)); });
}
double addF64(double a, double b, Rnd mode) {
  volatile double va = a, vb = b;
  return directed<double>(mode, [&] { return va + vb; });
}
double mulF64(double a, double b, Rnd mode) {
  volatile double va = a, vb = b;
  return directed<double>(mode, [&] { return va * vb; });
}
double fmaF64(double a, double b, double c, Rnd mode) {
  volatile double va = a, vb = b, vc = c;
  return directed<double>(mode, [&] {
    double a = va, b = vb, c = vc;
    return std::fma(a, b, c);
  });
}
double divF64(double a, double b, Rnd mode) {
  volatile double va = a, vb = b;
  return directed<double>(mode, [&] { return va / vb; });
}
double sqrtF64(double a, Rnd mode) {
  volatile double va = a;
  return directed<double>(mode, [&] { return std::sqrt(static_cast<double>(va)); });
}

float intToF32(uint64_t bits, bool isSigned, Rnd mode) {
  volatile uint64_t v = bits;
  if (isSigned) return directed<float>(mode, [&] { return static_cast<float>(static_cast<int64_t>(v)); });
  return directed<float>(mode, [&] { return static_cast<float>(static_cast<uint64_t>(v)); });
}

double intToF64(uint64_t bits, bool isSigned, Rnd mode) {
  volatile uint64_t v = bits;
  if (isSigned) return directed<double>(mode, [&] { return static_cast<double>(static_cast<int64_t>(v)); });
  return directed<double>(mode, [&] { return static_cast<double>(static_cast<uint64_t>(v)); });
}

double roundIntegral(double x, Rnd mode) {
  switch (mode) {
  case Rnd::RZI: return std::trunc(x);
  case Rnd::RMI: return std::floor(x);
  case Rnd::RPI: return std::ceil(x);
  default: return std::nearbyint(x);  // the default rounding mode: ties to even
  }
}

} // namespace twintile::runtime::ptx
