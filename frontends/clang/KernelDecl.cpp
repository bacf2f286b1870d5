//===- KernelDecl.cpp - what Clang's AST says of a kernel specialization -===//
#include "frontends/clang/KernelDecl.h"

#include "frontends/clang/LanguageDecls.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/StringExtras.h>
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
bool inLanguage(const clang::Decl *d) { return inNamespace(d, "tt", /*orDetail=*/false); }

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

namespace {

/// A template argument as a meta attribute: integers by value (digits
/// beyond 64 bits), types as written, floats as doubles; a pack as the
/// list of its integers (`integerPack`: a pack of integer parameters, so
/// that an empty one is [] too), or else as its elements' text ("f16,
/// f32"; "1.5, 2" for floats). Nothing for what has no value to show (a
/// template template argument, a pointer).
std::optional<ir::Attr> attrOf(const clang::TemplateArgument &a, const clang::PrintingPolicy &policy,
                               bool integerPack = false) {
  switch (a.getKind()) {
  case clang::TemplateArgument::Integral: {
    // What an i64 holds by value; a wider value (an unsigned 2^64 - 1, an
    // __int128) as its digits, never cut short.
    const llvm::APSInt &v = a.getAsIntegral();
    if (v.isSigned() ? v.getSignificantBits() <= 64 : v.getActiveBits() <= 63) return ir::Attr::integer(v.getExtValue());
    return ir::Attr::string(llvm::toString(v, 10));
  }
  case clang::TemplateArgument::Type: {
    const clang::CXXRecordDecl *r = a.getAsType().getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
    return ir::Attr::string(r && inLanguage(r) ? r->getNameAsString() : a.getAsType().getAsString(policy));
  }
  case clang::TemplateArgument::StructuralValue: {
    if (!a.getAsStructuralValue().isFloat()) return std::nullopt;
    llvm::APFloat v = a.getAsStructuralValue().getFloat();
    bool inexact = false;
    v.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &inexact);
    return ir::Attr::floating(v.convertToDouble());
  }
  case clang::TemplateArgument::Pack: {
    std::vector<int64_t> ints;
    std::string text;
    bool allInts = integerPack || a.pack_size() > 0;
    for (const clang::TemplateArgument &e : a.pack_elements()) {
      std::optional<ir::Attr> v = attrOf(e, policy);
      if (!v) return std::nullopt;
      if (v->kind == ir::Attr::Kind::Int) ints.push_back(v->i);
      else allInts = false;
      text += (text.empty() ? "" : ", ") + (v->kind == ir::Attr::Kind::String ? v->s : ir::toString(*v));
    }
    // A pack of integers as their list (none: []), any other as its text.
    if (allInts) return ir::Attr::list(std::move(ints));
    return ir::Attr::string(text);
  }
  default: return std::nullopt;
  }
}

} // namespace

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
    const clang::NamedDecl *param = params->getParam(i);
    auto *value = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(param);
    bool integerPack = value && value->getType()->isIntegralOrEnumerationType();
    if (std::optional<ir::Attr> a = attrOf(args->get(i), policy, integerPack))
      s.meta.emplace_back(param->getNameAsString(), std::move(*a));
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

namespace {

/// Whether `r` is one of the language's scalars (f32, i32, ...).
bool isScalar(const clang::CXXRecordDecl *r) {
  return r && inLanguage(r) && !llvm::isa<clang::ClassTemplateSpecializationDecl>(r) && r->getIdentifier() &&
         ir::parseScalarName(std::string_view(r->getName().data(), r->getName().size()));
}

} // namespace

std::string hostParameterProblem(const clang::ParmVarDecl &p) {
  const clang::CXXRecordDecl *r = recordOf(p.getType());
  if (isScalar(r)) return {};
  if (auto *spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(r); spec && inLanguage(spec)) {
    const clang::TemplateArgumentList &args = spec->getTemplateArgs();
    bool ofScalar = args.size() >= 1 && args[0].getKind() == clang::TemplateArgument::Type && isScalar(recordOf(args[0].getAsType()));
    if (spec->getName() == "Ptr" && ofScalar) return {};
    if (spec->getName() == "Tile") return kTileParameter;
  }
  return hostParameterMessage(p);
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
