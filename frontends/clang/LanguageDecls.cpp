//===- LanguageDecls.cpp - the language's declarations, as Clang shows them ===//
#include "frontends/clang/LanguageDecls.h"

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

} // namespace twintile
