//===- Location.h - source locations carried by every operation ----------===//
#pragma once

#include <string>
#include <vector>

namespace twintile::ir {

/// One point in a source file. line == 0 means unknown.
struct SourcePos {
  std::string file;
  int line = 0;
  int col = 0;

  bool known() const { return line > 0; }
  friend bool operator==(const SourcePos &, const SourcePos &) = default;
};

/// Where an operation came from: the position in the function that holds it,
/// then the call sites it was inlined through, innermost first.
struct Location {
  SourcePos pos;
  std::vector<SourcePos> inlinedAt;

  Location() = default;
  Location(std::string file, int line, int col) : pos{std::move(file), line, col} {}

  bool known() const { return pos.known(); }
  friend bool operator==(const Location &, const Location &) = default;
};

/// "file:line:col" (or "<unknown>"), without the inlining chain.
std::string toString(const SourcePos &p);

} // namespace twintile::ir
