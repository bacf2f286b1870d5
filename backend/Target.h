//===- Target.h - LLVM IR to PTX through LLVM's NVPTX target --------------===//
#pragma once

#include <llvm/IR/Module.h>

#include <string>

namespace tt::backend {

/// The NVPTX triple and data layout for `arch` ("sm_90a", "sm_80"), set on
/// `module` before anything is added to it.
void prepareModule(llvm::Module &module, const std::string &arch);

/// Runs the LLVM passes the lowered code needs (Target.cpp's kPipeline).
void optimize(llvm::Module &module, const std::string &arch);

/// PTX text for `module`.
std::string emitPtx(llvm::Module &module, const std::string &arch);

/// LLVM's verifier: empty if `module` is well formed, else its complaint.
std::string verify(const llvm::Module &module);

} // namespace tt::backend
