//===- LowerFunc.cpp - the kernel, the walk over its ops, coordinates ---===//
#include "backend/Lowering.h"
#include "backend/Target.h"

#include "ir/Diagnostic.h"
#include "ir/Type.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <cassert>

namespace tt::backend {

using namespace tt::ir;

Lowerer::Lowerer(const Func &func, const CompileOptions &options, int numWarps, bool libdevice,
                 const AxisInfoMap &axes, const LayoutMap &layouts, const PipelinePlan &pipelines,
                 const SharedPlan &shared, const BarrierPlan &barrierPlan, llvm::Module &module)
    : func(func), options(options), numWarps(numWarps), libdevice(libdevice), axes(axes), layouts(layouts),
      pipelines(pipelines), shared(shared), barrierPlan(barrierPlan), mod(module), ctx(module.getContext()), b(module.getContext()) {}

void Lowerer::fail(const Op &op, const std::string &message) const {
  throw BackendError(Diagnostic{op.loc, message});
}

void Lowerer::note(const std::string &n) {
  for (const std::string &s : notes_)
    if (s == n) return;
  notes_.push_back(n);
}

llvm::Type *Lowerer::llvmType(ScalarKind k) const {
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

llvm::Type *Lowerer::storageType(ScalarKind k) const {
  if (k == ScalarKind::I1) return llvm::Type::getInt8Ty(ctx);
  if (k == ScalarKind::Ptr) return llvm::Type::getInt64Ty(ctx);
  return llvmType(k);
}

llvm::Value *Lowerer::toStorage(llvm::Value *v, ScalarKind k) {
  if (k == ScalarKind::I1) return b.CreateZExt(v, b.getInt8Ty());
  if (k == ScalarKind::Ptr) return b.CreatePtrToInt(v, b.getInt64Ty());
  return v;
}

llvm::Value *Lowerer::fromStorage(llvm::Value *v, ScalarKind k) {
  if (k == ScalarKind::I1) return b.CreateTrunc(v, b.getInt1Ty());  // the low bit, as the interpreter reads it
  if (k == ScalarKind::Ptr) return b.CreateIntToPtr(v, llvmType(k));
  return v;
}

ScalarKind Lowerer::computeKind(ScalarKind k) {
  return k == ScalarKind::F16 || k == ScalarKind::BF16 ? ScalarKind::F32 : k;
}

llvm::Value *Lowerer::widen(llvm::Value *v, ScalarKind k) {
  return computeKind(k) == k ? v : b.CreateFPExt(v, b.getFloatTy());
}

llvm::Value *Lowerer::narrow(llvm::Value *v, ScalarKind k) {
  return computeKind(k) == k ? v : b.CreateFPTrunc(v, llvmType(k));
}

llvm::Value *Lowerer::andMaybe(llvm::Value *a, llvm::Value *c) {
  if (!a) return c;
  if (!c) return a;
  return b.CreateAnd(a, c);
}

// --- the prologue: thread numbering and coordinates -----------------------

llvm::IRBuilder<> Lowerer::atPrologue() { return llvm::IRBuilder<>(prologue_->getTerminator()); }

llvm::Value *Lowerer::laneId() {
  llvm::Value *&v = prologueValues_["lane"];
  if (!v) {
    llvm::IRBuilder<> p = atPrologue();
    llvm::Value *tid = p.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, {}, {}, nullptr, "tid");
    v = p.CreateAnd(tid, 31, "lane");
    prologueValues_["warp"] = p.CreateLShr(tid, 5, "warp");
    prologueValues_["tid"] = tid;
  }
  return v;
}

llvm::Value *Lowerer::threadId() {
  laneId();
  return prologueValues_["tid"];
}

llvm::Value *Lowerer::isThreadZero() {
  llvm::Value *&v = prologueValues_["thread0"];
  if (!v) {
    // tid.x itself: LLVM does not see (tid & 31 | tid >> 5) == 0 as tid == 0.
    llvm::Value *tid = threadId();
    llvm::IRBuilder<> p = atPrologue();
    v = p.CreateICmpEQ(tid, p.getInt32(0), "thread0");
  }
  return v;
}

llvm::Value *Lowerer::warpId() {
  laneId();
  return prologueValues_["warp"];
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

llvm::Value *Lowerer::laneCoord(const Layout &l, int p) {
  if (l.threadsPerWarp[p] == 1) return c32(0);
  std::string key = "lane" + std::to_string(p) + layoutKey(l);
  llvm::Value *&v = prologueValues_[key];
  if (!v) {
    llvm::Value *lane = laneId();
    llvm::IRBuilder<> q = atPrologue();
    v = q.CreateURem(q.CreateUDiv(lane, q.getInt32(levelStride(l.threadsPerWarp, l.order, p))),
                     q.getInt32(l.threadsPerWarp[p]));
  }
  return v;
}

llvm::Value *Lowerer::warpCoord(const Layout &l, int p) {
  if (l.warpsPerCTA[p] == 1) return c32(0);
  std::string key = "warp" + std::to_string(p) + layoutKey(l);
  llvm::Value *&v = prologueValues_[key];
  if (!v) {
    llvm::Value *warp = warpId();
    llvm::IRBuilder<> q = atPrologue();
    v = q.CreateURem(q.CreateUDiv(warp, q.getInt32(levelStride(l.warpsPerCTA, l.order, p))),
                     q.getInt32(l.warpsPerCTA[p]));
  }
  return v;
}

std::vector<int64_t> Lowerer::regDims(const Layout &l, const Shape &shape, int64_t r) {
  std::vector<DimPlan> plan = planDims(l, shape);
  std::vector<int64_t> out(shape.size());
  for (int i : l.tileOrder()) {
    out[i] = r % plan[i].regs;
    r /= plan[i].regs;
  }
  return out;
}

int64_t Lowerer::regIndex(const Layout &l, const Shape &shape, const std::vector<int64_t> &rd) {
  std::vector<DimPlan> plan = planDims(l, shape);
  int64_t r = 0, stride = 1;
  for (int i : l.tileOrder()) {
    r += rd[i] * stride;
    stride *= plan[i].regs;
  }
  return r;
}

const std::vector<RegCoord> &Lowerer::coords(const Layout &l, const Shape &shape) {
  std::string key = layoutKey(l) + shapeString(shape);
  auto it = coords_.find(key);
  if (it != coords_.end()) return it->second;
  std::vector<DimPlan> plan = planDims(l, shape);
  std::vector<llvm::Value *> base;
  for (const DimPlan &d : plan) {
    int p = d.parent;
    if (l.threadsPerWarp[p] == 32 && levelStride(l.warpsPerCTA, l.order, p) == 1) {
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
    base.push_back(q.CreateAdd(q.CreateMul(lc, q.getInt32(d.spt)), q.CreateMul(wc, q.getInt32(d.spt * d.tpw))));
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
  // (off below): argmax's in-thread order relies on it (LowerReduce.cpp).
  llvm::IRBuilder<> q = atPrologue();
  std::vector<RegCoord> out;
  int64_t n = numRegisters(l, shape);
  for (int64_t r = 0; r < n; ++r) {
    std::vector<int64_t> rd = regDims(l, shape, r);
    RegCoord c;
    c.canonical = slicedOwner;
    for (size_t i = 0; i < plan.size(); ++i) {
      const DimPlan &d = plan[i];
      int64_t off = rd[i] / d.spt * d.cover + rd[i] % d.spt;
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
  return coords_.emplace(key, std::move(out)).first->second;
}

llvm::Value *Lowerer::linearIndex(const std::vector<llvm::Value *> &idx, const Shape &shape) {
  llvm::Value *lin = c32(0);
  int64_t stride = 1;
  for (size_t i = idx.size(); i-- > 0;) {
    lin = b.CreateAdd(lin, b.CreateMul(idx[i], c32(stride)));
    stride *= shape[i];
  }
  return lin;
}

// --- shared memory, barriers, shuffles -------------------------------------

llvm::Value *Lowerer::takeBuffer(SharedBuffer::Kind kind, int64_t bytes, const Op &at) {
  bool ring = kind == SharedBuffer::Kind::Ring;
  const SharedBuffer *w = nextBuffer_ < shared.buffers.size() ? &shared.buffers[nextBuffer_] : nullptr;
  if (!w || w->kind != kind || w->op != &at || w->bytes != bytes)
    throw InternalError("lowering '" + std::string(at.name()) + "' asks for a shared-memory " + (ring ? "ring" : "window") +
                            " of " + std::to_string(bytes) + " bytes that the plan (the shared stage) does not have next",
                        at.loc);
  // The first buffer that does not fit, where lowering reaches it (an earlier
  // refusal of the kernel's is reported first, as without a plan).
  if (shared.overflow && nextBuffer_ == shared.overflowAt) throw BackendError(*shared.overflow);
  ++nextBuffer_;
  if (!shared_) {
    // A placeholder; run() replaces it by an array of the plan's size.
    shared_ = new llvm::GlobalVariable(mod, llvm::ArrayType::get(b.getInt8Ty(), 0), false,
                                       llvm::GlobalValue::ExternalLinkage, nullptr, "twintile_smem_placeholder",
                                       nullptr, llvm::GlobalValue::NotThreadLocal, 3);
  }
  if (!w->offset) return shared_;
  return b.CreateGEP(b.getInt8Ty(), shared_, b.getInt32(static_cast<uint32_t>(w->offset)));
}

llvm::Value *Lowerer::sharedBase(int64_t bytes, const Op &at) { return takeBuffer(SharedBuffer::Kind::Window, bytes, at); }

llvm::Value *Lowerer::reserveShared(int64_t bytes, const Op &at) { return takeBuffer(SharedBuffer::Kind::Ring, bytes, at); }

const SharedBuffer &Lowerer::nextWindow(const Op &at) const {
  if (nextBuffer_ >= shared.buffers.size() || shared.buffers[nextBuffer_].op != &at ||
      shared.buffers[nextBuffer_].kind != SharedBuffer::Kind::Window)
    throw InternalError("lowering '" + std::string(at.name()) + "' needs a shared-memory window the plan does not have next",
                        at.loc);
  return shared.buffers[nextBuffer_];
}

void Lowerer::barrier() { b.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {}); }

void Lowerer::barrierBeforeWindow() {
  if (nextBuffer_ == 0) throw InternalError("a barrier before a window, before any window");
  if (barrierPlan.needsBeforeWindow(nextBuffer_ - 1)) barrier();
}

llvm::Value *Lowerer::shuffleXor(llvm::Value *v, int mask) { return shuffle(v, Shuffle::Xor, c32(mask)); }

llvm::Value *Lowerer::shuffle(llvm::Value *v, Shuffle mode, llvm::Value *lane) {
  using llvm::Intrinsic::ID;
  static constexpr ID kI32[] = {llvm::Intrinsic::nvvm_shfl_sync_bfly_i32, llvm::Intrinsic::nvvm_shfl_sync_up_i32,
                                llvm::Intrinsic::nvvm_shfl_sync_idx_i32};
  static constexpr ID kF32[] = {llvm::Intrinsic::nvvm_shfl_sync_bfly_f32, llvm::Intrinsic::nvvm_shfl_sync_up_f32,
                                llvm::Intrinsic::nvvm_shfl_sync_idx_f32};
  // The c operand: the top lane for bfly and idx, the bottom one (0) for up.
  llvm::Type *t = v->getType();
  if (auto *st = llvm::dyn_cast<llvm::StructType>(t)) {  // a reduce's tuple, field by field
    llvm::Value *out = llvm::PoisonValue::get(st);
    for (unsigned i = 0; i < st->getNumElements(); ++i) out = b.CreateInsertValue(out, shuffle(b.CreateExtractValue(v, i), mode, lane), i);
    return out;
  }
  llvm::Value *clamp = c32(mode == Shuffle::Up ? 0 : 0x1f);
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

void Lowerer::storeSharedIf(llvm::Value *cond, llvm::Value *value, llvm::Value *ptr) {
  // Predicated PTX, not a branch around a store: the kernel stays one block
  // (as Triton's do), so LLVM does not sink comparisons and addresses into
  // the blocks after and compute them again there.
  llvm::Type *t = value->getType();
  if (auto *st = llvm::dyn_cast<llvm::StructType>(t)) {  // a reduce's tuple, field by field
    for (unsigned i = 0; i < st->getNumElements(); ++i)
      storeSharedIf(cond, b.CreateExtractValue(value, i), b.CreateStructGEP(st, ptr, i));
    return;
  }
  if (!cond) {
    b.CreateStore(t->isIntegerTy(1) ? b.CreateZExt(value, b.getInt8Ty()) : value, ptr);
    return;
  }
  unsigned bits = t->getPrimitiveSizeInBits();
  std::string constraint = "f", type = "b32";
  llvm::Value *v = value;
  if (t->isDoubleTy()) {
    constraint = "d", type = "b64";
  } else if (!t->isFloatTy()) {
    if (!t->isIntegerTy()) v = b.CreateBitCast(v, b.getIntNTy(bits));  // f16, bf16
    if (bits < 16) v = b.CreateZExt(v, b.getInt16Ty());                 // i1, i8: a byte from a 16-bit register
    constraint = bits == 64 ? "l" : bits == 32 ? "r" : "h";
    type = bits < 16 ? "b8" : "b" + std::to_string(bits);
  }
  llvm::Value *at = b.CreatePtrToInt(ptr, b.getInt64Ty());
  auto *fty = llvm::FunctionType::get(b.getVoidTy(), {b.getInt1Ty(), b.getInt64Ty(), v->getType()}, false);
  b.CreateCall(llvm::InlineAsm::get(fty, "@$0 st.shared." + type + " [$1], $2;", "b,l," + constraint + ",~{memory}", true),
               {cond, at, v});
}

llvm::Value *Lowerer::loadShared(llvm::Type *t, llvm::Value *ptr) {
  if (auto *st = llvm::dyn_cast<llvm::StructType>(t)) {  // a reduce's tuple, field by field
    llvm::Value *out = llvm::PoisonValue::get(st);
    for (unsigned i = 0; i < st->getNumElements(); ++i)
      out = b.CreateInsertValue(out, loadShared(st->getElementType(i), b.CreateStructGEP(st, ptr, i)), i);
    return out;
  }
  if (!t->isIntegerTy(1)) return b.CreateLoad(t, ptr);
  return b.CreateTrunc(b.CreateLoad(b.getInt8Ty(), ptr), t);  // the asm wrote a whole byte
}

void Lowerer::ifThen(llvm::Value *cond, const std::function<void()> &body) {
  if (!cond) return body();
  llvm::Function *f = b.GetInsertBlock()->getParent();
  llvm::BasicBlock *then = llvm::BasicBlock::Create(ctx, "then", f);
  llvm::BasicBlock *cont = llvm::BasicBlock::Create(ctx, "cont", f);
  b.CreateCondBr(cond, then, cont);
  b.SetInsertPoint(then);
  body();
  b.CreateBr(cont);
  b.SetInsertPoint(cont);
}

llvm::Value *Lowerer::cString(const std::string &s) {
  llvm::Value *&v = strings_[s];
  if (!v) {
    llvm::Constant *init = llvm::ConstantDataArray::getString(ctx, s);
    auto *g = new llvm::GlobalVariable(mod, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init,
                                       "str", nullptr, llvm::GlobalValue::NotThreadLocal, 4);
    g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    v = llvm::ConstantExpr::getAddrSpaceCast(g, llvm::PointerType::get(ctx, 0));
  }
  return v;
}

// --- the walk -------------------------------------------------------------------

TileVal Lowerer::lowerPure(const Op &op, const Layout *l) {
  if (!op.info().recomputable()) throw InternalError("'" + std::string(op.name()) + "' is not recomputable", op.loc);
  switch (op.kind) {
  case OpKind::Broadcast: case OpKind::ExpandDims: case OpKind::Trans: return lowerShapeOp(op, l);
  case OpKind::MultipleOf: case OpKind::MaxContiguous: return get(op.operand(0), l);  // a hint: the operand itself
  default: return lowerElementwise(op, l);
  }
}

void Lowerer::lowerOp(const Op &op) {
  current_ = &op;
  switch (op.kind) {
  case OpKind::For: return lowerFor(op);
  case OpKind::If: return lowerIf(op);
  case OpKind::While: return lowerWhile(op);
  case OpKind::Yield: case OpKind::Return: return;
  case OpKind::ProgramId: case OpKind::NumPrograms: {
    int axis = static_cast<int>(op.intAttr("axis"));
    static constexpr llvm::Intrinsic::ID ctaid[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                                    llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                                    llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
    static constexpr llvm::Intrinsic::ID nctaid[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                                                     llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                                                     llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z};
    llvm::Value *v = b.CreateIntrinsic(op.kind == OpKind::ProgramId ? ctaid[axis] : nctaid[axis], {}, {});
    return set(op.result(), {true, {}, {v}});
  }
  case OpKind::Load:
    if (inShared.count(op.result())) return;  // a pipelined load: its copies are issued ahead
    return lowerMemory(op);
  case OpKind::Store: case OpKind::AtomicAdd: case OpKind::AtomicMax: case OpKind::AtomicMin:
  case OpKind::AtomicAnd: case OpKind::AtomicOr: case OpKind::AtomicXor: case OpKind::AtomicXchg:
  case OpKind::AtomicCas: return lowerMemory(op);
  case OpKind::Sum: case OpKind::Max: case OpKind::Min: case OpKind::Argmax: case OpKind::Argmin:
    return set(op.result(), lowerReduce(op));
  case OpKind::Reduce: return setUnpacked(op, lowerReduce(op));
  case OpKind::Cumsum: return set(op.result(), lowerCumsum(op));
  case OpKind::Scan: return setUnpacked(op, lowerCumsum(op));
  case OpKind::Reshape: return set(op.result(), lowerReshape(op));
  case OpKind::Dot: return set(op.result(), lowerDot(op));
  case OpKind::Print: case OpKind::Assert: case OpKind::Barrier: return lowerDebug(op);
  case OpKind::Constant: case OpKind::Arange: case OpKind::Splat: case OpKind::Broadcast: case OpKind::ExpandDims:
  case OpKind::Trans: case OpKind::MultipleOf: case OpKind::MaxContiguous:
  TT_ARITH_CASES:
  case OpKind::Select: case OpKind::Cast: case OpKind::Bitcast: case OpKind::AddPtr: {
    const Value *r = op.result();
    return set(r, lowerPure(op, r->type.isTile() ? &layoutOf(r) : nullptr));
  }
  }
}

void Lowerer::lowerBlock(const Block &block) {
  remat_.emplace_back();
  for (const auto &op : block.ops) lowerOp(*op);
  remat_.pop_back();
}

void Lowerer::run() {
  std::vector<llvm::Type *> params;
  for (size_t i = 0; i < func.numParams(); ++i) {
    const Type &t = func.param(i)->type;
    params.push_back(t.isPtr() ? llvmType(ScalarKind::Ptr) : storageType(t.elem));  // i1 travels as a byte
  }
  auto *fty = llvm::FunctionType::get(b.getVoidTy(), params, false);
  kernel_ = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, func.name, mod);
  kernel_->setCallingConv(llvm::CallingConv::PTX_Kernel);
  prologue_ = llvm::BasicBlock::Create(ctx, "entry", kernel_);
  llvm::BasicBlock *start = llvm::BasicBlock::Create(ctx, "body", kernel_);
  b.SetInsertPoint(prologue_);
  b.CreateBr(start);
  b.SetInsertPoint(start);
  for (size_t i = 0; i < func.numParams(); ++i) {
    llvm::Argument *a = kernel_->getArg(static_cast<unsigned>(i));
    a->setName(func.param(i)->name);
    const Type &t = func.param(i)->type;
    if (t.isPtr()) a->addAttr(llvm::Attribute::NoUndef);
    set(func.param(i), {true, {}, {t.elem == ScalarKind::I1 ? fromStorage(a, t.elem) : a}});
  }
  lowerBlock(func.body);
  b.CreateRetVoid();
  if (nextBuffer_ != shared.buffers.size())
    throw InternalError("lowering took " + std::to_string(nextBuffer_) + " of the " + std::to_string(shared.buffers.size()) +
                            " shared-memory buffers the plan (the shared stage) has",
                        func.loc);

  // The shared buffer, now that its size is known: an array of that size,
  // or, past what a kernel may declare statically, `.extern .shared` (its
  // size is the launch's dynamic shared memory).
  if (shared_) {
    bool dynamic = shared.dynamic();
    auto *type = llvm::ArrayType::get(b.getInt8Ty(), dynamic ? 0 : static_cast<uint64_t>(shared.bytes));
    auto *real = new llvm::GlobalVariable(mod, type, false,
                                          dynamic ? llvm::GlobalValue::ExternalLinkage : llvm::GlobalValue::InternalLinkage,
                                          dynamic ? nullptr : llvm::UndefValue::get(type), "twintile_smem", nullptr,
                                          llvm::GlobalValue::NotThreadLocal, 3);
    real->setAlignment(llvm::Align(16));
    shared_->replaceAllUsesWith(real);
    shared_->eraseFromParent();
    shared_ = real;
  }
  // Kernel annotations: an entry point, launched with 32 * numWarps threads.
  llvm::NamedMDNode *annotations = mod.getOrInsertNamedMetadata("nvvm.annotations");
  auto annotate = [&](const char *key, int value) {
    llvm::Metadata *md[] = {llvm::ValueAsMetadata::get(kernel_), llvm::MDString::get(ctx, key),
                            llvm::ValueAsMetadata::get(b.getInt32(static_cast<uint32_t>(value)))};
    annotations->addOperand(llvm::MDNode::get(ctx, md));
  };
  annotate("kernel", 1);
  annotate("maxntidx", 32 * numWarps);
  annotate("maxntidy", 1);
  annotate("maxntidz", 1);
}

} // namespace tt::backend
