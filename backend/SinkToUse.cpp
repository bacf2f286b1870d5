//===- SinkToUse.cpp - pure values computed just before their first use ---===//
#include "backend/SinkToUse.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace twintile::backend {

namespace {

bool movable(const llvm::Instruction &i) {
  if (i.isTerminator() || llvm::isa<llvm::PHINode>(i) || i.isEHPad() || llvm::isa<llvm::AllocaInst>(i)) return false;
  if (i.mayHaveSideEffects() || i.mayReadFromMemory()) return false;
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&i))
    return llvm::isa<llvm::IntrinsicInst>(call) && !call->isConvergent() && !call->isInlineAsm();
  return true;
}

/// Where `i` would go: before its first user in its block, else before
/// the terminator when it is used only elsewhere; null when it has no user.
llvm::Instruction *target(llvm::Instruction &i) {
  llvm::BasicBlock *bb = i.getParent();
  llvm::Instruction *first = nullptr;
  bool elsewhere = false;
  for (llvm::User *u : i.users()) {
    auto *ui = llvm::cast<llvm::Instruction>(u);
    if (ui->getParent() != bb || llvm::isa<llvm::PHINode>(ui)) {
      elsewhere = true;
      continue;
    }
    if (!first || ui->comesBefore(first)) first = ui;
  }
  if (first) return first;
  return elsewhere ? bb->getTerminator() : nullptr;
}

/// The blocks reachable from a block's end (its successors and on), memoized.
class Reach {
public:
  bool fromEnd(llvm::BasicBlock *bb, llvm::BasicBlock *to) {
    auto [it, fresh] = reach_.try_emplace(bb);
    if (fresh) {
      std::vector<llvm::BasicBlock *> work(llvm::succ_begin(bb), llvm::succ_end(bb));
      while (!work.empty()) {
        llvm::BasicBlock *b = work.back();
        work.pop_back();
        if (it->second.insert(b).second) work.insert(work.end(), llvm::succ_begin(b), llvm::succ_end(b));
      }
    }
    return it->second.count(to) != 0;
  }

private:
  std::map<llvm::BasicBlock *, std::set<llvm::BasicBlock *>> reach_;
};

/// Whether `v` is live at `at` without the use by `except`: a constant, or
/// a value used at or after `at` in its block, or live out of the block (a
/// use in a block reachable from its end; a phi's counts in the block it
/// comes from).
bool liveAnyway(llvm::Value *v, llvm::Instruction *at, llvm::Instruction *except, Reach &reach) {
  if (!llvm::isa<llvm::Instruction>(v) && !llvm::isa<llvm::Argument>(v)) return true;  // constants, globals
  llvm::BasicBlock *bb = at->getParent();
  for (llvm::Use &use : v->uses()) {
    auto *ui = llvm::dyn_cast<llvm::Instruction>(use.getUser());
    if (!ui || ui == except) continue;
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(ui)) {
      llvm::BasicBlock *from = phi->getIncomingBlock(use);
      if (from == bb || reach.fromEnd(bb, from)) return true;
      continue;
    }
    llvm::BasicBlock *where = ui->getParent();
    if (where == bb && (ui == at || at->comesBefore(ui))) return true;
    if (reach.fromEnd(bb, where)) return true;  // another block after, or this one again around a loop
  }
  return false;
}

/// Whether `i` can move to just before `at` without lengthening any live
/// range, gathering in `chain` the operands that move with it: a movable
/// value in the same block whose only user is `i` goes down with it (and so
/// on up its own operands), as a chain of address arithmetic does.
bool canSink(llvm::Instruction *i, llvm::Instruction *at, std::vector<llvm::Instruction *> &chain, Reach &reach) {
  for (llvm::Value *op : i->operands()) {
    if (liveAnyway(op, at, i, reach)) continue;
    auto *def = llvm::dyn_cast<llvm::Instruction>(op);
    if (!def || def->getParent() != i->getParent() || !def->hasOneUse() || !movable(*def)) return false;
    if (std::find(chain.begin(), chain.end(), def) == chain.end()) chain.push_back(def);
    if (!canSink(def, at, chain, reach)) return false;
  }
  return true;
}

} // namespace

llvm::PreservedAnalyses SinkToUsePass::run(llvm::Function &fn, llvm::FunctionAnalysisManager &) {
  bool changed = false;
  Reach reach;  // moves change no edge
  for (llvm::BasicBlock &bb : fn) {
    // Bottom up, so that a chain of values follows its last link down.
    std::vector<llvm::Instruction *> order;
    for (llvm::Instruction &i : bb) order.push_back(&i);
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      llvm::Instruction *i = *it;
      if (!movable(*i)) continue;
      llvm::Instruction *at = target(*i);
      if (!at || i->getNextNode() == at) continue;
      std::vector<llvm::Instruction *> chain;
      if (!canSink(i, at, chain, reach)) continue;
      // The chain keeps its order, each link before the instruction it feeds.
      llvm::Instruction *next = at;
      chain.insert(chain.begin(), i);
      std::sort(chain.begin(), chain.end(), [](llvm::Instruction *x, llvm::Instruction *y) { return y->comesBefore(x); });
      for (llvm::Instruction *c : chain) {
        c->moveBefore(next);
        next = c;
      }
      changed = true;
    }
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace twintile::backend
