//===- LanguageDecls.h - the language's declarations, as Clang shows them -===//
//
// How a declaration or type of Clang's AST is told to be the language's
// (namespace tt): what the walker (frontends/parse) and the reading of a
// kernel's declaration (KernelDecl.cpp) both ask. Needs Clang's headers;
// KernelDecl.h is the header for those without them.
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Type.h"

#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Type.h>
#include <llvm/ADT/StringRef.h>

#include <optional>

namespace twintile {

/// The declaration's simple name; empty for an operator, a constructor, ...
llvm::StringRef nameOf(const clang::NamedDecl *d);

/// Whether `d` is declared in the top-level namespace `name` (or, with
/// `orDetail`, in its `detail` namespace).
bool inNamespace(const clang::Decl *d, llvm::StringRef name, bool orDetail = true);

/// The class `t` names, through references and sugar; null for any other type.
const clang::CXXRecordDecl *recordOf(clang::QualType t);

/// The scalar kind a language type's name names (i32, f16, ...).
std::optional<ir::ScalarKind> scalarKindNamed(llvm::StringRef n);
/// The element type of a language type (i32, Ptr<f16>, Tile<f32>,
/// Operand<Tile<f32>>): a scalar ir::Type, or nothing for host types.
std::optional<ir::Type> elementOf(clang::QualType t);
/// Whether `t` is one of the language's device types (a scalar, Ptr, Tile).
bool isDeviceType(clang::QualType t);

/// The device value a condition tests, where it is a device condition (a
/// call of the language's `explicit operator bool`, Triton's `if x:`, at its
/// top); null for a host condition. What the parse front end turns into
/// structured IR and the hybrid front end rewrites.
const clang::Expr *deviceCondition(const clang::Expr *cond);

} // namespace twintile
