//===- Attr.h - compile-time attributes of operations and functions ------===//
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace twintile::ir {

/// A compile-time constant: an integer, a float, a string or a list of
/// integers. Operation attributes have fixed names and kinds (Ops.def):
///   axis, start, end: Int   value: Int or Float   perm: Ints
///   prefix, msg: String
struct Attr {
  enum class Kind { Int, Float, String, Ints };
  Kind kind = Kind::Int;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<int64_t> ints;

  static Attr integer(int64_t v) { Attr a; a.kind = Kind::Int; a.i = v; return a; }
  static Attr floating(double v) { Attr a; a.kind = Kind::Float; a.f = v; return a; }
  static Attr string(std::string v) { Attr a; a.kind = Kind::String; a.s = std::move(v); return a; }
  static Attr list(std::vector<int64_t> v) { Attr a; a.kind = Kind::Ints; a.ints = std::move(v); return a; }

  /// The numeric value as a double (Int or Float).
  double asDouble() const { return kind == Kind::Float ? f : static_cast<double>(i); }

  friend bool operator==(const Attr &a, const Attr &b);
};

/// Attributes by name; ordered, so printing is deterministic.
using AttrMap = std::map<std::string, Attr>;

/// IR spelling: 3, 1.5, -inf, "text", [1, 0].
std::string toString(const Attr &a);

} // namespace twintile::ir
