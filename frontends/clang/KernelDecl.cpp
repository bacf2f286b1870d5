//===- KernelDecl.cpp - what Clang's AST says of a kernel specialization -===//
#include "frontends/clang/KernelDecl.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cctype>

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

namespace {

void collectKernels(const clang::DeclContext *dc, std::vector<const clang::Decl *> &seen,
                    std::vector<DeclaredKernel> &out) {
  // What this compile parsed, not what the precompiled language header
  // holds: its declarations are read from the file only when something
  // asks for them, and listing them all cost a tenth of a small kernel's
  // parse. The header declares no kernel.
  for (const clang::Decl *d : dc->noload_decls()) {
    if (d->isFromASTFile()) continue;
    if (llvm::isa<clang::NamespaceDecl, clang::LinkageSpecDecl, clang::ExportDecl>(d)) {
      collectKernels(llvm::cast<clang::DeclContext>(d), seen, out);
      continue;
    }
    if (auto *record = llvm::dyn_cast<clang::CXXRecordDecl>(d); record && record->isThisDeclarationADefinition()) {
      collectKernels(record, seen, out);  // a static member kernel
      continue;
    }
    const clang::FunctionDecl *f = nullptr;
    const clang::TemplateParameterList *params = nullptr;
    const clang::Decl *canonical = nullptr;
    if (auto *t = llvm::dyn_cast<clang::FunctionTemplateDecl>(d)) {
      f = t->getTemplatedDecl();
      params = t->getTemplateParameters();
      canonical = t->getCanonicalDecl();
    } else if ((f = llvm::dyn_cast<clang::FunctionDecl>(d))) {
      canonical = f->getCanonicalDecl();
    }
    if (!f || !f->getIdentifier() || !isKernel(*f)) continue;
    if (std::find(seen.begin(), seen.end(), canonical) != seen.end()) continue;  // declared again
    seen.push_back(canonical);
    DeclaredKernel k{f->getNameAsString(), f->getQualifiedNameAsString(), params != nullptr, ""};
    if (params) {
      // As Clang prints the parameters (no comments; what a macro wrote, expanded).
      clang::PrintingPolicy policy = f->getASTContext().getPrintingPolicy();
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "<";
      for (unsigned i = 0; i < params->size(); ++i) {
        if (i) os << ", ";
        params->getParam(i)->print(os, policy);
      }
      os << ">";
      k.templateParams = os.str();
    }
    out.push_back(std::move(k));
  }
}

} // namespace

std::vector<DeclaredKernel> declaredKernels(clang::ASTContext &context) {
  std::vector<DeclaredKernel> out;
  std::vector<const clang::Decl *> seen;
  collectKernels(context.getTranslationUnitDecl(), seen, out);
  return out;
}

std::string hostParameterMessage(const clang::ParmVarDecl &p) {
  std::string name = p.getNameAsString();
  return (name.empty() ? "a kernel parameter" : "kernel parameter '" + name + "'") + " has host type '" +
         p.getType().getAsString() + "': give host values to a kernel as template parameters";
}

std::string hostParameterProblem(const clang::ParmVarDecl &p) {
  const clang::CXXRecordDecl *r = p.getType().getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  return r && inLanguage(r) ? std::string() : hostParameterMessage(p);
}

std::optional<ir::Diagnostic> hostParameterOf(const clang::FunctionDecl &kernel) {
  const clang::SourceManager &sm = kernel.getASTContext().getSourceManager();
  for (const clang::ParmVarDecl *p : kernel.parameters()) {
    std::string problem = hostParameterProblem(*p);
    if (problem.empty()) continue;
    clang::PresumedLoc at = sm.getPresumedLoc(sm.getSpellingLoc(p->getLocation()));
    ir::Location loc;
    if (at.isValid()) loc = ir::Location(at.getFilename(), static_cast<int>(at.getLine()), static_cast<int>(at.getColumn()));
    return ir::Diagnostic{loc, problem};
  }
  return std::nullopt;
}

} // namespace twintile
