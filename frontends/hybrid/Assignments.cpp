//===- Assignments.cpp - what a rewritten statement assigns and carries ---===//
//
// A statement rewritten into a combinator carries the variables declared
// outside it that it assigns; a branch copies them, a loop passes them to
// each iteration. What it changes otherwise (a member, a binding, a host
// object, through a lambda or a reference the rewrite cannot see) is
// refused, as is a condition that assigns.
//===----------------------------------------------------------------------===//
#include "frontends/hybrid/PlanInternal.h"

#include "frontends/clang/LanguageDecls.h"

#include <clang/AST/DeclCXX.h>

#include <algorithm>

namespace twintile::hybrid::plan {

namespace {

/// A conversion of one value (the language's wrappers take a defaulted
/// source location besides it).
bool converts(const CXXConstructExpr *c) {
  if (c->getNumArgs() == 0 || isa<CXXTemporaryObjectExpr>(c)) return false;
  for (unsigned i = 1; i < c->getNumArgs(); ++i)
    if (!isa<CXXDefaultArgExpr>(c->getArg(i))) return false;
  return true;
}

bool isAssignment(OverloadedOperatorKind op) {
  switch (op) {
  case OO_Equal: case OO_PlusEqual: case OO_MinusEqual: case OO_StarEqual: case OO_SlashEqual:
  case OO_PercentEqual: case OO_AmpEqual: case OO_PipeEqual: case OO_CaretEqual: case OO_LessLessEqual:
  case OO_GreaterGreaterEqual: case OO_PlusPlus: case OO_MinusMinus:
    return true;
  default:
    return false;
  }
}

/// A global or static variable `fn` (or what it calls, in the user's code)
/// assigns: host state a call under a device condition would change.
const VarDecl *writesHostState(const FunctionDecl *fn, std::set<const FunctionDecl *> &seen);

const VarDecl *writtenIn(const Stmt *s, std::set<const FunctionDecl *> &seen) {
  if (!s) return nullptr;
  const Expr *lhs = nullptr;
  if (auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) lhs = b->getLHS();
  if (auto *u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp()) lhs = u->getSubExpr();
  if (auto *o = dyn_cast<CXXOperatorCallExpr>(s); o && isAssignment(o->getOperator()) && o->getNumArgs() >= 1)
    lhs = o->getArg(0);
  if (auto *ref = dyn_cast_or_null<DeclRefExpr>(lhs ? lhs->IgnoreParenImpCasts() : nullptr))
    if (auto *v = dyn_cast<VarDecl>(ref->getDecl()); v && v->hasGlobalStorage())
      return v;
  if (auto *c = dyn_cast<CallExpr>(s))
    if (const VarDecl *v = writesHostState(c->getDirectCallee(), seen)) return v;
  for (const Stmt *child : s->children())
    if (const VarDecl *v = writtenIn(child, seen)) return v;
  return nullptr;
}

const VarDecl *writesHostState(const FunctionDecl *fn, std::set<const FunctionDecl *> &seen) {
  const FunctionDecl *def = nullptr;
  if (!fn || inNamespace(fn, "tt") || fn->isInStdNamespace() || !fn->hasBody(def) || !seen.insert(def).second)
    return nullptr;
  return writtenIn(def->getBody(), seen);
}

} // namespace

const Expr *peel(const Expr *e) {
  while (e) {
    e = e->IgnoreParenImpCasts();
    if (auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else if (auto *b = dyn_cast<CXXBindTemporaryExpr>(e)) e = b->getSubExpr();
    else if (auto *w = dyn_cast<ExprWithCleanups>(e)) e = w->getSubExpr();
    else if (auto *c = dyn_cast<CXXConstructExpr>(e); c && converts(c)) e = c->getArg(0);
    else if (auto *f = dyn_cast<CXXFunctionalCastExpr>(e)) e = f->getSubExpr();
    else return e;
  }
  return e;
}

void Assignments::target(const Expr *e, SourceLocation at, const Span &region, std::vector<Assigned> &out) const {
  e = peel(e);
  if (auto *ref = dyn_cast_or_null<DeclRefExpr>(e)) {
    if (auto *b = dyn_cast<BindingDecl>(ref->getDecl()); b && !inside(b->getLocation(), region))
      refuse(at, "structured binding '" + b->getNameAsString() + "' is assigned under a device condition: the "
                 "hybrid front end carries variables through the combinators, not bindings; copy it into a "
                 "variable first");
    auto *v = dyn_cast<VarDecl>(ref->getDecl());
    if (v && v->getType()->isReferenceType() && inside(v->getLocation(), region)) {
      // A reference of the region's own: what it is bound to is assigned.
      const Expr *init = v->hasInit() ? peel(v->getInit()) : nullptr;
      if (!isa_and_nonnull<DeclRefExpr>(init))
        refuse(at, "'" + v->getNameAsString() + "' is a reference to what the hybrid front end cannot name (not a "
                   "variable), assigned under a device condition; assign the variable itself");
      return target(init, at, region, out);
    }
    if (v && !inside(v->getLocation(), region)) out.push_back({v, at});
    return;
  }
  if (!isa_and_nonnull<MemberExpr>(e) && !isa_and_nonnull<ArraySubscriptExpr>(e) &&
      !(isa_and_nonnull<CXXOperatorCallExpr>(e) && cast<CXXOperatorCallExpr>(e)->getOperator() == OO_Subscript)) {
    if (e && !isa<CXXTemporaryObjectExpr>(e) && !isa<MaterializeTemporaryExpr>(e))
      refuse(at, "this is assigned (or changed) through an expression the hybrid front end cannot follow (a pointer, "
                 "a call returning a reference, ?:) under a device condition: assign a variable by name");
    return;
  }
  const Expr *base = e;
  std::string what;
  while (base) {
    if (auto *m = dyn_cast<MemberExpr>(base)) {
      what = what.empty() ? m->getMemberDecl()->getNameAsString() : m->getMemberDecl()->getNameAsString() + "." + what;
      base = peel(m->getBase());
    } else if (auto *a = dyn_cast<ArraySubscriptExpr>(base)) {
      base = peel(a->getBase());
      what = "an element";
    } else if (auto *o = dyn_cast<CXXOperatorCallExpr>(base); o && o->getOperator() == OO_Subscript) {
      base = peel(o->getArg(0));
      what = "an element";
    } else {
      break;
    }
  }
  if (base == e) return;
  if (isa_and_nonnull<CXXThisExpr>(base))
    refuse(at, "member 'this->" + what + "' is assigned under a device condition: the hybrid front end carries "
               "variables through the combinators, not members of an object; assign a variable of the language's types (f32 s = ..., a "
               "tile) instead and use it after the statement");
  if (auto *ref = dyn_cast_or_null<DeclRefExpr>(base))
    if (auto *v = dyn_cast<VarDecl>(ref->getDecl()); v && !inside(v->getLocation(), region))
      refuse(at, (what == "an element" ? "an element of '" + v->getNameAsString() + "'"
                                       : "member '" + v->getNameAsString() + "." + what + "'") +
                     " is assigned under a device condition: the hybrid front end carries variables through the "
                     "combinators, not parts of an object declared outside; assign a variable of the language's types "
                     "(f32 s = ..., a tile) instead and use it after the statement");
}

void Assignments::assignedIn(const Stmt *s, const Span &region, std::vector<Assigned> &out) const {
  if (!s) return;
  if (auto *decls = dyn_cast<DeclStmt>(s))
    for (const Decl *d : decls->decls())
      if (auto *v = dyn_cast<VarDecl>(d); v && v->isStaticLocal())
        refuse(v->getLocation(), "static local variable '" + v->getNameAsString() + "' under a device condition: "
                                 "the rewritten program would keep it whichever way the device goes");
  if (auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) target(b->getLHS(), b->getOperatorLoc(), region, out);
  if (auto *u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp())
    target(u->getSubExpr(), u->getOperatorLoc(), region, out);
  if (auto *o = dyn_cast<CXXOperatorCallExpr>(s); o && isAssignment(o->getOperator()) && o->getNumArgs() >= 1)
    target(o->getArg(0), o->getOperatorLoc(), region, out);
  if (auto *m = dyn_cast<CXXMemberCallExpr>(s)) {
    const CXXMethodDecl *method = m->getMethodDecl();
    const Expr *object = peel(m->getImplicitObjectArgument());
    if (method && !method->isConst() && !method->isStatic() && object && !isa<CXXConversionDecl>(method)) {
      if (auto *ref = dyn_cast<DeclRefExpr>(object)) {
        auto *v = dyn_cast<VarDecl>(ref->getDecl());
        if (v && !inside(v->getLocation(), region) && !isDeviceType(v->getType()))
          refuse(m->getExprLoc(), "host object '" + v->getNameAsString() + "' is changed under a device condition "
                                  "(its method '" + method->getNameAsString() + "'): the rewritten program would "
                                  "change it once, whichever way the device goes; change it outside the statement");
        target(object, m->getExprLoc(), region, out);
      }
    }
  }
  if (auto *o = dyn_cast<CXXOperatorCallExpr>(s); o && !isAssignment(o->getOperator()) && o->getNumArgs() >= 1)
    if (auto *method = dyn_cast_or_null<CXXMethodDecl>(o->getDirectCallee());
        method && !method->isConst() && !method->isStatic() && !inNamespace(method, "tt"))
      if (auto *ref = dyn_cast<DeclRefExpr>(peel(o->getArg(0))))
        if (auto *v = dyn_cast<VarDecl>(ref->getDecl());
            v && !inside(v->getLocation(), region) && !isDeviceType(v->getType()))
          refuse(o->getExprLoc(), "host object '" + v->getNameAsString() + "' is changed under a device condition (its "
                                  "non-const operator, or a mutable lambda's call): the rewritten program would change "
                                  "it once, whichever way the device goes; change it outside the statement");
  if (auto *c = dyn_cast<CallExpr>(s)) {
    const FunctionDecl *fn = c->getDirectCallee();
    if (fn && !inNamespace(fn, "tt") && !fn->isInStdNamespace()) {
      // Host memory handed to a call (an array, a pointer to what is not const, a variable's address).
      for (const Expr *arg : c->arguments()) {
        if (auto *a = dyn_cast<UnaryOperator>(peel(arg)); a && a->getOpcode() == UO_AddrOf)
          if (auto *ref = dyn_cast<DeclRefExpr>(peel(a->getSubExpr())))
            if (auto *v = dyn_cast<VarDecl>(ref->getDecl()); v && !inside(v->getLocation(), region))
              refuse(arg->getExprLoc(), "the address of '" + v->getNameAsString() + "' is passed to '" +
                                            fn->getNameAsString() + "' under a device condition: what it writes "
                                            "there, the rewritten program would write whichever way the device goes");
        if (auto *ref = dyn_cast<DeclRefExpr>(peel(arg)))
          if (auto *v = dyn_cast<VarDecl>(ref->getDecl()); v && !inside(v->getLocation(), region)) {
            QualType t = v->getType().getNonReferenceType();
            if (t->isArrayType() || (t->isPointerType() && !t->getPointeeType().isConstQualified()))
              refuse(arg->getExprLoc(), "host memory '" + v->getNameAsString() + "' is passed to '" +
                                            fn->getNameAsString() + "' under a device condition: what it writes "
                                            "there, the rewritten program would write whichever way the device goes");
          }
      }
      std::set<const FunctionDecl *> seen;
      if (const VarDecl *global = writesHostState(fn, seen))
        refuse(c->getExprLoc(), "'" + fn->getNameAsString() + "', called under a device condition, changes '" +
                                    global->getNameAsString() + "', a variable outside any function: the rewritten "
                                    "program would change it whichever way the device goes");
    }
    unsigned shift = isa<CXXOperatorCallExpr>(c) && fn && isa<CXXMethodDecl>(fn) ? 1 : 0;
    if (fn)
      for (unsigned i = 0; i < fn->getNumParams() && i + shift < c->getNumArgs(); ++i) {
        QualType p = fn->getParamDecl(i)->getType();
        if (p->isLValueReferenceType() && !p->getPointeeType().isConstQualified())
          target(c->getArg(i + shift), c->getArg(i + shift)->getExprLoc(), region, out);
      }
  }
  for (const Stmt *child : s->children()) assignedIn(child, region, out);
}

std::vector<std::string> Assignments::carried(const Stmt *region, std::vector<const Stmt *> parts, Order order) const {
  return carried(spanOf(region), parts, order);
}

std::vector<std::string> Assignments::carried(const Span &region, const std::vector<const Stmt *> &parts, Order order,
                                 std::optional<Span> hostAllowed,
                                 std::optional<Span> leaveOut, bool carriedOut) const {
  std::vector<Assigned> all;
  for (const Stmt *p : parts) assignedIn(p, region, all);
  for (const Stmt *p : parts) unseenState(p, region, all);
  std::vector<const VarDecl *> vars;
  for (const Assigned &a : all) {
    if (leaveOut && inside(a.var->getLocation(), *leaveOut)) continue;
    if (!isDeviceType(a.var->getType()) && !(hostAllowed && inside(a.var->getLocation(), *hostAllowed)))
      refuse(a.at, "host variable '" + a.var->getNameAsString() + "' is assigned under a device condition: its "
                   "value would depend on the device, and the rewritten program would assign it whichever way "
                   "the device goes; give it a device type (f32 x = 0.0f)");
    if (std::find(vars.begin(), vars.end(), a.var) == vars.end()) vars.push_back(a.var);
  }
  if (order == Order::ByDeclaration)
    std::sort(vars.begin(), vars.end(), [&](const VarDecl *a, const VarDecl *b) {
      return sm_.isBeforeInTranslationUnit(a->getLocation(), b->getLocation());
    });
  std::vector<std::string> names;
  for (const VarDecl *v : vars) {
    std::string n = v->getNameAsString();
    if (std::find(names.begin(), names.end(), n) != names.end())
      refuse(region.at, "two variables named '" + n + "' are assigned under this device condition: "
                                    "the hybrid front end carries them by name; rename one");
    names.push_back(n);
  }
  if (carriedOut && names.size() > 6)
    refuse(region.at, "this device statement assigns " + std::to_string(names.size()) + " variables "
                                  "declared outside it; the combinators carry at most 6: group them in fewer tiles");
  return names;
}

void Assignments::unseenState(const Stmt *s, const Span &region, const std::vector<Assigned> &assigned) const {
  if (!s) return;
  auto assigns = [&](const VarDecl *v) {
    return std::any_of(assigned.begin(), assigned.end(), [&](const Assigned &a) { return a.var == v; });
  };
  if (auto *ref = dyn_cast<DeclRefExpr>(s)) {
    auto *v = dyn_cast<VarDecl>(ref->getDecl());
    // A lambda declared outside, named inside (called, or passed to a helper
    // that calls it): what it captures by reference is the outside's.
    const CXXRecordDecl *lambda = v ? v->getType().getNonReferenceType()->getAsCXXRecordDecl() : nullptr;
    if (lambda && lambda->isLambda() && !inside(v->getLocation(), region)) {
      std::vector<Assigned> own;
      if (const CXXMethodDecl *call = lambda->getLambdaCallOperator(); call && call->hasBody())
        assignedIn(call->getBody(), spanOf(call->getBody()), own);
      for (const LambdaCapture &c : lambda->captures()) {
        if (c.getCaptureKind() != LCK_ByRef || !c.capturesVariable()) continue;
        auto *captured = dyn_cast<VarDecl>(c.getCapturedVar());
        bool written = std::any_of(own.begin(), own.end(), [&](const Assigned &a) { return a.var == captured; });
        if (captured && (assigns(captured) || written))
          refuse(ref->getLocation(), "the lambda '" + v->getNameAsString() + "', defined outside this device "
                                     "statement, reads or assigns '" + captured->getNameAsString() + "' by "
                                     "reference, which the statement " +
                                     (written ? "changes through the lambda" : "assigns") + ": the rewrite carries "
                                     "the variable through the combinators, where the lambda does not see it; pass "
                                     "it as an argument, or define the lambda inside");
      }
    }
    // A reference declared outside that may name a variable assigned here:
    // the combinators carry the variable's copy, the reference the old one.
    if (v && v->getType()->isReferenceType() && !inside(v->getLocation(), region) && !assigned.empty()) {
      const Expr *init = v->hasInit() ? peel(v->getInit()) : nullptr;
      auto *named = dyn_cast_or_null<DeclRefExpr>(init);
      auto *target = named ? dyn_cast<VarDecl>(named->getDecl()) : nullptr;
      bool safe = isa<ParmVarDecl>(v) ? std::none_of(assigned.begin(), assigned.end(), [&](const Assigned &a) {
                                           return a.var != v && a.var->getType()->isReferenceType();
                                         })
                                      : target && !target->getType()->isReferenceType() && !assigns(target) && !assigns(v);
      if (!safe)
        refuse(ref->getLocation(), "'" + v->getNameAsString() + "' is a reference declared outside this device "
                                   "statement, which assigns variables it may name: the rewrite copies the "
                                   "variables it carries into the combinators, where the reference still names "
                                   "the old ones; use the variable itself");
    }
  }
  for (const Stmt *child : s->children()) unseenState(child, region, assigned);
}

void Assignments::namedIn(const Stmt *e, std::set<const ValueDecl *> &out) {
  if (!e) return;
  if (auto *r = dyn_cast<DeclRefExpr>(e)) out.insert(r->getDecl());
  for (const Stmt *child : e->children()) namedIn(child, out);
}

void Assignments::pureCondition(const Stmt *e, const Stmt *statement, const char *what) const {
  std::vector<Assigned> assigned;
  assignedIn(e, spanOf(statement), assigned);
  if (!assigned.empty())
    refuse(assigned.front().at, std::string(what) + " assigns '" + assigned.front().var->getNameAsString() +
                                    "': the hybrid front end moves it into a combinator, which evaluates it "
                                    "apart from the statement's other parts; assign before the statement");
}

} // namespace twintile::hybrid::plan
