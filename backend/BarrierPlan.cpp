//===- BarrierPlan.cpp - the conflict rule and the barriers stage's list --===//
#include "backend/BarrierPlan.h"

#include "ir/Printer.h"

namespace twintile::backend {

using namespace twintile::ir;

namespace {

/// The kernel parameter a pointer is derived from, or null if unknown.
const Value *pointerBase(const Value *v, const Func &f) {
  while (v->def) {
    switch (v->def->kind) {
    case OpKind::AddPtr: case OpKind::Splat: case OpKind::Broadcast: case OpKind::ExpandDims:
    case OpKind::Trans: case OpKind::Reshape: v = v->def->operand(0); continue;
    default: return nullptr;
    }
  }
  return v->owner == &f.body ? v : nullptr;
}

/// True if `v` is defined inside `op`'s regions, at any depth.
bool definedWithin(const Value *v, const Op &op) {
  for (const Block *b = v->def ? v->def->parent : v->owner; b && b->parentOp; b = b->parentOp->parent)
    if (b->parentOp == &op) return true;
  return false;
}

/// True if the axis analysis proves pointer tile `ptr`'s addresses distinct:
/// one dim of more than one element, contiguous along all of it (a second
/// dim's stride, a run-time value, may be 0 or short of the rows).
bool distinctAddresses(const Value *ptr, const AxisInfoMap &axes) {
  const Shape &shape = ptr->type.shape;
  auto it = axes.find(ptr);
  if (it == axes.end()) return false;
  int wide = -1;
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] > 1) {
      if (wide >= 0) return false;
      wide = static_cast<int>(d);
    }
  return wide < 0 || it->second.contiguity[static_cast<size_t>(wide)] >= shape[static_cast<size_t>(wide)];
}

} // namespace

MemoryAccess accessOf(const Op &op, const LayoutMap &layouts, const AxisInfoMap &axes) {
  const Value *ptr = op.operand(0);
  const Layout *l = nullptr;
  if (ptr->type.isTile()) l = &layouts.at(op.kind == OpKind::Store ? ptr : static_cast<const Value *>(op.result()));
  bool write = op.kind != OpKind::Load;
  // LowerMemory.cpp: a scalar is stored, and an atomic's or a volatile load's
  // result read, by thread 0 alone; every thread reads a plain scalar load.
  bool threadZeroOnly = ptr->type.isScalar() && (write || op.hasEffects());
  return {&op, ptr, l, write, threadZeroOnly, l && distinctAddresses(ptr, axes)};
}

bool mayConflict(const MemoryAccess &a, const MemoryAccess &c, const Func &func) {
  if (!a.write && !c.write) return false;
  if (a.threadZeroOnly && c.threadZeroOnly) return false;  // one thread, in program order
  bool sameAddresses = a.ptr == c.ptr && (!a.earlierIterationOf || !definedWithin(a.ptr, *a.earlierIterationOf));
  if (sameAddresses && a.distinct && a.layout && c.layout && *a.layout == *c.layout &&
      !hasReplication(*a.layout, a.ptr->type.shape))
    return false;
  const Value *x = pointerBase(a.ptr, func), *y = pointerBase(c.ptr, func);
  return !x || !y || x == y;
}

std::string toString(const BarrierPlan &plan, const std::string &header) {
  std::string out = header;
  if (!out.empty() && out.back() != '\n') out += '\n';
  if (plan.barriers.empty()) return out;
  for (const BarrierPlan::Barrier &b : plan.barriers) {
    const char *kind = b.kind == BarrierPlan::Barrier::Kind::Inherent ? "inherent" : "decided ";
    out += "// " + std::string(kind) + " '" + std::string(b.op->name()) + "' at " + locationBody(b.op->loc) + ": " + b.why + "\n";
  }
  return out;
}

} // namespace twintile::backend
