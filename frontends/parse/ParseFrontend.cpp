#include "frontends/parse/ParseFrontend.h"

#include "frontends/clang/KernelDecl.h"
#include "frontends/clang/LanguageHeader.h"
#include "frontends/common/LanguageFiles.h"
#include "frontends/parse/Walker.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace twintile {

namespace {

/// The variable that instantiates specialization i.
std::string specVar(size_t i) { return "__twintile_spec_" + std::to_string(i); }

/// Clang's diagnostics without those about the lines appended to the file
/// past its `lines` (each specialization's instantiation) and their notes,
/// when the user's own code has an error: then those only repeat it, at a
/// line the file does not have. Otherwise (only they failed: the spec does
/// not fit) the text is kept, for the pipeline to say so.
std::string withoutAppended(const std::string &text, const std::string &path, size_t lines) {
  static const std::regex head(R"(^(.*):(\d+):\d+: (fatal error|error|warning|note): )");
  struct Block {
    std::string text;
    bool appended = false, error = false;
  };
  std::vector<Block> blocks;
  std::istringstream in(text);
  bool dropping = false;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, head)) {
      bool note = m[3] == "note";
      if (!note) dropping = m[1] == path && std::stoul(m[2].str()) > lines;
      blocks.push_back({"", dropping, !note && m[3] != "warning"});
    } else if (blocks.empty()) {
      blocks.push_back({});
    }
    blocks.back().text += line + "\n";
  }
  if (!std::any_of(blocks.begin(), blocks.end(), [](const Block &b) { return b.error && !b.appended; })) return text;
  std::string out;
  for (const Block &b : blocks)
    if (!b.appended) out += b.text;
  return out;
}

std::string squash(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
  return s;
}

} // namespace

struct ParsedFile::Impl {
  std::string file;  // as the caller named it
  std::unique_ptr<clang::ASTUnit> ast;
  std::string errors;
  std::vector<std::string> specs;
  double seconds = 0;
  ParseOptions opts;
  std::vector<std::string> notes;
  std::vector<DeclaredKernel> kernels;
};

ParsedFile::ParsedFile(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ParsedFile::~ParsedFile() = default;
bool ParsedFile::ok() const { return impl_->ast != nullptr && impl_->errors.empty(); }
const std::string &ParsedFile::error() const { return impl_->errors; }
double ParsedFile::parseSeconds() const { return impl_->seconds; }
const std::vector<std::string> &ParsedFile::notes() const { return impl_->notes; }
const std::vector<DeclaredKernel> &ParsedFile::kernels() const { return impl_->kernels; }

std::vector<std::string> ParsedFile::inputFiles() const {
  std::vector<std::string> read;
  if (!impl_->ast) return read;
  const clang::SourceManager &sm = impl_->ast->getSourceManager();
  for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) read.push_back(it->first.getName().str());
  return userFiles(read);
}

std::unique_ptr<ParsedFile> ParsedFile::parse(const std::string &file, const std::vector<std::string> &specs,
                                              const ParseOptions &opts) {
  auto impl = std::make_unique<Impl>();
  impl->specs = specs;
  impl->file = file;
  impl->opts = opts;
  auto start = std::chrono::steady_clock::now();
  std::error_code ec;
  fs::path path = fs::absolute(file, ec);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    impl->errors = "error: cannot read kernel file '" + file + "'\n";
    return std::unique_ptr<ParsedFile>(new ParsedFile(std::move(impl)));
  }
  std::ostringstream source;
  source << in.rdbuf();
  // Taking each specialization's address makes Sema instantiate its body.
  // The lines go after the file's own, so its line numbers stay as they are.
  std::string code = source.str() + "\n";
  size_t fileLines = static_cast<size_t>(std::count(code.begin(), code.end(), '\n'));
  for (size_t i = 0; i < specs.size(); ++i)
    code += "[[maybe_unused]] static auto *" + specVar(i) + " = &" + specs[i] + ";\n";

  if (LanguageRoot language = languageRoot(); !language.error.empty()) {
    impl->errors = "error: " + language.error + "\n";
    return std::unique_ptr<ParsedFile>(new ParsedFile(std::move(impl)));
  }
  std::vector<std::string> args = clangBaseArgs(opts.includeDirs);
  std::string pch = languagePch(args, impl->notes);
  size_t withoutPch = args.size();
  if (!pch.empty())
    for (std::string &a : pchArgs(pch)) args.push_back(std::move(a));

  std::string diagText;
  llvm::raw_string_ostream diagStream(diagText);
  auto diagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::TextDiagnosticPrinter printer(diagStream, diagOpts.get());
  impl->ast = clang::tooling::buildASTFromCodeWithArgs(code, args, path.string(), "twintile",
                                                       std::make_shared<clang::PCHContainerOperations>(),
                                                       clang::tooling::getClangStripDependencyFileAdjuster(),
                                                       clang::tooling::FileContentMappings(), &printer);
  diagStream.flush();
  if (!pch.empty() && (!impl->ast || impl->ast->getDiagnostics().hasErrorOccurred()) && pchUnusable(diagText, pch)) {
    // A PCH Clang cannot use: parse the header itself instead, and look at
    // the cache again next time.
    forgetLanguagePch(pch);
    impl->notes.push_back("the precompiled language header " + pch + " could not be used; the header was parsed instead");
    args.resize(withoutPch);
    diagText.clear();
    impl->ast = clang::tooling::buildASTFromCodeWithArgs(code, args, path.string(), "twintile",
                                                         std::make_shared<clang::PCHContainerOperations>(),
                                                         clang::tooling::getClangStripDependencyFileAdjuster(),
                                                         clang::tooling::FileContentMappings(), &printer);
    diagStream.flush();
  }
  if (impl->ast) impl->kernels = declaredKernels(impl->ast->getASTContext());
  if (!impl->ast || impl->ast->getDiagnostics().hasErrorOccurred())
    impl->errors = diagText.empty() ? "error: clang could not parse '" + file + "'\n"
                                    : withoutAppended(diagText, path.string(), fileLines);
  impl->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return std::unique_ptr<ParsedFile>(new ParsedFile(std::move(impl)));
}

/// The instantiated kernel `spec` names, or nullptr with `why`.
static const clang::FunctionDecl *findKernel(const ParsedFile::Impl &impl, const std::string &spec, std::string &why) {
  auto it = std::find_if(impl.specs.begin(), impl.specs.end(),
                         [&](const std::string &s) { return squash(s) == squash(spec); });
  if (it == impl.specs.end()) {
    why = "'" + spec + "' was not among the specializations parsed";
    return nullptr;
  }
  std::string var = specVar(static_cast<size_t>(it - impl.specs.begin()));
  const clang::FunctionDecl *kernel = nullptr;
  clang::ASTContext &ctx = impl.ast->getASTContext();
  // The lines appended to the file, not the precompiled header's
  // declarations (which decls() would read from it).
  for (const clang::Decl *d : ctx.getTranslationUnitDecl()->noload_decls())
    if (auto *v = llvm::dyn_cast<clang::VarDecl>(d);
        v && !v->isFromASTFile() && v->getDeclName().isIdentifier() && v->getName() == var && v->getInit()) {
      const clang::Expr *e = v->getInit()->IgnoreParenImpCasts();
      if (auto *u = llvm::dyn_cast<clang::UnaryOperator>(e)) e = u->getSubExpr()->IgnoreParenImpCasts();
      if (auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) kernel = llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl());
    }
  if (!kernel || !kernel->hasBody()) {
    why = "'" + spec + "' does not name a kernel defined in the file";
    return nullptr;
  }
  if (!isKernel(*kernel)) {  // as the tracing front end says it (HostCompile.cpp)
    why = "--kernel '" + spec + "' is not a specialization of a kernel in " + impl.file + ": '" +
          kernel->getQualifiedNameAsString() + "' is a function, not a kernel (TT_KERNEL)";
    return nullptr;
  }
  return kernel;
}

FrontendResult ParsedFile::walk(const std::string &spec) const {
  FrontendResult r;
  if (!ok()) {
    r.error = ir::Diagnostic{{}, "the kernel file does not compile:\n" + impl_->errors};
    return r;
  }
  std::string why;
  const clang::FunctionDecl *kernel = findKernel(*impl_, spec, why);
  if (!kernel) {
    r.error = ir::Diagnostic{ir::Location(impl_->file, 0, 0), why};  // located as the tracer locates it
    return r;
  }
  return walkInstantiated(*kernel, impl_->opts);
}

FrontendResult walkInstantiated(const clang::FunctionDecl &kernel, const ParseOptions &opts) {
  auto start = std::chrono::steady_clock::now();
  FrontendResult r = walkKernel(kernel.getASTContext(), kernel, opts.numWarps);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

const clang::FunctionDecl *ParsedFile::instantiated(const std::string &spec, std::string &why) const {
  if (!ok()) {
    why = "the kernel file does not compile";
    return nullptr;
  }
  return findKernel(*impl_, spec, why);
}

std::string ParsedFile::instantiatedSource(const std::string &spec) const {
  if (!ok()) return {};
  std::string why;
  const clang::FunctionDecl *kernel = findKernel(*impl_, spec, why);
  if (!kernel) return "// " + why + "\n";
  return twintile::instantiatedSource(*kernel, spec);
}

std::string instantiatedSource(const clang::FunctionDecl &kernel, const std::string &spec) {
  std::string text;
  llvm::raw_string_ostream os(text);
  clang::PrintingPolicy policy = kernel.getASTContext().getPrintingPolicy();
  policy.SuppressTagKeyword = true;
  os << "// " << spec << ": the body Clang instantiated, as Clang prints it\n";
  kernel.print(os, policy);
  os << "\n";
  return os.str();
}

FrontendResult parseKernel(const std::string &file, const std::string &spec, const ParseOptions &opts) {
  std::unique_ptr<ParsedFile> parsed = ParsedFile::parse(file, {spec}, opts);
  return parsed->walk(spec);
}

} // namespace twintile
