//===- Diagnostic.cpp - located errors, printed one way everywhere -------===//
#include "ir/Diagnostic.h"

#include <fstream>
#include <sstream>

namespace tt::ir {

std::string Diagnostic::headline() const {
  return (loc.known() ? toString(loc.pos) : std::string("<unknown>")) + ": error: " + message;
}

std::string Diagnostic::str() const {
  std::string s = headline();
  for (const SourcePos &p : loc.inlinedAt) s += "\n  in call from " + toString(p);
  return s;
}

namespace {

/// Line `n` (1-based) of `text`, or nothing past its end.
std::optional<std::string> lineOf(std::istream &in, int n) {
  std::string line;
  for (int i = 0; i < n; ++i)
    if (!std::getline(in, line)) return std::nullopt;
  return line;
}

} // namespace

std::string render(const Diagnostic &d, std::optional<std::string_view> source) {
  std::string out = d.headline() + "\n";
  if (d.loc.known() && d.loc.pos.line > 0) {
    std::optional<std::string> line;
    if (source) {
      std::istringstream in{std::string(*source)};
      line = lineOf(in, d.loc.pos.line);
    } else if (std::ifstream in(d.loc.pos.file); in) {
      line = lineOf(in, d.loc.pos.line);
    }
    // A very long line (generated code) is not worth echoing.
    if (line && line->size() <= 300) {
      out += *line + "\n";
      if (d.loc.pos.col > 0) out += std::string(d.loc.pos.col - 1, ' ') + "^\n";
    }
  }
  for (const SourcePos &p : d.loc.inlinedAt) out += "  in call from " + toString(p) + "\n";
  return out;
}

} // namespace tt::ir
