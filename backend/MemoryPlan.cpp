//===- MemoryPlan.cpp - shared memory and barriers, in lowering's order ---===//
//
// The planner walks the function in the order lowering does and asks, op by
// op, what lowering will ask of shared memory (the rings of pipelined loops,
// and each op's windows: SharedPlan.h) and where it must synchronize
// (BarrierPlan.h): the barriers depend on the buffers, since every window's
// writes and reads are separated by a barrier, which also orders the global
// accesses before it. Most windows follow from the op and its layouts
// alone; a layout conversion depends also on what lowering did before it,
// which the planner follows the same way: a use that wants a tile in a
// layout other than its own gets it recomputed (cheap index arithmetic,
// Layout.h's recomputable) or converted through shared memory, once per
// region for each (value, layout) (LowerConvert.cpp).
//===----------------------------------------------------------------------===//
#include "backend/MemoryPlan.h"

#include "backend/Target.h"
#include "ir/Printer.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <unordered_set>
#include <utility>

namespace twintile::backend {

using namespace twintile::ir;

namespace {

/// Bytes a value of several element kinds takes as the struct lowering packs
/// them into (LowerReduce.cpp's combinedOperands: f16 and bf16 as an i32's low bits),
/// laid out as NVPTX lays out structs: each field at its natural alignment,
/// the size a multiple of the largest. One kind alone: itself, unpacked.
int64_t combinedBytes(const Op &op) {
  if (op.operands.size() == 1) return byteSize(op.operand(0)->type.elem);
  int64_t offset = 0, align = 1;
  for (const Value *v : op.operands) {
    ScalarKind k = v->type.elem;
    int64_t size = k == ScalarKind::F16 || k == ScalarKind::BF16 ? 4 : byteSize(k);
    offset = (offset + size - 1) / size * size + size;
    align = std::max(align, size);
  }
  return (offset + align - 1) / align * align;
}

class Planner {
public:
  Planner(const Func &func, const AxisInfoMap &axes, const LayoutMap &layouts, const PipelinePlan &pipelines,
          const TmaStorePlan &stores, int numWarps, const std::string &arch)
      : func_(func), axes_(axes), layouts_(layouts), pipelines_(pipelines), stores_(stores), numWarps_(numWarps), arch_(arch),
        limit_(maxSharedBytes(arch)) {}

  MemoryPlan run() {
    block(func_.body);
    plan_.bytes = high_;
    return {std::move(plan_), std::move(barriers_)};
  }

private:
  const Func &func_;
  const AxisInfoMap &axes_;
  const LayoutMap &layouts_;
  const PipelinePlan &pipelines_;
  const TmaStorePlan &stores_;
  int numWarps_;
  std::string arch_;
  int64_t limit_;
  SharedPlan plan_;
  int64_t reserved_ = 0;  // the rings live here
  std::vector<int64_t> ringsBelow;  // reserved_ before each ring now live, outermost first
  int64_t high_ = 0;      // the most any point used so far, a multiple of 16
  /// The conversions lowering has made, per region nesting (inner last),
  /// as (value, layout): a use in the same region or one inside it reuses them.
  std::vector<std::set<std::pair<const Value *, std::string>>> converted_;
  /// Tiles of the loops being lowered that dots find in shared memory: the
  /// loads copied ahead (never lowered themselves) and the staged invariants.
  std::unordered_set<const Value *> inShared_;
  BarrierPlan barriers_;
  /// Global accesses since the last barrier, and the loops around the op.
  std::vector<MemoryAccess> pending_;
  int depth_ = 0;

  /// A barrier lowering emits as part of `at`'s own work.
  void inherent(const Op &at, std::string why) {
    barriers_.barriers.push_back({BarrierPlan::Barrier::Kind::Inherent, &at, std::move(why)});
    pending_.clear();
  }
  /// `o`'s global access: after a barrier if a pending access may conflict.
  void access(const Op &o) {
    MemoryAccess me = accessOf(o, layouts_, axes_);
    for (const MemoryAccess &a : pending_)
      if (mayConflict(a, me, func_)) {
        barriers_.beforeAccess.insert(&o);
        barriers_.barriers.push_back({BarrierPlan::Barrier::Kind::BeforeAccess, &o,
                                      "after '" + std::string(a.op->name()) + "' at " + locationBody(a.op->loc) +
                                          (a.earlierIterationOf ? " in an earlier iteration" : "") +
                                          ": the two may touch one element from two threads, " +
                                          (a.write && me.write ? "both writing" : a.write ? "that one writing" : "this one writing")});
        pending_.clear();
        break;
      }
    pending_.push_back(me);
  }
  /// The memory ops of `region` of `loop` at any depth, as pending accesses
  /// (an earlier iteration's, at the start of the next).
  void appendAccesses(const Block &region, const Op &loop) {
    walk(region, [&](const Op &o) {
      if (familyOf(o.kind) != OpFamily::Memory) return;
      MemoryAccess a = accessOf(o, layouts_, axes_);
      a.earlierIterationOf = &loop;
      pending_.push_back(a);
    });
  }

  const Layout &layoutOf(const Value *v) const { return layouts_.at(v); }
  const Layout *tileLayout(const Value *v) const { return v->type.isTile() ? &layoutOf(v) : nullptr; }

  void take(SharedBuffer::Kind kind, const Op &at, int64_t bytes, std::string what, int64_t alignment = 16) {
    int64_t offset = (reserved_ + alignment - 1) / alignment * alignment;
    plan_.alignment = std::max(plan_.alignment, alignment);
    int64_t end = offset + bytes;
    if (end > limit_ && !plan_.overflow) {
      plan_.overflowAt = plan_.buffers.size();
      plan_.overflow = Diagnostic{
          at.loc, "'" + std::string(at.name()) + "' needs " + std::to_string(end) + " bytes of shared memory" +
                      (reserved_ ? " (" + std::to_string(reserved_) + " of them a pipeline's ring)" : "") +
                      ", more than the " + std::to_string(limit_) + " a block may use on " + arch_ +
                      "; use smaller tiles" + (reserved_ ? " or fewer stages" : "")};
    }
    high_ = std::max(high_, (end + 15) / 16 * 16);
    plan_.buffers.push_back({kind, &at, offset, bytes, std::move(what)});
    // Before a window's first write, earlier readers of the array must be
    // done: there are none before the kernel's first buffer outside any loop.
    bool before = kind == SharedBuffer::Kind::Window && (plan_.buffers.size() > 1 || depth_ > 0);
    barriers_.beforeWindow.push_back(before);
    if (before) {
      barriers_.barriers.push_back({BarrierPlan::Barrier::Kind::BeforeWindow, &at,
                                    depth_ > 0 ? "before its window's first write: in a loop, an earlier iteration may still read it"
                                               : "before its window's first write: an earlier buffer's readers may still read it"});
      pending_.clear();
    }
    if (kind == SharedBuffer::Kind::Window) inherent(at, "its window written, before it is read");
  }

  /// The lowering's throughShared (LowerConvert.cpp): a tile of `type` written by the threads that
  /// hold it and read back by others, in as many windows (chunks) as the
  /// room after the rings needs. Rows a multiple of 128 bytes long get 16
  /// bytes of padding, unless read back in another shape (a reshape).
  void throughShared(const Type &type, const Op &at, bool reshaped, const std::string &what) {
    int64_t elemBytes = byteSize(type.elem);  // in memory: i1 as a byte, a pointer as an i64
    Shape stored = type.shape;
    if (!reshaped && type.rank() >= 2 && stored.back() * elemBytes % 128 == 0) stored.back() += 16 / elemBytes;
    int64_t n = numElements(stored);
    // The room: what a kernel may declare statically; or, once a ring has
    // made the array dynamic (or holds all of the static part), the static
    // amount beyond the rings, within what a block may use.
    int64_t cap = kMaxStaticShared;
    if (reserved_ >= kMaxStaticShared || high_ > kMaxStaticShared)
      cap = std::min(limit_, std::max(high_, reserved_ + kMaxStaticShared));
    int64_t room = (cap - reserved_) / 16 * 16 / elemBytes;
    int64_t chunk = std::max<int64_t>(1, std::min(n, room));
    for (int64_t lo = 0; lo < n; lo += chunk)
      take(SharedBuffer::Kind::Window, at, std::min(n, chunk) * elemBytes,
           what + (chunk < n ? " (chunk " + std::to_string(lo / chunk + 1) + " of " + std::to_string((n + chunk - 1) / chunk) + ")" : ""));
  }

  /// LowerContext::get(v, want) while lowering `at`.
  void want(const Value *v, const Layout *l, const Op &at) {
    if (!l || !v->type.isTile() || layoutOf(v) == *l) return;
    std::pair<const Value *, std::string> key{v, toString(*l)};
    for (const auto &level : converted_)
      if (level.count(key)) return;
    if (!recomputable(v)) {
      std::string of = v->def ? " of '" + std::string(v->def->name()) + "' at " + locationBody(v->def->loc) : " carried by a loop";
      throughShared(v->type, at, false, ir::toString(v->type) + of + ": " + toString(layoutOf(v)) + " -> " + key.second);
    }
    converted_.back().insert(std::move(key));
  }

  void block(const Block &b) {
    converted_.emplace_back();
    for (const auto &o : b.ops) op(*o);
    converted_.pop_back();
  }

  /// What a region yields, in the layouts of `like`, as the terminator's own uses.
  void yields(const Block &region, const std::vector<const Value *> &like) {
    converted_.emplace_back();
    const Op *y = region.terminator();
    for (size_t i = 0; i < like.size(); ++i) want(y->operand(i), tileLayout(like[i]), *y);
    converted_.pop_back();
  }

  void op(const Op &o);
  void pure(const Op &o, const Layout *l);
  void forLoop(const Op &o);
  void whileLoop(const Op &o);
  void copies(const LoopPipeline &p);
  void memory(const Op &o);
  void reduce(const Op &o);
  void scan(const Op &o);
  void dot(const Op &o);
};

void Planner::op(const Op &o) {
  switch (o.kind) {
  case OpKind::For: return forLoop(o);
  case OpKind::If: {
    std::vector<const Value *> like;
    for (const auto &r : o.results) like.push_back(r.get());
    std::vector<MemoryAccess> before = pending_, after;
    for (int arm = 0; arm < 2; ++arm) {
      pending_ = before;
      block(o.region(arm));
      yields(o.region(arm), like);
      after.insert(after.end(), pending_.begin(), pending_.end());
    }
    pending_ = std::move(after);
    return;
  }
  case OpKind::While: return whileLoop(o);
  case OpKind::Yield: case OpKind::Return: case OpKind::ProgramId: case OpKind::NumPrograms: return;
  case OpKind::Load:
    if (inShared_.count(o.result())) return;  // copied ahead by its loop's pipeline
    return memory(o);
  case OpKind::Store: case OpKind::AtomicAdd: case OpKind::AtomicMax: case OpKind::AtomicMin:
  case OpKind::AtomicAnd: case OpKind::AtomicOr: case OpKind::AtomicXor: case OpKind::AtomicXchg:
  case OpKind::AtomicCas: return memory(o);
  case OpKind::Sum: case OpKind::Max: case OpKind::Min: case OpKind::Argmax: case OpKind::Argmin:
  case OpKind::Reduce: return reduce(o);
  case OpKind::Cumsum: case OpKind::Scan: return scan(o);
  case OpKind::Reshape: {
    const Value *in = o.operand(0);
    if (in->type.isTile() && o.result()->type.isTile())  // a scalar in is a splat; a tile out to a scalar, refused
      throughShared(in->type, o, true, "reshape to " + ir::toString(o.result()->type));
    return;
  }
  case OpKind::Dot: return dot(o);
  case OpKind::Print: {
    // Every tile of the first tile operand's shape, in its layout.
    const Value *first = nullptr;
    for (const Value *v : o.operands)
      if (!first && v->type.isTile()) first = v;
    for (const Value *v : o.operands)
      want(v, first && v->type.isTile() && v->type.shape == first->type.shape ? &layoutOf(first) : nullptr, o);
    return;
  }
  case OpKind::Assert: return;
  case OpKind::DescriptorLoad: return;  // copied by TMA into its loop's ring, or expanded before (Backend.cpp)
  case OpKind::DescriptorStore:  // written by TMA (else expanded before): lowerTmaStore
    if (const TmaStore *s = stores_.find(o)) {
      take(SharedBuffer::Kind::Window, o, s->windowBytes(), "the tile staged for its TMA store, and its map",
           TmaStore::kAlignment);
      inherent(o, "the bulk copies done (the window read, the tensor written), before what follows");
    }
    return;
  case OpKind::Barrier: return inherent(o, "the kernel's own debug_barrier");
  case OpKind::Trans:
    if (inShared_.count(o.result())) return;  // a TMA load's transpose, staged as such by its loop's pipeline
    return pure(o, tileLayout(o.result()));
  case OpKind::Constant: case OpKind::Arange: case OpKind::Splat: case OpKind::Broadcast: case OpKind::ExpandDims:
  case OpKind::MultipleOf: case OpKind::MaxContiguous:
  TT_ARITH_CASES:
  case OpKind::Select: case OpKind::Cast: case OpKind::Bitcast: case OpKind::AddPtr:
    return pure(o, tileLayout(o.result()));
  }
}

/// lowerPure: each operand in the layout the op's lowering asks.
void Planner::pure(const Op &o, const Layout *l) {
  switch (o.kind) {
  case OpKind::Constant: case OpKind::Arange: case OpKind::Splat: return;
  case OpKind::ExpandDims:
    if (o.operand(0)->type.isTile()) {
      Layout inner = l->sliced(static_cast<int>(o.intAttr("axis")));
      want(o.operand(0), &inner, o);
    }
    return;
  case OpKind::Trans: {
    const std::vector<int64_t> &perm = o.attr("perm").ints;
    std::vector<int64_t> inverse(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) inverse[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
    Layout inner = l->permuted(inverse);
    want(o.operand(0), &inner, o);
    return;
  }
  default:  // elementwise, broadcast and the hints: every operand in the result's layout
    for (const Value *v : o.operands) want(v, l, o);
    return;
  }
}

void Planner::forLoop(const Op &o) {
  const Block &body = o.region(0);
  std::vector<const Value *> like;
  for (size_t i = 3; i < o.operands.size(); ++i) {
    like.push_back(body.arg(i - 2));
    want(o.operand(i), tileLayout(like.back()), o);
  }
  const LoopPipeline *p = pipelines_.find(o);
  if (p) {  // pipelinePrologue
    std::string what;
    if (p->stages)
      what += std::to_string(p->loads.size()) + (p->loads.size() == 1 ? " load x " : " loads x ") + std::to_string(p->stages) +
              " stages" + (p->buffers != p->stages ? " (" + std::to_string(p->buffers) + " buffers: the wgmma stays in flight)" : "");
    if (!p->invariants.empty())
      what += std::string(p->stages ? " and " : "") + std::to_string(p->invariants.size()) + " loop-invariant dot operand" +
              (p->invariants.size() == 1 ? "" : "s");
    ringsBelow.push_back(reserved_);
    take(SharedBuffer::Kind::Ring, o, p->ringBytes, what, p->alignment);
    reserved_ = plan_.buffers.back().offset + p->ringBytes;
    inherent(o, "before the loop: earlier readers of the ring's memory done, earlier global writes visible to the copies");
    if (!p->invariants.empty()) inherent(o, "the loop-invariant operands staged, before the loop reads them");
    for (const LoopPipeline::Invariant &inv : p->invariants) inShared_.insert(inv.value);
    for (int s = 0; s + 1 < p->stages; ++s) copies(*p);
  }
  appendAccesses(body, o);  // an earlier iteration's, pending when one starts
  std::vector<MemoryAccess> entering = pending_;
  ++depth_;
  if (p && p->stages) {  // pipelineIteration
    inherent(o, "each iteration: every thread's copies for it landed, and the stage about to be refilled read");
    copies(*p);  // for a later iteration
    for (const LoopPipeline::Load &ld : p->loads) inShared_.insert(ld.staged());
  }
  block(body);
  yields(body, like);
  --depth_;
  pending_.insert(pending_.end(), entering.begin(), entering.end());
  if (p) {  // pipelineEpilogue
    inherent(o, "after the loop: the copies issued for iterations past the end landed");
    reserved_ = ringsBelow.back();
    ringsBelow.pop_back();
    for (const LoopPipeline::Load &ld : p->loads) inShared_.erase(ld.staged());
    for (const LoopPipeline::Invariant &inv : p->invariants) inShared_.erase(inv.value);
  }
}

void Planner::whileLoop(const Op &o) {
  const Block &cond = o.region(0), &body = o.region(1);
  std::vector<const Value *> like;
  for (size_t i = 0; i < o.operands.size(); ++i) {
    like.push_back(body.arg(i));
    want(o.operand(i), tileLayout(like.back()), o);
  }
  appendAccesses(cond, o);
  appendAccesses(body, o);
  std::vector<MemoryAccess> entering = pending_;
  ++depth_;
  block(cond);
  block(body);
  yields(body, like);
  --depth_;
  pending_ = std::move(entering);  // the exit leaves from the condition, after any iteration
}

/// issueCopies: the address ops again, then each load's pointers
/// and mask in its layout.
void Planner::copies(const LoopPipeline &p) {
  converted_.emplace_back();
  for (const Op *s : p.slice) pure(*s, tileLayout(s->result()));
  for (const LoopPipeline::Load &ld : p.loads) {
    if (ld.tma()) continue;  // its operands are scalars
    want(ld.op->operand(0), &ld.layout, *ld.op);
    if (ld.op->operands.size() > 1) want(ld.op->operand(1), &ld.layout, *ld.op);
  }
  converted_.pop_back();
}

void Planner::memory(const Op &o) {
  const Value *ptr = o.operand(0);
  bool isLoad = o.kind == OpKind::Load, atomic = isAtomic(o.kind);
  if (ptr->type.isScalar()) {
    access(o);
    if (atomic || (isLoad && o.hasEffects())) take(SharedBuffer::Kind::Window, o, 8, "thread 0's result, shared");
    return;
  }
  const Layout &l = layoutOf(isLoad || atomic ? static_cast<const Value *>(o.result()) : ptr);
  size_t maskIdx = static_cast<size_t>(maskOperand(o.kind));
  want(ptr, &l, o);
  if (o.operands.size() > maskIdx) want(o.operand(maskIdx), &l, o);
  if (isLoad && o.operands.size() > 2) want(o.operand(2), &l, o);
  if (!isLoad) want(o.operand(static_cast<size_t>(valueOperand(o.kind))), &l, o);
  if (o.kind == OpKind::AtomicCas) want(o.operand(1), &l, o);
  access(o);
  if (atomic && hasReplication(l, ptr->type.shape))
    throughShared(o.result()->type, o, false, "the old values, from their owners to every copy");
}

void Planner::reduce(const Op &o) {
  const Value *in = o.operand(0);
  const Layout &l = layoutOf(in);
  bool user = o.kind == OpKind::Reduce;
  if (user)
    for (const Value *v : o.operands) want(v, &l, o);
  int axis = static_cast<int>(o.intAttr("axis"));
  int warps = l.warpsPerCTA[static_cast<size_t>(l.dims[static_cast<size_t>(axis)])];
  if (warps <= 1) return;
  Shape outShape = in->type.shape;
  outShape.erase(outShape.begin() + axis);
  int64_t slots = std::max<int64_t>(1, numElements(outShape));
  int64_t valueBytes = user ? combinedBytes(o) : byteSize(computeKind(in->type.elem));
  bool second = user || o.kind == OpKind::Argmax || o.kind == OpKind::Argmin;  // an index, or whether it holds any
  int64_t indexOffset = (warps * slots * valueBytes + 3) / 4 * 4;
  take(SharedBuffer::Kind::Window, o, indexOffset + (second ? warps * slots * 4 : 0),
       "partials of " + std::to_string(warps) + " warps");
}

void Planner::scan(const Op &o) {
  const Value *in = o.operand(0);
  const Layout &l = layoutOf(o.result());
  bool user = o.kind == OpKind::Scan;
  if (user)
    for (const Value *v : o.operands) want(v, &l, o);
  else
    want(in, &l, o);
  size_t axis = static_cast<size_t>(o.intAttr("axis"));
  int64_t valueBytes = user ? combinedBytes(o) : byteSize(computeKind(in->type.elem));
  DimPlan d = planDims(l, in->type.shape)[axis];
  if (!d.inOrder()) {
    take(SharedBuffer::Kind::Window, o, 2 * numElements(in->type.shape) * valueBytes, "two buffers, ping-ponged");
    for (int64_t step = 1; step < in->type.shape[axis]; step *= 2)  // scanThroughShared
      inherent(o, "a step of the scan written to one buffer, before the next step reads it");
    return;
  }
  if (d.wpc <= 1) return;
  Shape lineShape = in->type.shape;
  lineShape.erase(lineShape.begin() + static_cast<std::ptrdiff_t>(axis));
  int64_t slots = std::max<int64_t>(1, numElements(lineShape)) * (d.regs / d.spt);
  take(SharedBuffer::Kind::Window, o, d.wpc * slots * valueBytes, "run totals of " + std::to_string(d.wpc) + " warps");
}

void Planner::dot(const Op &o) {
  const Type &at = o.operand(0)->type, &bt = o.operand(1)->type, &ct = o.result()->type;
  int64_t eb = byteSize(at.elem);
  DotEngine engine = dotEngine(o, layouts_, numWarps_, arch_);
  if (engine != DotEngine::Fma) {
    want(o.operand(2), &layoutOf(o.result()), o);
    int64_t M = ct.shape[0], N = ct.shape[1], K = at.shape[1];
    bool pa = inShared_.count(o.operand(0)), pb = inShared_.count(o.operand(1));
    // a's size is a multiple of 1024 bytes on wgmma (64-row instructions, k by 16): b after it stays aligned.
    int64_t bytes = (pa ? 0 : M * K * eb) + (pb ? 0 : K * N * eb);
    bool wgmma = engine == DotEngine::Wgmma;
    if (bytes)
      take(SharedBuffer::Kind::Window, o, bytes,
           std::string(pa ? "" : "a") + (pa || pb ? "" : " and ") + (pb ? "" : "b") +
               (wgmma ? " staged for wgmma" : " staged for ldmatrix"),
           wgmma ? stagedForm(o, 0, layouts_, numWarps_, arch_).alignment() : 16);
    return;
  }
  want(o.operand(2), &layoutOf(o.result()), o);
  int64_t M = at.shape[0], K = at.shape[1], N = bt.shape[1];
  take(SharedBuffer::Kind::Window, o, (M * K + K * N) * eb, "a and b for the FMA units");
}

} // namespace

MemoryPlan planMemory(const Func &func, const AxisInfoMap &axes, const LayoutMap &layouts, const PipelinePlan &pipelines,
                      const TmaStorePlan &stores, int numWarps, const std::string &arch) {
  return Planner(func, axes, layouts, pipelines, stores, numWarps, arch).run();
}

} // namespace twintile::backend
