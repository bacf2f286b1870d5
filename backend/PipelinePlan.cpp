//===- PipelinePlan.cpp - the software-pipelining analysis ---------------===//
#include "backend/PipelinePlan.h"

#include "ir/Descriptor.h"
#include "ir/Printer.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <set>
#include <unordered_set>

namespace twintile::backend {

using namespace twintile::ir;

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

/// True if `v` is defined inside `op`'s regions, at any depth.
bool definedWithin(const Value *v, const Op &op) {
  for (const Block *b = v->def ? v->def->parent : v->owner; b && b->parentOp; b = b->parentOp->parent)
    if (b->parentOp == &op) return true;
  return false;
}

int64_t roundUp(int64_t bytes, int64_t to) { return (bytes + to - 1) / to * to; }
/// A buffer of the ring for an operand in `form`: 128-byte multiples, or the form's.
int64_t bufferBytes(const Type &t, const StagedForm &form) {
  return roundUp(t.numElements() * byteSize(t.elem), std::max<int64_t>(128, form.alignment()));
}

class Planner {
public:
  Planner(const AxisInfoMap &axes, const LayoutMap &layouts, int numWarps, int stages, const std::string &arch)
      : axes_(axes), layouts_(layouts), numWarps_(numWarps), stages_(stages), arch_(arch) {}

  LoopPipeline plan(const Op &loop);

private:
  const AxisInfoMap &axes_;
  const LayoutMap &layouts_;
  int numWarps_, stages_;
  const std::string &arch_;
  /// Loads earlier plans copy ahead: they have no registers, so a loop
  /// inside theirs cannot stage them as invariants.
  std::unordered_set<const Value *> copied_;

  const Layout &layoutOf(const Value *v) const { return layouts_.at(v); }
  bool onTensorCores(const Op &dot) const { return backend::onTensorCores(dot, layouts_, numWarps_); }
  void planInvariants(const Op &loop, LoopPipeline &p) const;
  /// The loop's wgmma dot that may stay in flight across iterations, if any.
  void planAsyncDot(const Op &loop, LoopPipeline &p) const;
  /// Why `load` cannot be copied ahead, or "" (then `width`, the form its
  /// dots read and the slice are set).
  std::string qualify(const Op &load, const Block &body, int &width, StagedForm &form, std::set<const Op *> &slice) const;
  /// The same for a descriptor_load copied by TMA (then `form` and the slice are set).
  std::string qualifyTma(const Op &load, const Op &loop, StagedForm &form, const Value *&transposed,
                         std::set<const Op *> &slice, std::set<const Op *> &mapSlice) const;
  /// Why the tile `r` cannot be staged for its users, or "": they are all
  /// tensor-core dots reading it as a or b, in one form (`form`, and which
  /// operand each is in `asOperand`).
  std::string readByDots(const Value *r, const Block &body, StagedForm &form, std::vector<size_t> &asOperand) const;
};

void Planner::planInvariants(const Op &loop, LoopPipeline &p) const {
  // In the order first met, so that the ring's layout is the same from run to run.
  std::vector<std::pair<const Value *, std::optional<StagedForm>>> forms;  // none: read two ways
  walk(loop.region(0), [&](const Op &o) {
    if (o.kind != OpKind::Dot) return;
    for (int i = 0; i < 2; ++i) {
      const Value *v = o.operand(static_cast<size_t>(i));
      if (!v->type.isTile() || definedWithin(v, loop) || copied_.count(v)) continue;
      std::optional<StagedForm> f;
      if (onTensorCores(o)) f = stagedForm(o, i, layouts_, numWarps_, arch_);
      auto it = std::find_if(forms.begin(), forms.end(), [&](const auto &e) { return e.first == v; });
      if (it == forms.end()) forms.emplace_back(v, f);
      else if (it->second != f) it->second.reset();
    }
  });
  for (auto &[v, f] : forms) {
    if (!f) continue;
    p.alignment = std::max(p.alignment, f->alignment());
    p.ringBytes = roundUp(p.ringBytes, f->alignment());
    p.invariants.push_back({v, *f, p.ringBytes});
    p.ringBytes += bufferBytes(v->type, *f);
  }
}

void Planner::planAsyncDot(const Op &loop, LoopPipeline &p) const {
  // One dot in the whole body, on wgmma, both operands in shared memory no
  // later iteration overwrites (copied loads, this loop's or an enclosing
  // one's, or this loop's invariants: an operand staged by the dot itself is
  // written into the same window every iteration, under the MMAs in flight);
  // its accumulator a carried value that nothing else reads, its result
  // yielded back into that position and used by nothing else, in one layout
  // throughout (no conversion reads the registers in flight).
  const Block &body = loop.region(0);
  std::vector<const Op *> dots;
  walk(body, [&](const Op &o) {
    if (o.kind == OpKind::Dot) dots.push_back(&o);
  });
  if (dots.size() != 1) return;
  const Op &dot = *dots[0];
  if (dot.parent != &body || dotEngine(dot, layouts_, numWarps_, arch_) != DotEngine::Wgmma) return;
  auto buffered = [&](const Value *v) {
    return copied_.count(v) || std::any_of(p.invariants.begin(), p.invariants.end(),
                                           [&](const LoopPipeline::Invariant &inv) { return inv.value == v; });
  };
  if (!buffered(dot.operand(0)) || !buffered(dot.operand(1))) return;
  int arg = -1;
  for (size_t i = 1; i < body.args.size(); ++i)
    if (body.arg(i) == dot.operand(2)) arg = static_cast<int>(i);
  if (arg < 0) return;
  size_t uses = 0, resultUses = 0;
  bool yieldedBack = false;
  walk(body, [&](const Op &o) {
    for (size_t i = 0; i < o.operands.size(); ++i) {
      if (o.operand(i) == body.arg(static_cast<size_t>(arg))) ++uses;
      if (o.operand(i) == dot.result()) {
        ++resultUses;
        yieldedBack |= o.kind == OpKind::Yield && &o == body.ops.back().get() && i + 1 == static_cast<size_t>(arg);
      }
    }
  });
  const Layout &l = layoutOf(dot.result());
  if (uses != 1 || resultUses != 1 || !yieldedBack || !(layoutOf(body.arg(static_cast<size_t>(arg))) == l) ||
      !(layoutOf(loop.result(static_cast<size_t>(arg - 1))) == l))
    return;
  p.asyncDot = &dot;
  p.asyncCarried = arg - 1;
}

std::string Planner::qualify(const Op &load, const Block &body, int &width, StagedForm &form,
                             std::set<const Op *> &slice) const {
  // The checks in the order that gives a reader the reason that matters most
  // (all of them must pass).
  const Value *r = load.result();
  const Type &pt = load.operand(0)->type;
  const Value *maskV = load.operands.size() > 1 ? load.operand(1) : nullptr;
  const Value *otherV = load.operands.size() > 2 ? load.operand(2) : nullptr;
  std::vector<size_t> asOperand;
  StagedForm readForm;
  if (std::string why = readByDots(r, body, readForm, asOperand); !why.empty()) return why;
  const std::optional<StagedForm> read = readForm;
  if (pt.rank() != 2) return "not a 2-D tile";
  if (otherV && !isZero(otherV)) return "its 'other' is not zero (a copy fills masked-off elements with zeros)";
  if (load.attrs.count("cache") || load.attrs.count("evict")) return "it asks for a cache or eviction policy";
  const Layout &l = layoutOf(r);
  if (hasReplication(l, pt.shape)) return "its layout gives an element to two threads";
  // Staged with rows along dim 1 - f, so that runs along f stay contiguous.
  int f = l.tileOrder()[0];
  int eb = static_cast<int>(byteSize(r->type.elem));
  for (size_t i : asOperand) {
    if (i == 0 && f != 1) return "it is a dot's a with m contiguous (the staged a keeps k contiguous)";
    if (i == 1 && f == 1 && eb != 2) return "it is a dot's b with k contiguous and not 16-bit (ldmatrix.trans moves 16-bit units)";
  }
  if (read->rowDim != 1 - f)
    throw InternalError("a dot reads a pipelined load with rows along dim " + std::to_string(read->rowDim) +
                            ", its copies would keep dim " + std::to_string(f) + " contiguous",
                        load.loc);
  // The copy width: what the load itself would vectorize.
  std::vector<DimPlan> plan = planDims(l, pt.shape);
  int w = vectorWidth(pt, axes_.at(load.operand(0)), maskV ? &axes_.at(maskV) : nullptr, f);
  w = std::gcd(w, plan[static_cast<size_t>(f)].spt);
  while (w > 1 && pt.shape[static_cast<size_t>(f)] % w != 0) w /= 2;
  if (w * eb != 4 && w * eb != 8 && w * eb != 16)
    return "a thread's contiguous, aligned runs are " + std::to_string(w * eb) +
           " bytes; a copy moves 4, 8 or 16 (the axes stage shows what is known of the address; "
           "--assume-aligned and --assume-divisible promise more)";
  std::set<const Op *> mine = slice;
  if (!addressSlice(load.operand(0), body, mine) || (maskV && !addressSlice(maskV, body, mine)))
    return "its address or mask needs a carried value, a division or an op that cannot be evaluated again";
  slice = std::move(mine);
  width = w;
  form = *read;
  return "";
}

std::string Planner::readByDots(const Value *r, const Block &body, StagedForm &form, std::vector<size_t> &asOperand) const {
  std::string why;
  std::optional<StagedForm> read;
  walk(body, [&](const Op &u) {
    for (size_t i = 0; i < u.operands.size(); ++i) {
      if (u.operand(i) != r || !why.empty()) continue;
      if (u.kind != OpKind::Dot || i >= 2 || !onTensorCores(u)) {
        why = "'" + std::string(u.name()) + "' uses it, not a tensor-core dot's a or b";
        continue;
      }
      StagedForm f = stagedForm(u, static_cast<int>(i), layouts_, numWarps_, arch_);
      if (read && *read != f) why = "its dots read it in different shared-memory forms";
      read = f;
      asOperand.push_back(i);
    }
  });
  if (!why.empty()) return why;
  if (asOperand.empty()) return "no op of the loop uses it";
  form = *read;
  return "";
}

/// Adds to `slice` the body ops loop-invariant `v` needs; false if it is not
/// loop-invariant (it needs the induction variable, a carried value, an op
/// nested deeper or one that cannot be evaluated again).
bool invariantSlice(const Value *v, const Block &body, std::set<const Op *> &slice) {
  if (v->owner == &body) return false;
  const Op *d = v->def;
  if (!d || !definedWithin(v, *body.parentOp)) return true;  // from outside the loop
  if (d->parent != &body || !evaluable(*d)) return false;
  if (!slice.insert(d).second) return true;
  for (const Value *o : d->operands)
    if (!invariantSlice(o, body, slice)) return false;
  return true;
}

std::string Planner::qualifyTma(const Op &load, const Op &loop, StagedForm &form, const Value *&transposed,
                                std::set<const Op *> &slice, std::set<const Op *> &mapSlice) const {
  const Block &body = loop.region(0);
  // The tile the dots read: the load's, or its transpose where a trans in the
  // body is its one user.
  const Value *staged = load.result();
  std::vector<const Op *> users;
  walk(body, [&](const Op &u) {
    for (const Value *v : u.operands)
      if (v == load.result()) users.push_back(&u);
  });
  if (users.size() == 1 && users[0]->kind == OpKind::Trans && users[0]->parent == &body) staged = users[0]->result();
  std::vector<size_t> asOperand;
  StagedForm read;
  if (std::string why = readByDots(staged, body, read, asOperand); !why.empty()) return why;
  if (!read.wgmma()) return "its dots run on mma.sync, and TMA fills wgmma's swizzled panels";
  DescriptorOperands d(load);
  if (d.rank() != 2) return "not 2-D";
  if (d.shape(0)->type.elem != ScalarKind::I32) return "its sizes or offsets are 64-bit, TMA's coordinates 32-bit";
  // The staged matrix's rows must be the load's dim 0: a box keeps dim 1 contiguous.
  if (read.rowDim != (staged == load.result() ? 0 : 1))
    return "its dots read it with rows along its dim 1, and a box keeps the descriptor's innermost dim contiguous";
  std::set<const Op *> invariant = mapSlice;
  for (const Value *v : {d.base(), d.shape(0), d.shape(1), d.stride(0)})
    if (!invariantSlice(v, body, invariant))
      return "its base, sizes or strides change in the loop, and its tensor map is built before it";
  int64_t eb = byteSize(load.result()->type.elem);
  if (axes_.at(d.base()).divisibility[0] % 16)
    return "its base is not known to be 16-byte aligned, as a tensor map's must be (--assume-aligned promises it)";
  if (axes_.at(d.stride(0)).divisibility[0] * eb % 16)
    return "its row stride is not known to be a multiple of 16 bytes, as a tensor map's must be "
           "(--assume-divisible promises it)";
  std::set<const Op *> mine = slice;
  for (size_t i = 0; i < 2; ++i)
    if (!addressSlice(d.offset(i), body, mine))
      return "its offsets need a carried value, a division or an op that cannot be evaluated again";
  slice = std::move(mine);
  mapSlice = std::move(invariant);
  form = read;
  transposed = staged == load.result() ? nullptr : staged;
  return "";
}

LoopPipeline Planner::plan(const Op &loop) {
  LoopPipeline p;
  p.loop = &loop;
  if (stages_ < 1) {
    p.whyNot = "num_stages 0: nothing staged in shared memory ahead of the loop";
    return p;
  }
  const Block &body = loop.region(0);
  const Op *writer = nullptr;  // the first op of the loop that writes memory (or prints)
  walk(body, [&](const Op &o) {
    if (!writer && o.info().has(WritesMemory)) writer = &o;
  });
  bool writes = writer != nullptr;
  p.stages = writes || stages_ < 2 ? 0 : stages_;
  planInvariants(loop, p);
  if (writes)
    p.whyNot = "'" + std::string(writer->name()) + "' at " + locationBody(writer->loc) +
               " writes memory (or prints): a copy issued ahead must not pass it";
  else if (stages_ < 2) p.whyNot = "num_stages " + std::to_string(stages_) + ": no copies ahead";

  std::set<const Op *> slice, mapSlice;
  for (const auto &o : body.ops) {
    if (o->kind == OpKind::DescriptorLoad) {
      StagedForm form;
      const Value *transposed = nullptr;
      std::string why = p.stages ? qualifyTma(*o, loop, form, transposed, slice, mapSlice) : p.whyNot;
      if (!why.empty()) {
        p.kept.push_back({o.get(), why});
        continue;
      }
      const Type &t = o->result()->type;
      int boxRows = static_cast<int>(t.shape[0]);  // the block's: at most 256, a box's limit
      p.loads.push_back({o.get(), layoutOf(o->result()), form, 0, bufferBytes(t, form), 0, boxRows, -1, transposed});
      p.tmaBytes += t.numElements() * byteSize(t.elem);
      copied_.insert(p.loads.back().staged());
      continue;
    }
    if (!p.stages) continue;
    if (o->kind != OpKind::Load || !o->result()->type.isTile()) continue;
    int width = 0;
    StagedForm form;
    if (std::string why = qualify(*o, body, width, form, slice); !why.empty()) {
      p.kept.push_back({o.get(), why});
      continue;
    }
    const Type &t = o->result()->type;
    p.loads.push_back({o.get(), layoutOf(o->result()), form, width, bufferBytes(t, form), 0, 0, -1, nullptr});
    copied_.insert(o->result());
  }
  if (!p.loads.empty()) planAsyncDot(loop, p);
  p.buffers = p.asyncDot ? p.stages + 1 : p.stages;
  for (LoopPipeline::Load &ld : p.loads) {  // the ring: each load's buffers after the invariants
    p.alignment = std::max(p.alignment, ld.form.alignment());
    ld.offset = p.ringBytes = roundUp(p.ringBytes, ld.form.alignment());
    p.ringBytes += ld.bytes * p.buffers;
  }
  if (p.copiesTma()) {  // then the maps' staging and the barriers
    int64_t maps = 0;
    for (const LoopPipeline::Load &ld : p.loads) maps += ld.tma();
    p.mapOffset = roundUp(p.ringBytes, 128);
    p.barrierOffset = p.mapOffset + 128 * maps;
    p.ringBytes = p.barrierOffset + 8 * p.buffers;
    p.alignment = std::max<int64_t>(p.alignment, 128);
  }
  if (p.loads.empty()) {
    p.stages = 0;
    if (p.whyNot.empty())
      p.whyNot = p.kept.empty() ? "no tile load in the loop's own body (a nested loop's loads are its own)" : "no load qualifies";
  }
  for (const auto &o : body.ops) {
    if (slice.count(o.get())) p.slice.push_back(o.get());
    if (mapSlice.count(o.get())) p.mapSlice.push_back(o.get());
  }
  p.ringBytes = roundUp(p.ringBytes, p.alignment);
  return p;
}

bool containsDot(const Block &body) {
  bool dot = false;
  walk(body, [&](const Op &o) { dot = dot || o.kind == OpKind::Dot; });
  return dot;
}

} // namespace

bool LoopPipeline::copiesAsync() const {
  return std::any_of(loads.begin(), loads.end(), [](const Load &ld) { return !ld.tma(); });
}

bool PipelinePlan::copiesByTma(const Op &load) const {
  for (const auto &[op, p] : loops)
    for (const LoopPipeline::Load &ld : p.loads)
      if (ld.op == &load) return ld.tma();
  return false;
}

const LoopPipeline *PipelinePlan::find(const Op &loop) const {
  auto it = loops.find(&loop);
  return it != loops.end() && it->second.active() ? &it->second : nullptr;
}

int64_t PipelinePlan::peakRingBytes(const Func &func) const {
  std::function<int64_t(const Block &)> peak = [&](const Block &block) {
    int64_t most = 0;
    for (const auto &op : block.ops) {
      const LoopPipeline *p = find(*op);
      int64_t inside = 0;
      for (const auto &r : op->regions) inside = std::max(inside, peak(*r));
      most = std::max(most, (p ? p->ringBytes : 0) + inside);
    }
    return most;
  };
  return peak(func.body);
}

PipelinePlan planPipelines(const Func &func, const AxisInfoMap &axes, const LayoutMap &layouts, int numWarps,
                           int stages, const std::string &arch) {
  PipelinePlan out;
  out.stages = stages;
  Planner planner(axes, layouts, numWarps, stages, arch);
  walk(func.body, [&](const Op &op) {  // parents first: an outer loop's copies are known to the loops inside it
    if (op.kind != OpKind::For || !containsDot(op.region(0))) return;
    LoopPipeline &p = out.loops.emplace(&op, planner.plan(op)).first->second;
    for (LoopPipeline::Load &ld : p.loads)
      if (ld.tma()) ld.map = out.tensorMaps++;
  });
  return out;
}

/// "1" or "1, wgmma panels of 128 bytes"
static std::string formText(const StagedForm &f) {
  return std::to_string(f.rowDim) + (f.wgmma() ? ", wgmma panels of " + std::to_string(f.swizzleBytes) + " bytes" : "");
}

std::string toString(const Func &func, const PipelinePlan &plan, const std::string &header) {
  std::unordered_map<const Value *, std::string> notes;
  auto add = [&](const Value *v, const std::string &n) {
    std::string &s = notes[v];
    s += (s.empty() ? "" : "; ") + n;
  };
  std::vector<const LoopPipeline *> inOrder;
  walk(func.body, [&](const Op &op) {
    if (auto it = plan.loops.find(&op); it != plan.loops.end()) inOrder.push_back(&it->second);
  });
  for (const LoopPipeline *lp : inOrder) {
    const LoopPipeline &p = *lp;
    const Op *loop = p.loop;
    std::string at = "loop at " + locationBody(loop->loc);  // for the invariants, printed before it
    std::string summary;
    if (p.stages > 0)
      summary = "pipelined: " + std::to_string(p.loads.size()) + (p.loads.size() == 1 ? " load" : " loads") +
                " copied " + std::to_string(p.stages - 1) + (p.stages == 2 ? " iteration" : " iterations") + " ahead into a ring of " + std::to_string(p.stages) +
                " stages" + (p.asyncDot ? " (" + std::to_string(p.buffers) + " buffers each: the wgmma of one iteration "
                                                                               "stays in flight into the next)"
                                        : "");
    else
      summary = "not pipelined: " + p.whyNot;
    if (!p.invariants.empty())
      summary += std::string(p.stages > 0 ? ";" : ",") + " " + std::to_string(p.invariants.size()) +
                 " loop-invariant dot operand" + (p.invariants.size() == 1 ? "" : "s") + " staged once before it";
    if (p.copiesTma())
      summary += "; TMA: " + std::to_string(p.tmaBytes) + " bytes a stage, on " + std::to_string(p.buffers) +
                 " mbarriers at ring offset " + std::to_string(p.barrierOffset) + ", tensor maps staged at " +
                 std::to_string(p.mapOffset);
    if (p.active()) summary += "; shared ring " + std::to_string(p.ringBytes) + " bytes";
    add(loop->region(0).arg(0), summary);
    for (const LoopPipeline::Load &ld : p.loads) {
      const Type &t = ld.op->result()->type;
      if (ld.tma()) {
        int64_t panel = ld.form.swizzleBytes / byteSize(t.elem);
        int64_t boxes = t.shape[1] / panel * (t.shape[0] / ld.boxRows);
        add(ld.op->result(), "copied ahead: TMA, " + std::to_string(boxes) + (boxes == 1 ? " box of " : " boxes of ") + std::to_string(ld.boxRows) + " x " + std::to_string(panel) + " " +
                                 std::string(scalarName(t.elem)) + " through tensor map " + std::to_string(ld.map) +
                                 ", rows along dim " + formText(ld.form) + ", " + std::to_string(ld.bytes) +
                                 " bytes per buffer at ring offset " + std::to_string(ld.offset));
        continue;
      }
      add(ld.op->result(), "copied ahead: cp.async of " + std::to_string(ld.width * byteSize(t.elem)) +
                               " bytes (" + std::to_string(ld.width) + " x " + std::string(scalarName(t.elem)) + "), rows along dim " +
                               formText(ld.form) + ", " + std::to_string(ld.bytes) + " bytes per buffer at ring offset " +
                               std::to_string(ld.offset));
    }
    for (const LoopPipeline::Invariant &inv : p.invariants)
      add(inv.value, "staged once before the " + at + ": rows along dim " + formText(inv.form) +
                         ", at ring offset " + std::to_string(inv.offset));
    for (const LoopPipeline::Kept &k : p.kept) add(k.op->result(), "not copied ahead: " + k.why);
    for (const Op *s : p.slice)
      for (const auto &r : s->results) add(r.get(), "address op, evaluated again for the iteration a copy fetches");
  }
  std::string text = header;
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text + ir::toString(func, {}, [&](const Value *v) {
           auto it = notes.find(v);
           return it == notes.end() ? std::string() : it->second;
         });
}

} // namespace twintile::backend
