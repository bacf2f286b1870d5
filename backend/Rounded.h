//===- Rounded.h - float arithmetic no fusion can touch ---------------------===//
//
// Under --math=fast the target lets any floating-point multiply feeding an
// add fuse into an fma, in LLVM's DAG combiner and in ptxas (Target.h), as
// Triton's enable_fp_fusion does. What must still round at every op is built
// from NVVM's .rn intrinsics (add.rn, mul.rn), which nothing fuses.
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>

namespace tt::backend {

/// `x op y` for op in {FAdd, FSub, FMul} on f32 or f64, rounded once and
/// never fused: x - y is x + -y, to the bit.
llvm::Value *rounded(llvm::IRBuilderBase &b, llvm::Instruction::BinaryOps op, llvm::Value *x, llvm::Value *y);

/// Every f32 and f64 add, subtract and multiply of `fn` made rounded (a
/// libdevice function's, so that it computes under --math=fast what it
/// computes in the precise mode). Returns whether anything changed.
bool roundEveryOp(llvm::Function &fn);

} // namespace tt::backend
