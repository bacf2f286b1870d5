//===- CSE.cpp - common subexpression elimination over nested scopes -----===//
#include "ir/Passes.h"

#include <unordered_map>
#include <unordered_set>

namespace twintile::ir {

namespace {

/// Everything that makes two pure ops compute the same value.
std::string keyOf(const Op &op) {
  std::string k(op.name());
  for (const Value *v : op.operands) k += " " + std::to_string(reinterpret_cast<uintptr_t>(v));
  for (auto &[name, a] : op.attrs) k += " " + name + "=" + toString(a);
  for (auto &r : op.results) k += " :" + toString(r->type);
  return k;
}

class CSE {
public:
  explicit CSE(Func &f) : f_(f) {}

  bool run() {
    block(f_.body);
    return changed_;
  }

private:
  // Scopes nest with regions: an op may reuse an identical op from its own
  // block or from any enclosing block, all of which dominate it.
  // Ops are visited in dominance order, so every use of a replaced value is
  // visited after the replacement and redirected then (forward_); the
  // duplicates go in one pass per block. Linear in the number of ops.
  void block(Block &b) {
    scopes_.emplace_back();
    std::unordered_set<Op *> dead;
    for (std::unique_ptr<Op> &owned : b.ops) {
      Op &op = *owned;
      for (Value *&v : op.operands)
        if (auto it = forward_.find(v); it != forward_.end()) v = it->second;
      for (auto &r : op.regions) block(*r);
      if (!op.info().has(Pure) || !op.regions.empty()) continue;
      std::string key = keyOf(op);
      if (Op *prior = lookup(key)) {
        for (size_t k = 0; k < op.results.size(); ++k) forward_[op.result(k)] = prior->result(k);
        dead.insert(&op);
        changed_ = true;
        continue;
      }
      scopes_.back()[key] = &op;
    }
    if (!dead.empty()) std::erase_if(b.ops, [&](const std::unique_ptr<Op> &op) { return dead.count(op.get()) != 0; });
    scopes_.pop_back();
  }

  Op *lookup(const std::string &key) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (auto f = it->find(key); f != it->end()) return f->second;
    return nullptr;
  }

  Func &f_;
  bool changed_ = false;
  std::vector<std::unordered_map<std::string, Op *>> scopes_;
  std::unordered_map<Value *, Value *> forward_;  // a duplicate's result -> the value it repeats
};

} // namespace

bool cse(Func &f) { return CSE(f).run(); }

} // namespace twintile::ir
