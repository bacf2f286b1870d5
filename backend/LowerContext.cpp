//===- LowerContext.cpp - the context's types and coordinates, small helpers ---===//
#include "backend/Lowering.h"

#include "ir/Diagnostic.h"
#include "ir/Type.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace twintile::backend {

using namespace twintile::ir;

LowerContext::LowerContext(const Func &func, const CompileOptions &options, int numWarps, bool libdevice,
                      const AxisInfoMap &axes, const LayoutMap &layouts, const PipelinePlan &pipelines,
                      const TmaStorePlan &tmaStores, const SharedPlan &shared, const BarrierPlan &barrierPlan,
                      llvm::Module &module)
    : func(func), options(options), numWarps(numWarps), libdevice(libdevice), axes(axes), layouts(layouts),
      pipelines(pipelines), tmaStores(tmaStores), shared(shared), barrierPlan(barrierPlan), mod(module), ctx(module.getContext()), b(module.getContext()) {}

void LowerContext::fail(const Op &op, const std::string &message) const {
  throw BackendError(Diagnostic{op.loc, message});
}

void LowerContext::note(const std::string &n) {
  for (const std::string &s : notes)
    if (s == n) return;
  notes.push_back(n);
}

llvm::Type *LowerContext::llvmType(ScalarKind k) const {
  switch (k) {
  case ScalarKind::I1: return llvm::Type::getInt1Ty(ctx);
  case ScalarKind::I8: case ScalarKind::U8: return llvm::Type::getInt8Ty(ctx);
  case ScalarKind::I16: case ScalarKind::U16: return llvm::Type::getInt16Ty(ctx);
  case ScalarKind::I32: case ScalarKind::U32: return llvm::Type::getInt32Ty(ctx);
  case ScalarKind::I64: case ScalarKind::U64: return llvm::Type::getInt64Ty(ctx);
  case ScalarKind::F16: return llvm::Type::getHalfTy(ctx);
  case ScalarKind::BF16: return llvm::Type::getBFloatTy(ctx);
  case ScalarKind::F32: return llvm::Type::getFloatTy(ctx);
  case ScalarKind::F64: return llvm::Type::getDoubleTy(ctx);
  case ScalarKind::Ptr: return llvm::PointerType::get(ctx, 1);
  }
  throw ir::InternalError("unknown scalar kind");
}

llvm::Type *LowerContext::storageType(ScalarKind k) const {
  if (k == ScalarKind::I1) return llvm::Type::getInt8Ty(ctx);
  if (k == ScalarKind::Ptr) return llvm::Type::getInt64Ty(ctx);
  return llvmType(k);
}

llvm::Value *toStorage(LowerContext &L, llvm::Value *v, ScalarKind k) {
  llvm::IRBuilder<> &b = L.b;
  if (k == ScalarKind::I1) return b.CreateZExt(v, b.getInt8Ty());
  if (k == ScalarKind::Ptr) return b.CreatePtrToInt(v, b.getInt64Ty());
  return v;
}

llvm::Value *fromStorage(LowerContext &L, llvm::Value *v, ScalarKind k) {
  llvm::IRBuilder<> &b = L.b;
  if (k == ScalarKind::I1) return b.CreateTrunc(v, b.getInt1Ty());  // the low bit, as the interpreter reads it
  if (k == ScalarKind::Ptr) return b.CreateIntToPtr(v, L.llvmType(k));
  return v;
}

llvm::Value *andMaybe(LowerContext &L, llvm::Value *a, llvm::Value *c) {
  llvm::IRBuilder<> &b = L.b;
  if (!a) return c;
  if (!c) return a;
  return b.CreateAnd(a, c);
}

// --- the prologue: thread numbering and coordinates -----------------------

llvm::IRBuilder<> LowerContext::atPrologue() { return llvm::IRBuilder<>(prologue->getTerminator()); }

llvm::Value *LowerContext::laneId() {
  llvm::Value *&v = prologueValues["lane"];
  if (!v) {
    llvm::IRBuilder<> p = atPrologue();
    llvm::Value *tid = p.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, {}, {}, nullptr, "tid");
    v = p.CreateAnd(tid, 31, "lane");
    prologueValues["warp"] = p.CreateLShr(tid, 5, "warp");
    prologueValues["tid"] = tid;
  }
  return v;
}

llvm::Value *LowerContext::threadId() {
  laneId();
  return prologueValues["tid"];
}

llvm::Value *isThreadZero(LowerContext &L) {
  llvm::Value *&v = L.prologueValues["thread0"];
  if (!v) {
    // tid.x itself: LLVM does not see (tid & 31 | tid >> 5) == 0 as tid == 0.
    llvm::Value *tid = L.threadId();
    llvm::IRBuilder<> p = L.atPrologue();
    v = p.CreateICmpEQ(tid, p.getInt32(0), "thread0");
  }
  return v;
}

llvm::Value *LowerContext::warpId() {
  laneId();
  return prologueValues["warp"];
}

namespace {

/// This thread's coordinate along `parentDim` at one level (lanes or warps):
/// the level's id decomposed over `counts` in `order`.
int64_t levelStride(const std::vector<int> &counts, const std::vector<int> &order, int parentDim) {
  int64_t stride = 1;
  for (int p : order) {
    if (p == parentDim) break;
    stride *= counts[p];
  }
  return stride;
}

std::string layoutKey(const Layout &l) { return toString(l); }

} // namespace

llvm::Value *LowerContext::laneCoord(const Layout &l, int p) {
  if (l.threadsPerWarp[p] == 1) return c32(0);
  std::string key = "lane" + std::to_string(p) + layoutKey(l);
  llvm::Value *&v = prologueValues[key];
  if (!v) {
    llvm::Value *lane = laneId();
    llvm::IRBuilder<> q = atPrologue();
    v = q.CreateURem(q.CreateUDiv(lane, q.getInt32(levelStride(l.threadsPerWarp, l.order, p))),
                     q.getInt32(l.threadsPerWarp[p]));
  }
  return v;
}

llvm::Value *LowerContext::warpCoord(const Layout &l, int p) {
  if (l.warpsPerCTA[p] == 1) return c32(0);
  std::string key = "warp" + std::to_string(p) + layoutKey(l);
  llvm::Value *&v = prologueValues[key];
  if (!v) {
    llvm::Value *warp = warpId();
    llvm::IRBuilder<> q = atPrologue();
    v = q.CreateURem(q.CreateUDiv(warp, q.getInt32(levelStride(l.warpsPerCTA, l.order, p))),
                     q.getInt32(l.warpsPerCTA[p]));
  }
  return v;
}

std::vector<int64_t> regDims(const Layout &l, const Shape &shape, int64_t r) {
  std::vector<DimPlan> plan = planDims(l, shape);
  std::vector<int64_t> out(shape.size());
  for (int i : l.tileOrder()) {
    out[i] = r % plan[i].regs;
    r /= plan[i].regs;
  }
  return out;
}

int64_t regIndex(const Layout &l, const Shape &shape, const std::vector<int64_t> &rd) {
  std::vector<DimPlan> plan = planDims(l, shape);
  int64_t r = 0, stride = 1;
  for (int i : l.tileOrder()) {
    r += rd[i] * stride;
    stride *= plan[i].regs;
  }
  return r;
}

const std::vector<RegCoord> &LowerContext::coords(const Layout &l, const Shape &shape) {
  std::string key = layoutKey(l) + shapeString(shape);
  auto it = coordCache.find(key);
  if (it != coordCache.end()) return it->second;
  std::vector<DimPlan> plan = planDims(l, shape);
  std::vector<llvm::Value *> base;
  for (const DimPlan &d : plan) {
    int p = d.parent;
    if (l.threadsPerWarp[p] == 32 && d.rpw == 1 && levelStride(l.warpsPerCTA, l.order, p) == 1) {
      // Every lane, then the first warps, along this dim: the thread's place
      // along it is tid.x itself, or its low bits. LLVM does not see that
      // (lane + 32 * (warp % w)) is that, and would compute both halves.
      llvm::IRBuilder<> q = atPrologue();
      llvm::Value *t = threadId();
      if (l.warpsPerCTA[p] != numWarps) t = q.CreateAnd(t, q.getInt32(32 * l.warpsPerCTA[p] - 1));
      base.push_back(q.CreateMul(t, q.getInt32(d.spt)));
      continue;
    }
    llvm::Value *lc = laneCoord(l, p), *wc = warpCoord(l, p);
    llvm::IRBuilder<> q = atPrologue();
    base.push_back(q.CreateAdd(q.CreateMul(lc, q.getInt32(d.spt)), q.CreateMul(wc, q.getInt32(d.spt * d.tpw * d.rpw))));
  }
  // Threads that differ only along a sliced dim hold copies: the one at 0 owns.
  llvm::Value *slicedOwner = nullptr;
  for (int p = 0; p < l.parentRank(); ++p) {
    if (!l.isSliced(p)) continue;
    llvm::Value *lc = laneCoord(l, p), *wc = warpCoord(l, p);
    llvm::IRBuilder<> q = atPrologue();
    if (l.threadsPerWarp[p] > 1) slicedOwner = slicedOwner ? q.CreateAnd(slicedOwner, q.CreateICmpEQ(lc, q.getInt32(0))) : q.CreateICmpEQ(lc, q.getInt32(0));
    if (l.warpsPerCTA[p] > 1) slicedOwner = slicedOwner ? q.CreateAnd(slicedOwner, q.CreateICmpEQ(wc, q.getInt32(0))) : q.CreateICmpEQ(wc, q.getInt32(0));
  }
  // A register's coordinate along each dim rises with its index along it
  // (off below, DimPlan's formula): argmax's in-thread order relies on it
  // (LowerReduce.cpp).
  llvm::IRBuilder<> q = atPrologue();
  std::vector<RegCoord> out;
  int64_t n = numRegisters(l, shape);
  for (int64_t r = 0; r < n; ++r) {
    std::vector<int64_t> rd = regDims(l, shape, r);
    RegCoord c;
    c.canonical = slicedOwner;
    for (size_t i = 0; i < plan.size(); ++i) {
      const DimPlan &d = plan[i];
      int64_t run = rd[i] / d.spt;
      int64_t off = run / d.rpw * d.cover + run % d.rpw * d.spt * d.tpw + rd[i] % d.spt;
      llvm::Value *raw = q.CreateAdd(base[i], q.getInt32(off));
      llvm::Value *inside = nullptr;
      if (d.wraps) {
        inside = q.CreateICmpULT(raw, q.getInt32(d.size));
        raw = q.CreateURem(raw, q.getInt32(d.size));
        c.canonical = c.canonical ? q.CreateAnd(c.canonical, inside) : inside;
      }
      c.idx.push_back(raw);
      c.inside.push_back(inside);
    }
    out.push_back(std::move(c));
  }
  return coordCache.emplace(key, std::move(out)).first->second;
}

void ifThen(LowerContext &L, llvm::Value *cond, const std::function<void()> &body) {
  llvm::IRBuilder<> &b = L.b;
  if (!cond) return body();
  llvm::Function *f = b.GetInsertBlock()->getParent();
  llvm::BasicBlock *then = llvm::BasicBlock::Create(L.ctx, "then", f);
  llvm::BasicBlock *cont = llvm::BasicBlock::Create(L.ctx, "cont", f);
  b.CreateCondBr(cond, then, cont);
  b.SetInsertPoint(then);
  body();
  b.CreateBr(cont);
  b.SetInsertPoint(cont);
}

llvm::Value *cString(LowerContext &L, const std::string &s) {
  llvm::Value *&v = L.strings[s];
  if (!v) {
    llvm::Constant *init = llvm::ConstantDataArray::getString(L.ctx, s);
    auto *g = new llvm::GlobalVariable(L.mod, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init,
                                       "str", nullptr, llvm::GlobalValue::NotThreadLocal, 4);
    g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    v = llvm::ConstantExpr::getAddrSpaceCast(g, llvm::PointerType::get(L.ctx, 0));
  }
  return v;
}

llvm::Value *shuffleXor(LowerContext &L, llvm::Value *v, int mask) { return shuffle(L, v, Shuffle::Xor, L.c32(mask)); }

llvm::Value *shuffle(LowerContext &L, llvm::Value *v, Shuffle mode, llvm::Value *lane) {
  llvm::IRBuilder<> &b = L.b;
  using llvm::Intrinsic::ID;
  static constexpr ID kI32[] = {llvm::Intrinsic::nvvm_shfl_sync_bfly_i32, llvm::Intrinsic::nvvm_shfl_sync_up_i32,
                                llvm::Intrinsic::nvvm_shfl_sync_idx_i32};
  static constexpr ID kF32[] = {llvm::Intrinsic::nvvm_shfl_sync_bfly_f32, llvm::Intrinsic::nvvm_shfl_sync_up_f32,
                                llvm::Intrinsic::nvvm_shfl_sync_idx_f32};
  // The c operand: the top lane for bfly and idx, the bottom one (0) for up.
  llvm::Type *t = v->getType();
  if (auto *st = llvm::dyn_cast<llvm::StructType>(t)) {  // a reduce's tuple, field by field
    llvm::Value *out = llvm::PoisonValue::get(st);
    for (unsigned i = 0; i < st->getNumElements(); ++i) out = b.CreateInsertValue(out, shuffle(L, b.CreateExtractValue(v, i), mode, lane), i);
    return out;
  }
  llvm::Value *clamp = L.c32(mode == Shuffle::Up ? 0 : 0x1f);
  int m = static_cast<int>(mode);
  // An f32 moves as itself (LLVM 19's NVPTX would copy it into a b32
  // register and back around an i32 shuffle).
  if (t->isFloatTy()) return b.CreateIntrinsic(kF32[m], {}, {b.getInt32(0xffffffffu), v, lane, clamp});
  auto shfl32 = [&](llvm::Value *x) { return b.CreateIntrinsic(kI32[m], {}, {b.getInt32(0xffffffffu), x, lane, clamp}); };
  unsigned bits = t->isPointerTy() ? 64 : t->getPrimitiveSizeInBits();
  llvm::Value *asInt = t->isPointerTy() ? b.CreatePtrToInt(v, b.getInt64Ty())
                       : t->isIntegerTy() ? v : b.CreateBitCast(v, b.getIntNTy(bits));
  llvm::Value *r;
  if (bits == 64) {
    llvm::Value *lo = shfl32(b.CreateTrunc(asInt, b.getInt32Ty()));
    llvm::Value *hi = shfl32(b.CreateTrunc(b.CreateLShr(asInt, 32), b.getInt32Ty()));
    r = b.CreateOr(b.CreateZExt(lo, b.getInt64Ty()), b.CreateShl(b.CreateZExt(hi, b.getInt64Ty()), 32));
  } else {
    r = shfl32(bits == 32 ? asInt : b.CreateZExt(asInt, b.getInt32Ty()));
    if (bits != 32) r = b.CreateTrunc(r, b.getIntNTy(bits));
  }
  if (t->isPointerTy()) return b.CreateIntToPtr(r, t);
  return t->isIntegerTy() ? r : b.CreateBitCast(r, t);
}

} // namespace twintile::backend
