//===- KernelDecl.cpp - what Clang's AST says of a kernel specialization -===//
#include "frontends/clang/KernelDecl.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

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

void collectKernels(const clang::DeclContext *dc, const clang::SourceManager &sm, const clang::LangOptions &lang,
                    std::vector<DeclaredKernel> &out) {
  for (const clang::Decl *d : dc->decls()) {
    if (llvm::isa<clang::NamespaceDecl, clang::LinkageSpecDecl>(d)) {
      collectKernels(llvm::cast<clang::DeclContext>(d), sm, lang, out);
      continue;
    }
    const clang::FunctionDecl *f = nullptr;
    const clang::TemplateParameterList *params = nullptr;
    if (auto *t = llvm::dyn_cast<clang::FunctionTemplateDecl>(d)) {
      f = t->getTemplatedDecl();
      params = t->getTemplateParameters();
    } else {
      f = llvm::dyn_cast<clang::FunctionDecl>(d);
    }
    if (!f || !f->getIdentifier() || !isKernel(*f)) continue;
    DeclaredKernel k{f->getNameAsString(), ""};
    if (params && params->getLAngleLoc().isValid() && params->getRAngleLoc().isValid()) {
      clang::CharSourceRange range = clang::CharSourceRange::getTokenRange(params->getLAngleLoc(), params->getRAngleLoc());
      // On one line, as a message quotes it: each run of white space one space.
      for (char c : clang::Lexer::getSourceText(range, sm, lang)) {
        bool space = std::isspace(static_cast<unsigned char>(c));
        if (!space) k.templateParams += c;
        else if (k.templateParams.back() != ' ') k.templateParams += ' ';
      }
    }
    if (std::none_of(out.begin(), out.end(), [&](const DeclaredKernel &o) { return o.name == k.name; }))
      out.push_back(std::move(k));
  }
}

} // namespace

std::vector<DeclaredKernel> declaredKernels(clang::ASTContext &context) {
  std::vector<DeclaredKernel> out;
  collectKernels(context.getTranslationUnitDecl(), context.getSourceManager(), context.getLangOpts(), out);
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
