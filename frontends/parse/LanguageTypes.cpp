//===- LanguageTypes.cpp - the language's types, as Clang shows them -----===//
//
// The walker tells device values from host values by their C++ types: the
// language's scalars, Ptr<T> and Tile<T> (and their conversion wrappers) are
// device types; everything else is evaluated on the host.
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

std::optional<ir::ScalarKind> scalarKindNamed(llvm::StringRef n) {
  return ir::parseScalarName(std::string_view(n.data(), n.size()));  // the language's names are the IR's
}

std::optional<ir::Type> elementOf(QualType t) {
  const CXXRecordDecl *r = recordOf(t);
  if (!r || !inNamespace(r, "tt")) return std::nullopt;
  if (auto k = scalarKindNamed(nameOf(r)); k && !isa<ClassTemplateSpecializationDecl>(r)) return ir::Type::scalar(*k);
  auto *spec = dyn_cast<ClassTemplateSpecializationDecl>(r);
  if (!spec || spec->getTemplateArgs().size() < 1 || spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return std::nullopt;
  QualType arg = spec->getTemplateArgs()[0].getAsType();
  llvm::StringRef name = nameOf(spec);
  if (name == "Ptr") {
    std::optional<ir::Type> e = elementOf(arg);
    if (!e) return std::nullopt;
    return ir::Type::ptr(e->elem);
  }
  if (name == "Tile" || name == "Operand") return elementOf(arg);
  return std::nullopt;
}

bool isDeviceType(QualType t) {
  const CXXRecordDecl *r = recordOf(t);
  if (!r || !inNamespace(r, "tt", false)) return false;
  return elementOf(t).has_value() && (nameOf(r) == "Tile" || nameOf(r) == "Ptr" || scalarKindNamed(nameOf(r)));
}

std::string qualifiedName(const NamedDecl *d) { return d ? d->getQualifiedNameAsString() : std::string("?"); }

} // namespace twintile::walker
