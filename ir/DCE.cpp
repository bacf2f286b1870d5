//===- DCE.cpp - dead code elimination -----------------------------------===//
#include "ir/Passes.h"

#include <unordered_map>
#include <unordered_set>

namespace twintile::ir {

namespace {

/// Whether `op` (and everything nested in it) only computes values: no
/// stores, atomics, prints, asserts or volatile loads (Op::hasEffects).
/// Other loads count as side-effect free.
bool removableWhenUnused(const Op &op) {
  if (op.info().has(Terminator)) return false;
  if (op.hasEffects()) return false;
  bool clean = true;
  for (auto &r : op.regions)
    walk(static_cast<const Block &>(*r), [&](const Op &nested) {
      if (nested.hasEffects()) clean = false;
    });
  return clean;
}

void prune(Block &b, const std::unordered_set<const Op *> &gone) {
  std::erase_if(b.ops, [&](const std::unique_ptr<Op> &op) { return gone.count(op.get()) != 0; });
  for (auto &op : b.ops)
    for (auto &r : op->regions) prune(*r, gone);
}

} // namespace

bool dce(Func &f) {
  bool changedAny = false;
  for (bool changed = true; changed;) {
    changed = false;
    std::unordered_map<const Value *, size_t> uses;
    walk(f.body, [&](Op &op) {
      for (Value *v : op.operands) ++uses[v];
    });
    // Visit ops innermost and last first, so a chain of dead ops goes in one round.
    std::vector<Op *> order;
    walk(f.body, [&](Op &op) { order.push_back(&op); });
    std::vector<Op *> dead;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      Op *op = *it;
      if (!removableWhenUnused(*op)) continue;
      bool used = false;
      for (auto &r : op->results) used |= uses[r.get()] != 0;
      if (used) continue;
      for (Value *v : op->operands) --uses[v];
      dead.push_back(op);
    }
    // All at once, one pass per block: the ops nested in a dead op go with it.
    if (!dead.empty()) {
      std::unordered_set<const Op *> gone(dead.begin(), dead.end());
      prune(f.body, gone);
      changed = changedAny = true;
    }
  }
  return changedAny;
}

} // namespace twintile::ir
