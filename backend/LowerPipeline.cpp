//===- LowerPipeline.cpp - cp.async software pipelining of a dot's loads --===//
//
// In a `for` loop whose body loads the tiles a tensor-core `dot` multiplies,
// those loads become cp.async copies from global memory straight into the
// swizzled shared matrices the dot reads (with ldmatrix, or wgmma's
// descriptors: then each thread fences the async proxy after its wait), into a ring of S =
// num_stages buffers filled S - 1 iterations ahead (Ampere's pipeline, as
// Triton's):
//
//   before the loop  iterations 0 .. S-2 copy into stages 0 .. S-2, one
//                    commit group each
//   iteration i      cp.async.wait_group S-2  (this thread's copies for i landed)
//                    bar.sync                 (everyone's did; and everyone is
//                                              done reading stage (i-1) % S)
//                    iteration i+S-1 copies into stage (i+S-1) % S; commit
//                    the body, whose dots read stage i % S
//   after the loop   cp.async.wait_all; bar.sync
//
// Iterations past the end copy zeros (src-size 0) into stages nobody reads.
// With an async wgmma dot (PipelinePlan.h) the ring has S + 1 buffers per
// load, used round-robin: iteration i reads buffer i % (S+1) and refills
// (i+S-1) % (S+1), which iteration i-2's MMAs read, complete since the
// wait_group 1 of iteration i-1; its last group is waited for after the loop.
// The ring is reserved for the loop's length; shared memory the body uses
// otherwise comes after it (past 48 KiB, in dynamic shared memory).
// Which loads qualify, the ring's layout and the address ops evaluated again
// are the plan's (PipelinePlan.h); this file only emits it.
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <optional>

namespace twintile::backend {

using namespace twintile::ir;

/// True if a wgmma reads some buffer of the ring: its writes need
/// fence.proxy.async before the barrier that publishes them.
static bool readByWgmma(const LoopPipeline &plan) {
  for (const LoopPipeline::Load &ld : plan.loads)
    if (ld.form.wgmma()) return true;
  for (const LoopPipeline::Invariant &inv : plan.invariants)
    if (inv.form.wgmma()) return true;
  return false;
}

ScopedValues::ScopedValues(LowerContext &L) : L_(L) { L.remat.emplace_back(); }

ScopedValues::~ScopedValues() {
  for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
    if (it->second) L_.values[it->first] = *it->second;
    else L_.values.erase(it->first);
  }
  L_.remat.pop_back();
}

void ScopedValues::bind(const Value *v, TileVal t) {
  auto it = L_.values.find(v);
  saved_.emplace_back(v, it == L_.values.end() ? std::nullopt : std::optional<TileVal>(it->second));
  L_.set(v, std::move(t));
}

void ScopedValues::evaluate(const std::vector<const Op *> &ops) {
  for (const Op *op : ops) {
    L_.current = op;
    const Value *r = op->result();
    const Layout *l = r->type.isTile() ? &L_.layoutOf(r) : nullptr;
    bool hint = op->kind == OpKind::MultipleOf || op->kind == OpKind::MaxContiguous;
    bind(r, hint ? L_.get(op->operand(0), l) : lowerPure(L_, *op, l));
  }
}

static void issueCopies(LowerContext &L, const PipelineRing &p, llvm::Value *stage, llvm::Value *iv, llvm::Value *inRange) {
  llvm::IRBuilder<> &b = L.b;
  const Block &body = p.plan.loop->region(0);
  // The address ops again, for iteration `iv`; the body's own values (not
  // lowered yet, or of this iteration) are restored afterwards.
  ScopedValues again(L);
  again.bind(body.arg(0), {true, {}, {iv}});
  again.evaluate(p.plan.slice);
  if (p.plan.copiesTma()) tmaIssue(L, p, stage, inRange);
  for (const LoopPipeline::Load &ld : p.plan.loads) {
    if (ld.tma()) continue;
    const Op &op = *ld.op;
    L.current = &op;
    const Type &t = op.result()->type;
    int eb = static_cast<int>(byteSize(t.elem)), rowDim = ld.form.rowDim, colDim = 1 - rowDim;
    TileVal ptrs = L.get(op.operand(0), &ld.layout);
    TileVal mask = op.operands.size() > 1 ? L.get(op.operand(1), &ld.layout) : TileVal{};
    llvm::Value *base = b.CreateGEP(b.getInt8Ty(), p.ring,
                                    b.CreateAdd(L.c32(ld.offset), b.CreateMul(stage, L.c32(ld.bytes))));
    const std::vector<RegCoord> &cs = L.coords(ld.layout, t.shape);
    int copyBytes = ld.width * eb;
    // Inline PTX, not NVVM's cp.async intrinsics: LLVM 19 selects those only
    // for 64-bit shared pointers (Target.cpp makes them 32-bit). 16-byte
    // copies bypass L1 (.cg), as Triton's do; narrower ones must go by .ca.
    std::string copyText = std::string(copyBytes == 16 ? "cp.async.cg" : "cp.async.ca") +
                           ".shared.global [$0], [$1], " + std::to_string(copyBytes) + ", $2;";
    for (size_t r = 0; r < ptrs.regs.size(); ++r) {
      std::vector<int64_t> rd = regDims(ld.layout, t.shape, static_cast<int64_t>(r));
      if (rd[static_cast<size_t>(colDim)] % ld.width != 0) continue;
      llvm::Value *dst = stagedAddress(L, base, t, ld.form, cs[r].idx[static_cast<size_t>(rowDim)],
                                       cs[r].idx[static_cast<size_t>(colDim)]);
      llvm::Value *copy = andMaybe(L, mask.regs.empty() ? nullptr : mask.regs[r], inRange);
      llvm::Value *size = b.CreateSelect(copy, L.c32(copyBytes), L.c32(0));
      sideEffectAsm(L, b.getVoidTy(), copyText, "r,l,r,~{memory}",
                    {sharedAddress32(L, dst), b.CreatePtrToInt(ptrs.regs[r], b.getInt64Ty()), size});
    }
  }
  if (p.plan.copiesAsync()) b.CreateIntrinsic(llvm::Intrinsic::nvvm_cp_async_commit_group, {}, {});
}

void pipelinePrologue(LowerContext &L, PipelineRing &p, llvm::Value *lo, llvm::Value *hi, llvm::Value *step) {
  llvm::IRBuilder<> &b = L.b;
  if (p.plan.asyncDot) L.asyncDots.insert(p.plan.asyncDot);
  p.ring = reserveShared(L, p.plan.ringBytes, *p.plan.loop);
  // Earlier users of this shared memory are done with it, and global writes
  // before the loop are visible to every thread's copies.
  barrier(L);
  if (!p.plan.invariants.empty()) {
    for (const LoopPipeline::Invariant &inv : p.plan.invariants) {
      llvm::Value *base = b.CreateGEP(b.getInt8Ty(), p.ring, L.c32(inv.offset));
      TileVal v = L.get(inv.value);
      if (v.scalar || !(v.layout == L.layoutOf(inv.value)))
        throw InternalError("the pipeline plan staged a value held in another layout than its own", p.plan.loop->loc);
      stageSwizzled(L, inv.value->type, v, base, inv.form);
      L.inShared[inv.value] = {base, inv.form};
    }
    if (readByWgmma(p.plan)) fenceProxyAsync(L);
    barrier(L);
  }
  if (p.plan.copiesTma()) tmaPrologue(L, p, b.CreateICmpSLT(lo, hi));
  // One builder call per statement where a call takes two: the order of a
  // call's arguments is open, and the instructions' order must not be.
  llvm::Value *lo64 = b.CreateSExt(lo, b.getInt64Ty()), *step64 = b.CreateSExt(step, b.getInt64Ty());
  llvm::Value *hi64 = b.CreateSExt(hi, b.getInt64Ty());
  for (int s = 0; s + 1 < p.plan.stages; ++s) {
    llvm::Value *iv64 = b.CreateAdd(lo64, b.CreateMul(step64, b.getInt64(static_cast<uint64_t>(s))));
    llvm::Value *iv = b.CreateTrunc(iv64, lo->getType());
    issueCopies(L, p, L.c32(s), iv, b.CreateICmpSLT(iv64, hi64));
  }
}

void pipelineIteration(LowerContext &L, const PipelineRing &p, llvm::Value *iv, llvm::Value *lo, llvm::Value *hi, llvm::Value *step) {
  llvm::IRBuilder<> &b = L.b;
  int S = p.plan.stages, R = p.plan.buffers;
  if (!S) return;
  // This iteration's number (the bounds may be any integer type).
  llvm::Value *i = b.CreateIntCast(b.CreateUDiv(b.CreateSub(iv, lo), step), L.i32(), false);
  if (p.plan.copiesAsync()) {
    b.CreateIntrinsic(llvm::Intrinsic::nvvm_cp_async_wait_group, {}, {L.c32(S - 2)});
    if (readByWgmma(p.plan)) fenceProxyAsync(L);  // cp.async writes through the generic proxy
  }
  if (p.plan.copiesTma()) tmaWait(L, p, i);
  barrier(L);
  llvm::Value *step64 = b.CreateSExt(step, b.getInt64Ty());
  llvm::Value *iv64 = b.CreateSExt(iv, b.getInt64Ty());
  llvm::Value *ahead = b.CreateAdd(iv64, b.CreateMul(step64, b.getInt64(static_cast<uint64_t>(S - 1))));
  llvm::Value *into = b.CreateURem(b.CreateAdd(i, L.c32(S - 1)), L.c32(R));
  llvm::Value *aheadIv = b.CreateTrunc(ahead, iv->getType());
  llvm::Value *inRange = b.CreateICmpSLT(ahead, b.CreateSExt(hi, b.getInt64Ty()));
  issueCopies(L, p, into, aheadIv, inRange);
  llvm::Value *stage = b.CreateURem(i, L.c32(R));
  for (const LoopPipeline::Load &ld : p.plan.loads)
    L.inShared[ld.staged()] = {b.CreateGEP(b.getInt8Ty(), p.ring, b.CreateAdd(L.c32(ld.offset), b.CreateMul(stage, L.c32(ld.bytes)))),
                                 ld.form};
}

void pipelineEpilogue(LowerContext &L, const PipelineRing &p, std::vector<TileVal> &carried) {
  llvm::IRBuilder<> &b = L.b;
  if (p.plan.asyncDot) {  // its last group, before the result is read or the ring's memory reused
    TileVal &acc = carried[static_cast<size_t>(p.plan.asyncCarried)];
    acc.regs = waitForWgmma(L, acc.regs, 0);
    L.asyncDots.erase(p.plan.asyncDot);
  }
  // The copies issued for iterations past the end still write their stages.
  if (p.plan.copiesAsync()) b.CreateIntrinsic(llvm::Intrinsic::nvvm_cp_async_wait_all, {}, {});
  barrier(L);
  if (p.plan.copiesTma()) tmaEpilogue(L, p);
  for (const LoopPipeline::Load &ld : p.plan.loads) L.inShared.erase(ld.staged());
  for (const LoopPipeline::Invariant &inv : p.plan.invariants) L.inShared.erase(inv.value);
}

} // namespace twintile::backend
