//===- LanguageDecls.h - the language's declarations, as Clang shows them -===//
//
// How a declaration or type of Clang's AST is told to be the language's
// (namespace tt): what the walker (frontends/parse) and the reading of a
// kernel's declaration (KernelDecl.cpp) both ask. Needs Clang's headers;
// KernelDecl.h is the header for those without them.
//===----------------------------------------------------------------------===//
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Type.h>
#include <llvm/ADT/StringRef.h>

namespace twintile {

/// The declaration's simple name; empty for an operator, a constructor, ...
llvm::StringRef nameOf(const clang::NamedDecl *d);

/// Whether `d` is declared in the top-level namespace `name` (or, with
/// `orDetail`, in its `detail` namespace).
bool inNamespace(const clang::Decl *d, llvm::StringRef name, bool orDetail = true);

/// The class `t` names, through references and sugar; null for any other type.
const clang::CXXRecordDecl *recordOf(clang::QualType t);

} // namespace twintile
