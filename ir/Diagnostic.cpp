//===- Diagnostic.cpp - located errors, printed one way everywhere -------===//
#include "ir/Diagnostic.h"

#include <fstream>
#include <sstream>

namespace twintile::ir {

namespace {

/// An internal error's message after its first line (a verifier's list, a
/// log), each line starting with a newline; empty for a one-line message.
std::string internalRest(const Diagnostic &d) {
  size_t nl = d.message.find('\n');
  return d.internal && nl != std::string::npos ? d.message.substr(nl) : std::string();
}

} // namespace

Diagnostic Diagnostic::internalError(std::string message, Location loc) {
  return Diagnostic{std::move(loc), std::move(message), true};
}

InternalError::InternalError(std::string message, Location loc)
    : std::logic_error(Diagnostic::internalError(message, loc).str()),
      diag_(Diagnostic::internalError(std::move(message), std::move(loc))) {}

std::string Diagnostic::headline() const {
  // Without a line: the file, when the error is about one; else the tool.
  std::string where = loc.known() ? toString(loc.pos) : !loc.pos.file.empty() ? loc.pos.file : std::string("twintile");
  if (!internal) return where + ": error: " + message;
  return where + ": internal error: " + message.substr(0, message.find('\n')) + " — this is a bug in twintile";
}

std::string Diagnostic::str() const {
  std::string s = headline() + internalRest(*this);
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
  if (std::string rest = internalRest(d); !rest.empty()) out += rest.substr(1) + "\n";
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

} // namespace twintile::ir
