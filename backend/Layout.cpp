//===- Layout.cpp - blocked layouts and their assignment ----------------===//
#include "backend/Layout.h"

#include "backend/TensorCores.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <numeric>
#include <sstream>

namespace twintile::backend {

using namespace twintile::ir;

bool Layout::isSliced(int parentDim) const {
  return std::find(dims.begin(), dims.end(), parentDim) == dims.end();
}

std::vector<int> Layout::tileOrder() const {
  std::vector<int> out;
  for (int p : order)
    for (int i = 0; i < rank(); ++i)
      if (dims[i] == p) out.push_back(i);
  return out;
}

Layout Layout::sliced(int axis) const {
  Layout l = *this;
  l.dims.erase(l.dims.begin() + axis);
  return l;
}

bool Layout::expanded(int axis, Layout &out) const {
  // The sliced parent dims, in parent order; the one put back must sit
  // between its neighbours' parent dims for the tile order to stay monotone.
  for (int p = 0; p < parentRank(); ++p) {
    if (!isSliced(p)) continue;
    bool fits = (axis == 0 || dims[axis - 1] < p) && (axis == rank() || p < dims[axis]);
    if (!fits) continue;
    out = *this;
    out.dims.insert(out.dims.begin() + axis, p);
    return true;
  }
  return false;
}

Layout Layout::permuted(const std::vector<int64_t> &perm) const {
  Layout l = *this;
  for (size_t i = 0; i < perm.size(); ++i) l.dims[i] = dims[static_cast<size_t>(perm[i])];
  return l;
}

Layout Layout::withoutReps(int parentDim) const {
  Layout l = *this;
  if (l.repsPerWarp.empty()) return l;
  l.repsPerWarp[static_cast<size_t>(parentDim)] = 1;
  if (std::all_of(l.repsPerWarp.begin(), l.repsPerWarp.end(), [](int r) { return r == 1; })) l.repsPerWarp.clear();
  return l;
}

std::string toString(const Layout &l) {
  std::ostringstream os;
  auto list = [&](const char *name, const std::vector<int> &v) {
    os << name << "=[";
    for (size_t i = 0; i < v.size(); ++i) os << (i ? "," : "") << v[i];
    os << "]";
  };
  os << "#blocked<";
  list("spt", l.sizePerThread);
  os << " ";
  list("tpw", l.threadsPerWarp);
  os << " ";
  if (!l.repsPerWarp.empty()) {
    list("rpw", l.repsPerWarp);
    os << " ";
  }
  list("wpc", l.warpsPerCTA);
  os << " ";
  list("order", l.order);
  os << " ";
  list("dims", l.dims);
  os << ">";
  return os.str();
}

std::vector<DimPlan> planDims(const Layout &l, const Shape &shape) {
  assert(shape.size() == l.dims.size() && "layout rank must match the tile");
  std::vector<DimPlan> plan;
  for (size_t i = 0; i < shape.size(); ++i) {
    DimPlan d;
    d.parent = l.dims[i];
    d.size = shape[i];
    d.spt = l.sizePerThread[d.parent];
    d.tpw = l.threadsPerWarp[d.parent];
    d.wpc = l.warpsPerCTA[d.parent];
    d.rpw = l.repsAlong(d.parent);
    d.cover = int64_t(d.spt) * d.tpw * d.rpw * d.wpc;
    d.regs = int64_t(d.spt) * d.rpw * ((d.size + d.cover - 1) / d.cover);
    d.wraps = d.regs / (int64_t(d.spt) * d.rpw) * d.cover != d.size;
    plan.push_back(d);
  }
  return plan;
}

int64_t numRegisters(const Layout &l, const Shape &shape) {
  int64_t n = 1;
  for (const DimPlan &d : planDims(l, shape)) n *= d.regs;
  return n;
}

bool hasReplication(const Layout &l, const Shape &shape) {
  for (const DimPlan &d : planDims(l, shape))
    if (d.wraps) return true;
  for (int p = 0; p < l.parentRank(); ++p)
    if (l.isSliced(p) && l.threadsPerWarp[p] * l.warpsPerCTA[p] > 1) return true;
  return false;
}

namespace {

int floorPow2(int64_t v) {
  int p = 1;
  while (int64_t(p) * 2 <= v) p *= 2;
  return p;
}

} // namespace

Layout blockedLayout(const Shape &shape, int numWarps, int vec, std::vector<int> order) {
  int r = static_cast<int>(shape.size());
  Layout l;
  l.sizePerThread.assign(r, 1);
  l.threadsPerWarp.assign(r, 1);
  l.warpsPerCTA.assign(r, 1);
  l.order = std::move(order);
  l.dims.resize(r);
  std::iota(l.dims.begin(), l.dims.end(), 0);
  l.sizePerThread[l.order[0]] = vec;
  // Threads, then warps, fill the fastest dims first; what is left over
  // goes to the fastest dim (those threads hold copies).
  int threads = 32, warps = numWarps;
  for (int d : l.order) {
    int64_t room = std::max<int64_t>(1, shape[d] / l.sizePerThread[d]);
    l.threadsPerWarp[d] = std::min(threads, floorPow2(room));
    threads /= l.threadsPerWarp[d];
  }
  l.threadsPerWarp[l.order[0]] *= threads;
  for (int d : l.order) {
    int64_t room = std::max<int64_t>(1, shape[d] / (int64_t(l.sizePerThread[d]) * l.threadsPerWarp[d]));
    l.warpsPerCTA[d] = std::min(warps, floorPow2(room));
    warps /= l.warpsPerCTA[d];
  }
  // Leftover warps go to the slowest dim: rows of a 2-D tile spread over
  // warps, so that row reductions stay within a warp.
  l.warpsPerCTA[l.order.back()] *= warps;
  return l;
}

namespace {

/// The depth of recomputable ops `v` needs (1 for an arange or a splat of a
/// scalar), or a large number if something in it cannot be recomputed.
int recomputeDepth(const Value *v, std::unordered_map<const Value *, int> &memo) {
  constexpr int kNever = 1 << 20;
  if (auto it = memo.find(v); it != memo.end()) return it->second;
  const Op *d = v->def;
  int depth = kNever;
  if (d && d->info().recomputable()) {
    depth = 1;
    for (const Value *o : d->operands)
      if (o->type.isTile()) depth = std::max(depth, 1 + recomputeDepth(o, memo));
    depth = std::min(depth, kNever);
  }
  return memo[v] = depth;
}

} // namespace

bool recomputable(const Value *v, int budget) {
  std::unordered_map<const Value *, int> memo;
  return recomputeDepth(v, memo) <= budget;
}

int mmaK(ScalarKind k) { return k == ScalarKind::I8 ? 32 : k == ScalarKind::F32 ? 8 : 16; }

std::optional<Layout> mmaLayout(const Op &dot, int numWarps) {
  const Type &a = dot.operand(0)->type, &acc = dot.result()->type;
  auto precision = dot.attrs.find("precision");
  bool f16 = (a.elem == ScalarKind::F16 || a.elem == ScalarKind::BF16) && acc.elem == ScalarKind::F32;
  bool i8 = a.elem == ScalarKind::I8 && acc.elem == ScalarKind::I32;
  bool tf32 = a.elem == ScalarKind::F32 && precision != dot.attrs.end() && precision->second.s == "tf32";
  if (!f16 && !i8 && !tf32) return std::nullopt;
  int64_t M = acc.shape[0], N = acc.shape[1], K = a.shape[1];
  if (M % 16 != 0 || N % 8 != 0 || K % mmaK(a.elem) != 0) return std::nullopt;
  // Warps over M while each keeps whole 16-row tiles, the rest over N (where
  // N is too narrow for them, warps hold copies of the same columns).
  int wm = 1, wn = 1;
  while (wm * wn < numWarps) {
    if (M % (32 * int64_t(wm)) == 0) wm *= 2;
    else wn *= 2;
  }
  Layout l;
  l.sizePerThread = {1, 2};
  l.threadsPerWarp = {8, 4};
  l.warpsPerCTA = {wm, wn};
  l.order = {1, 0};
  l.dims = {0, 1};
  return l;
}

int vectorWidth(const Type &ptrType, const AxisInfo &ptr, const AxisInfo *mask, int dim) {
  size_t d = static_cast<size_t>(dim);
  int64_t bytes = byteSize(ptrType.pointee);
  int64_t w = std::min<int64_t>(16 / bytes, ptr.contiguity[d]);
  w = std::min<int64_t>(w, std::max<int64_t>(1, std::min<int64_t>(16, ptr.divisibility[d]) / bytes));
  if (mask) w = std::min<int64_t>(w, mask->constancy[d]);
  return floorPow2(std::max<int64_t>(1, w));
}

namespace {

/// Forward assignment, in program order (see assignLayouts in Layout.h).
class Assigner {
public:
  Assigner(const AxisInfoMap &axes, int numWarps, const std::string &arch, LayoutMap &out)
      : axes_(axes), numWarps_(numWarps), arch_(arch), out_(out) {}

  /// Memory ops fix the preferred layout of their shape: the first one seen
  /// of each shape decides the order (most contiguous dim fastest) and the
  /// elements per thread (as wide as a 16-byte access allows, but no wider
  /// than keeps every thread busy).
  /// Every op that uses each value, anywhere in `b`.
  void collectUsers(const Block &b) {
    walk(b, [&](const Op &op) {
      for (const Value *v : op.operands) users_[v].push_back(&op);
    });
  }

  void collectPreferences(const Block &b) {
    for (const auto &op : b.ops) {
      for (const auto &r : op->regions) collectPreferences(*r);
      if (familyOf(op->kind) != OpFamily::Memory) continue;
      const Type &p = op->operand(0)->type;
      if (p.isScalar() || preferred_.count(p.shape) || feedsDotsOnly(*op)) continue;
      preferred_.emplace(p.shape, accessLayout(*op));
    }
  }

  /// The layout `op`'s own pointer asks for: its most contiguous dim
  /// fastest, as many elements per thread as one 16-byte access allows (but
  /// no more than keeps every thread busy). With `byContiguity` the chunk is
  /// as wide as the pointer's contiguity allows even where its alignment
  /// does not: the accesses stay as narrow as alignment makes them, but a
  /// thread's chunk shares one address (the others are immediate offsets)
  /// where a chunk of one element per row would keep a row address per
  /// register live.
  Layout accessLayout(const Op &op, bool byContiguity = false) const {
    const Type &p = op.operand(0)->type;
    const AxisInfo &info = axes_.at(op.operand(0));
    std::vector<int> order(p.shape.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {  // a total order: ties by dim
      if (info.contiguity[a] != info.contiguity[b]) return info.contiguity[a] > info.contiguity[b];
      return a > b;  // row-major on ties
    });
    int vec = byContiguity ? floorPow2(static_cast<int>(std::clamp<int64_t>(
                                 info.contiguity[static_cast<size_t>(order[0])], 1, 16 / byteSize(p.pointee))))
                           : vectorWidth(p, info, nullptr, order[0]);
    int64_t perThread = std::max<int64_t>(1, p.numElements() / (32 * numWarps_));
    vec = floorPow2(std::min<int64_t>(vec, std::min<int64_t>(perThread, p.shape[order[0]])));
    return blockedLayout(p.shape, numWarps_, std::max(1, vec), order);
  }

  /// A load whose only users multiply it on tensor cores: its tile goes to
  /// shared memory as it is (or is copied there by cp.async), so it takes
  /// the layout of its own pointer, whatever other accesses of its shape do.
  bool feedsDotsOnly(const Op &op) const {
    if (op.kind != OpKind::Load || !op.result()->type.isTile()) return false;
    auto it = users_.find(op.result());
    if (it == users_.end()) return false;
    for (const Op *u : it->second)
      if (u->kind != OpKind::Dot || u->operand(2) == op.result() ||
          !mmaLayout(*u, numWarps_))
        return false;
    return true;
  }

  const Layout &preferred(const Shape &s) {
    auto it = preferred_.find(s);
    if (it != preferred_.end()) return it->second;
    std::vector<int> order(s.size());
    for (size_t i = 0; i < s.size(); ++i) order[i] = static_cast<int>(s.size() - 1 - i);
    int64_t perThread = std::max<int64_t>(1, numElements(s) / (32 * numWarps_));
    int vec = static_cast<int>(std::min<int64_t>({4, perThread, s.back()}));
    return preferred_.emplace(s, blockedLayout(s, numWarps_, floorPow2(vec), order)).first->second;
  }

  void block(const Block &b) {
    for (const auto &op : b.ops) visit(*op);
  }

  /// Loops whose body yielded a value in another layout than it carries it
  /// in: the next pass carries it in that one (a conversion of the initial
  /// value once, instead of the yielded value every iteration).
  bool adoptYieldedLayouts() {
    if (yieldedNow_.empty()) return false;
    for (auto &[key, l] : yieldedNow_) yieldedBefore_[key] = l;
    yieldedNow_.clear();
    out_.clear();
    return true;
  }

private:
  const AxisInfoMap &axes_;
  int numWarps_;
  const std::string &arch_;
  LayoutMap &out_;
  std::map<Shape, Layout> preferred_;
  std::unordered_map<const Value *, std::vector<const Op *>> users_;
  std::map<std::pair<const Op *, size_t>, Layout> yieldedBefore_, yieldedNow_;  // (loop, operand) -> layout

  const Layout *layoutOf(const Value *v) const {
    auto it = out_.find(v);
    return it == out_.end() ? nullptr : &it->second;
  }
  void set(const Value *v, Layout l) {
    if (v->type.isTile()) out_[v] = std::move(l);
  }

  /// The shape an expand_dims result is broadcast to, if that is its one use.
  Shape broadcastTarget(const Op &op) {
    const Value *r = op.result();
    for (const auto &other : op.parent->ops)
      if (other->kind == OpKind::Broadcast && other->operand(0) == r) return other->result()->type.shape;
    return r->type.shape;
  }

  void visit(const Op &op) {
    const Type *t = op.results.empty() ? nullptr : &op.result()->type;
    switch (op.kind) {
    case OpKind::For:
    case OpKind::While: {
      size_t first = op.kind == OpKind::For ? 3 : 0, argOff = op.kind == OpKind::For ? 1 : 0;
      std::vector<Layout> carried(op.operands.size());
      for (size_t i = first; i < op.operands.size(); ++i) {
        const Value *init = op.operand(i);
        if (!init->type.isTile()) continue;
        auto hint = yieldedBefore_.find({&op, i});
        carried[i] = hint != yieldedBefore_.end() ? hint->second : *layoutOf(init);
        for (const auto &r : op.regions) set(r->arg(i - first + (r.get() == &op.region(0) ? argOff : 0)), carried[i]);
        set(op.result(i - first), carried[i]);
      }
      for (const auto &r : op.regions) block(*r);
      // What the body yields, for the next pass.
      const Op *y = op.regions.back()->terminator();
      for (size_t i = first; i < op.operands.size(); ++i)
        if (const Layout *l = op.operand(i)->type.isTile() ? layoutOf(y->operand(i - first)) : nullptr;
            l && !(*l == carried[i]))
          yieldedNow_[{&op, i}] = *l;
      return;
    }
    case OpKind::If: {
      block(op.region(0));
      block(op.region(1));
      const Op *y = op.region(0).terminator();
      for (size_t i = 0; i < op.results.size(); ++i)
        if (const Layout *l = layoutOf(y->operand(i))) set(op.result(i), *l);
      return;
    }
    default: break;
    }
    if (!t || !t->isTile()) return;
    switch (op.kind) {
    case OpKind::Broadcast: {
      const Layout *in = layoutOf(op.operand(0));
      set(op.result(), in ? *in : preferred(t->shape));
      return;
    }
    case OpKind::ExpandDims: {
      const Layout *in = layoutOf(op.operand(0));
      Layout l;
      if (in && in->expanded(static_cast<int>(op.intAttr("axis")), l)) return set(op.result(), l);
      return set(op.result(), preferred(broadcastTarget(op)));
    }
    case OpKind::Trans:
      return set(op.result(), layoutOf(op.operand(0))->permuted(op.attr("perm").ints));
    case OpKind::Sum: case OpKind::Max: case OpKind::Min:
    case OpKind::Argmax: case OpKind::Argmin: case OpKind::Reduce: {
      // Several tiles reduced together are all taken in the first's layout.
      Layout sliced = layoutOf(op.operand(0))->sliced(static_cast<int>(op.intAttr("axis")));
      for (auto &r : op.results) set(r.get(), sliced);
      return;
    }
    case OpKind::Cumsum: case OpKind::Scan: {
      // A scan in registers and shuffles takes a thread's registers along
      // its axis in order (DimPlan::inOrder): where the operand's warps hold
      // several blocks along it (wgmma's rows), the result is laid out
      // without them, and the operand converted to it.
      Layout l = *layoutOf(op.operand(0));
      l = l.withoutReps(l.dims[static_cast<size_t>(op.intAttr("axis"))]);
      for (auto &r : op.results) set(r.get(), l);
      return;
    }
    case OpKind::Dot: {
      std::optional<Layout> tc = tensorCoreLayout(op, out_, numWarps_, arch_);
      return set(op.result(), tc ? *tc : *layoutOf(op.operand(2)));
    }
    case OpKind::Load:
      return set(op.result(), feedsDotsOnly(op) ? accessLayout(op, /*byContiguity=*/true) : preferred(t->shape));
    case OpKind::DescriptorLoad: {
      // Left to the backend for TMA (only dots read it): its innermost dim
      // is contiguous in memory, as a load's whose pointers count up along it.
      std::vector<int> order(t->shape.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(order.size() - 1 - i);
      int64_t perThread = std::max<int64_t>(1, t->numElements() / (32 * numWarps_));
      int64_t vec = std::min<int64_t>({16 / byteSize(t->elem), perThread, t->shape.back()});
      return set(op.result(), blockedLayout(t->shape, numWarps_, floorPow2(static_cast<int>(std::max<int64_t>(1, vec))), order));
    }
    case OpKind::AtomicAdd: case OpKind::AtomicMax: case OpKind::AtomicMin:
    case OpKind::AtomicAnd: case OpKind::AtomicOr: case OpKind::AtomicXor: case OpKind::AtomicXchg:
    case OpKind::AtomicCas:
    case OpKind::Arange: case OpKind::Constant: case OpKind::Splat: case OpKind::Reshape:
      return set(op.result(), preferred(t->shape));
    default:  // the rule below is the elementwise ops' (a hint is its operand)
      if (!op.info().has(Elementwise) && op.info().family != OpFamily::Hint)
        throw InternalError("no layout rule for '" + std::string(op.name()) + "'", op.loc);
      break;
    }
    // Elementwise: the preferred layout if an operand has it, else the
    // first tile operand's. Operands that lowering recomputes in any layout
    // (index arithmetic, splats) only count when no other operand does (x *
    // scale stays in x's layout), and then not at all: index arithmetic over
    // them takes the shape's preferred layout, that of its memory ops (a
    // store's pointers, row offsets plus column offsets, stored from 16-byte
    // chunks rather than in a broadcast row's layout). The values a loop
    // carries (whose layout echoes their initial value's until the second
    // pass) count last.
    const Layout &pref = preferred(t->shape);
    for (bool carried : {false, true}) {
      const Layout *first = nullptr;
      for (const Value *v : op.operands) {
        const Layout *l = layoutOf(v);
        if (!l || recomputable(v) || isCarried(v) != carried) continue;
        if (*l == pref) return set(op.result(), pref);
        if (!first) first = l;
      }
      if (first) return set(op.result(), *first);
    }
    set(op.result(), pref);
  }

  static bool isCarried(const Value *v) {
    const Op *owner = v->def ? nullptr : v->owner ? v->owner->parentOp : nullptr;
    return owner && (owner->kind == OpKind::For || owner->kind == OpKind::While);
  }
};

} // namespace

LayoutMap assignLayouts(const Func &func, const AxisInfoMap &axes, int numWarps, const std::string &arch) {
  LayoutMap map;
  Assigner a(axes, numWarps, arch, map);
  a.collectUsers(func.body);
  a.collectPreferences(func.body);
  a.block(func.body);
  // Nested loops may need another pass (an inner loop's new layout changes
  // what the outer body yields); a few settle every kernel seen, and any
  // assignment is correct, the last one only converting more.
  for (int pass = 0; pass < 4 && a.adoptYieldedLayouts(); ++pass) a.block(func.body);
  return map;
}

int stagedRowDim(int operand, const Layout &l, ScalarKind k) {
  if (operand == 0) return 0;
  return byteSize(k) == 2 && l.tileOrder()[0] == 1 ? 0 : 1;
}

} // namespace twintile::backend
