//===- LanguageTypes.cpp - the language's types, as Clang shows them -----===//
//
// The walker tells device values from host values by their C++ types: the
// language's scalars, Ptr<T> and Tile<T> (and their conversion wrappers) are
// device types (frontends/clang/LanguageDecls.h); everything else is
// evaluated on the host.
//===----------------------------------------------------------------------===//
#include "frontends/parse/WalkerInternal.h"

#include <clang/AST/DeclTemplate.h>

namespace twintile::walker {

bool inStd(const Decl *d) {
  for (const DeclContext *dc = d->getDeclContext(); dc; dc = dc->getParent())
    if (auto *ns = dyn_cast<NamespaceDecl>(dc); ns && ns->getParent()->isTranslationUnit() && nameOf(ns) == "std")
      return true;
  return false;
}

bool isComposite(const FunctionDecl *fn) { return inNamespace(fn, "tt", false) && nameOf(fn) == "clamp"; }

std::string qualifiedName(const NamedDecl *d) { return d ? d->getQualifiedNameAsString() : std::string("?"); }

} // namespace twintile::walker
