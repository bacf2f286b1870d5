//===- Diagnostic.h - a located error for the user -----------------------===//
#pragma once

#include "ir/Location.h"

#include <optional>
#include <string>
#include <string_view>

namespace tt::ir {

/// A user-facing error: where, and what. Compiler bugs are asserts instead.
struct Diagnostic {
  Location loc;
  std::string message;  // lower-case, concrete, no trailing period

  /// "file:line:col: error: message", then "  in call from file:line:col"
  /// for each inlined call site.
  std::string str() const;
  /// The first line of str() alone.
  std::string headline() const;
};

/// The one way every tool prints a diagnostic, clang-style: the headline,
/// the source line it names with a caret under the column, then the chain of
/// inlined calls, one per line. `source` is the named file's text when the
/// caller has it (an IR file read from standard input); otherwise the file is
/// read. Ends with a newline.
std::string render(const Diagnostic &d, std::optional<std::string_view> source = std::nullopt);

} // namespace tt::ir
