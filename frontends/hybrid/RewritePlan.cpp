//===- RewritePlan.cpp - which statements the hybrid front end rewrites --===//
//
// A walk over the instantiated kernel and the functions of its file it
// calls (lambdas' bodies included, a generic lambda's in each instantiation
// of it): every if, for and while whose condition is a device value (a
// language value converted to bool: the tracer's native control flow) is
// planned (Statements.cpp, EarlyExits.cpp), with what it carries; what the
// rewrite cannot keep is refused.
//===----------------------------------------------------------------------===//
#include "frontends/hybrid/PlanInternal.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/StmtCXX.h>

#include <algorithm>

namespace twintile::hybrid {

namespace plan {

RewritePlan Planner::run(const FunctionDecl &kernel) {
  RewritePlan plan;
  try {
    queue(&kernel);
    while (!pending_.empty()) {
      current_ = pending_.front();
      pending_.pop_front();
      visit(current_->getBody(), {0, current_ == &kernel});
    }
    plan.statements = once(std::move(statements_));
  } catch (Refusal &r) {
    plan.refusal = std::move(r.diag);
  }
  return plan;
}

/// The statements, each once: a function the kernel calls twice, or a
/// template's instantiations, plan its text again; a statement planned
/// differently (what it carries) is refused, as its text serves all.
std::vector<DeviceStatement> Planner::once(std::vector<DeviceStatement> all) const {
  std::vector<DeviceStatement> out;
  for (DeviceStatement &d : all) {
    // (A guard begins where the statement it follows does.)
    auto guard = [](const DeviceStatement &o) { return o.kind == DeviceStatement::Kind::Guard; };
    auto same = std::find_if(out.begin(), out.end(),
                             [&](const DeviceStatement &o) { return o.keyword == d.keyword && guard(o) == guard(d); });
    if (same == out.end()) {
      out.push_back(std::move(d));
      continue;
    }
    if (same->kind != d.kind || same->carried != d.carried || same->copies != d.copies || same->depth != d.depth ||
        same->then.end != d.then.end || same->restEnd != d.restEnd || same->var != d.var || same->lo != d.lo ||
        same->hi != d.hi || same->step != d.step || same->flag != d.flag || same->returned != d.returned ||
        same->numberCondition != d.numberCondition || same->wideIndex != d.wideIndex || same->asWhile != d.asWhile)
      throw Refusal{{locationAtOffset(d.keyword), "this device statement carries other variables in one "
                                                  "instantiation than in another (or is typed otherwise): the "
                                                  "hybrid front end rewrites "
                                                  "the text, which serves both; split the function"}};
  }
  return out;
}

//===-- Functions to visit ----------------------------------------------===//
void Planner::queue(const FunctionDecl *fn) {
  if (!fn || !fn->hasBody()) return;
  const FunctionDecl *def = nullptr;
  fn->getBody(def);
  if (!def || !queued_.insert(def).second) return;
  if (inNamespace(def, "tt") || def->isInStdNamespace()) return;
  if (!sm_.isInMainFile(sm_.getExpansionLoc(def->getLocation()))) return;  // another file's: left as written
  // A lambda's body is visited where the lambda is written, in its context.
  if (auto *m = dyn_cast<CXXMethodDecl>(def); m && m->getParent()->isLambda()) return;
  pending_.push_back(def);
}

/// Refuses what leaves the region other than by its end: return, goto,
/// and break or continue not of a loop inside it. Lambdas' own are theirs.
void Planner::checkExits(const Stmt *s, bool inLoop, const char *where, bool inSwitch) const {
  if (!s || isa<LambdaExpr>(s)) return;
  if (isa<ReturnStmt>(s))
    refuse(s->getBeginLoc(), std::string("`return` under a device condition (") + where + ") is not rewritten by the "
                             "hybrid front end: it rewrites `if (c) { ...; return; }` in the kernel's own body, in a "
                             "block or a host if's braced branch there, or directly in the body of a device loop "
                             "there, and no deeper (nor in a helper); the parse front end takes this one");
  if (isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s))
    refuse(s->getBeginLoc(), std::string("`goto` under a device condition (") + where + ") cannot be rewritten into "
                             "the combinators' structured control flow");
  if ((!inLoop && isa<ContinueStmt>(s)) || (!inLoop && !inSwitch && isa<BreakStmt>(s)))
    refuse(s->getBeginLoc(), std::string("`") + (isa<BreakStmt>(s) ? "break" : "continue") + "` under a device "
                             "condition (" + where + ") is rewritten by the hybrid front end only as `if (c) { ...; " +
                             (isa<BreakStmt>(s) ? "break" : "continue") + "; }` directly in a device loop's body, "
                             "not nested deeper or out of a host loop; the parse front end takes this one");
  bool loop = isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s);
  for (const Stmt *child : s->children())
    checkExits(child, inLoop || loop, where, inSwitch || isa<SwitchStmt>(s));
}

/// Whether `s` calls `target`, directly or through the file's functions.
bool Planner::calls(const Stmt *s, const FunctionDecl *target, std::set<const FunctionDecl *> &seen) const {
  if (!s) return false;
  const FunctionDecl *callee = nullptr;
  if (auto *call = dyn_cast<CallExpr>(s)) callee = call->getDirectCallee();
  if (auto *construct = dyn_cast<CXXConstructExpr>(s)) callee = construct->getConstructor();
  const FunctionDecl *def = nullptr;
  if (callee && callee->hasBody(def) && def) {
    if (def == target) return true;
    if (sm_.isInMainFile(sm_.getExpansionLoc(def->getLocation())) && seen.insert(def).second &&
        calls(def->getBody(), target, seen))
      return true;
  }
  for (const Stmt *child : s->children())
    if (calls(child, target, seen)) return true;
  return false;
}

/// Refuses recursion under a device condition: the rewrite makes the
/// statement's parts lambdas that the tracer runs whichever way the
/// condition goes, so recursion ending on a device value would never end
/// (and the plan does not tell it from recursion ending on host values).
void Planner::noRecursion(const std::vector<const Stmt *> &parts, SourceLocation at) const {
  std::vector<const FunctionDecl *> enclosing = lambdas_;
  if (const FunctionDecl *def = nullptr; current_ && current_->hasBody(def)) enclosing.push_back(def);
  for (const FunctionDecl *fn : enclosing)
    for (const Stmt *part : parts)
      if (std::set<const FunctionDecl *> seen; calls(part, fn, seen))
        refuse(at, "recursion under a device condition is not rewritten by the hybrid front end: it makes this "
                   "statement's parts lambdas, which the tracer runs whichever way the condition goes, so "
                   "recursion that ends on a device value would never end (the plan does not tell it from "
                   "recursion that ends on host values, which the parse front end takes)");
}

//===-- The walk --------------------------------------------------------===//
/// Refuses a control statement at `at` whose condition was a device value
/// where it was seen before and a host value now, or the other way.
void Planner::sameKind(SourceLocation at, bool device) {
  size_t o = sm_.getFileOffset(sm_.getExpansionLoc(at));
  auto [it, fresh] = seen_.emplace(o, device);
  if (!fresh && it->second != device)
    refuse(at, "this condition is a device value in one instantiation and a host value in another: the hybrid "
               "front end rewrites the text, which serves both; split the function, or use if constexpr");
}

/// Whether a device condition tests a number rather than an i1.
bool Planner::testsNumber(const Expr *cond) {
  const Expr *tested = deviceCondition(cond);
  std::optional<ir::Type> t = tested ? elementOf(tested->getType()) : std::nullopt;
  return t && t->elem != ir::ScalarKind::I1;
}

DeviceStatement Planner::statement(DeviceStatement::Kind kind, int depth) const {
  DeviceStatement d;
  d.kind = kind;
  d.id = static_cast<int>(statements_.size());
  d.depth = depth;
  return d;
}

void Planner::visit(const Stmt *s, Context c) {
  if (!s) return;
  if (auto *compound = dyn_cast<CompoundStmt>(s)) {
    int depth = c.depth;
    for (const Stmt *child : compound->body()) {
      if (c.kernelTop && earlyExit<ReturnStmt>(child)) {
        planEarlyReturn(cast<IfStmt>(child), compound, depth);
        ++depth;  // the rest is inside it
        continue;
      }
      if (c.kernelTop && holdsReturn(child)) {
        planHolder(child, compound, depth);
        ++depth;  // what follows is inside its guard
        continue;
      }
      if ((c.returnBlock == compound || (c.loopBody == compound && !c.returned.empty())) &&
          earlyExit<ReturnStmt>(child)) {
        planExit(DeviceStatement::Kind::Return, cast<IfStmt>(child), compound, depth, c.flag, c.returned);
        ++depth;
        continue;
      }
      if (c.loopBody == compound && earlyExit<ContinueStmt>(child)) {
        // (In a loop with a flag, a continue carries it too: a break or return after it sets it in the rest.)
        planExit(DeviceStatement::Kind::Continue, cast<IfStmt>(child), compound, depth, c.flag, c.returned);
        ++depth;
        continue;
      }
      if (c.loopBody == compound && earlyExit<BreakStmt>(child)) {
        planExit(DeviceStatement::Kind::Break, cast<IfStmt>(child), compound, depth, c.flag, c.returned);
        ++depth;
        continue;
      }
      visit(child, {depth, false, nullptr, {}, c.copiedWhole});  // a nested block is not the kernel's own body
    }
    return;
  }
  Context inner{c.depth, false, nullptr, {}, c.copiedWhole};
  if (c.copiedWhole) {
    const Expr *cond = nullptr;
    if (auto *i = dyn_cast<IfStmt>(s)) cond = i->getCond();
    if (auto *f = dyn_cast<ForStmt>(s)) cond = f->getCond();
    if (auto *w = dyn_cast<WhileStmt>(s)) cond = w->getCond();
    if (auto *t = dyn_cast<ConditionalOperator>(s)) cond = t->getCond();
    if (deviceCondition(cond))
      refuse(s->getBeginLoc(), "native device control flow inside the header of a device for loop (a lambda or "
                               "?: in its bound) is not rewritten by the hybrid front end, which copies the header's "
                               "text into for_range: compute the value before the loop");
  }
  if (auto *i = dyn_cast<IfStmt>(s); i && !i->isConstexpr() && !i->isConsteval()) {
    bool device = deviceCondition(i->getCond()) != nullptr;
    sameKind(i->getIfLoc(), device);
    if (device) {
      noRecursion({i->getThen(), i->getElse()}, i->getIfLoc());
      return planIf(i, c.depth);
    }
  }
  if (auto *f = dyn_cast<ForStmt>(s)) {
    bool device = deviceCondition(f->getCond()) != nullptr;
    sameKind(f->getForLoc(), device);
    if (device) {
      noRecursion({f->getBody()}, f->getForLoc());  // (its header is read once, before the loop)
      return planFor(f, c.depth);
    }
  }
  if (auto *w = dyn_cast<WhileStmt>(s)) {
    bool device = deviceCondition(w->getCond()) != nullptr;
    sameKind(w->getWhileLoc(), device);
    if (device) {
      noRecursion({w->getCond(), w->getBody()}, w->getWhileLoc());
      return planWhile(w, c.depth);
    }
  }
  if (auto *d = dyn_cast<DoStmt>(s); d && deviceCondition(d->getCond()))
    refuse(d->getDoLoc(), "a do-while loop on a device condition is not rewritten by the hybrid front end: write it "
                          "as a while loop (or while_loop)");
  if (auto *t = dyn_cast<ConditionalOperator>(s); t && deviceCondition(t->getCond())) {
    noRecursion({t->getTrueExpr(), t->getFalseExpr()}, t->getQuestionLoc());
    return planSelect(t, c.depth);
  }
  if (auto *l = dyn_cast<LambdaExpr>(s)) {
    const CXXMethodDecl *call = l->getCallOperator();
    auto inside = [&](const FunctionDecl *fn, const Stmt *body) {
      lambdas_.push_back(fn);  // recursion through the lambda (a generic one calling itself) is seen
      visit(body, inner);
      lambdas_.pop_back();
    };
    if (const FunctionTemplateDecl *t = call->getDescribedFunctionTemplate()) {
      for (const FunctionDecl *spec : t->specializations())
        if (spec->hasBody()) inside(spec, spec->getBody());
    } else {
      inside(call, l->getBody());
    }
    return;
  }
  if (auto *call = dyn_cast<CallExpr>(s)) queue(call->getDirectCallee());
  if (auto *construct = dyn_cast<CXXConstructExpr>(s)) queue(construct->getConstructor());
  for (const Stmt *child : s->children()) visit(child, inner);
}

} // namespace plan

RewritePlan planRewrite(const clang::FunctionDecl &kernel) { return plan::Planner(kernel).run(kernel); }

} // namespace twintile::hybrid
