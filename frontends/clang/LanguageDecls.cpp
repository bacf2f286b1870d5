//===- LanguageDecls.cpp - the language's declarations, as Clang shows them ===//
#include "frontends/clang/LanguageDecls.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>

namespace twintile {

llvm::StringRef nameOf(const clang::NamedDecl *d) {
  return d && d->getDeclName().isIdentifier() ? d->getName() : llvm::StringRef();
}

bool inNamespace(const clang::Decl *d, llvm::StringRef name, bool orDetail) {
  const clang::DeclContext *dc = d->getDeclContext();
  while (dc && !dc->isNamespace()) dc = dc->getParent();
  if (!dc) return false;
  auto *ns = llvm::cast<clang::NamespaceDecl>(dc);
  if (nameOf(ns) == name && ns->getParent()->isTranslationUnit()) return true;
  if (orDetail && nameOf(ns) == "detail") {
    auto *outer = llvm::dyn_cast<clang::NamespaceDecl>(ns->getParent());
    return outer && nameOf(outer) == name && outer->getParent()->isTranslationUnit();
  }
  return false;
}

const clang::CXXRecordDecl *recordOf(clang::QualType t) {
  return t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
}

std::optional<ir::ScalarKind> scalarKindNamed(llvm::StringRef n) {
  return ir::parseScalarName(std::string_view(n.data(), n.size()));  // the language's names are the IR's
}

std::optional<ir::Type> elementOf(clang::QualType t) {
  const clang::CXXRecordDecl *r = recordOf(t);
  if (!r || !inNamespace(r, "tt")) return std::nullopt;
  if (auto k = scalarKindNamed(nameOf(r)); k && !llvm::isa<clang::ClassTemplateSpecializationDecl>(r))
    return ir::Type::scalar(*k);
  auto *spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(r);
  if (!spec || spec->getTemplateArgs().size() < 1 ||
      spec->getTemplateArgs()[0].getKind() != clang::TemplateArgument::Type)
    return std::nullopt;
  clang::QualType arg = spec->getTemplateArgs()[0].getAsType();
  llvm::StringRef name = nameOf(spec);
  if (name == "Ptr") {
    std::optional<ir::Type> e = elementOf(arg);
    if (!e) return std::nullopt;
    return ir::Type::ptr(e->elem);
  }
  if (name == "Tile" || name == "Operand") return elementOf(arg);
  return std::nullopt;
}

bool isDeviceType(clang::QualType t) {
  const clang::CXXRecordDecl *r = recordOf(t);
  if (!r || !inNamespace(r, "tt", false)) return false;
  return elementOf(t).has_value() && (nameOf(r) == "Tile" || nameOf(r) == "Ptr" || scalarKindNamed(nameOf(r)));
}

const clang::Expr *deviceCondition(const clang::Expr *cond) {
  if (!cond) return nullptr;
  const clang::Expr *e = cond->IgnoreParenImpCasts();
  if (auto *w = llvm::dyn_cast<clang::ExprWithCleanups>(e)) e = w->getSubExpr()->IgnoreParenImpCasts();
  if (auto *m = llvm::dyn_cast<clang::CXXMemberCallExpr>(e))
    if (llvm::isa_and_nonnull<clang::CXXConversionDecl>(m->getMethodDecl()) && inNamespace(m->getMethodDecl(), "tt"))
      return m->getImplicitObjectArgument();
  return nullptr;
}

} // namespace twintile
