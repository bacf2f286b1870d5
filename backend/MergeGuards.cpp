//===- MergeGuards.cpp - one branch for neighbouring regions on one mask --===//
#include "backend/MergeGuards.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <optional>

namespace twintile::backend {

namespace {

/// A guarded region: `head` branches on `cond` to `then` or to `join`;
/// `then` is entered from `head` alone, has no phis, and falls into `join`;
/// `join` is entered from those two and nothing else.
struct Guard {
  llvm::BasicBlock *head, *then, *join;
  llvm::Value *cond;
};

std::optional<Guard> guardAt(llvm::BasicBlock *head) {
  auto *br = llvm::dyn_cast<llvm::BranchInst>(head->getTerminator());
  if (!br || !br->isConditional()) return std::nullopt;
  llvm::BasicBlock *then = br->getSuccessor(0), *join = br->getSuccessor(1);
  if (then == join || then == head || join == head) return std::nullopt;
  if (then->getSinglePredecessor() != head || llvm::isa<llvm::PHINode>(then->front())) return std::nullopt;
  auto *thenBr = llvm::dyn_cast<llvm::BranchInst>(then->getTerminator());
  if (!thenBr || thenBr->isConditional() || thenBr->getSuccessor(0) != join) return std::nullopt;
  if (!join->hasNPredecessors(2)) return std::nullopt;
  return Guard{head, then, join, br->getCondition()};
}

/// The guard after `first` if it tests the same condition and nothing but
/// phis stands between them.
std::optional<Guard> nextOnSameCondition(const Guard &first) {
  llvm::BasicBlock *j1 = first.join;
  if (j1->getFirstNonPHI() != j1->getTerminator()) return std::nullopt;
  std::optional<Guard> second = guardAt(j1);
  if (!second || second->cond != first.cond) return std::nullopt;
  // Five distinct blocks: the second region does not lead back into the first.
  if (second->join == first.head || second->join == first.then) return std::nullopt;
  return second;
}

/// first (A -> T1 | J1) and second (J1 -> T2 | J2) become A -> T1;T2 | J2.
void merge(const Guard &first, const Guard &second) {
  llvm::BasicBlock *a = first.head, *t1 = first.then, *j1 = first.join;
  llvm::BasicBlock *t2 = second.then, *j2 = second.join;

  // J1's phis: T1's value on the guarded path, A's on the other. Inside T2
  // only the first can arrive; past J2 either can, so a phi there picks.
  for (llvm::PHINode &p : llvm::make_early_inc_range(j1->phis())) {
    llvm::Value *taken = p.getIncomingValueForBlock(t1), *skipped = p.getIncomingValueForBlock(a);
    llvm::PHINode *after = nullptr;
    for (llvm::Use &use : llvm::make_early_inc_range(p.uses())) {
      auto *user = llvm::cast<llvm::Instruction>(use.getUser());
      if (user->getParent() == t2) {
        use.set(taken);
        continue;
      }
      if (auto *q = llvm::dyn_cast<llvm::PHINode>(user); q && q->getParent() == j2) {
        use.set(q->getIncomingBlock(use) == t2 ? taken : skipped);
        continue;
      }
      if (!after) {
        after = llvm::PHINode::Create(p.getType(), 2, p.getName(), j2->begin());
        after->addIncoming(taken, t2);
        after->addIncoming(skipped, j1);
      }
      use.set(after);
    }
    p.eraseFromParent();
  }

  // J2 is now entered from A where it was from J1, and T2's code ends T1.
  for (llvm::PHINode &q : j2->phis()) q.replaceIncomingBlockWith(j1, a);
  llvm::cast<llvm::BranchInst>(a->getTerminator())->setSuccessor(1, j2);
  t1->getTerminator()->eraseFromParent();
  t1->splice(t1->end(), t2);
  t1->replaceSuccessorsPhiUsesWith(t2, t1);
  j1->eraseFromParent();
  t2->eraseFromParent();
}

} // namespace

llvm::PreservedAnalyses MergeGuardsPass::run(llvm::Function &fn, llvm::FunctionAnalysisManager &) {
  bool changed = false;
  // Merging deletes only blocks after the head, never the one `bb` is at.
  for (llvm::BasicBlock &bb : fn) {
    std::optional<Guard> first = guardAt(&bb);
    while (first) {
      std::optional<Guard> second = nextOnSameCondition(*first);
      if (!second) break;
      merge(*first, *second);
      changed = true;
      first = guardAt(&bb);
    }
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace twintile::backend
