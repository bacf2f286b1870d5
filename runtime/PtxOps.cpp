//===- PtxOps.cpp - the semantics of PTX's value instructions ------------===//
#include "runtime/PtxOps.h"

#include "runtime/PtxFloat.h"

#include <bit>
#include <cmath>
#include <limits>

namespace twintile::runtime::ptx {

namespace {

uint64_t mask(unsigned bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }
int64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  uint64_t m = uint64_t(1) << (bits - 1);
  v &= mask(bits);
  return static_cast<int64_t>((v ^ m) - m);
}

float asF32(uint64_t v) { return std::bit_cast<float>(static_cast<uint32_t>(v)); }
double asF64(uint64_t v) { return std::bit_cast<double>(v); }
uint64_t bitsF32(float f) {
  if (std::isnan(f)) return kCanonicalNaN32;
  return std::bit_cast<uint32_t>(f);
}
uint64_t bitsF64(double d) {
  if (std::isnan(d)) return kCanonicalNaN64;
  return std::bit_cast<uint64_t>(d);
}

bool isHalfLike(Type t) { return t == Type::F16 || t == Type::BF16 || t == Type::F16x2 || t == Type::BF16x2; }
bool isBF(Type t) { return t == Type::BF16 || t == Type::BF16x2; }

/// A 16-bit float as a double, flushed under .ftz (f16 only: bf16 has no .ftz).
double half(uint64_t bits, Type t, bool ftz) {
  double x = isBF(t) ? fromBF16(static_cast<uint16_t>(bits)) : fromF16(static_cast<uint16_t>(bits));
  return ftz && !isBF(t) ? flushF16(x) : x;
}
uint64_t toHalf(double x, Type t, bool ftz, bool sat) {
  if (sat) x = std::isnan(x) ? 0.0 : std::fmin(std::fmax(x, 0.0), 1.0);
  uint16_t r = isBF(t) ? toBF16(x) : toF16(x);
  if (ftz && !isBF(t) && (r & 0x7c00) == 0) r &= 0x8000;
  return r;
}

float in32(uint64_t v, bool ftz) { return ftz ? flush(asF32(v)) : asF32(v); }
uint64_t out32(float r, const Instr &in) {
  if (in.sat) r = std::isnan(r) ? 0.0f : std::fmin(std::fmax(r, 0.0f), 1.0f);
  if (in.ftz) r = flush(r);
  return bitsF32(r);
}
uint64_t out64(double r, const Instr &in) {
  if (in.sat) r = std::isnan(r) ? 0.0 : std::fmin(std::fmax(r, 0.0), 1.0);
  return bitsF64(r);
}

/// Applies a binary/ternary float function to every 16-bit lane of a half type.
template <typename F>
uint64_t halfLanes(const Instr &in, const uint64_t *s, int arity, F f) {
  int lanes = (in.type == Type::F16x2 || in.type == Type::BF16x2) ? 2 : 1;
  uint64_t out = 0;
  for (int l = 0; l < lanes; ++l) {
    double x[3];
    for (int i = 0; i < arity; ++i) x[i] = half(s[i] >> (16 * l), in.type, in.ftz);
    out |= toHalf(f(x), in.type, in.ftz, in.sat) << (16 * l);
  }
  return out;
}

template <typename T>
T fminPtx(T a, T b, bool nanProp) {
  if (std::isnan(a) || std::isnan(b)) {
    if (nanProp || (std::isnan(a) && std::isnan(b))) return std::numeric_limits<T>::quiet_NaN();
    return std::isnan(a) ? b : a;
  }
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <typename T>
T fmaxPtx(T a, T b, bool nanProp) {
  if (std::isnan(a) || std::isnan(b)) {
    if (nanProp || (std::isnan(a) && std::isnan(b))) return std::numeric_limits<T>::quiet_NaN();
    return std::isnan(a) ? b : a;
  }
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

uint64_t intAddSub(const Instr &in, uint64_t a, uint64_t b, bool sub, bool carryIn, bool &carry) {
  unsigned w = typeBits(in.type);
  uint64_t m = mask(w);
  a &= m;
  b &= m;
  if (in.sat && in.type == Type::S32) {
    int64_t r = sub ? sext(a, 32) - sext(b, 32) : sext(a, 32) + sext(b, 32);
    r = std::min<int64_t>(std::max<int64_t>(r, INT32_MIN), INT32_MAX);
    return static_cast<uint64_t>(r) & m;
  }
  // a, b < 2^w, so bit w of the 128-bit sum is the carry out, and of the difference (which lies in
  // [-2^w, 2^w)) the borrow out: the ISA's CC.CF for add.cc/addc.cc and for sub.cc/subc.cc
  // (subc computes a - (b + CC.CF)). Signed and unsigned types behave the same.
  unsigned __int128 wide = sub ? static_cast<unsigned __int128>(a) - b - (carryIn ? 1 : 0)
                               : static_cast<unsigned __int128>(a) + b + (carryIn ? 1 : 0);
  if (in.cc) carry = ((wide >> w) & 1) != 0;
  return static_cast<uint64_t>(wide) & m;
}

uint64_t intMul(const Instr &in, uint64_t a, uint64_t b) {
  unsigned w = typeBits(in.type);
  bool sgn = isSigned(in.type);
  __int128 x = sgn ? static_cast<__int128>(sext(a, w)) : static_cast<__int128>(a & mask(w));
  __int128 y = sgn ? static_cast<__int128>(sext(b, w)) : static_cast<__int128>(b & mask(w));
  // The full 2w-bit product; for w = 64 the unsigned product needs all 128 bits.
  unsigned __int128 p = static_cast<unsigned __int128>(x) * static_cast<unsigned __int128>(y);
  if (in.mode == Mode::Hi) return static_cast<uint64_t>(p >> w) & mask(w);
  if (in.mode == Mode::Wide) return static_cast<uint64_t>(p) & mask(2 * w);
  return static_cast<uint64_t>(p) & mask(w);
}

/// mad{.lo,.hi}.cc and madc{.lo,.hi}{.cc}: the low or high half of a * b (signed for .s32/.s64), plus c,
/// plus CC.CF for madc; .cc writes the carry out of that w-bit addition.
uint64_t intMadCarry(const Instr &in, const uint64_t *s, bool carryIn, bool &carry) {
  unsigned w = typeBits(in.type);
  unsigned __int128 sum = static_cast<unsigned __int128>(intMul(in, s[0], s[1])) + (s[2] & mask(w)) + (carryIn ? 1 : 0);
  if (in.cc) carry = ((sum >> w) & 1) != 0;
  return static_cast<uint64_t>(sum) & mask(w);
}

uint64_t intDiv(const Instr &in, uint64_t a, uint64_t b, bool rem) {
  unsigned w = typeBits(in.type);
  uint64_t m = mask(w);
  if (isSigned(in.type)) {
    int64_t x = sext(a, w), y = sext(b, w);
    if (y == 0) return rem ? a & m : m;
    if (y == -1) return rem ? 0 : static_cast<uint64_t>(-static_cast<uint64_t>(x)) & m;  // no overflow trap
    return static_cast<uint64_t>(rem ? x % y : x / y) & m;
  }
  uint64_t x = a & m, y = b & m;
  if (y == 0) return rem ? x : m;
  return rem ? x % y : x / y;
}

uint64_t intMinMax(const Instr &in, uint64_t a, uint64_t b, bool isMin) {
  unsigned w = typeBits(in.type);
  if (isSigned(in.type)) {
    int64_t x = sext(a, w), y = sext(b, w);
    return static_cast<uint64_t>(isMin ? std::min(x, y) : std::max(x, y)) & mask(w);
  }
  uint64_t x = a & mask(w), y = b & mask(w);
  return isMin ? std::min(x, y) : std::max(x, y);
}

uint64_t bitfieldExtract(Type t, uint64_t a, uint64_t b, uint64_t c) {
  unsigned msb = typeBits(t) - 1;
  unsigned pos = b & 0xff, len = c & 0xff;
  bool sbit = isSigned(t) && len != 0 && ((a >> std::min(pos + len - 1, msb)) & 1);
  uint64_t d = 0;
  for (unsigned i = 0; i <= msb; ++i) {
    bool bit = (i < len && pos + i <= msb) ? ((a >> (pos + i)) & 1) : sbit;
    d |= uint64_t(bit) << i;
  }
  return d;
}

uint64_t bitfieldInsert(Type t, uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  unsigned msb = typeBits(t) - 1;
  unsigned pos = c & 0xff, len = d & 0xff;
  uint64_t f = b & mask(msb + 1);
  for (unsigned i = 0; i < len && pos + i <= msb; ++i) {
    uint64_t bit = uint64_t(1) << (pos + i);
    f = ((a >> i) & 1) ? (f | bit) : (f & ~bit);
  }
  return f;
}

uint64_t permute(Mode mode, uint64_t a, uint64_t b, uint64_t c) {
  uint64_t tmp = (a & 0xffffffff) | ((b & 0xffffffff) << 32);
  auto byte = [&](unsigned i) { return (tmp >> (8 * (i & 7))) & 0xff; };
  uint64_t d = 0;
  unsigned s = c & 3;
  for (unsigned i = 0; i < 4; ++i) {
    uint64_t v = 0;
    switch (mode) {
    case Mode::PrmtF4e: v = byte(s + i); break;
    case Mode::PrmtB4e: v = byte(s - i); break;
    case Mode::PrmtRc8: v = byte(s); break;
    case Mode::PrmtEcl: v = byte(std::max(i, s)); break;
    case Mode::PrmtEcr: v = byte(std::min(i, s)); break;
    case Mode::PrmtRc16: v = byte(2 * (c & 1) + (i & 1)); break;
    default: {
      unsigned sel = (c >> (4 * i)) & 0xf;
      v = byte(sel & 7);
      if (sel & 8) v = (v & 0x80) ? 0xff : 0;
      break;
    }
    }
    d |= v << (8 * i);
  }
  return d;
}

uint64_t findMsb(Type t, uint64_t a, bool shiftAmount) {
  unsigned w = typeBits(t);
  uint64_t v = a & mask(w);
  if (isSigned(t) && ((v >> (w - 1)) & 1)) v = ~v & mask(w);
  if (v == 0) return 0xffffffff;
  unsigned pos = 63 - std::countl_zero(v);
  return shiftAmount ? w - 1 - pos : pos;
}

/// An integer's value as a double that rounds to a 16-bit float as the
/// integer itself would: exact up to 53 significant bits, beyond them
/// rounded to odd (a sticky last bit), so the second rounding is not a
/// double rounding.
double intToF64RoundOdd(uint64_t bits, bool isSigned) {
  bool negative = isSigned && static_cast<int64_t>(bits) < 0;
  uint64_t mag = negative ? 0 - bits : bits;
  int width = 64 - std::countl_zero(mag);
  if (width > 53) {
    int drop = width - 53;
    uint64_t kept = mag >> drop << drop;
    if (kept != mag) kept |= uint64_t(1) << drop;
    mag = kept;
  }
  double d = static_cast<double>(mag);  // exact: at most 53 significant bits
  return negative ? -d : d;
}

double floatValue(uint64_t v, Type t, bool ftz) {
  switch (t) {
  case Type::F32: return in32(v, ftz);
  case Type::F64: return asF64(v);
  case Type::F16:
  case Type::BF16: return half(v, t, ftz);
  default: return 0;
  }
}

uint64_t cvt(const Instr &in, uint64_t a) {
  Type to = in.type, from = in.type2;
  unsigned tw = typeBits(to), fw = typeBits(from);
  bool intRnd = in.rnd == Rnd::RNI || in.rnd == Rnd::RZI || in.rnd == Rnd::RMI || in.rnd == Rnd::RPI;
  if (isFloat(from)) {
    double x = floatValue(a, from, in.ftz);
    if (isFloat(to)) {
      if (intRnd) x = roundIntegral(x, in.rnd);
      Rnd r = intRnd ? Rnd::RN : in.rnd;
      switch (to) {
      case Type::F16:
      case Type::BF16: {
        if (in.sat) x = std::isnan(x) ? 0.0 : std::fmin(std::fmax(x, 0.0), 1.0);
        if (from == Type::F32 && r == Rnd::RN)  // exact as a float: the fast conversion
          return to == Type::F16 ? toF16(static_cast<float>(x)) : toBF16(static_cast<float>(x));
        uint16_t h = to == Type::F16 ? toF16(x, r) : toBF16(x, r);
        return h;
      }
      case Type::F32: {
        float f = toF32(x, r);
        return out32(f, in);
      }
      case Type::F64: return out64(x, in);
      default: return 0;
      }
    }
    // Float to integer: round, then saturate to the destination's range; NaN is 0.
    if (std::isnan(x)) return 0;
    double r = roundIntegral(x, in.rnd);
    if (isSigned(to)) {
      double lo = -std::ldexp(1.0, tw - 1), hi = std::ldexp(1.0, tw - 1);
      if (r <= lo) return static_cast<uint64_t>(static_cast<int64_t>(lo));
      if (r >= hi) return mask(tw - 1);
      return static_cast<uint64_t>(static_cast<int64_t>(r));
    }
    double hi = std::ldexp(1.0, tw);
    uint64_t v = r <= 0 ? 0 : r >= hi ? mask(tw) : static_cast<uint64_t>(r);
    return v;
  }
  // From an integer.
  uint64_t v = isSigned(from) ? static_cast<uint64_t>(sext(a, fw)) : (a & mask(fw));
  if (isFloat(to)) {
    bool sgn = isSigned(from);
    switch (to) {
    case Type::F32: return out32(intToF32(v, sgn, in.rnd), in);
    case Type::F64: return out64(intToF64(v, sgn, in.rnd), in);
    case Type::F16:
    case Type::BF16: {
      // Directed modes compose; to nearest, a 64-bit integer's trip through
      // f64 is rounded to odd, so that it rounds once.
      double d = in.rnd == Rnd::RN || in.rnd == Rnd::None ? intToF64RoundOdd(v, sgn) : intToF64(v, sgn, in.rnd);
      if (in.sat) d = std::fmin(std::fmax(d, 0.0), 1.0);
      return to == Type::F16 ? toF16(d, in.rnd) : toBF16(d, in.rnd);
    }
    default: return 0;
    }
  }
  if (in.sat) {
    // Clamp the source value (as its signedness says) into the destination's range.
    __int128 x = isSigned(from) ? static_cast<__int128>(static_cast<int64_t>(v)) : static_cast<__int128>(v);
    __int128 lo = isSigned(to) ? -(static_cast<__int128>(1) << (tw - 1)) : 0;
    __int128 hi = isSigned(to) ? (static_cast<__int128>(1) << (tw - 1)) - 1 : (static_cast<__int128>(1) << tw) - 1;
    x = x < lo ? lo : x > hi ? hi : x;
    return static_cast<uint64_t>(x);
  }
  return isSigned(to) ? static_cast<uint64_t>(sext(v, tw)) : (v & mask(tw));
}

uint64_t floatArith(const Instr &in, const uint64_t *s) {
  Rnd r = in.rnd == Rnd::None ? Rnd::RN : in.rnd;
  if (isHalfLike(in.type)) {
    switch (in.op) {
    case Op::Add: return halfLanes(in, s, 2, [](const double *x) { return x[0] + x[1]; });
    case Op::Sub: return halfLanes(in, s, 2, [](const double *x) { return x[0] - x[1]; });
    case Op::Mul: return halfLanes(in, s, 2, [](const double *x) { return x[0] * x[1]; });
    case Op::Fma: return halfLanes(in, s, 3, [](const double *x) { return std::fma(x[0], x[1], x[2]); });
    case Op::Neg: return halfLanes(in, s, 1, [](const double *x) { return -x[0]; });
    case Op::Abs: return halfLanes(in, s, 1, [](const double *x) { return std::fabs(x[0]); });
    case Op::Min: return halfLanes(in, s, 2, [&](const double *x) { return fminPtx(x[0], x[1], in.nan); });
    case Op::Max: return halfLanes(in, s, 2, [&](const double *x) { return fmaxPtx(x[0], x[1], in.nan); });
    case Op::Ex2: return halfLanes(in, s, 1, [](const double *x) { return std::exp2(x[0]); });
    case Op::Tanh: return halfLanes(in, s, 1, [](const double *x) { return std::tanh(x[0]); });
    default: return 0;
    }
  }
  if (in.type == Type::F32) {
    float a = in32(s[0], in.ftz), b = in32(s[1], in.ftz), c = in32(s[2], in.ftz);
    switch (in.op) {
    case Op::Add: return out32(r == Rnd::RN ? a + b : addF32(a, b, r), in);
    case Op::Sub: return out32(r == Rnd::RN ? a - b : addF32(a, -b, r), in);
    case Op::Mul: return out32(r == Rnd::RN ? a * b : mulF32(a, b, r), in);
    case Op::Fma: return out32(fmaF32(a, b, c, r), in);
    case Op::Div: return out32(in.approx ? a / b : divF32(a, b, r), in);
    case Op::Abs: return in.ftz ? out32(std::fabs(a), in) : (s[0] & 0x7fffffff);
    case Op::Neg: return in.ftz ? out32(-a, in) : ((s[0] ^ 0x80000000) & 0xffffffff);
    case Op::Min: return out32(fminPtx(a, b, in.nan), in);
    case Op::Max: return out32(fmaxPtx(a, b, in.nan), in);
    case Op::Rcp: return out32(in.approx ? 1.0f / a : divF32(1.0f, a, r), in);
    case Op::Sqrt: return out32(in.approx ? std::sqrt(a) : sqrtF32(a, r), in);
    case Op::Rsqrt: return out32(1.0f / std::sqrt(a), in);
    case Op::Sin: return out32(std::sin(a), in);
    case Op::Cos: return out32(std::cos(a), in);
    case Op::Lg2: return out32(std::log2(a), in);
    case Op::Ex2: return out32(std::exp2(a), in);
    case Op::Tanh: return out32(std::tanh(a), in);
    case Op::Copysign: return bitsF32(std::copysign(asF32(s[1]), asF32(s[0])));
    default: return 0;
    }
  }
  double a = asF64(s[0]), b = asF64(s[1]), c = asF64(s[2]);
  switch (in.op) {
  case Op::Add: return out64(r == Rnd::RN ? a + b : addF64(a, b, r), in);
  case Op::Sub: return out64(r == Rnd::RN ? a - b : addF64(a, -b, r), in);
  case Op::Mul: return out64(r == Rnd::RN ? a * b : mulF64(a, b, r), in);
  case Op::Fma: return out64(fmaF64(a, b, c, r), in);
  case Op::Div: return out64(divF64(a, b, r), in);
  case Op::Abs: return s[0] & 0x7fffffffffffffffull;
  case Op::Neg: return s[0] ^ 0x8000000000000000ull;
  case Op::Min: return out64(fminPtx(a, b, in.nan), in);
  case Op::Max: return out64(fmaxPtx(a, b, in.nan), in);
  case Op::Rcp: return out64(in.approx ? 1.0 / a : divF64(1.0, a, r), in);
  case Op::Sqrt: return out64(in.approx ? std::sqrt(a) : sqrtF64(a, r), in);
  case Op::Rsqrt: return out64(1.0 / std::sqrt(a), in);
  case Op::Copysign: return bitsF64(std::copysign(b, a));
  default: return 0;
  }
}

bool testProperty(Mode m, double x, Type t) {
  switch (m) {
  case Mode::Finite: return std::isfinite(x);
  case Mode::Infinite: return std::isinf(x);
  case Mode::Number: return !std::isnan(x);
  case Mode::NotANumber: return std::isnan(x);
  case Mode::Normal: return x == 0 || (t == Type::F32 ? std::isnormal(static_cast<float>(x)) : std::isnormal(x));
  case Mode::Subnormal:
    return (t == Type::F32 ? std::fpclassify(static_cast<float>(x)) : std::fpclassify(x)) == FP_SUBNORMAL;
  default: return false;
  }
}

bool combine(BoolOp op, bool a, bool c) {
  switch (op) {
  case BoolOp::And: return a && c;
  case BoolOp::Or: return a || c;
  case BoolOp::Xor: return a != c;
  case BoolOp::None: return a;
  }
  return a;
}

} // namespace

bool compare(const Instr &in, uint64_t a, uint64_t b) {
  Type t = in.type;
  if (isFloat(t)) {
    double x = floatValue(a, t, in.ftz), y = floatValue(b, t, in.ftz);
    bool unordered = std::isnan(x) || std::isnan(y);
    switch (in.cmp) {
    case Cmp::Eq: return !unordered && x == y;
    case Cmp::Ne: return !unordered && x != y;
    case Cmp::Lt: return !unordered && x < y;
    case Cmp::Le: return !unordered && x <= y;
    case Cmp::Gt: return !unordered && x > y;
    case Cmp::Ge: return !unordered && x >= y;
    case Cmp::Equ: return unordered || x == y;
    case Cmp::Neu: return unordered || x != y;
    case Cmp::Ltu: return unordered || x < y;
    case Cmp::Leu: return unordered || x <= y;
    case Cmp::Gtu: return unordered || x > y;
    case Cmp::Geu: return unordered || x >= y;
    case Cmp::Num: return !unordered;
    case Cmp::Nan: return unordered;
    default: return false;
    }
  }
  unsigned w = typeBits(t);
  if (t == Type::Pred) w = 1;
  uint64_t ux = a & mask(w), uy = b & mask(w);
  int64_t sx = sext(a, w), sy = sext(b, w);
  bool sgn = isSigned(t);
  switch (in.cmp) {
  case Cmp::Eq: return ux == uy;
  case Cmp::Ne: return ux != uy;
  case Cmp::Lt: return sgn ? sx < sy : ux < uy;
  case Cmp::Le: return sgn ? sx <= sy : ux <= uy;
  case Cmp::Gt: return sgn ? sx > sy : ux > uy;
  case Cmp::Ge: return sgn ? sx >= sy : ux >= uy;
  case Cmp::Lo: return ux < uy;
  case Cmp::Ls: return ux <= uy;
  case Cmp::Hi: return ux > uy;
  case Cmp::Hs: return ux >= uy;
  default: return false;
  }
}

uint64_t evalAlu(const Instr &in, const uint64_t *s, bool &carry) {
  Type t = in.type;
  unsigned w = typeBits(t);
  uint64_t m = mask(w);
  if (isFloat(t) && in.op != Op::Cvt && in.op != Op::Selp && in.op != Op::Slct && in.op != Op::Set &&
      in.op != Op::Testp && in.op != Op::Mov)
    return floatArith(in, s);
  switch (in.op) {
  case Op::Add: return intAddSub(in, s[0], s[1], false, false, carry);
  case Op::Sub: return intAddSub(in, s[0], s[1], true, false, carry);
  case Op::AddCC: return intAddSub(in, s[0], s[1], false, false, carry);
  case Op::SubCC: return intAddSub(in, s[0], s[1], true, false, carry);
  case Op::AddC: return intAddSub(in, s[0], s[1], false, carry, carry);
  case Op::SubC: return intAddSub(in, s[0], s[1], true, carry, carry);
  case Op::Mul: return intMul(in, s[0], s[1]);
  case Op::MadC: return intMadCarry(in, s, carry, carry);
  case Op::Mad: {
    if (in.cc) return intMadCarry(in, s, false, carry);
    uint64_t p = intMul(in, s[0], s[1]);
    unsigned rw = in.mode == Mode::Wide ? 2 * w : w;
    if (in.sat && in.type == Type::S32 && in.mode == Mode::Hi) {
      int64_t r = sext(p, 32) + sext(s[2], 32);
      return static_cast<uint64_t>(std::min<int64_t>(std::max<int64_t>(r, INT32_MIN), INT32_MAX)) & m;
    }
    return (p + s[2]) & mask(rw);
  }
  case Op::Mul24:
  case Op::Mad24: {
    int64_t x = isSigned(t) ? sext(s[0], 24) : static_cast<int64_t>(s[0] & 0xffffff);
    int64_t y = isSigned(t) ? sext(s[1], 24) : static_cast<int64_t>(s[1] & 0xffffff);
    uint64_t p = static_cast<uint64_t>(x * y);
    uint64_t r = in.mode == Mode::Hi ? (p >> 16) : p;
    if (in.op == Op::Mad24) r += s[2];
    return r & 0xffffffff;
  }
  case Op::Div: return intDiv(in, s[0], s[1], false);
  case Op::Rem: return intDiv(in, s[0], s[1], true);
  case Op::Abs: {
    int64_t x = sext(s[0], w);
    return static_cast<uint64_t>(x < 0 ? -static_cast<uint64_t>(x) : x) & m;
  }
  case Op::Neg: return (~s[0] + 1) & m;
  case Op::Min: return intMinMax(in, s[0], s[1], true);
  case Op::Max: return intMinMax(in, s[0], s[1], false);
  case Op::Sad: {
    uint64_t diff;
    if (isSigned(t)) {
      int64_t x = sext(s[0], w), y = sext(s[1], w);
      uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
      diff = x > y ? ux - uy : uy - ux;
    } else {
      uint64_t x = s[0] & m, y = s[1] & m;
      diff = x > y ? x - y : y - x;
    }
    return (s[2] + diff) & m;
  }
  case Op::And: return t == Type::Pred ? (s[0] & s[1] & 1) : (s[0] & s[1]) & m;
  case Op::Or: return t == Type::Pred ? ((s[0] | s[1]) & 1) : (s[0] | s[1]) & m;
  case Op::Xor: return t == Type::Pred ? ((s[0] ^ s[1]) & 1) : (s[0] ^ s[1]) & m;
  case Op::Not: return t == Type::Pred ? (~s[0] & 1) : ~s[0] & m;
  case Op::CNot: return (s[0] & m) == 0 ? 1 : 0;
  case Op::Shl: {
    uint64_t n = s[1] & 0xffffffff;
    return n >= w ? 0 : (s[0] << n) & m;
  }
  case Op::Shr: {
    uint64_t n = s[1] & 0xffffffff;
    if (isSigned(t)) return static_cast<uint64_t>(sext(s[0], w) >> std::min<uint64_t>(n, 63)) & m;
    return n >= w ? 0 : (s[0] & m) >> n;
  }
  case Op::Popc: return static_cast<uint64_t>(std::popcount(s[0] & m));
  case Op::Clz: return static_cast<uint64_t>(std::countl_zero(s[0] & m) - (64 - w));
  case Op::Brev: {
    uint64_t v = s[0] & m, r = 0;
    for (unsigned i = 0; i < w; ++i) r |= ((v >> i) & 1) << (w - 1 - i);
    return r;
  }
  case Op::Bfind: return findMsb(t, s[0], in.approx);
  case Op::Bfe: return bitfieldExtract(t, s[0], s[1], s[2]) & m;
  case Op::Bfi: return bitfieldInsert(t, s[0], s[1], s[2], s[3]);
  case Op::Prmt: return permute(in.mode, s[0], s[1], s[2]);
  case Op::Lop3: {
    uint64_t a = s[0], b = s[1], c = s[2], r = 0;
    for (unsigned k = 0; k < 8; ++k)
      if ((s[3] >> k) & 1) r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
    return r & m;
  }
  case Op::Dp4a:
  case Op::Dp2a: {
    bool sa = isSigned(in.type), sb = isSigned(in.type2);
    int64_t acc = isSigned(in.type) || isSigned(in.type2) ? sext(s[2], 32) : static_cast<int64_t>(s[2] & 0xffffffff);
    if (in.op == Op::Dp4a) {
      for (unsigned i = 0; i < 4; ++i) {
        int64_t x = sa ? sext(s[0] >> (8 * i), 8) : static_cast<int64_t>((s[0] >> (8 * i)) & 0xff);
        int64_t y = sb ? sext(s[1] >> (8 * i), 8) : static_cast<int64_t>((s[1] >> (8 * i)) & 0xff);
        acc += x * y;
      }
    } else {
      unsigned base = in.mode == Mode::Hi ? 2 : 0;
      for (unsigned i = 0; i < 2; ++i) {
        int64_t x = sa ? sext(s[0] >> (16 * i), 16) : static_cast<int64_t>((s[0] >> (16 * i)) & 0xffff);
        int64_t y = sb ? sext(s[1] >> (8 * (base + i)), 8) : static_cast<int64_t>((s[1] >> (8 * (base + i))) & 0xff);
        acc += x * y;
      }
    }
    return static_cast<uint64_t>(acc) & 0xffffffff;
  }
  case Op::Selp: return (s[2] & 1) ? s[0] : s[1];
  case Op::Slct: {
    bool ge = in.type2 == Type::F32 ? in32(s[2], in.ftz) >= 0.0f : sext(s[2], 32) >= 0;
    return ge ? s[0] : s[1];
  }
  case Op::Set: {
    bool r = combine(in.boolOp, compare(in, s[0], s[1]), s[2] & 1);
    if (in.type2 == Type::F32) return r ? 0x3f800000 : 0;
    return r ? mask(typeBits(in.type2)) : 0;
  }
  case Op::Testp: return testProperty(in.mode, floatValue(s[0], t, false), t) ? 1 : 0;
  case Op::Cvt: {
    if (in.type == Type::F16x2 || in.type == Type::BF16x2) {
      Instr half = in;
      half.type = in.type == Type::F16x2 ? Type::F16 : Type::BF16;
      return (cvt(half, s[0]) << 16) | cvt(half, s[1]);
    }
    return cvt(in, s[0]);
  }
  default: return 0;
  }
}

uint64_t atomicUpdate(const Instr &in, uint64_t old, uint64_t b, uint64_t c) {
  Type t = in.type;
  unsigned w = typeBits(t);
  uint64_t m = mask(w);
  switch (in.mode) {
  case Mode::AtomAdd:
    if (t == Type::F32) return bitsF32(asF32(old) + asF32(b));
    if (t == Type::F64) return bitsF64(asF64(old) + asF64(b));
    if (t == Type::F16 || t == Type::BF16) return toHalf(half(old, t, false) + half(b, t, false), t, false, false);
    return (old + b) & m;
  case Mode::AtomMin:
  case Mode::AtomMax: {
    bool isMin = in.mode == Mode::AtomMin;
    if (t == Type::F32) return bitsF32(isMin ? fminPtx(asF32(old), asF32(b), false) : fmaxPtx(asF32(old), asF32(b), false));
    if (t == Type::F64) return bitsF64(isMin ? fminPtx(asF64(old), asF64(b), false) : fmaxPtx(asF64(old), asF64(b), false));
    if (t == Type::F16 || t == Type::BF16) {
      double x = half(old, t, false), y = half(b, t, false);
      return toHalf(isMin ? fminPtx(x, y, false) : fmaxPtx(x, y, false), t, false, false);
    }
    Instr minmax = in;
    return intMinMax(minmax, old, b, isMin);
  }
  case Mode::AtomInc: return (old & m) >= (b & m) ? 0 : (old + 1) & m;
  case Mode::AtomDec: return ((old & m) == 0 || (old & m) > (b & m)) ? b & m : (old - 1) & m;
  case Mode::AtomAnd: return old & b & m;
  case Mode::AtomOr: return (old | b) & m;
  case Mode::AtomXor: return (old ^ b) & m;
  case Mode::AtomExch: return b & m;
  case Mode::AtomCas: return (old & m) == (b & m) ? c & m : old & m;
  default: return old;
  }
}

} // namespace twintile::runtime::ptx
