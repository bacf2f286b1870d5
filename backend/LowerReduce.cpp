//===- LowerReduce.cpp - reductions and cumsum ----------------------------===//
//
// A reduction along tile dim `a` runs at the three levels of the layout, as
// Triton's does:
//   1. registers: each thread combines its registers along a;
//   2. lanes: a butterfly of shfl.sync.bfly over the lane bits of a, after
//      which every lane along a holds the warp's partial;
//   3. warps: when warps split a, each writes its partial to shared memory
//      and every thread combines the warps' partials.
// Elements a thread holds only as a wrapped copy are replaced by the
// identity first, so each element counts once. The result has the sliced
// layout: every thread ends with the values it needs, without broadcast.
// f16 and bf16 accumulate in f32, argmax/argmin carry (value, index) pairs
// and keep the first extreme, NaN ignored (IR.h).
//
// `reduce` combines with its region, inlined at every combination. It has no
// identity to stand for a wrapped copy, so each partial carries a flag
// instead (does it hold any element?), which folds away where nothing wraps.
//
// cumsum and `scan` are inclusive scans through shared memory (Hillis-Steele,
// log2 n steps), simple and exact in their data movement; each step combines
// an element with the one s places before it, in that order.
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

#include <llvm/IR/Intrinsics.h>

#include <cassert>
#include <limits>

namespace tt::backend {

using namespace tt::ir;

namespace {

struct Acc {
  llvm::Value *value;
  llvm::Value *index;  // argmax/argmin only
  llvm::Value *holds;  // reduce only: i1, whether the partial holds any element
};

} // namespace

TileVal Lowerer::lowerReduce(const Op &op) {
  const Value *inV = op.operand(0);
  const Type &in = inV->type;
  bool user = op.kind == OpKind::Reduce;  // the region combines, in the element type
  ScalarKind k = in.elem, acc = user ? k : computeKind(k);
  int axis = static_cast<int>(op.intAttr("axis"));
  bool arg = op.kind == OpKind::Argmax || op.kind == OpKind::Argmin;
  bool second = arg || user;  // a second value per partial: the index, or whether it holds any
  bool wantMax = op.kind == OpKind::Max || op.kind == OpKind::Argmax;
  bool fp = isFloat(k);
  const Layout &l = layoutOf(inV);
  TileVal x = get(inV, &l);
  llvm::Type *accTy = llvmType(acc);

  // What a wrapped copy counts as; reduce has nothing to use: its partials carry `holds`.
  llvm::Value *identity = nullptr;
  if (!user) {
    if (op.kind == OpKind::Sum) identity = llvm::Constant::getNullValue(accTy);
    else if (fp) identity = llvm::ConstantFP::getNaN(accTy);  // ignored by maxnum/minnum
    else if (k == ScalarKind::I1) identity = b.getInt1(!wantMax);  // i1 holds 0 or 1
    else {
      unsigned bits = accTy->getIntegerBitWidth();
      identity = wantMax ? llvm::ConstantInt::get(ctx, llvm::APInt::getSignedMinValue(bits))
                         : llvm::ConstantInt::get(ctx, llvm::APInt::getSignedMaxValue(bits));
    }
  }
  llvm::Value *noIndex = c32(std::numeric_limits<int32_t>::max());

  // Combines two partials; for arg reductions, the better value, the lower
  // index on ties, a NaN never better.
  auto combine = [&](Acc p, Acc q) -> Acc {
    if (user) {  // a partial without elements leaves the other as it is
      llvm::Value *both = combineRegion(op, p.value, q.value);
      llvm::Value *v = b.CreateSelect(b.CreateAnd(p.holds, q.holds), both, b.CreateSelect(p.holds, p.value, q.value));
      return {v, nullptr, b.CreateOr(p.holds, q.holds)};
    }
    if (!arg) return {binary(op.kind, p.value, q.value, acc), nullptr, nullptr};
    bool u = k == ScalarKind::I1;
    llvm::Value *better =
        fp ? b.CreateFCmp(wantMax ? llvm::CmpInst::FCMP_OGT : llvm::CmpInst::FCMP_OLT, q.value, p.value)
           : b.CreateICmp(wantMax ? (u ? llvm::CmpInst::ICMP_UGT : llvm::CmpInst::ICMP_SGT)
                                  : (u ? llvm::CmpInst::ICMP_ULT : llvm::CmpInst::ICMP_SLT),
                          q.value, p.value);
    llvm::Value *tie = fp ? b.CreateFCmpOEQ(q.value, p.value) : b.CreateICmpEQ(q.value, p.value);
    llvm::Value *take = b.CreateOr(better, b.CreateAnd(tie, b.CreateICmpSLT(q.index, p.index)));
    if (fp) take = b.CreateOr(take, b.CreateAnd(b.CreateFCmpUNO(p.value, p.value), b.CreateFCmpORD(q.value, q.value)));
    return {b.CreateSelect(take, q.value, p.value), b.CreateSelect(take, q.index, p.index), nullptr};
  };

  const std::vector<RegCoord> &cs = coords(l, in.shape);
  std::vector<DimPlan> plan = planDims(l, in.shape);
  Layout outL = l.sliced(axis);
  Shape outShape = in.shape;
  outShape.erase(outShape.begin() + axis);
  int64_t nOut = numRegisters(outL, outShape);

  // 1. Within the thread.
  std::vector<Acc> part(static_cast<size_t>(nOut));
  std::vector<bool> started(static_cast<size_t>(nOut), false);
  for (int64_t r = 0; r < numRegisters(l, in.shape); ++r) {
    std::vector<int64_t> rd = regDims(l, in.shape, r);
    std::vector<int64_t> od = rd;
    od.erase(od.begin() + axis);
    size_t o = static_cast<size_t>(regIndex(outL, outShape, od));
    const RegCoord &c = cs[static_cast<size_t>(r)];
    llvm::Value *reg = x.regs[static_cast<size_t>(r)];
    Acc e{user ? reg : widen(reg, k), arg ? c.idx[static_cast<size_t>(axis)] : nullptr, user ? b.getTrue() : nullptr};
    if (llvm::Value *inside = c.inside[static_cast<size_t>(axis)]) {
      if (user) e.holds = inside;
      else e.value = b.CreateSelect(inside, e.value, identity);
      if (arg) e.index = b.CreateSelect(inside, e.index, noIndex);
    }
    // A NaN never wins: it carries no index, so that every copy of the
    // result agrees (0 when all are NaN, as the interpreter says).
    if (arg && fp) e.index = b.CreateSelect(b.CreateFCmpUNO(e.value, e.value), noIndex, e.index);
    part[o] = started[o] ? combine(part[o], e) : e;
    started[o] = true;
  }

  // 2. Across the lanes along the axis.
  int p = l.dims[static_cast<size_t>(axis)];
  int laneStride = 1;
  for (int q : l.order) {
    if (q == p) break;
    laneStride *= l.threadsPerWarp[q];
  }
  for (int m = 1; m < l.threadsPerWarp[p]; m *= 2)
    for (Acc &a : part)
      a = combine(a, {shuffleXor(a.value, m * laneStride), arg ? shuffleXor(a.index, m * laneStride) : nullptr,
                      user ? shuffleXor(a.holds, m * laneStride) : nullptr});

  // 3. Across the warps along the axis, through shared memory.
  int warps = l.warpsPerCTA[p];
  if (warps > 1) {
    const std::vector<RegCoord> &oc = coords(outL, outShape);
    int64_t slots = std::max<int64_t>(1, numElements(outShape));
    int64_t valueBytes = static_cast<int64_t>(mod.getDataLayout().getTypeAllocSize(accTy));
    int64_t indexOffset = (warps * slots * valueBytes + 3) / 4 * 4;  // i32 indices, 4-byte aligned
    llvm::Value *base = sharedBase(indexOffset + (second ? warps * slots * 4 : 0), op);
    llvm::Value *indexBase = second ? b.CreateGEP(b.getInt8Ty(), base, b.getInt64(static_cast<uint64_t>(indexOffset))) : nullptr;
    llvm::Value *wc = warpCoord(l, p), *lc = laneCoord(l, p);
    barrier();
    for (size_t o = 0; o < part.size(); ++o) {
      llvm::Value *slot = b.CreateAdd(b.CreateMul(wc, c32(slots)), outShape.empty() ? c32(0) : linearIndex(oc[o].idx, outShape));
      ifThen(b.CreateICmpEQ(lc, c32(0)), [&] {
        b.CreateStore(part[o].value, b.CreateGEP(accTy, base, slot));
        if (second)
          b.CreateStore(arg ? part[o].index : b.CreateZExt(part[o].holds, b.getInt32Ty()),
                        b.CreateGEP(b.getInt32Ty(), indexBase, slot));
      });
    }
    barrier();
    for (size_t o = 0; o < part.size(); ++o) {
      llvm::Value *lin = outShape.empty() ? c32(0) : linearIndex(oc[o].idx, outShape);
      Acc total{nullptr, nullptr, nullptr};
      for (int w = 0; w < warps; ++w) {
        llvm::Value *slot = b.CreateAdd(c32(w * slots), lin);
        llvm::Value *more = second ? b.CreateLoad(b.getInt32Ty(), b.CreateGEP(b.getInt32Ty(), indexBase, slot)) : nullptr;
        Acc e{b.CreateLoad(accTy, b.CreateGEP(accTy, base, slot)), arg ? more : nullptr,
              user ? b.CreateICmpNE(more, c32(0)) : nullptr};
        total = w == 0 ? e : combine(total, e);
      }
      part[o] = total;
    }
  }

  TileVal out{outShape.empty(), outShape.empty() ? Layout{} : outL, {}};
  for (Acc &a : part) {
    if (arg) out.regs.push_back(b.CreateSelect(b.CreateICmpEQ(a.index, noIndex), c32(0), a.index));
    else out.regs.push_back(user ? a.value : narrow(a.value, k));
  }
  (void)plan;
  return out;
}

TileVal Lowerer::lowerCumsum(const Op &op) {
  const Value *inV = op.operand(0);
  const Type &in = inV->type;
  bool user = op.kind == OpKind::Scan;  // the region combines, in the element type
  ScalarKind k = in.elem, acc = user ? k : computeKind(k);
  llvm::Type *accTy = llvmType(acc);
  size_t axis = static_cast<size_t>(op.intAttr("axis"));
  const Layout &l = layoutOf(op.result());
  TileVal x = get(inV, &l);
  const std::vector<RegCoord> &cs = coords(l, in.shape);
  int64_t n = in.numElements(), len = in.shape[axis], stride = 1;
  for (size_t d = axis + 1; d < in.shape.size(); ++d) stride *= in.shape[d];
  int64_t bytes = static_cast<int64_t>(mod.getDataLayout().getTypeAllocSize(accTy));
  // Two buffers, ping-ponged: step s adds the element s places back.
  llvm::Value *base = sharedBase(2 * n * bytes, op);
  llvm::Value *bufs[2] = {base, b.CreateGEP(b.getInt8Ty(), base, b.getInt64(static_cast<uint64_t>(n * bytes)))};
  std::vector<llvm::Value *> lin;
  for (const RegCoord &c : cs) lin.push_back(linearIndex(c.idx, in.shape));
  barrier();
  for (size_t r = 0; r < x.regs.size(); ++r)
    b.CreateStore(user ? x.regs[r] : widen(x.regs[r], k), b.CreateGEP(accTy, bufs[0], lin[r]));
  int cur = 0;
  for (int64_t s = 1; s < len; s *= 2) {
    barrier();
    for (size_t r = 0; r < x.regs.size(); ++r) {
      llvm::Value *self = b.CreateLoad(accTy, b.CreateGEP(accTy, bufs[cur], lin[r]));
      llvm::Value *has = b.CreateICmpSGE(cs[r].idx[axis], c32(s));
      llvm::Value *back = b.CreateSelect(has, b.CreateSub(lin[r], c32(s * stride)), lin[r]);
      llvm::Value *prev = b.CreateLoad(accTy, b.CreateGEP(accTy, bufs[cur], back));
      llvm::Value *sum = user ? combineRegion(op, prev, self) : binary(OpKind::Add, self, prev, acc);
      b.CreateStore(b.CreateSelect(has, sum, self), b.CreateGEP(accTy, bufs[1 - cur], lin[r]));
    }
    cur = 1 - cur;
  }
  barrier();
  TileVal out{false, l, {}};
  for (size_t r = 0; r < x.regs.size(); ++r) {
    llvm::Value *v = b.CreateLoad(accTy, b.CreateGEP(accTy, bufs[cur], lin[r]));
    out.regs.push_back(user ? v : narrow(v, k));
  }
  return out;
}

llvm::Value *Lowerer::combineRegion(const Op &op, llvm::Value *x, llvm::Value *y) {
  const Block &region = op.region(0);
  const Op *outer = current_;
  set(region.arg(0), {true, {}, {x}});
  set(region.arg(1), {true, {}, {y}});
  for (const auto &inner : region.ops) lowerOp(*inner);  // scalars only (verified)
  current_ = outer;
  return scalar(region.terminator()->operand(0));
}

} // namespace tt::backend
