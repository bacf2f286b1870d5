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

namespace twintile::backend {

using namespace twintile::ir;

static std::vector<TileVal> yielded(LowerContext &L, const Block &region, const std::vector<const Value *> &like) {
  const Op *y = region.terminator();
  L.current = y;
  std::vector<TileVal> out;
  for (size_t i = 0; i < like.size(); ++i) {
    const Value *v = y->operand(i);
    out.push_back(L.get(v, v->type.isTile() ? &L.layoutOf(like[i]) : nullptr));
  }
  return out;
}

static std::vector<TileVal> carriedInits(LowerContext &L, const Op &op, size_t firstInit, const Block &body, size_t firstArg,
                                         std::vector<const Value *> &like) {
  std::vector<TileVal> init;
  for (size_t i = firstInit; i < op.operands.size(); ++i) {
    const Value *arg = body.arg(firstArg + i - firstInit);
    init.push_back(L.get(op.operand(i), arg->type.isTile() ? &L.layoutOf(arg) : nullptr));
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

void lowerFor(LowerContext &L, const Op &op) {
  llvm::IRBuilder<> &b = L.b;
  llvm::Function *f = L.kernel;
  llvm::Value *lo = L.scalar(op.operand(0)), *hi = L.scalar(op.operand(1)), *step = L.scalar(op.operand(2));
  const Block &body = op.region(0);
  std::vector<const Value *> like;
  std::vector<TileVal> init = carriedInits(L, op, 3, body, 1, like);
  // A step that is not positive is an error (the interpreter stops there);
  // on the GPU it traps instead of hanging.
  ifThen(L, b.CreateICmpSLE(step, llvm::ConstantInt::get(step->getType(), 0)),
         [&] { b.CreateIntrinsic(llvm::Intrinsic::trap, {}, {}); });
  // Loads feeding tensor cores, copied ahead into shared memory.
  std::optional<PipelineRing> pipe;
  if (const LoopPipeline *plan = L.pipelines.find(op)) pipelinePrologue(L, pipe.emplace(PipelineRing{*plan, nullptr, {}, {}}), lo, hi, step);
  llvm::BasicBlock *pre = b.GetInsertBlock();
  llvm::BasicBlock *header = llvm::BasicBlock::Create(L.ctx, "for.header", f);
  llvm::BasicBlock *bodyBB = llvm::BasicBlock::Create(L.ctx, "for.body", f);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(L.ctx, "for.exit", f);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  llvm::PHINode *iv = b.CreatePHI(lo->getType(), 2, "iv");
  iv->addIncoming(lo, pre);
  llvm::PHINode *valid = b.CreatePHI(b.getInt1Ty(), 2, "valid");
  valid->addIncoming(b.getTrue(), pre);
  std::vector<TileVal> carried = makePhis(b, init, pre);
  b.CreateCondBr(b.CreateAnd(valid, b.CreateICmpSLT(iv, hi)), bodyBB, exit);
  b.SetInsertPoint(bodyBB);
  L.set(body.arg(0), {true, {}, {iv}});
  for (size_t i = 0; i < carried.size(); ++i) L.set(body.arg(i + 1), carried[i]);
  if (pipe) pipelineIteration(L, *pipe, iv, lo, hi, step);
  lowerBlock(L, body);
  L.remat.emplace_back();
  std::vector<TileVal> next = yielded(L, body, like);
  L.remat.pop_back();
  // The induction variable steps until it would wrap (the interpreter's rule).
  llvm::Value *ivNext = b.CreateAdd(iv, step);
  llvm::BasicBlock *latch = b.GetInsertBlock();
  iv->addIncoming(ivNext, latch);
  valid->addIncoming(b.CreateICmpSGT(ivNext, iv), latch);
  addIncoming(carried, next, latch);
  b.CreateBr(header);
  b.SetInsertPoint(exit);
  if (pipe) pipelineEpilogue(L, *pipe, carried);
  for (size_t i = 0; i < carried.size(); ++i) L.set(op.result(i), carried[i]);
}

void lowerIf(LowerContext &L, const Op &op) {
  llvm::IRBuilder<> &b = L.b;
  llvm::Function *f = L.kernel;
  llvm::BasicBlock *thenBB = llvm::BasicBlock::Create(L.ctx, "if.then", f);
  llvm::BasicBlock *elseBB = llvm::BasicBlock::Create(L.ctx, "if.else", f);
  llvm::BasicBlock *merge = llvm::BasicBlock::Create(L.ctx, "if.end", f);
  b.CreateCondBr(L.scalar(op.operand(0)), thenBB, elseBB);
  std::vector<const Value *> like;
  for (const auto &r : op.results) like.push_back(r.get());
  std::vector<std::pair<std::vector<TileVal>, llvm::BasicBlock *>> arms;
  for (int arm = 0; arm < 2; ++arm) {
    b.SetInsertPoint(arm == 0 ? thenBB : elseBB);
    lowerBlock(L, op.region(arm));
    L.remat.emplace_back();
    arms.emplace_back(yielded(L, op.region(arm), like), b.GetInsertBlock());
    L.remat.pop_back();
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
    L.set(op.result(i), std::move(t));
  }
}

void lowerWhile(LowerContext &L, const Op &op) {
  llvm::IRBuilder<> &b = L.b;
  llvm::Function *f = L.kernel;
  const Block &cond = op.region(0), &body = op.region(1);
  std::vector<const Value *> like;
  std::vector<TileVal> init = carriedInits(L, op, 0, body, 0, like);
  llvm::BasicBlock *pre = b.GetInsertBlock();
  llvm::BasicBlock *header = llvm::BasicBlock::Create(L.ctx, "while.cond", f);
  llvm::BasicBlock *bodyBB = llvm::BasicBlock::Create(L.ctx, "while.body", f);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(L.ctx, "while.exit", f);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  std::vector<TileVal> carried = makePhis(b, init, pre);
  for (size_t i = 0; i < carried.size(); ++i) L.set(cond.arg(i), carried[i]);
  lowerBlock(L, cond);
  b.CreateCondBr(L.scalar(cond.terminator()->operand(0)), bodyBB, exit);
  b.SetInsertPoint(bodyBB);
  for (size_t i = 0; i < carried.size(); ++i) L.set(body.arg(i), carried[i]);
  lowerBlock(L, body);
  L.remat.emplace_back();
  std::vector<TileVal> next = yielded(L, body, like);
  L.remat.pop_back();
  addIncoming(carried, next, b.GetInsertBlock());
  b.CreateBr(header);
  b.SetInsertPoint(exit);
  for (size_t i = 0; i < carried.size(); ++i) L.set(op.result(i), carried[i]);
}

} // namespace twintile::backend
