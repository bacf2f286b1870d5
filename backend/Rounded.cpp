//===- Rounded.cpp - float arithmetic no fusion can touch -------------------===//
#include "backend/Rounded.h"

#include "ir/Diagnostic.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <cassert>
#include <utility>
#include <vector>

namespace twintile::backend {

llvm::Value *rounded(llvm::IRBuilderBase &b, llvm::Instruction::BinaryOps op, llvm::Value *x, llvm::Value *y) {
  bool f64 = x->getType()->isDoubleTy();
  assert((f64 || x->getType()->isFloatTy()) && "NVVM rounds f32 and f64");
  switch (op) {
  case llvm::Instruction::FSub: y = b.CreateFNeg(y); [[fallthrough]];
  case llvm::Instruction::FAdd:
    return b.CreateIntrinsic(f64 ? llvm::Intrinsic::nvvm_add_rn_d : llvm::Intrinsic::nvvm_add_rn_f, {}, {x, y});
  case llvm::Instruction::FMul:
    return b.CreateIntrinsic(f64 ? llvm::Intrinsic::nvvm_mul_rn_d : llvm::Intrinsic::nvvm_mul_rn_f, {}, {x, y});
  default: throw ir::InternalError("an add, subtract or multiply");
  }
}

namespace {

/// +1 or -1 (as `sign`), if `v` is that constant.
bool isUnit(llvm::Value *v, double &sign) {
  auto *c = llvm::dyn_cast<llvm::ConstantFP>(v);
  if (!c || !c->getValueAPF().isExactlyValue(c->isNegative() ? -1.0 : 1.0)) return false;
  sign = c->isNegative() ? -1.0 : 1.0;
  return true;
}

/// What `i` is as a rounded op, or null: an add, subtract or multiply of
/// f32/f64 without `contract`, or an fma by +-1 (codegen would fold that
/// into a plain add or subtract: fma(x, -1, y) is y - x, rounded once).
llvm::Value *roundedForm(llvm::Instruction &i) {
  if (!i.getType()->isFloatTy() && !i.getType()->isDoubleTy()) return nullptr;
  llvm::IRBuilder<> b(&i);
  if (auto *bin = llvm::dyn_cast<llvm::BinaryOperator>(&i)) {
    llvm::Instruction::BinaryOps op = bin->getOpcode();
    if ((op == llvm::Instruction::FAdd || op == llvm::Instruction::FSub || op == llvm::Instruction::FMul) &&
        !bin->hasAllowContract())
      return rounded(b, op, bin->getOperand(0), bin->getOperand(1));
    return nullptr;
  }
  auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
  if (!call || call->getIntrinsicID() != llvm::Intrinsic::fma) return nullptr;
  llvm::Value *x = call->getArgOperand(0), *y = call->getArgOperand(1), *z = call->getArgOperand(2);
  double sign;
  if (isUnit(x, sign)) std::swap(x, y);
  else if (!isUnit(y, sign)) return nullptr;
  return rounded(b, sign > 0 ? llvm::Instruction::FAdd : llvm::Instruction::FSub, sign > 0 ? x : z,
                 sign > 0 ? z : x);
}

} // namespace

llvm::PreservedAnalyses RoundUncontractedPass::run(llvm::Function &fn, llvm::FunctionAnalysisManager &) {
  std::vector<llvm::Instruction *> ops;
  for (llvm::Instruction &i : llvm::instructions(fn)) ops.push_back(&i);
  bool changed = false;
  for (llvm::Instruction *i : ops) {
    llvm::Value *r = roundedForm(*i);
    if (!r) continue;
    r->takeName(i);
    i->replaceAllUsesWith(r);
    i->eraseFromParent();
    changed = true;
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace twintile::backend
