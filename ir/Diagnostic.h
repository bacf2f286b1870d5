//===- Diagnostic.h - a located error for the user -----------------------===//
#pragma once

#include "ir/Location.h"

#include <string>

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

} // namespace tt::ir
