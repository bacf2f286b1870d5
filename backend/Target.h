//===- Target.h - LLVM IR to PTX through LLVM's NVPTX target --------------===//
#pragma once

#include <llvm/IR/Module.h>

#include <string>

namespace tt::backend {

/// The NVPTX triple and data layout for `arch` ("sm_90a", "sm_80"), set on
/// `module` before anything is added to it.
void prepareModule(llvm::Module &module, const std::string &arch);

/// Links the libdevice functions `module` calls (LinkOnlyNeeded), keeps only
/// the kernel external and sets NVVMReflect's flush-to-zero flag to off.
/// Returns an error message, or empty.
std::string linkLibdevice(llvm::Module &module, const std::string &path);

/// Runs LLVM's O3 pipeline, with the NVPTX target's own passes.
void optimize(llvm::Module &module, const std::string &arch);

/// PTX text for `module`.
std::string emitPtx(llvm::Module &module, const std::string &arch);

/// LLVM's verifier: empty if `module` is well formed, else its complaint.
std::string verify(const llvm::Module &module);

} // namespace tt::backend
