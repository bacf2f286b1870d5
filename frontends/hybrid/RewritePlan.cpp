//===- RewritePlan.cpp - which statements the hybrid front end rewrites --===//
//
// A walk over the instantiated kernel and the functions of its file it
// calls (lambdas' bodies included, a generic lambda's in each instantiation
// of it): every if, for and while whose condition is a device value (a
// language value converted to bool: the tracer's native control flow) is
// planned, with what it carries; what the rewrite cannot keep is refused.
//===----------------------------------------------------------------------===//
#include "frontends/hybrid/PlanInternal.h"

#include "frontends/clang/LanguageDecls.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <type_traits>
#include <map>
#include <set>

namespace twintile::hybrid {

namespace plan {
namespace {

class Planner : public Assignments {
public:
  explicit Planner(const FunctionDecl &kernel) : Assignments(kernel.getASTContext()) {}

  RewritePlan run(const FunctionDecl &kernel) {
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

private:
  struct Context {
    int depth = 0;
    bool kernelTop = false;             // the kernel's own body, outside every branch and loop
    const Stmt *loopBody = nullptr;     // the body of a device loop being rewritten, when visiting it
    std::string flag = {};              // then, the flag its breaks set
    bool copiedWhole = false;           // inside a device for's header, which the rewrite copies as text
  };

  std::deque<const FunctionDecl *> pending_;
  const FunctionDecl *current_ = nullptr;           // the function being walked
  std::vector<const FunctionDecl *> lambdas_;        // the lambdas' call operators being walked inside it
  std::set<const FunctionDecl *> queued_;
  std::map<size_t, bool> seen_;  // a control statement's offset: whether its condition is a device value
  std::vector<DeviceStatement> statements_;

  /// The statements, each once: a function the kernel calls twice, or a
  /// template's instantiations, plan its text again; a statement planned
  /// differently (what it carries) is refused, as its text serves all.
  std::vector<DeviceStatement> once(std::vector<DeviceStatement> all) const {
    std::vector<DeviceStatement> out;
    for (DeviceStatement &d : all) {
      auto same = std::find_if(out.begin(), out.end(), [&](const DeviceStatement &o) { return o.keyword == d.keyword; });
      if (same == out.end()) {
        out.push_back(std::move(d));
        continue;
      }
      if (same->kind != d.kind || same->carried != d.carried || same->copies != d.copies || same->depth != d.depth ||
          same->then.end != d.then.end || same->restEnd != d.restEnd || same->var != d.var || same->lo != d.lo ||
          same->hi != d.hi || same->step != d.step || same->flag != d.flag ||
          same->numberCondition != d.numberCondition || same->wideIndex != d.wideIndex)
        throw Refusal{{locationAtOffset(d.keyword), "this device statement carries other variables in one "
                                                    "instantiation than in another (or is typed otherwise): the "
                                                    "hybrid front end rewrites "
                                                    "the text, which serves both; split the function"}};
    }
    return out;
  }

  //===-- Functions to visit ----------------------------------------------===//

  void queue(const FunctionDecl *fn) {
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
  void checkExits(const Stmt *s, bool inLoop, const char *where, bool inSwitch = false) const {
    if (!s || isa<LambdaExpr>(s)) return;
    if (isa<ReturnStmt>(s))
      refuse(s->getBeginLoc(), std::string("`return` under a device condition (") + where + ") is not rewritten by the "
                               "hybrid front end: it rewrites an early exit from the kernel's own body, `if (c) "
                               "return;` outside loops and branches; the parse front end takes this one");
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
  bool calls(const Stmt *s, const FunctionDecl *target, std::set<const FunctionDecl *> &seen) const {
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
  void noRecursion(const std::vector<const Stmt *> &parts, SourceLocation at) const {
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
  void sameKind(SourceLocation at, bool device) {
    size_t o = sm_.getFileOffset(sm_.getExpansionLoc(at));
    auto [it, fresh] = seen_.emplace(o, device);
    if (!fresh && it->second != device)
      refuse(at, "this condition is a device value in one instantiation and a host value in another: the hybrid "
                 "front end rewrites the text, which serves both; split the function, or use if constexpr");
  }

  /// Whether a device condition tests a number rather than an i1.
  static bool testsNumber(const Expr *cond) {
    const Expr *tested = deviceCondition(cond);
    std::optional<ir::Type> t = tested ? elementOf(tested->getType()) : std::nullopt;
    return t && t->elem != ir::ScalarKind::I1;
  }

  DeviceStatement statement(DeviceStatement::Kind kind, int depth) const {
    DeviceStatement d;
    d.kind = kind;
    d.id = static_cast<int>(statements_.size());
    d.depth = depth;
    return d;
  }

  /// The statement a branch ends with, where it is a `return;` or `continue;`.
  template <class Exit> static const Exit *exitOf(const Stmt *then) {
    if (auto *c = dyn_cast<CompoundStmt>(then)) then = c->body_empty() ? nullptr : c->body_back();
    auto *e = dyn_cast_or_null<Exit>(then);
    if constexpr (std::is_same_v<Exit, ReturnStmt>)
      if (e && e->getRetValue()) return nullptr;
    return e;
  }

  /// `if (c) { ...; return; }` (or `continue;`) on a device condition, no else.
  template <class Exit> bool earlyExit(const Stmt *s) const {
    auto *i = dyn_cast<IfStmt>(s);
    return i && !i->isConstexpr() && !i->getElse() && !i->getInit() && !i->getConditionVariable() &&
           deviceCondition(i->getCond()) && exitOf<Exit>(i->getThen());
  }

  /// Refuses a declaration at the top of a rewritten branch or body (or an
  /// early exit's rest) that takes the name of what the statement copies or
  /// carries: the rewrite returns those by name at the end, where the
  /// declaration would answer instead.
  void noShadow(const std::vector<const Stmt *> &tops, const DeviceStatement &d) const {
    std::vector<std::string> names = d.carried;
    names.insert(names.end(), d.copies.begin(), d.copies.end());
    if (!d.var.empty() && d.kind == DeviceStatement::Kind::For) names.push_back(d.var);
    for (const Stmt *top : tops) {
      std::vector<const Stmt *> statements;
      if (auto *c = dyn_cast_or_null<CompoundStmt>(top)) statements.assign(c->body_begin(), c->body_end());
      else if (top) statements.push_back(top);
      for (const Stmt *st : statements)
        if (auto *decls = dyn_cast<DeclStmt>(st))
          for (const Decl *decl : decls->decls())
            if (auto *v = dyn_cast<VarDecl>(decl);
                v && std::find(names.begin(), names.end(), v->getNameAsString()) != names.end())
              refuse(v->getLocation(), "'" + v->getNameAsString() + "' is declared again here, inside a device "
                                       "statement that carries the variable of that name: the rewrite passes it on "
                                       "by name; rename this one");
    }
  }

  /// Whether a device loop's body has an early break: a flag to carry.
  bool breaks(const Stmt *body) const {
    auto *c = dyn_cast<CompoundStmt>(body);
    return c && std::any_of(c->body_begin(), c->body_end(), [&](const Stmt *s) { return earlyExit<BreakStmt>(s); });
  }

  /// The flag a device loop at `keyword` carries for its breaks: named by
  /// its place, so that every plan of the same text names it alike.
  static std::string flagOf(size_t keyword) { return "tt_broken_" + std::to_string(keyword); }

  /// What leaves a device loop's body: its early continues' and breaks'
  /// branches but their last statement, and everything else whole.
  void checkLoopBody(const Stmt *body) const {
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

  void visit(const Stmt *s, Context c) {
    if (!s) return;
    if (auto *compound = dyn_cast<CompoundStmt>(s)) {
      int depth = c.depth;
      for (const Stmt *child : compound->body()) {
        if (c.kernelTop && earlyExit<ReturnStmt>(child)) {
          planEarlyReturn(cast<IfStmt>(child), compound, depth);
          ++depth;  // the rest is inside it
          continue;
        }
        if (c.loopBody == compound && earlyExit<ContinueStmt>(child)) {
          // (In a loop that breaks, a continue carries the flag too: a break after it sets it in the rest.)
          planExit(DeviceStatement::Kind::Continue, cast<IfStmt>(child), compound, depth, c.flag);
          ++depth;
          continue;
        }
        if (c.loopBody == compound && earlyExit<BreakStmt>(child)) {
          planExit(DeviceStatement::Kind::Break, cast<IfStmt>(child), compound, depth, c.flag);
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

  /// An operand as written: without the implicit conversions C++ added
  /// (not the ones the user wrote, f32(2.0f)).
  static const Expr *asWritten(const Expr *e) {
    while (true) {
      e = e->IgnoreParenImpCasts();
      if (auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
      else if (auto *b = dyn_cast<CXXBindTemporaryExpr>(e)) e = b->getSubExpr();
      else if (auto *c = dyn_cast<CXXConstructExpr>(e);
               c && !isa<CXXTemporaryObjectExpr>(c) && c->getParenOrBraceRange().isInvalid() && c->getNumArgs() >= 1)
        e = c->getArg(0);
      else return e;
    }
  }

  /// The language's scalar a host operand of a device ?: becomes (empty
  /// where it is a device value already): the other operand's, where that
  /// is a device scalar; else of the ?:'s host `type`, as the parse front end
  /// types a host number (a floating one an f32).
  std::string scalarFor(const Expr *operand, const Expr *other, QualType type) const {
    operand = asWritten(operand), other = asWritten(other);  // before C++ converted them to one type
    if (isDeviceType(operand->getType())) return "";
    if (const CXXRecordDecl *r = recordOf(type); r && isDeviceType(type) && scalarKindNamed(nameOf(r)))
      return nameOf(r).str();  // the ?: is of a language scalar: its host operand becomes one
    if (isDeviceType(other->getType())) {
      const CXXRecordDecl *r = recordOf(other->getType());
      if (scalarKindNamed(nameOf(r))) return nameOf(r).str();
      refuse(operand->getBeginLoc(), "this operand of a ?: on a device condition is a host value and the other a tile: "
                                     "the hybrid front end makes if_else's branches return one type; write the tile "
                                     "(full(...)) or a scalar of the language");
    }
    const auto *builtin = type->getAs<BuiltinType>();
    uint64_t bits = builtin ? ctx_.getTypeSize(type) : 0;
    if (builtin && builtin->getKind() == BuiltinType::Bool) return "i1";
    if (builtin && builtin->isFloatingPoint()) return "f32";
    if (builtin && builtin->isSignedInteger() && bits <= 32) return "i32";
    if (builtin && builtin->isSignedInteger() && bits == 64) return "i64";
    refuse(operand->getBeginLoc(), "this operand of a ?: on a device condition is a host value of the type '" +
                                       operand->getType().getAsString() + "', which the hybrid front end cannot make "
                                       "a device value of; give it a device type (f32(2.0f))");
  }

  /// Whether `e`, an lvalue, is used as one: assigned, incremented, its
  /// address taken, bound to a reference or a non-const object argument.
  bool usedAsPlace(const Expr *e) const {
    if (!e->isLValue()) return false;
    const Stmt *child = e;
    for (DynTypedNodeList parents = ctx_.getParents(*e); !parents.empty(); parents = ctx_.getParents(parents[0])) {
      if (auto *p = parents[0].get<ParenExpr>()) {
        child = p;
        continue;
      }
      if (auto *c = parents[0].get<ImplicitCastExpr>(); c && c->getCastKind() == CK_NoOp) {
        child = c;
        continue;
      }
      if (auto *c = parents[0].get<ImplicitCastExpr>()) return c->getCastKind() != CK_LValueToRValue;
      if (auto *b = parents[0].get<BinaryOperator>()) return b->isAssignmentOp() && b->getLHS() == child;
      if (auto *u = parents[0].get<UnaryOperator>()) return u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf;
      if (auto *o = parents[0].get<CXXOperatorCallExpr>()) return o->getNumArgs() > 0 && o->getArg(0) == child;
      if (auto *v = parents[0].get<VarDecl>()) return v->getType()->isReferenceType();
      if (parents[0].get<CXXConstructExpr>() || parents[0].get<MaterializeTemporaryExpr>()) return false;  // copied
      return true;  // anything else: the rewrite cannot tell, so it does not
    }
    return false;
  }

  /// c ? a : b on a device condition (Triton's `a if c else b`): both
  /// operands become branches returning their value; neither may assign.
  void planSelect(const ConditionalOperator *t, int depth) {
    Span whole{offset(t->getBeginLoc()), offset(Lexer::getLocForEndOfToken(t->getEndLoc(), 0, sm_, ctx_.getLangOpts())),
               t->getQuestionLoc()};
    for (const Expr *part : {t->getCond(), t->getTrueExpr(), t->getFalseExpr()}) {
      std::vector<Assigned> assigned;
      assignedIn(part, whole, assigned);
      if (!assigned.empty())
        refuse(assigned.front().at, "this part of a device ?: assigns '" + assigned.front().var->getNameAsString() +
                                        "': the hybrid front end moves it into a combinator, which evaluates it "
                                        "apart from the expression's other parts; assign before the expression");
    }
    if (usedAsPlace(t))
      refuse(t->getQuestionLoc(), "a ?: on a device condition used as a place (assigned, incremented, its address "
                                  "taken or bound to a reference) is not rewritten by the hybrid front end: assign in "
                                  "a device if instead");
    DeviceStatement d = statement(DeviceStatement::Kind::Select, depth);
    QualType type = t->getType().getNonReferenceType();
    d.var = scalarFor(t->getTrueExpr(), t->getFalseExpr(), type);
    d.step = scalarFor(t->getFalseExpr(), t->getTrueExpr(), type);
    d.keyword = whole.begin;
    d.numberCondition = testsNumber(t->getCond());
    d.question = offset(t->getQuestionLoc());
    d.colon = offset(t->getColonLoc());
    d.restEnd = whole.end;
    statements_.push_back(std::move(d));
    // (Nested statements two levels in: this one's `(c) != 0` is one level in.)
    for (const Stmt *part : t->children()) visit(part, {depth + 2, false, nullptr});
  }

  void planIf(const IfStmt *i, int depth) {
    if (i->getInit() || i->getConditionVariable())
      refuse(i->getIfLoc(), "an if with an initializer or a declared condition on a device value is not rewritten by "
                            "the hybrid front end: declare the variable before the if");
    checkExits(i->getThen(), false, "a device if");
    checkExits(i->getElse(), false, "a device if");
    pureCondition(i->getCond(), i, "the condition of this device if");
    DeviceStatement d = statement(DeviceStatement::Kind::If, depth);
    d.keyword = offset(i->getIfLoc());
    d.numberCondition = testsNumber(i->getCond());
    d.lparen = offset(i->getLParenLoc());
    d.rparen = offset(i->getRParenLoc());
    d.then = textOf(i->getThen());
    if (i->getElse()) {
      d.elseKeyword = offset(i->getElseLoc());
      d.otherwise = textOf(i->getElse());
    }
    d.carried = carried(i, {i->getThen(), i->getElse()}, Order::ByDeclaration);
    d.copies = d.carried;
    noShadow({i->getThen(), i->getElse()}, d);
    statements_.push_back(std::move(d));
    visit(i->getCond(), {depth + 2, false, nullptr});  // inside its `(c) != 0`
    visit(i->getThen(), {depth + 1, false});
    visit(i->getElse(), {depth + 1, false});
  }

  /// An early exit's statement: its branch and where the rest ends.
  DeviceStatement earlyExitStatement(DeviceStatement::Kind kind, const IfStmt *i, const CompoundStmt *block, int depth) {
    // The branch, and the rest: the other branch.
    noRecursion({std::find(block->body_begin(), block->body_end(), i), block->body_end()}, i->getIfLoc());
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
  void planEarlyReturn(const IfStmt *i, const CompoundStmt *block, int depth) {
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
  void planExit(DeviceStatement::Kind kind, const IfStmt *i, const CompoundStmt *body, int depth,
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

  /// `text`, the expression `e`, as a wide loop's bound or step: a host
  /// number an i64 constant; a device value as it is (for_range widens an
  /// i32 where another bound is an i64, after reading all three, as the
  /// parse front end does).
  static std::string asI64(const Expr *e, const std::string &text) {
    return elementOf(e->getType()) ? text : "::tt::i64(" + text + ")";
  }

  [[noreturn]] void tooMany(SourceLocation at, size_t n) const {
    refuse(at, "this device statement carries " + std::to_string(n) + " values (its loop's break flag among them); "
               "the combinators carry at most 6: group the variables in fewer tiles");
  }

  [[noreturn]] void notCounted(const ForStmt *f) const {
    refuse(f->getForLoc(), "the hybrid front end rewrites a device loop written `for (i32 i = lo; i < hi; i += step)` "
                           "(or ++i, i++): this one has another form; write it so, or as a while loop");
  }

  void planFor(const ForStmt *f, int depth) {
    auto *init = dyn_cast_or_null<DeclStmt>(f->getInit());
    const VarDecl *var = init && init->isSingleDecl() ? dyn_cast<VarDecl>(init->getSingleDecl()) : nullptr;
    if (!var || !var->getInit() || f->getConditionVariable()) notCounted(f);
    // The condition: var < hi, however the language spells its operator.
    const Expr *less = peel(deviceCondition(f->getCond()));
    const Expr *lhs = nullptr, *hi = nullptr;
    if (auto *b = dyn_cast_or_null<BinaryOperator>(less); b && b->getOpcode() == BO_LT) lhs = b->getLHS(), hi = b->getRHS();
    if (auto *o = dyn_cast_or_null<CXXOperatorCallExpr>(less); o && o->getOperator() == OO_Less && o->getNumArgs() == 2)
      lhs = o->getArg(0), hi = o->getArg(1);
    auto names = [&](const Expr *e) {
      auto *r = dyn_cast_or_null<DeclRefExpr>(peel(e));
      return r && r->getDecl() == var;
    };
    if (!lhs || !names(lhs)) notCounted(f);
    // The step: ++var, var++, var += step.
    std::string step;
    const Expr *inc = f->getInc() ? f->getInc()->IgnoreImplicit() : nullptr;
    if (auto *u = dyn_cast_or_null<UnaryOperator>(inc); u && u->isIncrementOp() && names(u->getSubExpr())) step = "1";
    if (auto *b = dyn_cast_or_null<CompoundAssignOperator>(inc); b && b->getOpcode() == BO_AddAssign && names(b->getLHS()))
      step = text(b->getRHS()->getSourceRange());
    if (auto *o = dyn_cast_or_null<CXXOperatorCallExpr>(inc); o && names(o->getArg(0))) {
      if (o->getOperator() == OO_PlusPlus) step = "1";
      if (o->getOperator() == OO_PlusEqual && o->getNumArgs() == 2) step = text(o->getArg(1)->getSourceRange());
    }
    if (step.empty()) notCounted(f);
    // for_range reads its bounds and step once, before the loop, and its
    // index is an i32 where the body is generic (as the rewrite's is).
    const Expr *stepExpr = nullptr;
    if (auto *b = dyn_cast_or_null<CompoundAssignOperator>(inc)) stepExpr = b->getRHS();
    if (auto *o = dyn_cast_or_null<CXXOperatorCallExpr>(inc); o && o->getNumArgs() == 2) stepExpr = o->getArg(1);
    // An i32 index, or an i64 one (a 64-bit variable, or an i64 bound:
    // the IR's rule), which the body's typed parameters take.
    std::optional<ir::Type> index = elementOf(var->getType());
    std::optional<ir::Type> bound = elementOf(hi->getType());
    bool wide = (index && index->elem == ir::ScalarKind::I64) ||
                (!index && var->getType()->isSignedIntegerType() && ctx_.getTypeSize(var->getType()) == 64) ||
                (bound && bound->elem == ir::ScalarKind::I64);
    bool narrow = index ? index->elem == ir::ScalarKind::I32
                        : var->getType()->isIntegerType() && ctx_.getTypeSize(var->getType()) <= 32;
    if (!wide && !narrow)
      refuse(var->getLocation(), "the hybrid front end rewrites a device loop whose index is an i32 or an i64; this "
                                 "one's is '" + var->getType().getAsString() + "'");
    std::set<const ValueDecl *> read;
    namedIn(hi, read);
    namedIn(stepExpr, read);
    if (read.count(var))
      refuse(f->getForLoc(), "the bound or step of this device loop reads its own variable '" +
                                 var->getNameAsString() + "': for_range reads them once, before the loop; write it "
                                 "as a while loop");
    for (const Expr *part : {peel(var->getInit()), peel(hi), peel(stepExpr)})
      if (part && recordOf(part->getType()) && nameOf(recordOf(part->getType())) == "Tile")
        refuse(part->getExprLoc(), "a bound or step of this device loop is a tile (a reduction's result, say): "
                                   "for_range takes scalars; give it a scalar's type first (i32 m = ...)");
    pureCondition(hi, f, "the bound of this device loop");
    pureCondition(stepExpr, f, "the step of this device loop");
    std::vector<Assigned> inBody;
    assignedIn(f->getBody(), spanOf(f->getBody()), inBody);
    for (const Assigned &a : inBody) {
      if (a.var == var)
        refuse(a.at, "the loop variable '" + var->getNameAsString() + "' of a device loop is assigned in its body: "
                     "the hybrid front end rewrites the loop into for_range, whose index the body cannot change");
      if (read.count(a.var))
        refuse(a.at, "'" + a.var->getNameAsString() + "', which the bound or step of this device loop reads, is "
                     "assigned in its body: for_range reads them once, before the loop; write it as a while loop");
    }
    checkLoopBody(f->getBody());
    DeviceStatement d = statement(DeviceStatement::Kind::For, depth);
    d.keyword = offset(f->getForLoc());
    d.lparen = offset(f->getLParenLoc());
    d.rparen = offset(f->getRParenLoc());
    d.then = textOf(f->getBody());
    d.var = var->getNameAsString();
    d.wideIndex = wide;
    d.lo = text(peel(var->getInit())->getSourceRange());  // `i32 k = 0`, `i32 k(0)`, `i32 k{0}`: 0
    d.hi = text(hi->getSourceRange());
    d.step = step;
    if (wide) {  // the bounds and step an i64 index takes, as the parse front end takes them
      d.lo = asI64(peel(var->getInit()), d.lo);
      d.hi = asI64(peel(hi), d.hi);
      d.step = stepExpr ? asI64(peel(stepExpr), d.step) : "::tt::i64(1)";
    }
    d.carried = carried(f, {f->getBody()}, Order::ByFirstAssignment);
    if (breaks(f->getBody())) d.flag = flagOf(d.keyword), d.carried.push_back(d.flag);
    if (d.carried.size() > 6) tooMany(f->getForLoc(), d.carried.size());
    noShadow({f->getBody()}, d);
    std::string flag = d.flag;
    statements_.push_back(std::move(d));
    for (const Stmt *part : {f->getInit(), static_cast<const Stmt *>(f->getCond()), static_cast<const Stmt *>(f->getInc())})
      visit(part, {depth, false, nullptr, {}, true});  // the helpers they call; their text is copied whole
    // A loop with a flag runs its body under the flag's negation: one more level.
    visit(f->getBody(), {depth + (flag.empty() ? 1 : 2), false, f->getBody(), flag});
  }

  void planWhile(const WhileStmt *w, int depth) {
    if (w->getConditionVariable())
      refuse(w->getWhileLoc(), "a while loop declaring a variable in its device condition is not rewritten by the "
                               "hybrid front end: declare it before the loop");
    checkLoopBody(w->getBody());
    pureCondition(w->getCond(), w, "the condition of this device while loop");
    DeviceStatement d = statement(DeviceStatement::Kind::While, depth);
    d.keyword = offset(w->getWhileLoc());
    d.numberCondition = testsNumber(w->getCond());
    d.lparen = offset(w->getLParenLoc());
    d.rparen = offset(w->getRParenLoc());
    d.then = textOf(w->getBody());
    d.carried = carried(w, {w->getBody(), w->getCond()}, Order::ByFirstAssignment);
    if (breaks(w->getBody())) d.flag = flagOf(d.keyword), d.carried.push_back(d.flag);
    if (d.carried.size() > 6) tooMany(w->getWhileLoc(), d.carried.size());
    noShadow({w->getBody()}, d);
    std::string flag = d.flag;
    statements_.push_back(std::move(d));
    visit(w->getCond(), {depth + 2, false, nullptr});  // inside its `(c) != 0`
    visit(w->getBody(), {depth + 1, false, w->getBody(), flag});
  }
};

} // namespace

} // namespace plan

RewritePlan planRewrite(const clang::FunctionDecl &kernel) { return plan::Planner(kernel).run(kernel); }

} // namespace twintile::hybrid
