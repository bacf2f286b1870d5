//===- LowerPipeline.cpp - cp.async software pipelining of a dot's loads --===//
//
// In a `for` loop whose body loads the tiles a tensor-core `dot` multiplies,
// those loads become cp.async copies from global memory straight into the
// swizzled shared matrices the dot reads with ldmatrix, into a ring of S =
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
// A load qualifies when
//   - tensor-core dots are its only users (its registers never exist);
//   - its pointer and mask depend only on the induction variable, values from
//     outside the loop, and pure ops of the body over them: those ops are
//     evaluated again for the iteration being fetched;
//   - `other` is absent or zero: a masked-off run is the copy's zero fill;
//   - its layout gives each thread runs of 4, 8 or 16 contiguous, aligned,
//     equally masked bytes along the dim the staged matrix keeps contiguous,
//     and no element to two threads;
//   - the loop writes no global memory (a copy issued ahead must not pass a
//     store), and the load asks for no cache or eviction policy (cp.async has
//     its own);
//   - no integer division or remainder is among the ops its address needs
//     (they are evaluated for iterations that may not run, where a divisor
//     may be zero).
// Iterations past the end copy zeros (src-size 0) into stages nobody reads.
// The ring is reserved for the loop's length; shared memory the body uses
// otherwise comes after it (past 48 KiB, in dynamic shared memory). When
// the ring does not fit in the shared memory a block may use on the target,
// the backend lowers the kernel again with fewer stages.
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <set>

namespace tt::backend {

using namespace tt::ir;

namespace {

bool isZero(const Value *v) {
  const Op *d = v->def;
  if (!d) return false;
  if (d->kind == OpKind::Splat) return isZero(d->operand(0));
  if (d->kind != OpKind::Constant) return false;
  const Attr &a = d->attr("value");
  return a.kind == Attr::Kind::Float ? a.f == 0.0 && !std::signbit(a.f) : a.i == 0;  // the zero fill is +0
}

/// Ops whose lowering recomputes them for another iteration (lowerPure):
/// the recomputable ones but a division, which for an iteration that never
/// runs might divide by zero.
bool evaluable(const Op &op) {
  return op.info().recomputable() && op.kind != OpKind::Div && op.kind != OpKind::Rem;
}

/// Adds to `slice` the body ops `v` needs; false if it needs a carried
/// value or an op that cannot be evaluated again.
bool addressSlice(const Value *v, const Block &body, std::set<const Op *> &slice) {
  if (v->owner == &body) return v->index == 0;  // the induction variable; not a carried value
  const Op *d = v->def;
  if (!d || d->parent != &body) return true;  // from outside the loop
  if (slice.count(d)) return true;
  if (!evaluable(*d)) return false;
  slice.insert(d);
  for (const Value *o : d->operands)
    if (!addressSlice(o, body, slice)) return false;
  return true;
}

} // namespace

std::unique_ptr<Lowerer::Pipeline> Lowerer::planPipeline(const Op &loop) {
  if (numStages < 1) return nullptr;
  const Block &body = loop.region(0);
  bool writes = false;
  walk(body, [&](const Op &o) {
    if (o.info().has(WritesMemory)) writes = true;
  });
  auto p = std::make_unique<Pipeline>();
  p->loop = &loop;
  p->stages = writes || numStages < 2 ? 0 : numStages;
  auto onTensorCores = [&](const Op &dot) {
    std::optional<Layout> mma = mmaLayout(dot, numWarps);
    return mma && *mma == layoutOf(dot.result());
  };

  // Dot operands from before the loop, staged once for all its iterations
  // (attention's q) when every dot in the loop, at any depth, reads them
  // alike; in the order first met, so that the ring's layout is the same
  // from run to run.
  std::vector<std::pair<const Value *, int>> rows;  // value, row dim (-1: read two ways)
  walk(body, [&](const Op &o) {
    if (o.kind != OpKind::Dot) return;
    for (int i = 0; i < 2; ++i) {
      const Value *v = o.operand(static_cast<size_t>(i));
      if (!values_.count(v) || values_.at(v).scalar) continue;  // lowered already: from before the loop
      int r = onTensorCores(o) ? stagedRowDim(i, values_.at(v).layout, v->type.elem) : -1;
      auto it = std::find_if(rows.begin(), rows.end(), [&](const auto &e) { return e.first == v; });
      if (it == rows.end()) rows.emplace_back(v, r);
      else if (it->second != r) it->second = -1;
    }
  });
  for (auto &[v, r] : rows) {
    if (r < 0) continue;
    int64_t bytes = (v->type.numElements() * byteSize(v->type.elem) + 127) / 128 * 128;
    p->invariants.push_back({v, r, p->ringBytes});
    p->ringBytes += bytes;
  }

  std::set<const Op *> slice;
  for (const auto &o : body.ops) {
    if (!p->stages) break;
    if (o->kind != OpKind::Load || !o->result()->type.isTile()) continue;
    const Value *r = o->result();
    const Type &pt = o->operand(0)->type;
    const Value *maskV = o->operands.size() > 1 ? o->operand(1) : nullptr;
    const Value *otherV = o->operands.size() > 2 ? o->operand(2) : nullptr;
    if (pt.rank() != 2 || (otherV && !isZero(otherV)) || o->attrs.count("cache") || o->attrs.count("evict")) continue;
    Layout l = layoutOf(r);
    if (hasReplication(l, pt.shape)) continue;
    int f = l.tileOrder()[0];
    int eb = static_cast<int>(byteSize(r->type.elem));
    // The copy width: what the load itself would vectorize.
    std::vector<DimPlan> plan = planDims(l, pt.shape);
    int w = vectorWidth(pt, axes.at(o->operand(0)), maskV ? &axes.at(maskV) : nullptr, f);
    w = std::gcd(w, plan[static_cast<size_t>(f)].spt);
    while (w > 1 && pt.shape[static_cast<size_t>(f)] % w != 0) w /= 2;
    if (w * eb != 4 && w * eb != 8 && w * eb != 16) continue;
    // Every user a tensor-core dot that can read the tile as staged: rows
    // along dim 1 - f, so that runs along f stay contiguous.
    bool ok = true;
    size_t uses = 0;
    walk(body, [&](const Op &u) {
      for (size_t i = 0; i < u.operands.size(); ++i) {
        if (u.operand(i) != r) continue;
        ++uses;
        if (u.kind != OpKind::Dot || i >= 2 || !onTensorCores(u)) ok = false;
        else if (i == 0 && f != 1) ok = false;            // a: k contiguous (m-major rows)
        else if (i == 1 && f == 1 && eb != 2) ok = false;  // b k-major: ldmatrix.trans moves 16-bit units
      }
    });
    if (!ok || uses == 0) continue;
    std::set<const Op *> mine = slice;
    if (!addressSlice(o->operand(0), body, mine) || (maskV && !addressSlice(maskV, body, mine))) continue;
    slice = std::move(mine);
    int64_t bytes = (pt.numElements() * eb + 127) / 128 * 128;
    p->loads.push_back({o.get(), l, 1 - f, w, bytes, p->ringBytes});
    p->ringBytes += bytes * p->stages;
  }
  if (p->loads.empty()) p->stages = 0;
  if (p->loads.empty() && p->invariants.empty()) return nullptr;
  for (const auto &o : body.ops)
    if (slice.count(o.get())) p->slice.push_back(o.get());
  return p;
}

void Lowerer::issueCopies(Pipeline &p, llvm::Value *stage, llvm::Value *iv, llvm::Value *inRange) {
  const Block &body = p.loop->region(0);
  // The address ops again, for iteration `iv`; the body's own values (not
  // lowered yet, or of this iteration) are restored afterwards.
  std::vector<std::pair<const Value *, std::optional<TileVal>>> saved;
  auto bind = [&](const Value *v, TileVal t) {
    auto it = values_.find(v);
    saved.emplace_back(v, it == values_.end() ? std::nullopt : std::optional<TileVal>(it->second));
    set(v, std::move(t));
  };
  remat_.emplace_back();
  bind(body.arg(0), {true, {}, {iv}});
  for (const Op *op : p.slice) {
    current_ = op;
    const Value *r = op->result();
    const Layout *l = r->type.isTile() ? &layoutOf(r) : nullptr;
    bool hint = op->kind == OpKind::MultipleOf || op->kind == OpKind::MaxContiguous;
    bind(r, hint ? get(op->operand(0), l) : lowerPure(*op, l));
  }
  for (const Pipeline::Load &ld : p.loads) {
    const Op &op = *ld.op;
    current_ = &op;
    const Type &t = op.result()->type;
    int eb = static_cast<int>(byteSize(t.elem)), rowDim = ld.rowDim, colDim = 1 - rowDim;
    TileVal ptrs = get(op.operand(0), &ld.layout);
    TileVal mask = op.operands.size() > 1 ? get(op.operand(1), &ld.layout) : TileVal{};
    llvm::Value *base = b.CreateGEP(b.getInt8Ty(), p.ring,
                                    b.CreateAdd(c32(ld.offset), b.CreateMul(stage, c32(ld.bytes))));
    const std::vector<RegCoord> &cs = coords(ld.layout, t.shape);
    int copyBytes = ld.width * eb;
    using namespace llvm::Intrinsic;
    ID id = copyBytes == 16 ? nvvm_cp_async_cg_shared_global_16_s
            : copyBytes == 8 ? nvvm_cp_async_ca_shared_global_8_s
                             : nvvm_cp_async_ca_shared_global_4_s;
    for (size_t r = 0; r < ptrs.regs.size(); ++r) {
      std::vector<int64_t> rd = regDims(ld.layout, t.shape, static_cast<int64_t>(r));
      if (rd[static_cast<size_t>(colDim)] % ld.width != 0) continue;
      llvm::Value *dst = stagedAddress(base, t, rowDim, cs[r].idx[static_cast<size_t>(rowDim)],
                                       cs[r].idx[static_cast<size_t>(colDim)]);
      llvm::Value *copy = andMaybe(mask.regs.empty() ? nullptr : mask.regs[r], inRange);
      llvm::Value *size = b.CreateSelect(copy, c32(copyBytes), c32(0));
      b.CreateIntrinsic(id, {}, {dst, ptrs.regs[r], size});
    }
  }
  for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
    if (it->second) values_[it->first] = *it->second;
    else values_.erase(it->first);
  }
  remat_.pop_back();
  b.CreateIntrinsic(llvm::Intrinsic::nvvm_cp_async_commit_group, {}, {});
}

void Lowerer::pipelinePrologue(Pipeline &p, llvm::Value *lo, llvm::Value *hi, llvm::Value *step) {
  p.ring = reserveShared(p.ringBytes, *p.loop);
  pipelined_ = pipelined_ || p.stages > 0;
  // Earlier users of this shared memory are done with it, and global writes
  // before the loop are visible to every thread's copies.
  barrier();
  if (!p.invariants.empty()) {
    for (const Pipeline::Invariant &inv : p.invariants) {
      llvm::Value *base = b.CreateGEP(b.getInt8Ty(), p.ring, c32(inv.offset));
      stageSwizzled(inv.value->type, get(inv.value), base, inv.rowDim);
      inShared[inv.value] = {base, inv.rowDim};
    }
    barrier();
  }
  llvm::Value *lo64 = b.CreateSExt(lo, b.getInt64Ty()), *step64 = b.CreateSExt(step, b.getInt64Ty());
  llvm::Value *hi64 = b.CreateSExt(hi, b.getInt64Ty());
  for (int s = 0; s + 1 < p.stages; ++s) {
    llvm::Value *iv64 = b.CreateAdd(lo64, b.CreateMul(step64, b.getInt64(static_cast<uint64_t>(s))));
    issueCopies(p, c32(s), b.CreateTrunc(iv64, lo->getType()), b.CreateICmpSLT(iv64, hi64));
  }
}

void Lowerer::pipelineIteration(Pipeline &p, llvm::Value *iv, llvm::Value *lo, llvm::Value *hi, llvm::Value *step) {
  int S = p.stages;
  if (!S) return;
  // This iteration's number (the bounds may be any integer type).
  llvm::Value *i = b.CreateIntCast(b.CreateUDiv(b.CreateSub(iv, lo), step), i32(), false);
  b.CreateIntrinsic(llvm::Intrinsic::nvvm_cp_async_wait_group, {}, {c32(S - 2)});
  barrier();
  llvm::Value *step64 = b.CreateSExt(step, b.getInt64Ty());
  llvm::Value *ahead = b.CreateAdd(b.CreateSExt(iv, b.getInt64Ty()), b.CreateMul(step64, b.getInt64(static_cast<uint64_t>(S - 1))));
  issueCopies(p, b.CreateURem(b.CreateAdd(i, c32(S - 1)), c32(S)), b.CreateTrunc(ahead, iv->getType()),
              b.CreateICmpSLT(ahead, b.CreateSExt(hi, b.getInt64Ty())));
  llvm::Value *stage = b.CreateURem(i, c32(S));
  for (const Pipeline::Load &ld : p.loads)
    inShared[ld.op->result()] = {b.CreateGEP(b.getInt8Ty(), p.ring, b.CreateAdd(c32(ld.offset), b.CreateMul(stage, c32(ld.bytes)))),
                                 ld.rowDim};
}

void Lowerer::pipelineEpilogue(Pipeline &p) {
  // The copies issued for iterations past the end still write their stages.
  if (p.stages) b.CreateIntrinsic(llvm::Intrinsic::nvvm_cp_async_wait_all, {}, {});
  barrier();
  releaseShared(p.ringBytes);
  for (const Pipeline::Load &ld : p.loads) inShared.erase(ld.op->result());
  for (const Pipeline::Invariant &inv : p.invariants) inShared.erase(inv.value);
}

} // namespace tt::backend
