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

#include "ir/Diagnostic.h"
#include "ir/IR.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class ParmVarDecl;
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

/// A kernel a file declares, as Clang read it (whatever its declaration's
/// specifiers, attributes and comments).
struct DeclaredKernel {
  std::string name;            // unqualified
  std::string qualifiedName;   // "ns::softmax"
  bool isTemplate = false;
  std::string templateParams;  // its template parameter list as Clang prints it ("<int N, class T = f32>")
};

/// The kernels the translation unit declares (in namespaces and classes
/// too), in order, each declaration once (overloads apart; a template's
/// specializations are its own).
std::vector<DeclaredKernel> declaredKernels(clang::ASTContext &context);

/// The error of a kernel parameter of type Tile, in both front ends.
inline constexpr const char *kTileParameter =
    "kernel parameters are scalars and pointers; a Tile parameter cannot be passed";

/// The error of kernel parameter `p`, whose type is a host (plain C++) one.
std::string hostParameterMessage(const clang::ParmVarDecl &p);

/// What is wrong with kernel parameter `p`, the one rule of both front ends:
/// empty when its type is one a kernel takes (a scalar of the language, or a
/// Ptr to one), a Tile's own message, else hostParameterMessage.
std::string hostParameterProblem(const clang::ParmVarDecl &p);

/// The first parameter of the kernel specialization `kernel` that
/// hostParameterProblem refuses, as "file:line:col" and the error; nullopt
/// when there is none.
std::optional<ir::Diagnostic> hostParameterOf(const clang::FunctionDecl &kernel);

} // namespace twintile
