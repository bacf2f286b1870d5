//===- Rounded.cpp - float arithmetic no fusion can touch -------------------===//
#include "backend/Rounded.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <cassert>
#include <vector>

namespace tt::backend {

llvm::Value *rounded(llvm::IRBuilderBase &b, llvm::Instruction::BinaryOps op, llvm::Value *x, llvm::Value *y) {
  bool f64 = x->getType()->isDoubleTy();
  assert((f64 || x->getType()->isFloatTy()) && "NVVM rounds f32 and f64");
  switch (op) {
  case llvm::Instruction::FSub: y = b.CreateFNeg(y); [[fallthrough]];
  case llvm::Instruction::FAdd:
    return b.CreateIntrinsic(f64 ? llvm::Intrinsic::nvvm_add_rn_d : llvm::Intrinsic::nvvm_add_rn_f, {}, {x, y});
  case llvm::Instruction::FMul:
    return b.CreateIntrinsic(f64 ? llvm::Intrinsic::nvvm_mul_rn_d : llvm::Intrinsic::nvvm_mul_rn_f, {}, {x, y});
  default: assert(false && "an add, subtract or multiply"); return nullptr;
  }
}

bool roundEveryOp(llvm::Function &fn) {
  std::vector<llvm::BinaryOperator *> ops;
  for (llvm::Instruction &i : llvm::instructions(fn))
    if (auto *bin = llvm::dyn_cast<llvm::BinaryOperator>(&i))
      if ((bin->getOpcode() == llvm::Instruction::FAdd || bin->getOpcode() == llvm::Instruction::FSub ||
           bin->getOpcode() == llvm::Instruction::FMul) &&
          (bin->getType()->isFloatTy() || bin->getType()->isDoubleTy()))
        ops.push_back(bin);
  for (llvm::BinaryOperator *bin : ops) {
    llvm::IRBuilder<> b(bin);
    llvm::Value *r = rounded(b, bin->getOpcode(), bin->getOperand(0), bin->getOperand(1));
    r->takeName(bin);
    bin->replaceAllUsesWith(r);
    bin->eraseFromParent();
  }
  return !ops.empty();
}

} // namespace tt::backend
