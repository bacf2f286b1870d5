//===- Arguments.cpp - a kernel's arguments from the command line ---------===//
#include "tools/driver/Arguments.h"

#include "ir/Float16.h"
#include "ir/Interpreter.h"

#include <bit>
#include <charconv>
#include <cmath>

namespace twintile::driver {

/// The whole of `text` as an integer or a double; nullopt on anything else.
std::optional<int64_t> parseInt(const std::string &text) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

/// Whether `text` is written as an integer (an optional minus, then digits),
/// however large.
bool isIntegerText(const std::string &text) {
  size_t start = !text.empty() && text[0] == '-' ? 1 : 0;
  return text.size() > start && text.find_first_not_of("0123456789", start) == std::string::npos;
}

std::optional<double> parseDouble(const std::string &text) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

/// NAME=VALUE pairs, each name once.
bool splitPairs(const std::vector<std::string> &pairs, const char *flag, std::map<std::string, std::string> &out,
                std::string &error) {
  for (const std::string &a : pairs) {
    size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0) {
      error = std::string(flag) + " takes NAME=VALUE, got '" + a + "'";
      return false;
    }
    if (!out.emplace(a.substr(0, eq), a.substr(eq + 1)).second) {
      error = std::string(flag) + " " + a.substr(0, eq) + " is given twice";
      return false;
    }
  }
  return true;
}

/// A scalar argument's bits in its parameter's type; an error for a value
/// that is not a number of that type or does not fit.
std::optional<uint64_t> scalarBits(const Param &p, const std::string &text, std::string &error) {
  if (p.type.isFloat) {
    std::optional<double> v = parseDouble(text);
    if (!v) {
      error = "--arg " + p.name + "=" + text + " is not a number";
      return std::nullopt;
    }
    if (p.type.elem == "f64") return std::bit_cast<uint64_t>(*v);
    double rounded = p.type.elem == "f32" ? static_cast<float>(*v)
                   : p.type.elem == "bf16" ? ir::decodeBF16(ir::encodeBF16(*v)) : ir::decodeF16(ir::encodeF16(*v));
    if (std::isfinite(*v) && !std::isfinite(rounded)) {
      error = "--arg " + p.name + "=" + text + " is out of " + p.typeText + "'s range";
      return std::nullopt;
    }
    if (p.type.elem == "f32") return std::bit_cast<uint32_t>(static_cast<float>(*v));
    return p.type.elem == "bf16" ? ir::encodeBF16(*v) : ir::encodeF16(*v);
  }
  if (p.type.elem == "u64") {  // 0 to 2^64 - 1
    uint64_t u = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), u);
    if (ec == std::errc() && end == text.data() + text.size() && !text.empty()) return u;
    error = "--arg " + p.name + "=" + text + " is not " + (isIntegerText(text) ? "within " + p.typeText : "an integer");
    return std::nullopt;
  }
  std::optional<int64_t> v = parseInt(text);
  if (!v || !runtime::intRange(p.type).contains(*v)) {
    error = "--arg " + p.name + "=" + text + " is not " + (isIntegerText(text) ? "within " + p.typeText : "an integer");
    return std::nullopt;
  }
  return static_cast<uint64_t>(*v);
}

/// Random contents: floats in [-2, 2), integers in [-50, 50] (unsigned ones
/// in [0, 100], i1 0 or 1).
void fillRandom(const Param &p, std::vector<uint8_t> &bytes, size_t count, std::mt19937_64 &rng) {
  ir::ScalarKind k = *ir::parseScalarName(p.type.elem);
  ir::Buffer b(k, count);
  for (size_t e = 0; e < count; ++e) {
    if (p.type.isFloat) b.set(e, std::uniform_real_distribution<double>(-2, 2)(rng));
    else if (p.type.elem == "i1") b.setInt(e, std::uniform_int_distribution<int64_t>(0, 1)(rng));
    else if (!p.type.isSigned) b.setInt(e, std::uniform_int_distribution<int64_t>(0, 100)(rng));
    else b.setInt(e, std::uniform_int_distribution<int64_t>(-50, 50)(rng));
  }
  bytes = b.bytes();
}

} // namespace twintile::driver
