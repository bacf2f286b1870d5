//===- Parser.h - reading the textual tile IR back -----------------------===//
//
// Reads what Printer.h writes. Every error is reported at its line and
// column in the text; the parser never crashes or loops on bad input. It
// checks each op against its typing rule as it reads (a declared result type
// that the operands do not give is an error here); structural rules such as
// terminators are left to the verifier.
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Diagnostic.h"
#include "ir/IR.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace twintile::ir {

struct ParseResult {
  std::unique_ptr<Module> module;   // set on success
  std::optional<Diagnostic> error;  // set on failure, located in the text
};

/// Parses a module (one or more functions). `bufferName` is the file name
/// used in error locations.
ParseResult parseModule(std::string_view text, std::string bufferName = "<input>");

} // namespace twintile::ir
