#include "ir/Semantics.h"

#include "ir/Diagnostic.h"
#include "ir/Float16.h"

#include <bit>
#include <cassert>
#include <cmath>
#include <limits>

namespace twintile::ir {

int64_t wrapInt(int64_t v, ScalarKind k) {
  switch (k) {
  case ScalarKind::I1: return v & 1;
  case ScalarKind::I8: return static_cast<int8_t>(v);
  case ScalarKind::I16: return static_cast<int16_t>(v);
  case ScalarKind::I32: return static_cast<int32_t>(v);
  case ScalarKind::U8: return static_cast<uint8_t>(v);
  case ScalarKind::U16: return static_cast<uint16_t>(v);
  case ScalarKind::U32: return static_cast<uint32_t>(v);
  default: return v;
  }
}

double intToFloat(int64_t v, ScalarKind from, ScalarKind to) {
  bool negative = v < 0 && !isUnsigned(from);
  uint64_t mag = negative ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  int bits = 64 - std::countl_zero(mag);
  if (to == ScalarKind::F64 || bits <= 53) return negative ? -static_cast<double>(mag) : static_cast<double>(mag);
  int drop = bits - 53;
  uint64_t kept = mag >> drop << drop;
  if (kept != mag) kept |= uint64_t(1) << drop;  // sticky bit: round to odd
  double d = static_cast<double>(kept);          // exact: 53 significant bits
  return negative ? -d : d;
}

namespace {
uint64_t u(int64_t v) { return static_cast<uint64_t>(v); }
int64_t s(uint64_t v) { return static_cast<int64_t>(v); }
} // namespace

Elem flushSubnormalF32(Elem a) {
  if (a.f != 0 && std::fabs(a.f) < static_cast<double>(std::numeric_limits<float>::min()))
    return floatElem(std::copysign(0.0, a.f));
  return a;
}

Elem evalUnary(OpKind op, ScalarKind k, Elem a) {
  if (isFloat(k)) {
    double x = a.f, r = 0;
    switch (op) {
    case OpKind::Neg: r = -x; break;
    case OpKind::Abs: r = std::fabs(x); break;
    case OpKind::Exp: r = std::exp(x); break;
    case OpKind::Exp2: r = std::exp2(x); break;
    case OpKind::Log: r = std::log(x); break;
    case OpKind::Log2: r = std::log2(x); break;
    case OpKind::Sqrt: r = std::sqrt(x); break;
    case OpKind::Rsqrt: r = 1.0 / std::sqrt(x); break;
    case OpKind::Sin: r = std::sin(x); break;
    case OpKind::Cos: r = std::cos(x); break;
    case OpKind::Tanh: r = std::tanh(x); break;
    case OpKind::Sigmoid: r = 1.0 / (1.0 + std::exp(-x)); break;
    case OpKind::Floor: r = std::floor(x); break;
    case OpKind::Ceil: r = std::ceil(x); break;
    case OpKind::Erf: r = std::erf(x); break;
    case OpKind::Log1p: r = std::log1p(x); break;
    case OpKind::Expm1: r = std::expm1(x); break;
    case OpKind::Round: r = std::round(x); break;  // halves away from zero
    case OpKind::Rint: r = std::nearbyint(x); break;  // halves to even (the default rounding mode)
    default: throw InternalError("not a float unary op");
    }
    return floatElem(roundToFloat(r, k));
  }
  switch (op) {
  case OpKind::Neg: return intElem(wrapInt(s(0 - u(a.i)), k));
  case OpKind::Abs: return intElem(wrapInt(a.i < 0 && !isUnsigned(k) ? s(0 - u(a.i)) : a.i, k));
  case OpKind::Not: return intElem(wrapInt(s(~u(a.i)), k));
  default: throw InternalError("not an integer unary op");
  }
  return a;
}

std::optional<Elem> evalBinary(OpKind op, ScalarKind k, Elem a, Elem b) {
  if (isFloat(k)) {
    double x = a.f, y = b.f, r = 0;
    switch (op) {
    case OpKind::Add: r = x + y; break;
    case OpKind::Sub: r = x - y; break;
    case OpKind::Mul: r = x * y; break;
    case OpKind::Div: r = x / y; break;
    case OpKind::Rem: r = std::fmod(x, y); break;
    case OpKind::Minimum: r = std::fmin(x, y); break;  // NaN operands are ignored
    case OpKind::Maximum: r = std::fmax(x, y); break;
    case OpKind::Pow: r = std::pow(x, y); break;
    default: throw InternalError("not a float binary op");
    }
    return floatElem(roundToFloat(r, k));
  }
  int64_t x = a.i, y = b.i;
  int64_t width = bitWidth(k);
  bool uns = isUnsigned(k);  // unsigned elements are zero-extended: u64's high half reads negative
  switch (op) {
  case OpKind::Add: return intElem(wrapInt(s(u(x) + u(y)), k));
  case OpKind::Sub: return intElem(wrapInt(s(u(x) - u(y)), k));
  case OpKind::Mul: return intElem(wrapInt(s(u(x) * u(y)), k));
  case OpKind::Div:
  case OpKind::Rem:
    if (y == 0) return std::nullopt;
    if (uns) return intElem(wrapInt(s(op == OpKind::Div ? u(x) / u(y) : u(x) % u(y)), k));
    if (y == -1)  // only the minimum overflows; it wraps, as on the hardware
      return intElem(op == OpKind::Div ? wrapInt(s(0 - u(x)), k) : 0);
    return intElem(wrapInt(op == OpKind::Div ? x / y : x % y, k));
  case OpKind::Minimum: return intElem(uns ? s(std::min(u(x), u(y))) : std::min(x, y));
  case OpKind::Maximum: return intElem(uns ? s(std::max(u(x), u(y))) : std::max(x, y));
  case OpKind::And: return intElem(x & y);
  case OpKind::Or: return intElem(x | y);
  case OpKind::Xor: return intElem(wrapInt(x ^ y, k));
  case OpKind::Shl:
    if (y < 0 || y >= width) return intElem(0);
    return intElem(wrapInt(s(u(x) << y), k));
  case OpKind::Shr:  // arithmetic on signed kinds, logical on unsigned ones
    if (y < 0 || y >= width) return intElem(x < 0 && !uns ? wrapInt(-1, k) : 0);
    return intElem(uns ? s(u(x) >> y) : x >> y);
  case OpKind::Umulhi: {  // the high half of the product of the bits as unsigned numbers
    uint64_t m = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
    unsigned __int128 p = static_cast<unsigned __int128>(u(x) & m) * (u(y) & m);
    return intElem(wrapInt(s(static_cast<uint64_t>(p >> width)), k));
  }
  default: throw InternalError("not an integer binary op");
  }
  return a;
}

bool evalCompare(OpKind op, ScalarKind k, Elem a, Elem b) {
  if (isFloat(k)) {
    double x = a.f, y = b.f;
    switch (op) {
    case OpKind::Eq: return x == y;
    case OpKind::Ne: return x != y;  // true when either is NaN
    case OpKind::Lt: return x < y;
    case OpKind::Le: return x <= y;
    case OpKind::Gt: return x > y;
    case OpKind::Ge: return x >= y;
    default: break;
    }
    throw InternalError("not a comparison");
  }
  auto compare = [op](auto x, auto y) {
    switch (op) {
    case OpKind::Eq: return x == y;
    case OpKind::Ne: return x != y;
    case OpKind::Lt: return x < y;
    case OpKind::Le: return x <= y;
    case OpKind::Gt: return x > y;
    case OpKind::Ge: return x >= y;
    default: throw InternalError("not a comparison");
    }
    return false;
  };
  // Unsigned kinds compare as uint64_t: only u64 differs, since u8 .. u32
  // are zero-extended into int64's range.
  return isUnsigned(k) ? compare(u(a.i), u(b.i)) : compare(a.i, b.i);
}

Elem evalAtomic(OpKind op, ScalarKind k, Elem old, Elem v) {
  switch (op) {
  case OpKind::AtomicAdd: return *evalBinary(OpKind::Add, k, old, v);
  case OpKind::AtomicMax: return *evalBinary(OpKind::Maximum, k, old, v);
  case OpKind::AtomicMin: return *evalBinary(OpKind::Minimum, k, old, v);
  case OpKind::AtomicAnd: return *evalBinary(OpKind::And, k, old, v);
  case OpKind::AtomicOr: return *evalBinary(OpKind::Or, k, old, v);
  case OpKind::AtomicXor: return *evalBinary(OpKind::Xor, k, old, v);
  case OpKind::AtomicXchg: return v;
  default: throw InternalError("not a read-modify-write atomic");
  }
}

Elem evalFma(ScalarKind k, Elem a, Elem b, Elem c) {
  return floatElem(roundToFloat(std::fma(a.f, b.f, c.f), k));
}

Elem evalCast(Elem a, ScalarKind from, ScalarKind to) {
  if (to == ScalarKind::I1) return intElem(isFloat(from) ? a.f != 0 : a.i != 0);
  if (isFloat(to)) return floatElem(roundToFloat(isFloat(from) ? a.f : intToFloat(a.i, from, to), to));
  if (!isFloat(from)) return intElem(wrapInt(a.i, to));
  // Float to integer: truncate toward zero, saturate, NaN to 0 (PTX cvt.rzi).
  if (std::isnan(a.f)) return intElem(0);
  double t = std::trunc(a.f);
  if (isUnsigned(to)) {
    double top = std::ldexp(1.0, bitWidth(to));
    if (t <= 0) return intElem(0);
    if (t >= top) return intElem(wrapInt(-1, to));  // all ones
    return intElem(s(static_cast<uint64_t>(t)));
  }
  double bound = std::ldexp(1.0, bitWidth(to) - 1);
  if (t < -bound) return intElem(static_cast<int64_t>(-bound));
  if (t >= bound)
    return intElem(to == ScalarKind::I64 ? std::numeric_limits<int64_t>::max()
                                         : static_cast<int64_t>(bound) - 1);
  return intElem(static_cast<int64_t>(t));
}

Elem constantElem(const Attr &value, ScalarKind k) {
  if (isFloat(k)) return floatElem(roundToFloat(value.asDouble(), k));
  return intElem(wrapInt(value.i, k));
}

Attr elemAttr(Elem e, ScalarKind k) {
  return isFloat(k) ? Attr::floating(e.f) : Attr::integer(e.i);
}

} // namespace twintile::ir
