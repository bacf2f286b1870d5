//===- HostCompile.cpp - a kernel file compiled for tracing inside twintile ===//
#include "frontends/trace/HostCompile.h"

#include "frontends/clang/LanguageHeader.h"
#include "frontends/trace/HostLoad.h"
#include "support/Cache.h"
#include "support/LlvmTargets.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/Version.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Tooling/Tooling.h>
#include <llvm-c/Core.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <tuple>

namespace twintile {

namespace {

using Json = nlohmann::json;

/// The format of the objects compileHostObject makes, part of their cache
/// key: a change to prepareForJit, embedSignatures or emitObject must change
/// it, or objects cached before the change would be loaded after it.
constexpr const char *kObjectFormat = "twintile-host-jit-3";
/// The section of the object that carries the entry points' signatures.
constexpr const char *kSignatureSection = "twintile_entries";

/// The specialization an entry point's body traces: the function whose
/// address is the first argument of its one call, twintile::entry::trace(&spec, ...).
const clang::FunctionDecl *tracedFunction(const clang::Stmt *body) {
  auto *block = llvm::dyn_cast_or_null<clang::CompoundStmt>(body);
  if (!block || block->size() != 1) return nullptr;
  const clang::Expr *e = llvm::dyn_cast<clang::Expr>(block->body_front());
  if (auto *cleanups = llvm::dyn_cast_or_null<clang::ExprWithCleanups>(e)) e = cleanups->getSubExpr();
  auto *call = llvm::dyn_cast_or_null<clang::CallExpr>(e);
  if (!call || call->getNumArgs() < 1) return nullptr;
  const clang::Expr *arg = call->getArg(0)->IgnoreParenImpCasts();
  if (auto *addr = llvm::dyn_cast<clang::UnaryOperator>(arg); addr && addr->getOpcode() == clang::UO_AddrOf)
    arg = addr->getSubExpr()->IgnoreParenImpCasts();
  auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(arg);
  return ref ? llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl()) : nullptr;
}

/// What the AST says of the entry file: each entry point's specialization,
/// and the kernels the file declares.
struct AstRead {
  std::vector<EntrySignature> entries;
  std::vector<DeclaredKernel> kernels;
  std::vector<const clang::FunctionDecl *> instantiated;  // entry i's kernel, or null
};

/// Reads the AST before code generation (and when Clang found errors, as
/// far as it got).
class ReadEntries : public clang::ASTConsumer {
public:
  explicit ReadEntries(AstRead &out, const InstantiatedKernels *hand = nullptr) : out_(out), hand_(hand) {}
  void HandleTranslationUnit(clang::ASTContext &context) override {
    sources_ = &context.getSourceManager();
    out_.entries.clear();
    out_.instantiated.clear();
    out_.kernels = declaredKernels(context);
    visit(context.getTranslationUnitDecl());
    out_.instantiated.resize(out_.entries.size());
    if (hand_ && *hand_ && !context.getDiagnostics().hasErrorOccurred()) (*hand_)(out_.instantiated);
  }

private:
  void visit(const clang::DeclContext *dc) {
    // The entry file's own declarations, without reading the precompiled
    // header's (as declaredKernels).
    for (const clang::Decl *d : dc->noload_decls()) {
      if (d->isFromASTFile()) continue;
      if (auto *linkage = llvm::dyn_cast<clang::LinkageSpecDecl>(d)) {
        visit(linkage);
        continue;
      }
      // Only the generated entry file's own: the kernel file may name a
      // function as it likes.
      auto *fn = llvm::dyn_cast<clang::FunctionDecl>(d);
      if (!fn || !fn->getIdentifier() || !fn->doesThisDeclarationHaveABody() || !fn->isExternC() ||
          !sources_->isInMainFile(fn->getLocation()))
        continue;
      llvm::StringRef name = fn->getName();
      unsigned i = 0;
      if (!name.consume_front(kTraceEntryPrefix) || name.getAsInteger(10, i) || i > 1u << 20) continue;
      std::vector<EntrySignature> &entries = out_.entries;
      if (entries.size() <= i) entries.resize(i + 1), out_.instantiated.resize(i + 1);
      const clang::FunctionDecl *kernel = tracedFunction(fn->getBody());
      if (!kernel) {
        entries[i].notAKernel = "it names no function";
      } else if (!isKernel(*kernel)) {
        entries[i].notAKernel = "'" + kernel->getQualifiedNameAsString() + "' is a function, not a kernel (TT_KERNEL)";
      } else {
        entries[i].kernel = signatureOf(*kernel);
        entries[i].hostParameter = hostParameterOf(*kernel);
        if (kernel->hasBody()) out_.instantiated[i] = kernel;
      }
    }
  }

  AstRead &out_;
  const InstantiatedKernels *hand_;  // whom to hand the kernels, if anyone
  const clang::SourceManager *sources_ = nullptr;
};

Json toJson(const std::vector<EntrySignature> &entries) {
  Json out = Json::array();
  for (const EntrySignature &e : entries) {
    Json meta = Json::array();
    for (const auto &[name, value] : e.kernel.meta) {
      Json m = {{"name", name}};
      if (value.kind == ir::Attr::Kind::Int) m["int"] = value.i;
      else if (value.kind == ir::Attr::Kind::Float) m["f64_bits"] = std::bit_cast<uint64_t>(value.f);  // inf, NaN too
      else if (value.kind == ir::Attr::Kind::Ints) m["ints"] = value.ints;  // a pack
      else m["string"] = value.s;
      meta.push_back(m);
    }
    out.push_back({{"name", e.kernel.name}, {"meta", meta}, {"params", e.kernel.params}, {"not_a_kernel", e.notAKernel}});
  }
  return out;
}

std::vector<EntrySignature> fromJson(const Json &j) {
  std::vector<EntrySignature> out;
  for (const Json &e : j) {
    EntrySignature s;
    s.kernel.name = e.at("name").get<std::string>();
    s.notAKernel = e.at("not_a_kernel").get<std::string>();
    s.kernel.params = e.at("params").get<std::vector<std::string>>();
    for (const Json &m : e.at("meta")) {
      std::string name = m.at("name").get<std::string>();
      if (m.contains("int")) s.kernel.meta.emplace_back(name, ir::Attr::integer(m["int"].get<int64_t>()));
      else if (m.contains("f64_bits"))
        s.kernel.meta.emplace_back(name, ir::Attr::floating(std::bit_cast<double>(m["f64_bits"].get<uint64_t>())));
      else if (m.contains("ints")) s.kernel.meta.emplace_back(name, ir::Attr::list(m["ints"].get<std::vector<int64_t>>()));
      else s.kernel.meta.emplace_back(name, ir::Attr::string(m.at("string").get<std::string>()));
    }
    out.push_back(std::move(s));
  }
  return out;
}

/// Puts the entries' signatures in a section of the module's own.
void embedSignatures(llvm::Module &module, const std::vector<EntrySignature> &entries) {
  std::string text = toJson(entries).dump(-1, ' ', false, Json::error_handler_t::replace);
  llvm::Constant *bytes = llvm::ConstantDataArray::getString(module.getContext(), text, /*AddNull=*/false);
  auto *g = new llvm::GlobalVariable(module, bytes->getType(), /*isConstant=*/true, llvm::GlobalValue::InternalLinkage,
                                     bytes, "twintile.entries");
  g->setSection(kSignatureSection);
  g->setAlignment(llvm::Align(1));
  llvm::appendToUsed(module, {g});
}

/// Clang's code generation, and the entry points read from the AST first.
class EmitAndRead : public clang::EmitLLVMOnlyAction {
public:
  EmitAndRead(llvm::LLVMContext &context, AstRead &read, const InstantiatedKernels &hand)
      : clang::EmitLLVMOnlyAction(&context), read_(read), hand_(hand) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &ci, llvm::StringRef file) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    // First: the AST is handed on before code generation (which changes nothing of it).
    consumers.push_back(std::make_unique<ReadEntries>(read_, &hand_));
    consumers.push_back(clang::EmitLLVMOnlyAction::CreateASTConsumer(ci, file));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

private:
  AstRead &read_;
  const InstantiatedKernels &hand_;
};

/// Only the entry points' signatures: Clang's front end, no code.
class ReadOnly : public clang::ASTFrontendAction {
public:
  explicit ReadOnly(AstRead &read) : read_(read) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<ReadEntries>(read_);
  }

private:
  AstRead &read_;
};

/// Runs a front-end action on the invocation the driver made of the
/// arguments.
class RunAction : public clang::tooling::ToolAction {
public:
  RunAction(clang::FrontendAction &action, std::vector<InputFile> *inputs) : action_(action), inputs_(inputs) {}

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation, clang::FileManager *files,
                     std::shared_ptr<clang::PCHContainerOperations> pch,
                     clang::DiagnosticConsumer *diagnostics) override {
    // The driver asks Clang not to free its AST at the end (a process that
    // exits anyway); twintile goes on.
    invocation->getFrontendOpts().DisableFree = false;
    clang::CompilerInstance compiler(std::move(pch));
    compiler.setInvocation(std::move(invocation));
    compiler.setFileManager(files);
    compiler.createDiagnostics(diagnostics, /*ShouldOwnClient=*/false);
    if (!compiler.hasDiagnostics()) return false;
    compiler.createSourceManager(*files);
    // Where Clang says "1 error generated.": not the process's stderr.
    compiler.setVerboseOutputStream(std::make_unique<llvm::raw_null_ostream>());
    bool ok = compiler.ExecuteAction(action_);
    if (inputs_ && compiler.hasSourceManager()) {
      const clang::SourceManager &sm = compiler.getSourceManager();
      for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it)
        if (std::optional<llvm::StringRef> text = it->second->getBufferDataIfLoaded()) {
          twintile::support::ContentHash h;
          h.add(std::string_view(text->data(), text->size()));
          inputs_->push_back({it->first.getName().str(), h.hex()});
        }
    }
    files->clearStatCache();
    return ok;
  }

private:
  clang::FrontendAction &action_;
  std::vector<InputFile> *inputs_;
};

/// What a loader would give the module and the JIT linker does not: its
/// static initializers become one function that calls them in their order
/// (by priority, then as listed); its __dso_handle (under which static
/// objects' destructors are registered) is its own, defined here, as a
/// shared object's is; and its thread_local variables become plain ones
/// (the JIT linker has no thread-local storage, and the kernel's code runs
/// on one thread).
void prepareForJit(llvm::Module &module) {
  for (llvm::GlobalVariable &g : module.globals()) {
    if (g.isThreadLocal() && !g.isDeclaration()) {
      g.setThreadLocal(false);
      // Its accesses' llvm.threadlocal.address is its plain address now.
      for (llvm::User *u : llvm::make_early_inc_range(g.users()))
        if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(u);
            call && call->getIntrinsicID() == llvm::Intrinsic::threadlocal_address) {
          call->replaceAllUsesWith(&g);
          call->eraseFromParent();
        }
    }
    if (g.getName() == "__dso_handle" && g.isDeclaration()) {
      g.setInitializer(llvm::Constant::getNullValue(g.getValueType()));
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
  }
  llvm::LLVMContext &context = module.getContext();
  auto *init = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(context), false),
                                      llvm::GlobalValue::ExternalLinkage, kTraceInitSymbol, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "", init));
  if (llvm::GlobalVariable *list = module.getGlobalVariable("llvm.global_ctors")) {
    // (priority, position in the list, function)
    std::vector<std::tuple<uint64_t, size_t, llvm::Constant *>> ctors;
    if (auto *entries = llvm::dyn_cast<llvm::ConstantArray>(list->getInitializer()))
      for (llvm::Use &u : entries->operands()) {
        auto *entry = llvm::cast<llvm::ConstantStruct>(u.get());
        auto *priority = llvm::cast<llvm::ConstantInt>(entry->getOperand(0));
        ctors.emplace_back(priority->getZExtValue(), ctors.size(), entry->getOperand(1));
      }
    std::sort(ctors.begin(), ctors.end());
    list->eraseFromParent();
    for (auto &[priority, position, fn] : ctors)
      if (auto *f = llvm::dyn_cast<llvm::Function>(fn)) b.CreateCall(f);
  }
  b.CreateRetVoid();
}

/// The code generator's errors on the file's code (an inline asm statement
/// it cannot assemble, operands it cannot allocate), collected: LLVM's
/// default would print them and exit the process.
class CodegenErrors : public llvm::DiagnosticHandler {
public:
  explicit CodegenErrors(std::string &out) : out_(out) {}
  bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
    if (info.getSeverity() != llvm::DS_Error) return true;
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::DiagnosticPrinterRawOStream printer(os);
    info.print(printer);
    os.flush();
    out_ += "twintile: error: the kernel file's host code does not compile to machine code: " + text + "\n";
    return true;
  }

private:
  std::string &out_;
};

/// The host's object code for `module`, or empty with `error` (twintile's
/// fault) or `userErrors` (the file's).
std::string emitObject(llvm::Module &module, std::string &error, std::string &userErrors) {
  twintile::support::registerLlvmTargets();
  const std::string &triple = module.getTargetTriple();
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) return {};
  // Position-independent, as Clang compiled it: the JIT linker places the
  // code anywhere, far from the process's own.
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "", "", llvm::TargetOptions(), llvm::Reloc::PIC_, llvm::CodeModel::Small, llvm::CodeGenOptLevel::None));
  if (!machine) {
    error = "no code generator for " + triple;
    return {};
  }
  module.setDataLayout(machine->createDataLayout());
  llvm::SmallVector<char, 0> bytes;
  llvm::raw_svector_ostream out(bytes);
  llvm::legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, out, nullptr, llvm::CodeGenFileType::ObjectFile)) {
    error = "the host's code generator cannot emit an object file";
    return {};
  }
  std::unique_ptr<llvm::DiagnosticHandler> previous = module.getContext().getDiagnosticHandler();
  module.getContext().setDiagnosticHandler(std::make_unique<CodegenErrors>(userErrors));
  passes.run(module);
  module.getContext().setDiagnosticHandler(std::move(previous));
  if (!userErrors.empty()) return {};
  return std::string(bytes.begin(), bytes.end());
}

/// Clang's arguments for the tracer's compile: the parse front end's, then
/// the tracer's own directories, then the precompiled language and entry
/// headers unless `withPch` is false (`pch`: the header's path, or empty).
std::vector<std::string> compilerArgs(const std::vector<std::string> &includeDirs,
                                      const std::vector<std::string> &moreDirs, bool withPch,
                                      std::vector<std::string> &notes, std::string &pch) {
  std::vector<std::string> args = clangBaseArgs(includeDirs);
  pch = withPch ? languagePch(args, notes, kEntryHeader) : std::string();
  for (const std::string &d : moreDirs) args.push_back("-I" + d);
  if (!pch.empty())
    for (std::string &a : pchArgs(pch)) args.push_back(std::move(a));
  return args;
}

/// Runs `action` on `source`, taken to be the file `path`, with Clang's
/// `args`; false, with its diagnostics, if Clang failed.
bool runOnSource(clang::FrontendAction &action, const std::string &path, const std::string &source,
                 const std::vector<std::string> &args, std::string &diagnosticText, std::vector<InputFile> *inputs) {
  // The driver's arguments as the parse front end gives them (its
  // precompiled header is made with -fsyntax-only), so the header fits;
  // the action does what it does whatever the driver's action says.
  std::vector<std::string> command = {"twintile", "-fsyntax-only"};
  command.insert(command.end(), args.begin(), args.end());
  command.push_back(path);
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  overlay->pushOverlay(memory);
  memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(source, path));
  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), overlay);

  llvm::raw_string_ostream diagnostics(diagnosticText);
  auto diagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::TextDiagnosticPrinter printer(diagnostics, diagOpts.get());
  RunAction run(action, inputs);
  clang::tooling::ToolInvocation invocation(command, &run, files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  invocation.setDiagnosticConsumer(&printer);
  bool ok = invocation.run();
  diagnostics.flush();
  return ok;
}

/// Runs the action `make` gives on `source` with the tracer's arguments,
/// from the precompiled headers (or without them, when Clang cannot use
/// them). `make` is called once per run.
template <class Make>
bool runWithHeaders(Make make, const std::string &path, const std::string &source,
                    const std::vector<std::string> &includeDirs, const std::vector<std::string> &moreDirs,
                    std::vector<std::string> &notes, std::string &diagnostics, std::vector<InputFile> *inputs) {
  std::string pch;
  std::vector<std::string> args = compilerArgs(includeDirs, moreDirs, /*withPch=*/true, notes, pch);
  auto runIt = [&](clang::FrontendAction &action) {
    if (inputs) inputs->clear();
    return runOnSource(action, path, source, args, diagnostics, inputs);
  };
  bool ok = make(runIt);
  if (!ok && !pch.empty() && pchUnusable(diagnostics, pch)) {
    // A precompiled header Clang cannot use (removed or replaced since it
    // was checked): the header itself instead, and a fresh look next time.
    notes.push_back("the precompiled language header " + pch + " could not be used; the header was parsed instead");
    forgetLanguagePch(pch);
    diagnostics.clear();
    std::string none;
    args = compilerArgs(includeDirs, moreDirs, /*withPch=*/false, notes, none);
    ok = make(runIt);
  }
  return ok;
}

} // namespace

std::string hostCompilerIdentity(const std::vector<std::string> &includeDirs, const std::vector<std::string> &moreDirs) {
  // The Clang and LLVM this process runs (shared libraries may be upgraded
  // under a built twintile).
  unsigned major = 0, minor = 0, patch = 0;
  LLVMGetVersion(&major, &minor, &patch);
  std::string id = std::string(kObjectFormat) + " in-process " + clang::getClangFullVersion() + " LLVM " +
                   std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  for (const std::string &a : clangBaseArgs(includeDirs)) id += " " + a;
  for (const std::string &d : moreDirs) id += " -I" + d;
  return id;
}

HostCompileResult compileHostObject(const std::string &path, const std::string &source,
                                    const std::vector<std::string> &includeDirs,
                                    const std::vector<std::string> &moreDirs, const InstantiatedKernels &read) {
  HostCompileResult out;
  auto start = std::chrono::steady_clock::now();
  // Clang's own code generation looks targets up: registered first.
  twintile::support::registerLlvmTargets();
  llvm::LLVMContext context;
  AstRead ast;
  std::unique_ptr<llvm::Module> module;
  runWithHeaders(
      [&](auto run) {
        ast = {};
        EmitAndRead action(context, ast, read);
        bool ok = run(action);
        module = ok ? action.takeModule() : nullptr;
        return module != nullptr;
      },
      path, source, includeDirs, moreDirs, out.notes, out.diagnostics, &out.inputs);
  out.entries = ast.entries;
  out.kernels = std::move(ast.kernels);
  if (!module && out.diagnostics.find("error: ") == std::string::npos) {
    // Clang stopped without an error to show: not the file's doing.
    out.internal = "Clang compiled the kernel file to no module, and said nothing" +
                   (out.diagnostics.empty() ? std::string() : ": " + out.diagnostics);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  }
  bool ok = module != nullptr;
  if (ok) {
    prepareForJit(*module);
    embedSignatures(*module, ast.entries);
    std::string error;
    auto codegen = std::chrono::steady_clock::now();
    std::string userErrors;
    out.object = emitObject(*module, error, userErrors);
    out.codegenSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - codegen).count();
    if (!userErrors.empty()) {
      out.diagnostics += userErrors;
      ok = false;
    } else if (out.object.empty()) {
      out.internal = error.empty() ? "the host's code generator made no object" : error;
      ok = false;
    }
  }
  out.ok = ok;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

std::string signatureDefinition(const std::vector<EntrySignature> &entries) {
  std::string text = toJson(entries).dump(-1, ' ', false, Json::error_handler_t::replace), literal;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?') {
      literal += static_cast<char>(c);
    } else {
      char octal[5];
      std::snprintf(octal, sizeof octal, "\\%03o", c);
      literal += octal;
    }
  }
  return std::string("__attribute__((used, section(\"") + kSignatureSection +
         "\"), aligned(1))) static const char twintile_entries_text[] = \"" + literal + "\";\n";
}

EntryRead readEntrySignatures(const std::string &path, const std::string &source,
                              const std::vector<std::string> &includeDirs, const std::vector<std::string> &moreDirs) {
  EntryRead out;
  auto start = std::chrono::steady_clock::now();
  AstRead read;
  out.ok = runWithHeaders(
      [&](auto run) {
        read = {};
        ReadOnly action(read);
        return run(action);
      },
      path, source, includeDirs, moreDirs, out.notes, out.diagnostics, &out.inputs);
  out.entries = std::move(read.entries);
  out.kernels = std::move(read.kernels);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

std::vector<EntrySignature> entrySignatures(const std::string &objectPath, std::string &error) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> bytes = llvm::MemoryBuffer::getFile(objectPath);
  if (!bytes) {
    error = "cannot read " + objectPath + ": " + bytes.getError().message();
    return {};
  }
  llvm::Expected<std::unique_ptr<llvm::object::ObjectFile>> object =
      llvm::object::ObjectFile::createObjectFile((*bytes)->getMemBufferRef());
  if (!object) {
    error = llvm::toString(object.takeError());
    return {};
  }
  for (const llvm::object::SectionRef &section : (*object)->sections()) {
    llvm::Expected<llvm::StringRef> name = section.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name != kSignatureSection) continue;
    llvm::Expected<llvm::StringRef> contents = section.getContents();
    if (!contents) {
      error = llvm::toString(contents.takeError());
      return {};
    }
    // (A C string's terminator, where clang++ compiled it.)
    llvm::StringRef text = contents->rtrim('\0');
    Json j = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    try {
      if (j.is_array()) return fromJson(j);
    } catch (const Json::exception &e) {
      error = std::string("its signatures do not read: ") + e.what();
      return {};
    }
    break;
  }
  error = "it carries no signatures";
  return {};
}

} // namespace twintile
