//===- Diagnostic.h - a located error for the user -----------------------===//
#pragma once

#include "ir/Location.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace twintile::ir {

/// An error: where, and what. Most are the user's (a malformed kernel, an
/// unsupported construct); an `internal` one is a bug in twintile found by
/// its own checks (a pass that broke the IR, lowering that does not verify),
/// and says so, never dressed as the user's.
struct Diagnostic {
  Location loc;
  std::string message;  // lower-case, concrete, no trailing period
  bool internal = false;

  static Diagnostic internalError(std::string message, Location loc = {});

  /// "file:line:col: error: message", then "  in call from file:line:col"
  /// for each inlined call site ("file: error:" without a line, "twintile:
  /// error:" without a file). Internal: "file:line:col: internal error:
  /// message — this is a bug in twintile".
  std::string str() const;
  /// The first line of str() alone.
  std::string headline() const;
};

/// Thrown where twintile finds a bug of its own deep inside a compile; the
/// pipeline and the front ends turn it into an internal Diagnostic, so that
/// one kernel's compile fails with it and nothing else does.
class InternalError : public std::logic_error {
public:
  explicit InternalError(std::string message, Location loc = {});
  const Diagnostic &diag() const { return diag_; }

private:
  Diagnostic diag_;
};

/// The one way every tool prints a diagnostic, clang-style: the headline,
/// the source line it names with a caret under the column, then the chain of
/// inlined calls, one per line. `source` is the named file's text when the
/// caller has it (an IR file read from standard input); otherwise the file is
/// read. Ends with a newline.
std::string render(const Diagnostic &d, std::optional<std::string_view> source = std::nullopt);

} // namespace twintile::ir
