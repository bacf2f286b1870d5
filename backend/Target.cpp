//===- Target.cpp - the NVPTX target machine, libdevice, O3 --------------===//
#include "backend/Target.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <cassert>
#include <map>
#include <memory>
#include <mutex>

namespace tt::backend {

namespace {

constexpr const char *kTriple = "nvptx64-nvidia-cuda";
// PTX ISA 8.0 (CUDA 12.0) is the first with sm_90a; it also serves sm_80.
constexpr const char *kPtxFeatures = "+ptx80";

std::unique_ptr<llvm::TargetMachine> makeTargetMachine(const std::string &arch) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(kTriple, error);
  assert(target && "LLVM was built with the NVPTX target");
  llvm::TargetOptions opts;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      kTriple, arch, kPtxFeatures, opts, std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
}

/// The target machine for `arch`, made once per thread (a compile uses it
/// three times; compiles on one thread run one after another).
llvm::TargetMachine &targetMachine(const std::string &arch) {
  thread_local std::map<std::string, std::unique_ptr<llvm::TargetMachine>> machines;
  std::unique_ptr<llvm::TargetMachine> &tm = machines[arch];
  if (!tm) tm = makeTargetMachine(arch);
  return *tm;
}

/// libdevice's bitcode, read once per process and path (the module is still
/// parsed, lazily, in each compile's own context).
const llvm::MemoryBuffer *libdeviceBytes(const std::string &path, std::string &error) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> read;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<llvm::MemoryBuffer> &bytes = read[path];
  if (!bytes) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(path);
    if (!file) {
      error = file.getError().message();
      read.erase(path);
      return nullptr;
    }
    bytes = std::move(*file);
  }
  return bytes.get();
}

} // namespace

void prepareModule(llvm::Module &module, const std::string &arch) {
  module.setTargetTriple(kTriple);
  module.setDataLayout(targetMachine(arch).createDataLayout());
}

std::string linkLibdevice(llvm::Module &module, const std::string &path) {
  // Reading the 500 KB of bitcode costs more than most kernels' whole
  // compile: skip it when nothing calls into it.
  bool calls = false;
  for (const llvm::Function &f : module) calls |= f.isDeclaration() && f.getName().starts_with("__nv_");
  if (!calls) return {};
  std::string readError;
  const llvm::MemoryBuffer *bytes = libdeviceBytes(path, readError);
  if (!bytes) return "cannot read libdevice at " + path + ": " + readError;
  llvm::SMDiagnostic err;
  // Lazily: only the bodies of the functions linked in are read.
  std::unique_ptr<llvm::Module> lib =
      llvm::getLazyIRModule(llvm::MemoryBuffer::getMemBuffer(bytes->getMemBufferRef(), false), err, module.getContext());
  if (!lib) return "cannot read libdevice at " + path + ": " + err.getMessage().str();
  lib->setTargetTriple(module.getTargetTriple());
  lib->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(lib), llvm::Linker::Flags::LinkOnlyNeeded))
    return "cannot link libdevice from " + path;
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  return {};
}

void optimize(llvm::Module &module, const std::string &arch) {
  llvm::TargetMachine *tm = &targetMachine(arch);
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(module, mam);
}

std::string emitPtx(llvm::Module &module, const std::string &arch) {
  llvm::TargetMachine *tm = &targetMachine(arch);
  llvm::SmallString<0> out;
  llvm::raw_svector_ostream os(out);
  llvm::legacy::PassManager pm;
  bool cannot = tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile);
  assert(!cannot && "NVPTX emits assembly");
  (void)cannot;
  pm.run(module);
  return std::string(out.str());
}

std::string verify(const llvm::Module &module) {
  std::string msg;
  llvm::raw_string_ostream os(msg);
  if (!llvm::verifyModule(module, &os)) return {};
  return os.str().empty() ? "invalid module" : os.str();
}

} // namespace tt::backend
