//===- SinkToUse.h - pure values computed just before their first use -----===//
#pragma once

#include <llvm/IR/PassManager.h>

namespace twintile::backend {

/// Moves each side-effect-free instruction down its block to just before
/// its first user there (or to the block's end when it is used only in
/// later blocks), where that shortens live ranges: the lowering computes
/// thread coordinates and addresses in the kernel's prologue, and ptxas
/// schedules and allocates registers largely in the order the PTX gives.
/// An instruction moves only when no operand's live range grows (each
/// operand is still used at or after the new place, or live out of the
/// block), so no range lengthens and its own shortens; a chain of values
/// each used once moves with the one it feeds. Loads, calls with effects,
/// convergent calls and phis stay. Debug records would stay behind (the
/// backend's modules carry none). Named "twintile-sink-to-use" in
/// Target.cpp's pipeline.
struct SinkToUsePass : llvm::PassInfoMixin<SinkToUsePass> {
  llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &fam);
};

} // namespace twintile::backend
