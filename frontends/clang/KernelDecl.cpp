//===- KernelDecl.cpp - what Clang's AST says of a kernel specialization -===//
#include "frontends/clang/KernelDecl.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>

namespace twintile {

namespace {

bool annotated(const clang::FunctionDecl *f) {
  if (!f) return false;
  for (const auto *a : f->specific_attrs<clang::AnnotateAttr>())
    if (a->getAnnotation() == "twintile.kernel") return true;
  return false;
}

/// Whether `d` is declared directly in the top-level namespace tt.
bool inLanguage(const clang::Decl *d) {
  const clang::DeclContext *dc = d->getDeclContext();
  while (dc && !dc->isNamespace()) dc = dc->getParent();
  auto *ns = llvm::dyn_cast_or_null<clang::NamespaceDecl>(dc);
  return ns && ns->getIdentifier() && ns->getName() == "tt" && ns->getParent()->isTranslationUnit();
}

} // namespace

bool isKernel(const clang::FunctionDecl &f) {
  // Any declaration of it, or of the template it was instantiated from,
  // may carry the mark (a forward declaration may not).
  auto anyMarked = [](const clang::FunctionDecl *d) {
    if (!d) return false;
    for (const clang::FunctionDecl *r : d->redecls())
      if (annotated(r)) return true;
    return false;
  };
  if (anyMarked(&f) || anyMarked(f.getTemplateInstantiationPattern())) return true;
  const clang::FunctionTemplateDecl *t = f.getPrimaryTemplate();
  return t && anyMarked(t->getTemplatedDecl());
}

KernelSignature signatureOf(const clang::FunctionDecl &kernel) {
  KernelSignature s;
  s.name = kernel.getNameAsString();
  for (const clang::ParmVarDecl *p : kernel.parameters()) s.params.push_back(p->getNameAsString());
  const clang::TemplateArgumentList *args = kernel.getTemplateSpecializationArgs();
  const clang::FunctionTemplateDecl *tmpl = kernel.getPrimaryTemplate();
  if (!args || !tmpl) return s;
  const clang::TemplateParameterList *params = tmpl->getTemplateParameters();
  clang::PrintingPolicy policy = kernel.getASTContext().getPrintingPolicy();
  policy.SuppressTagKeyword = true;
  for (unsigned i = 0; i < args->size() && i < params->size(); ++i) {
    std::string name = params->getParam(i)->getNameAsString();
    const clang::TemplateArgument &a = args->get(i);
    if (a.getKind() == clang::TemplateArgument::Integral) {
      s.meta.emplace_back(name, ir::Attr::integer(a.getAsIntegral().getExtValue()));
    } else if (a.getKind() == clang::TemplateArgument::Type) {
      const clang::CXXRecordDecl *r = a.getAsType().getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
      s.meta.emplace_back(name, ir::Attr::string(r && inLanguage(r) ? r->getNameAsString()
                                                                    : a.getAsType().getAsString(policy)));
    } else if (a.getKind() == clang::TemplateArgument::StructuralValue && a.getAsStructuralValue().isFloat()) {
      llvm::APFloat v = a.getAsStructuralValue().getFloat();
      bool inexact = false;
      v.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &inexact);
      s.meta.emplace_back(name, ir::Attr::floating(v.convertToDouble()));
    }
  }
  return s;
}

} // namespace twintile
