//===- BufferCompare.cpp - a device's buffers against a reference's --------===//
#include "runtime/BufferCompare.h"

#include "runtime/Manifest.h"
#include "runtime/PtxFloat.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

namespace twintile::runtime {

namespace {

/// Element `i` of a buffer of `t`, as a double (integers exactly up to 2^53).
double element(const ParamType &t, std::span<const uint8_t> bytes, size_t i) {
  const uint8_t *p = bytes.data() + i * t.bytes;
  auto raw = [&]<class T>(T) { T v; std::memcpy(&v, p, sizeof v); return v; };
  if (t.elem == "f16") return ptx::fromF16(raw(uint16_t{}));
  if (t.elem == "bf16") return ptx::fromBF16(raw(uint16_t{}));
  if (t.elem == "f32") return raw(float{});
  if (t.elem == "f64") return raw(double{});
  if (t.elem == "i1") return *p != 0;
  if (t.elem == "i8") return raw(int8_t{});
  if (t.elem == "i16") return raw(int16_t{});
  if (t.elem == "i32") return raw(int32_t{});
  if (t.elem == "u8") return raw(uint8_t{});
  if (t.elem == "u16") return raw(uint16_t{});
  if (t.elem == "u32") return raw(uint32_t{});
  if (t.elem == "u64") return static_cast<double>(raw(uint64_t{}));
  return static_cast<double>(raw(int64_t{}));
}

/// Element `i` as a mismatch shows it: an integer exactly (4294967295, not
/// 4.29497e+09), a float to its precision.
std::string shown(const ParamType &t, std::span<const uint8_t> bytes, size_t i) {
  if (t.isFloat) {
    std::ostringstream os;
    os.precision(t.bytes == 8 ? 17 : 9);
    os << element(t, bytes, i);
    return os.str();
  }
  uint64_t v = 0;
  std::memcpy(&v, bytes.data() + i * t.bytes, static_cast<size_t>(t.bytes));
  if (t.elem == "i1") return v ? "1" : "0";
  int bits = 8 * t.bytes;
  if (!t.isSigned || bits == 64) return t.isSigned ? std::to_string(static_cast<int64_t>(v)) : std::to_string(v);
  if ((v >> (bits - 1)) & 1) v |= ~uint64_t(0) << bits;  // sign-extend
  return std::to_string(static_cast<int64_t>(v));
}

double tolerance(const std::string &elem, bool fastMath) {
  // f64: a few ulp, libdevice's bounds (pow within 2), and a reordered sum's.
  return elem == "f16" ? 4e-3 : elem == "bf16" ? 3e-2 : elem == "f32" ? (fastMath ? 2e-3 : 1e-4) : 1e-12;
}

} // namespace

BufferCheck compareBuffer(const std::string &name, const std::string &elem, std::span<const uint8_t> initial,
                          std::span<const uint8_t> want, std::span<const uint8_t> got, bool fastMath) {
  BufferCheck c;
  c.name = name;
  c.elem = elem;
  ParamType t = *parseParamType(elem);
  size_t n = std::min({initial.size(), want.size(), got.size()}) / t.bytes;
  double rtol = tolerance(elem, fastMath), scale = 0;
  for (size_t e = 0; e < n && t.isFloat; ++e)
    if (double v = element(t, want, e); std::isfinite(v) && v != element(t, initial, e)) scale = std::max(scale, std::fabs(v));
  c.elements = n;
  for (size_t e = 0; e < n; ++e) {
    if (std::memcmp(initial.data() + e * t.bytes, got.data() + e * t.bytes, t.bytes) != 0) ++c.changed;
    bool same;
    double x = element(t, want, e), y = element(t, got, e);
    if (!t.isFloat)
      same = t.bytes == 8 ? std::memcmp(want.data() + e * 8, got.data() + e * 8, 8) == 0 : x == y;
    else
      // An infinity matches only itself (no tolerance reaches it: inf - y
      // is inf, and so is rtol * inf).
      same = std::isnan(x)                       ? std::isnan(y)
             : std::isinf(x) || std::isinf(y) ? x == y
                                                : std::fabs(x - y) <= 1e-5 + rtol * std::max(std::fabs(x), scale / 32);
    if (same) continue;
    if (++c.mismatches <= 10) {
      std::ostringstream os;
      os << name << "[" << e << "]: device " << shown(t, got, e) << ", reference " << shown(t, want, e);
      c.examples.push_back(os.str());
    }
  }
  return c;
}

void printCheck(std::ostream &os, const BufferCheck &c) {
  for (const std::string &m : c.examples) os << "mismatch: " << m << "\n";
  os << "buffer " << c.name << ": " << c.elements << " " << c.elem << " elements, ";
  if (c.written >= 0) os << c.written << " written, ";
  os << c.changed << " changed by the kernel\n";
}

} // namespace twintile::runtime
