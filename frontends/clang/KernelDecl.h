//===- KernelDecl.h - what Clang's AST says of a kernel specialization ---===//
//
// A kernel's facts as Clang resolved them, for both front ends: whether a
// function is a kernel (TT_KERNEL), its meta-parameters (the template
// arguments by parameter name, defaulted ones filled in) and its parameter
// names. The parse front end reads them from the AST it walks; the tracing
// front end from the AST of its in-process host compile (HostCompile.h), so
// that comments, line endings and default arguments in the kernel's
// declaration cannot make the two disagree.
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

#include <string>
#include <utility>
#include <vector>

namespace clang {
class FunctionDecl;
}

namespace twintile {

struct KernelSignature {
  std::string name;  // unqualified
  /// Integers by value, floats as doubles, types as written without a tag
  /// keyword ("Silu", "act::Gelu"; the language's own types by their short name).
  std::vector<std::pair<std::string, ir::Attr>> meta;
  std::vector<std::string> params;
};

/// Whether `f` (or the template it was instantiated from) is marked TT_KERNEL.
bool isKernel(const clang::FunctionDecl &f);

/// The signature of the kernel specialization `kernel`.
KernelSignature signatureOf(const clang::FunctionDecl &kernel);

} // namespace twintile
