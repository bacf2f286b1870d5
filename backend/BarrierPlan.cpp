//===- BarrierPlan.cpp - the conflict rule and the barriers stage's list --===//
#include "backend/BarrierPlan.h"

#include "ir/Printer.h"

namespace tt::backend {

using namespace tt::ir;

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

} // namespace

MemoryAccess accessOf(const Op &op, const LayoutMap &layouts) {
  const Value *ptr = op.operand(0);
  const Layout *l = nullptr;
  if (ptr->type.isTile()) l = &layouts.at(op.kind == OpKind::Store ? ptr : static_cast<const Value *>(op.result()));
  return {&op, ptr, l, op.kind != OpKind::Load};
}

bool mayConflict(const MemoryAccess &a, const MemoryAccess &c, const Func &func) {
  if (!a.write && !c.write) return false;
  if (a.ptr == c.ptr && a.layout && c.layout && *a.layout == *c.layout) return false;
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

} // namespace tt::backend
