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

/// Drops the results of an `if` that nothing uses, and what its branches
/// yield for them (a flag carried out of a branch and never read again: the
/// parse front end's continue flag after a break). The `if` itself stays
/// while it has effects or a used result; its dead yields go next round.
bool dropUnusedIfResults(Func &f) {
  std::unordered_map<const Value *, size_t> uses;
  walk(f.body, [&](Op &op) {
    for (Value *v : op.operands) ++uses[v];
  });
  bool changed = false;
  walk(f.body, [&](Op &op) {
    if (op.kind != OpKind::If || op.results.empty()) return;
    std::vector<size_t> keep;
    for (size_t i = 0; i < op.results.size(); ++i)
      if (uses[op.results[i].get()] != 0) keep.push_back(i);
    if (keep.size() == op.results.size()) return;
    for (auto &region : op.regions) {
      const Op *yield = region->terminator();
      if (!yield || yield->operands.size() != op.results.size()) return;  // not a well-formed if: leave it
    }
    for (auto &region : op.regions) {
      Op *yield = region->terminator();
      std::vector<Value *> kept;
      for (size_t i : keep) kept.push_back(yield->operands[i]);
      yield->operands = std::move(kept);
    }
    std::vector<std::unique_ptr<Value>> results;
    for (size_t i : keep) {
      results.push_back(std::move(op.results[i]));
      results.back()->index = static_cast<unsigned>(results.size() - 1);
    }
    op.results = std::move(results);
    changed = true;
  });
  return changed;
}

} // namespace

bool dce(Func &f) {
  bool changedAny = false;
  for (bool changed = true; changed;) {
    changed = dropUnusedIfResults(f);
    changedAny = changedAny || changed;
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
