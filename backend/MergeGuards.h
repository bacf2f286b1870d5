//===- MergeGuards.h - one branch for neighbouring regions on one mask ----===//
#pragma once

#include <llvm/IR/PassManager.h>

namespace twintile::backend {

/// Merges neighbouring guarded regions that test the same condition. The
/// lowering guards each masked load or store on its own, so `out = x + y`
/// under one mask becomes three diamonds that branch on the same `i1`:
///
///   A:  br %c, T1, J1          A:  br %c, T1, J2
///   T1: ...; br J1             T1: ...; ...; br J2     (T1 and T2 as one)
///   J1: phis; br %c, T2, J2 => J2: phis of J1 and J2
///   T2: ...; br J2
///
/// J1 must hold nothing but phis, so no work moves out from under the test,
/// and the two regions run under the same condition as before. LLVM's
/// jump threading would do this, but it is off for targets whose branches
/// diverge (NVPTX); merging regions changes no thread's path, so it is
/// safe there. Named "twintile-merge-guards" in Target.cpp's pipeline.
struct MergeGuardsPass : llvm::PassInfoMixin<MergeGuardsPass> {
  llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &fam);
};

} // namespace twintile::backend
