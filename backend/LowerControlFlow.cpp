//===- LowerControlFlow.cpp - for, if, while with carried registers -------===//
//
// Structured control flow becomes LLVM loops and branches with one phi per
// register of each carried value; what a region yields is first converted to
// the carried value's layout. Every condition is a scalar, uniform across the
// program (LowerMemory shares a volatile or atomic scalar from thread 0), so
// barriers inside regions are reached by all threads.
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <optional>

namespace tt::backend {

using namespace tt::ir;

std::vector<TileVal> Lowerer::yielded(const Block &region, const std::vector<const Value *> &like) {
  const Op *y = region.terminator();
  current_ = y;
  std::vector<TileVal> out;
  for (size_t i = 0; i < like.size(); ++i) {
    const Value *v = y->operand(i);
    out.push_back(get(v, v->type.isTile() ? &layoutOf(like[i]) : nullptr));
  }
  return out;
}

std::vector<TileVal> Lowerer::carriedInits(const Op &op, size_t firstInit, const Block &body, size_t firstArg,
                                           std::vector<const Value *> &like) {
  std::vector<TileVal> init;
  for (size_t i = firstInit; i < op.operands.size(); ++i) {
    const Value *arg = body.arg(firstArg + i - firstInit);
    init.push_back(get(op.operand(i), arg->type.isTile() ? &layoutOf(arg) : nullptr));
    like.push_back(arg);
  }
  return init;
}

namespace {

/// One phi per register of each carried value.
std::vector<TileVal> makePhis(llvm::IRBuilder<> &b, const std::vector<TileVal> &init, llvm::BasicBlock *from) {
  std::vector<TileVal> out;
  for (const TileVal &t : init) {
    TileVal p = t;
    for (llvm::Value *&r : p.regs) {
      llvm::PHINode *phi = b.CreatePHI(r->getType(), 2);
      phi->addIncoming(r, from);
      r = phi;
    }
    out.push_back(std::move(p));
  }
  return out;
}

void addIncoming(const std::vector<TileVal> &phis, const std::vector<TileVal> &values, llvm::BasicBlock *from) {
  for (size_t i = 0; i < phis.size(); ++i)
    for (size_t r = 0; r < phis[i].regs.size(); ++r)
      llvm::cast<llvm::PHINode>(phis[i].regs[r])->addIncoming(values[i].regs[r], from);
}

} // namespace

void Lowerer::lowerFor(const Op &op) {
  llvm::Function *f = kernel_;
  llvm::Value *lo = scalar(op.operand(0)), *hi = scalar(op.operand(1)), *step = scalar(op.operand(2));
  const Block &body = op.region(0);
  std::vector<const Value *> like;
  std::vector<TileVal> init = carriedInits(op, 3, body, 1, like);
  // A step that is not positive is an error (the interpreter stops there);
  // on the GPU it traps instead of hanging.
  ifThen(b.CreateICmpSLE(step, llvm::ConstantInt::get(step->getType(), 0)),
         [&] { b.CreateIntrinsic(llvm::Intrinsic::trap, {}, {}); });
  // Loads feeding tensor cores, copied ahead into shared memory.
  std::optional<PipelineRing> pipe;
  if (const LoopPipeline *plan = pipelines.find(op)) pipelinePrologue(pipe.emplace(PipelineRing{*plan}), lo, hi, step);
  llvm::BasicBlock *pre = b.GetInsertBlock();
  llvm::BasicBlock *header = llvm::BasicBlock::Create(ctx, "for.header", f);
  llvm::BasicBlock *bodyBB = llvm::BasicBlock::Create(ctx, "for.body", f);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "for.exit", f);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  llvm::PHINode *iv = b.CreatePHI(lo->getType(), 2, "iv");
  iv->addIncoming(lo, pre);
  llvm::PHINode *valid = b.CreatePHI(b.getInt1Ty(), 2, "valid");
  valid->addIncoming(b.getTrue(), pre);
  std::vector<TileVal> carried = makePhis(b, init, pre);
  b.CreateCondBr(b.CreateAnd(valid, b.CreateICmpSLT(iv, hi)), bodyBB, exit);
  b.SetInsertPoint(bodyBB);
  set(body.arg(0), {true, {}, {iv}});
  for (size_t i = 0; i < carried.size(); ++i) set(body.arg(i + 1), carried[i]);
  if (pipe) pipelineIteration(*pipe, iv, lo, hi, step);
  lowerBlock(body);
  remat_.emplace_back();
  std::vector<TileVal> next = yielded(body, like);
  remat_.pop_back();
  // The induction variable steps until it would wrap (the interpreter's rule).
  llvm::Value *ivNext = b.CreateAdd(iv, step);
  llvm::BasicBlock *latch = b.GetInsertBlock();
  iv->addIncoming(ivNext, latch);
  valid->addIncoming(b.CreateICmpSGT(ivNext, iv), latch);
  addIncoming(carried, next, latch);
  b.CreateBr(header);
  b.SetInsertPoint(exit);
  if (pipe) pipelineEpilogue(*pipe);
  for (size_t i = 0; i < carried.size(); ++i) set(op.result(i), carried[i]);
}

void Lowerer::lowerIf(const Op &op) {
  llvm::Function *f = kernel_;
  llvm::BasicBlock *thenBB = llvm::BasicBlock::Create(ctx, "if.then", f);
  llvm::BasicBlock *elseBB = llvm::BasicBlock::Create(ctx, "if.else", f);
  llvm::BasicBlock *merge = llvm::BasicBlock::Create(ctx, "if.end", f);
  b.CreateCondBr(scalar(op.operand(0)), thenBB, elseBB);
  std::vector<const Value *> like;
  for (const auto &r : op.results) like.push_back(r.get());
  std::vector<std::pair<std::vector<TileVal>, llvm::BasicBlock *>> arms;
  for (int arm = 0; arm < 2; ++arm) {
    b.SetInsertPoint(arm == 0 ? thenBB : elseBB);
    lowerBlock(op.region(arm));
    remat_.emplace_back();
    arms.emplace_back(yielded(op.region(arm), like), b.GetInsertBlock());
    remat_.pop_back();
    b.CreateBr(merge);
  }
  b.SetInsertPoint(merge);
  for (size_t i = 0; i < like.size(); ++i) {
    TileVal t = arms[0].first[i];
    for (size_t r = 0; r < t.regs.size(); ++r) {
      llvm::PHINode *phi = b.CreatePHI(t.regs[r]->getType(), 2);
      phi->addIncoming(arms[0].first[i].regs[r], arms[0].second);
      phi->addIncoming(arms[1].first[i].regs[r], arms[1].second);
      t.regs[r] = phi;
    }
    set(op.result(i), std::move(t));
  }
}

void Lowerer::lowerWhile(const Op &op) {
  llvm::Function *f = kernel_;
  const Block &cond = op.region(0), &body = op.region(1);
  std::vector<const Value *> like;
  std::vector<TileVal> init = carriedInits(op, 0, body, 0, like);
  llvm::BasicBlock *pre = b.GetInsertBlock();
  llvm::BasicBlock *header = llvm::BasicBlock::Create(ctx, "while.cond", f);
  llvm::BasicBlock *bodyBB = llvm::BasicBlock::Create(ctx, "while.body", f);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "while.exit", f);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  std::vector<TileVal> carried = makePhis(b, init, pre);
  for (size_t i = 0; i < carried.size(); ++i) set(cond.arg(i), carried[i]);
  lowerBlock(cond);
  b.CreateCondBr(scalar(cond.terminator()->operand(0)), bodyBB, exit);
  b.SetInsertPoint(bodyBB);
  for (size_t i = 0; i < carried.size(); ++i) set(body.arg(i), carried[i]);
  lowerBlock(body);
  remat_.emplace_back();
  std::vector<TileVal> next = yielded(body, like);
  remat_.pop_back();
  addIncoming(carried, next, b.GetInsertBlock());
  b.CreateBr(header);
  b.SetInsertPoint(exit);
  for (size_t i = 0; i < carried.size(); ++i) set(op.result(i), carried[i]);
}

} // namespace tt::backend
