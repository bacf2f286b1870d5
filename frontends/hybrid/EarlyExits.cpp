//===- EarlyExits.cpp - the early return, continue and break planned -----===//
//
// `if (c) { ...; return; }` in the kernel's own body, and `if (c) { ...;
// continue; }` or `break;` directly in a device loop's body: the rest of the
// body becomes the other branch (a loop that breaks carries a flag).
//===----------------------------------------------------------------------===//
#include "frontends/hybrid/PlanInternal.h"

#include <algorithm>
#include <limits>

namespace twintile::hybrid::plan {

/// Whether a device loop's body has an early break: a flag to carry.
bool Planner::breaks(const Stmt *body) const {
  auto *c = dyn_cast<CompoundStmt>(body);
  return c && std::any_of(c->body_begin(), c->body_end(), [&](const Stmt *s) { return earlyExit<BreakStmt>(s); });
}

/// What leaves a device loop's body: its early continues' and breaks'
/// branches but their last statement, and everything else whole.
void Planner::checkLoopBody(const Stmt *body) const {
  auto *c = dyn_cast<CompoundStmt>(body);
  if (!c) return checkExits(body, false, "the body of a device loop");
  for (const Stmt *child : c->body()) {
    if (!earlyExit<ContinueStmt>(child) && !earlyExit<BreakStmt>(child)) {
      checkExits(child, false, "the body of a device loop");
      continue;
    }
    const Stmt *then = cast<IfStmt>(child)->getThen();
    if (auto *branch = dyn_cast<CompoundStmt>(then))
      for (const Stmt *s : branch->body())
        if (s != branch->body_back()) checkExits(s, false, "the body of a device loop");
  }
}

/// An early exit's statement: its branch and where the rest ends.
DeviceStatement Planner::earlyExitStatement(DeviceStatement::Kind kind, const IfStmt *i, const CompoundStmt *block,
                                            int depth) {
  // The branch, and the rest: the other branch (the condition runs once).
  std::vector<const Stmt *> branches{i->getThen()};
  branches.insert(branches.end(), std::next(std::find(block->body_begin(), block->body_end(), i)), block->body_end());
  noRecursion(branches, i->getIfLoc());
  if (auto *c = dyn_cast<CompoundStmt>(i->getThen()))
    for (const Stmt *child : c->body())
      if (child != c->body_back()) checkExits(child, false, "a device if");
  pureCondition(i->getCond(), i, "the condition of this device if");
  visit(i->getCond(), {depth + 2, false, nullptr});  // inside its `(c) != 0`
  DeviceStatement d = statement(kind, depth);
  d.keyword = offset(i->getIfLoc());
  d.numberCondition = testsNumber(i->getCond());
  d.lparen = offset(i->getLParenLoc());
  d.rparen = offset(i->getRParenLoc());
  d.then = textOf(i->getThen());
  d.restEnd = offset(block->getRBracLoc());
  return d;
}

/// if (c) { ...; return; } in the kernel's own body: the rest of the body
/// is the other branch; the branch copies what it assigns (the rest reads
/// the values before it, as where the kernel did not return), and nothing
/// is carried out: nothing follows.
void Planner::planEarlyReturn(const IfStmt *i, const CompoundStmt *block, int depth) {
  sameKind(i->getIfLoc(), true);
  DeviceStatement d = earlyExitStatement(DeviceStatement::Kind::EarlyReturn, i, block, depth);
  Span whole{0, std::numeric_limits<size_t>::max(), i->getIfLoc()};
  d.copies = carried(spanOf(i), {i->getThen()}, Order::ByDeclaration, whole, std::nullopt, false);
  noShadow({i->getThen()}, d);
  statements_.push_back(std::move(d));
  visit(i->getThen(), {depth + 1, false, nullptr});
}

/// if (c) { ...; continue; } (or break;) in a device loop's body: the
/// rest of the body is the other branch. The branch copies what it
/// assigns; what the loop carries comes out (the rest of the iteration is all that
/// follows), the loop's flag too where it has one (a break's branch sets
/// it; a break later in the rest may).
void Planner::planExit(DeviceStatement::Kind kind, const IfStmt *i, const CompoundStmt *body, int depth,
                       const std::string &flag) {
  sameKind(i->getIfLoc(), true);
  DeviceStatement d = earlyExitStatement(kind, i, body, depth);
  if (kind == DeviceStatement::Kind::Break) d.exit = textOf(exitOf<BreakStmt>(i->getThen()));
  else d.exit = textOf(exitOf<ContinueStmt>(i->getThen()));
  d.flag = flag;
  Span region{offset(i->getIfLoc()), d.restEnd, i->getIfLoc()};
  std::vector<const Stmt *> parts{i->getThen()};
  bool after = false;
  for (const Stmt *s : body->body()) {
    if (after) parts.push_back(s);
    after = after || s == i;
  }
  Span loopBody = spanOf(body);
  // The branch runs on copies (the rest, after it when traced, reads the
  // values before it); the rest on the variables themselves.
  d.copies = carried(region, {i->getThen()}, Order::ByDeclaration, loopBody, std::nullopt, false);
  d.carried = carried(region, parts, Order::ByDeclaration, loopBody, loopBody);
  if (!flag.empty()) d.copies.push_back(flag), d.carried.push_back(flag);
  if (d.carried.size() > 6) tooMany(i->getIfLoc(), d.carried.size());
  std::vector<const Stmt *> tops{i->getThen()};
  tops.insert(tops.end(), parts.begin() + 1, parts.end());  // the rest's statements
  noShadow(tops, d);
  statements_.push_back(std::move(d));
  visit(i->getThen(), {depth + 1, false, nullptr});
}

} // namespace twintile::hybrid::plan
