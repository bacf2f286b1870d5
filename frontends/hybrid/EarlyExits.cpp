//===- EarlyExits.cpp - the early return, continue and break planned -----===//
//
// `if (c) { ...; return; }` in the kernel's own body, and `if (c) { ...;
// continue; }` or `break;` directly in a device loop's body: the rest of the
// body becomes the other branch (a loop that breaks carries a flag). An
// early return one level deeper (in a device loop, a block or a host if's
// branch of the kernel's own body) sets the kernel's return flag, which the
// statement holding it carries out, and what follows that statement runs
// unless the flag is set (a Guard).
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
/// branches (and returns', where the loop holds them) but their last
/// statement, and everything else whole.
void Planner::checkLoopBody(const Stmt *body, bool returns) const {
  auto *c = dyn_cast<CompoundStmt>(body);
  if (!c) return checkExits(body, false, "the body of a device loop");
  for (const Stmt *child : c->body()) {
    if (!earlyExit<ContinueStmt>(child) && !earlyExit<BreakStmt>(child) && !(returns && earlyExit<ReturnStmt>(child))) {
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
                       const std::string &flag, const std::string &returned) {
  sameKind(i->getIfLoc(), true);
  DeviceStatement d = earlyExitStatement(kind, i, body, depth);
  if (kind == DeviceStatement::Kind::Break) d.exit = textOf(exitOf<BreakStmt>(i->getThen()));
  else if (kind == DeviceStatement::Kind::Return) d.exit = textOf(exitOf<ReturnStmt>(i->getThen()));
  else d.exit = textOf(exitOf<ContinueStmt>(i->getThen()));
  d.flag = flag;
  d.returned = returned;
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
  if (!returned.empty() && returned != flag) d.copies.push_back(returned), d.carried.push_back(returned);
  if (d.carried.size() > 6) tooMany(i->getIfLoc(), d.carried.size());
  std::vector<const Stmt *> tops{i->getThen()};
  tops.insert(tops.end(), parts.begin() + 1, parts.end());  // the rest's statements
  noShadow(tops, d);
  statements_.push_back(std::move(d));
  visit(i->getThen(), {depth + 1, false, nullptr});
}

/// Whether `s`, a statement of the kernel's own body, holds an early
/// return the rewrite carries out through a flag: directly in the body of
/// a device loop, in a block, or in a branch of a host (or constexpr) if.
bool Planner::holdsReturn(const Stmt *s) const {
  auto direct = [&](const Stmt *block) {
    auto *c = dyn_cast_or_null<CompoundStmt>(block);
    return c && std::any_of(c->body_begin(), c->body_end(), [&](const Stmt *t) { return earlyExit<ReturnStmt>(t); });
  };
  if (auto *f = dyn_cast<ForStmt>(s)) return deviceCondition(f->getCond()) && direct(f->getBody());
  if (auto *w = dyn_cast<WhileStmt>(s)) return deviceCondition(w->getCond()) && direct(w->getBody());
  if (auto *i = dyn_cast<IfStmt>(s))
    return !i->isConsteval() && (i->isConstexpr() || !deviceCondition(i->getCond())) &&
           (direct(i->getThen()) || direct(i->getElse()));
  return direct(s);
}

/// In `block`, whose early returns set the flag `returned`: what follows
/// the first of them runs inside their rest, so a `return;` ending the
/// block sets the flag too (nothing follows it), and any other return there
/// is refused.
void Planner::returnsAfter(const Stmt *block, const std::string &returned, int depth) {
  auto *c = dyn_cast_or_null<CompoundStmt>(block);
  if (!c) return;
  bool after = false;
  for (const Stmt *child : c->body()) {
    if (earlyExit<ReturnStmt>(child)) {
      after = true;
      continue;
    }
    if (!after) continue;
    if (auto *r = dyn_cast<ReturnStmt>(child); r && !r->getRetValue() && child == c->body_back()) {
      DeviceStatement d = statement(DeviceStatement::Kind::FinalReturn, depth);
      d.keyword = offset(r->getReturnLoc());
      d.exit = textOf(r);
      d.returned = returned;
      statements_.push_back(std::move(d));
      continue;
    }
    checkExits(child, false, "after an early return in this block, inside what the rewrite makes its rest");
  }
}

/// A statement of the kernel's own body holding early returns: its flag
/// declared before it, and what follows it, to the kernel's end, run
/// unless the flag is set.
void Planner::planHolder(const Stmt *s, const CompoundStmt *kernelBody, int depth) {
  DeviceStatement guard = statement(DeviceStatement::Kind::Guard, depth);
  guard.keyword = offset(s->getBeginLoc());
  guard.then = textOf(s);
  // Nothing to guard where the statement ends the kernel's body (its end may
  // touch the body's `}`, where the guard could not open before it closes).
  guard.restEnd = s == kernelBody->body_back() ? guard.then.end : offset(kernelBody->getRBracLoc());
  guard.returned = returnFlagOf(guard.keyword);
  std::string returned = guard.returned;
  statements_.push_back(std::move(guard));  // first: its flag is declared before the statement's own text
  if (auto *f = dyn_cast<ForStmt>(s)) {
    sameKind(f->getForLoc(), true);
    noRecursion({f->getBody()}, f->getForLoc());
    return planFor(f, depth, returned);
  }
  if (auto *w = dyn_cast<WhileStmt>(s)) {
    sameKind(w->getWhileLoc(), true);
    noRecursion({w->getCond(), w->getBody()}, w->getWhileLoc());
    return planWhile(w, depth, returned);
  }
  if (auto *i = dyn_cast<IfStmt>(s)) {  // the host if's parts as anywhere, its branches' returns setting the flag
    if (!i->isConstexpr()) sameKind(i->getIfLoc(), false);
    for (const Stmt *part : {i->getInit(), static_cast<const Stmt *>(i->getConditionVariableDeclStmt()),
                             static_cast<const Stmt *>(i->getCond())})
      visit(part, {depth});
    for (const Stmt *branch : {i->getThen(), i->getElse()}) {
      returnsAfter(branch, returned, depth);
      visit(branch, {depth, false, nullptr, {}, false, branch, returned});
    }
    return;
  }
  returnsAfter(s, returned, depth);
  visit(s, {depth, false, nullptr, {}, false, s, returned});
}

} // namespace twintile::hybrid::plan
