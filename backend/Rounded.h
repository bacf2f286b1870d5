//===- Rounded.h - float arithmetic no fusion can touch ---------------------===//
//
// Under --math=fast the target lets any floating-point multiply feeding an
// add fuse into an fma, in LLVM's DAG combiner and in ptxas (Target.h), as
// Triton's enable_fp_fusion does. The licence is the kernel's own f32 ops',
// which the lowering marks `contract` (LowerElementwise.cpp's binary). Everything else
// must still round at every op: it is built from, or turned into, NVVM's
// .rn intrinsics (add.rn, mul.rn), which nothing fuses.
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/PassManager.h>

namespace twintile::backend {

/// `x op y` for op in {FAdd, FSub, FMul} on f32 or f64, rounded once and
/// never fused: x - y is x + -y, to the bit.
llvm::Value *rounded(llvm::IRBuilderBase &b, llvm::Instruction::BinaryOps op, llvm::Value *x, llvm::Value *y);

/// Turns every f32 and f64 add, subtract and multiply without the
/// `contract` flag into its rounded form, and every fma by +-1 (which
/// codegen would fold into a plain add or subtract) into a rounded add or
/// subtract of the same value. Run last under --math=fast, after
/// the optimizer: libdevice's functions (inlined, and simplified by then:
/// InstCombine folds an fma with a constant operand into a plain multiply
/// or add) then compute what they do in the precise mode, as do f64 and a
/// butterfly's combines. Named "twintile-round-uncontracted" in Target.cpp's
/// pipeline.
struct RoundUncontractedPass : llvm::PassInfoMixin<RoundUncontractedPass> {
  llvm::PreservedAnalyses run(llvm::Function &fn, llvm::FunctionAnalysisManager &fam);
};

} // namespace twintile::backend
