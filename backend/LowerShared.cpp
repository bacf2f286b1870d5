//===- LowerShared.cpp - reshape and dot, through shared memory -----------===//
//
// reshape keeps the row-major order of elements, so writing the operand to
// shared memory row-major and reading it back at the result's coordinates is
// the whole op. dot runs on the FMA units: both operands are staged in
// shared memory, and each thread walks k for the accumulator elements it
// holds, loading each row of `a` and column of `b` it needs once per k.
// (Tensor cores are a later step; this path is correct for every shape and
// type the IR accepts.)
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

#include <llvm/IR/Intrinsics.h>

#include <map>

namespace tt::backend {

using namespace tt::ir;

TileVal Lowerer::lowerReshape(const Op &op) {
  const Value *in = op.operand(0);
  TileVal x = get(in);
  const Type &t = op.result()->type;
  if (x.scalar) {  // a scalar into a tile of one element
    TileVal out{false, layoutOf(op.result()), {}};
    out.regs.assign(static_cast<size_t>(numRegisters(out.layout, t.shape)), x.regs[0]);
    return out;
  }
  if (t.isScalar()) fail(op, "'reshape' of a tile to a scalar is not supported by the backend; use a reduction");
  return throughShared(in->type, x, layoutOf(op.result()), op, &t.shape);
}

TileVal Lowerer::lowerDot(const Op &op) {
  const Type &at = op.operand(0)->type, &bt = op.operand(1)->type, &ct = op.result()->type;
  int64_t M = at.shape[0], K = at.shape[1], N = bt.shape[1];
  ScalarKind ak = at.elem, ck = ct.elem;
  const Layout &l = layoutOf(op.result());
  TileVal a = get(op.operand(0)), bv = get(op.operand(1)), c = get(op.operand(2), &l);
  llvm::Type *st = storageType(ak);
  int64_t elemBytes = static_cast<int64_t>(mod.getDataLayout().getTypeAllocSize(st));
  llvm::Value *base = sharedBase((M * K + K * N) * elemBytes, op);
  llvm::Value *bBase = b.CreateGEP(b.getInt8Ty(), base, b.getInt64(static_cast<uint64_t>(M * K * elemBytes)));
  barrier();
  for (auto [val, ty, buf] : {std::tuple{&a, &at, base}, std::tuple{&bv, &bt, bBase}}) {
    const std::vector<RegCoord> &cs = coords(val->layout, ty->shape);
    for (size_t r = 0; r < val->regs.size(); ++r)
      b.CreateStore(val->regs[r], b.CreateGEP(st, buf, linearIndex(cs[r].idx, ty->shape)));
  }
  barrier();

  // The accumulator's rows and columns this thread holds, by register index.
  const std::vector<RegCoord> &cc = coords(l, ct.shape);
  std::vector<DimPlan> plan = planDims(l, ct.shape);
  std::map<int64_t, llvm::Value *> rowOf, colOf;
  for (int64_t r = 0; r < numRegisters(l, ct.shape); ++r) {
    std::vector<int64_t> rd = regDims(l, ct.shape, r);
    rowOf.emplace(rd[0], cc[static_cast<size_t>(r)].idx[0]);
    colOf.emplace(rd[1], cc[static_cast<size_t>(r)].idx[1]);
  }

  bool fp = isFloat(ck);
  llvm::Type *accTy = llvmType(ck);
  llvm::Function *f = b.GetInsertBlock()->getParent();
  llvm::BasicBlock *pre = b.GetInsertBlock();
  llvm::BasicBlock *header = llvm::BasicBlock::Create(ctx, "dot.k", f);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "dot.done", f);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  llvm::PHINode *k = b.CreatePHI(i32(), 2, "k");
  k->addIncoming(c32(0), pre);
  std::vector<llvm::PHINode *> acc;
  for (llvm::Value *v : c.regs) {
    acc.push_back(b.CreatePHI(accTy, 2));
    acc.back()->addIncoming(v, pre);
  }
  auto operand = [&](llvm::Value *buf, llvm::Value *index) {
    llvm::Value *v = b.CreateLoad(st, b.CreateGEP(st, buf, index));
    if (fp) return v->getType() == accTy ? v : b.CreateFPExt(v, accTy);
    return b.CreateSExt(v, accTy);
  };
  std::map<int64_t, llvm::Value *> aRow, bCol;
  for (auto &[r0, m] : rowOf) aRow[r0] = operand(base, b.CreateAdd(b.CreateMul(m, c32(K)), k));
  for (auto &[r1, n] : colOf) bCol[r1] = operand(bBase, b.CreateAdd(b.CreateMul(k, c32(N)), n));
  std::vector<llvm::Value *> next;
  for (int64_t r = 0; r < numRegisters(l, ct.shape); ++r) {
    std::vector<int64_t> rd = regDims(l, ct.shape, r);
    llvm::Value *x = aRow[rd[0]], *y = bCol[rd[1]], *s = acc[static_cast<size_t>(r)];
    next.push_back(fp ? b.CreateIntrinsic(llvm::Intrinsic::fma, {accTy}, {x, y, s}) : b.CreateAdd(s, b.CreateMul(x, y)));
  }
  llvm::Value *kNext = b.CreateAdd(k, c32(1));
  k->addIncoming(kNext, b.GetInsertBlock());
  for (size_t r = 0; r < acc.size(); ++r) acc[r]->addIncoming(next[r], b.GetInsertBlock());
  b.CreateCondBr(b.CreateICmpSLT(kNext, c32(K)), header, exit);
  b.SetInsertPoint(exit);
  // The loop exits after its last step: the result is that step's sums.
  TileVal out{false, l, next};
  (void)plan;
  return out;
}

} // namespace tt::backend
