//===- HostCompile.cpp - a kernel file compiled for tracing inside twintile ===//
#include "frontends/trace/HostCompile.h"

#include "frontends/clang/LanguageHeader.h"

#include <clang/Basic/Version.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <tuple>

namespace twintile {

namespace {

/// Runs Clang's code generation on the invocation the driver made of the
/// arguments, keeping the module.
class EmitModule : public clang::tooling::ToolAction {
public:
  explicit EmitModule(llvm::LLVMContext &context) : context_(context) {}

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
    clang::EmitLLVMOnlyAction action(&context_);
    bool ok = compiler.ExecuteAction(action);
    files->clearStatCache();
    if (ok) module = action.takeModule();
    return ok && module;
  }

  std::unique_ptr<llvm::Module> module;

private:
  llvm::LLVMContext &context_;
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
    if (g.isThreadLocal() && !g.isDeclaration()) g.setThreadLocal(false);
    if (g.getName() == "__dso_handle" && g.isDeclaration()) {
      g.setInitializer(llvm::Constant::getNullValue(g.getValueType()));
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
  }
  llvm::LLVMContext &context = module.getContext();
  auto *init = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(context), false),
                                      llvm::GlobalValue::ExternalLinkage, "twintile_trace_init", module);
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

/// The host's object code for `module`, or empty with `error`.
std::string emitObject(llvm::Module &module, std::string &error) {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
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
  passes.run(module);
  return std::string(bytes.begin(), bytes.end());
}

/// Clang's arguments for the tracer's compile: the parse front end's, then
/// the tracer's own directories, then the language's precompiled header
/// unless `withPch` is false.
std::vector<std::string> compilerArgs(const std::vector<std::string> &includeDirs,
                                      const std::vector<std::string> &moreDirs, bool withPch,
                                      std::vector<std::string> &notes) {
  std::vector<std::string> args = clangBaseArgs(includeDirs);
  std::string pch = withPch ? languagePch(args, notes) : std::string();
  for (const std::string &d : moreDirs) args.push_back("-I" + d);
  if (!pch.empty())
    for (std::string &a : pchArgs(pch)) args.push_back(std::move(a));
  return args;
}

/// Clang's module of `source` (as the file `path`), or null with its diagnostics.
std::unique_ptr<llvm::Module> compileToModule(llvm::LLVMContext &context, const std::string &path,
                                              const std::string &source, const std::vector<std::string> &args,
                                              std::string &diagnosticText) {
  // The driver's arguments as the parse front end gives them (its
  // precompiled header is made with -fsyntax-only), so the header fits;
  // the action generates code whatever the driver's action says.
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
  EmitModule action(context);
  clang::tooling::ToolInvocation invocation(command, &action, files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  invocation.setDiagnosticConsumer(&printer);
  bool ok = invocation.run();
  diagnostics.flush();
  return ok ? std::move(action.module) : nullptr;
}

} // namespace

std::string hostCompilerIdentity(const std::vector<std::string> &includeDirs, const std::vector<std::string> &moreDirs) {
  std::string id = "in-process clang " CLANG_VERSION_STRING;
  for (const std::string &a : clangBaseArgs(includeDirs)) id += " " + a;
  for (const std::string &d : moreDirs) id += " -I" + d;
  return id;
}

HostCompileResult compileHostObject(const std::string &path, const std::string &source,
                                    const std::vector<std::string> &includeDirs,
                                    const std::vector<std::string> &moreDirs) {
  HostCompileResult out;
  auto start = std::chrono::steady_clock::now();
  llvm::LLVMContext context;
  std::vector<std::string> args = compilerArgs(includeDirs, moreDirs, /*withPch=*/true, out.notes);
  std::unique_ptr<llvm::Module> module = compileToModule(context, path, source, args, out.diagnostics);
  if (!module && out.diagnostics.find("precompiled") != std::string::npos) {
    // A precompiled header Clang cannot use: the header itself instead.
    out.diagnostics.clear();
    args = compilerArgs(includeDirs, moreDirs, /*withPch=*/false, out.notes);
    module = compileToModule(context, path, source, args, out.diagnostics);
  }
  bool ok = module != nullptr;
  if (ok) {
    prepareForJit(*module);
    std::string error;
    auto codegen = std::chrono::steady_clock::now();
    out.object = emitObject(*module, error);
    out.codegenSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - codegen).count();
    if (out.object.empty()) {
      out.internal = error;
      ok = false;
    }
  }
  out.ok = ok;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

} // namespace twintile
