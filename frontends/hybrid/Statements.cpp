//===- Statements.cpp - each device if, for, while and ?: planned --------===//
//
// What a device statement becomes: its combinator, what it carries (in the
// parse front end's order) and what it copies, its parts' text; a form the
// rewrite does not take, or cannot keep the meaning of, is refused.
//===----------------------------------------------------------------------===//
#include "frontends/hybrid/PlanInternal.h"

#include <clang/AST/ParentMapContext.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>

namespace twintile::hybrid::plan {

/// Refuses a declaration at the top of a rewritten branch or body (or an
/// early exit's rest) that takes the name of what the statement copies or
/// carries: the rewrite returns those by name at the end, where the
/// declaration would answer instead.
void Planner::noShadow(const std::vector<const Stmt *> &tops, const DeviceStatement &d) const {
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

/// An operand as written: without the implicit conversions C++ added
/// (not the ones the user wrote, f32(2.0f)).
const Expr *Planner::asWritten(const Expr *e) {
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
std::string Planner::scalarFor(const Expr *operand, const Expr *other, QualType type) const {
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
bool Planner::usedAsPlace(const Expr *e) const {
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
void Planner::planSelect(const ConditionalOperator *t, int depth) {
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

void Planner::planIf(const IfStmt *i, int depth) {
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

/// `text`, the expression `e`, as a wide loop's bound or step: a host
/// number an i64 constant; a device value as it is (for_range widens an
/// i32 where another bound is an i64, after reading all three, as the
/// parse front end does).
std::string Planner::asI64(const Expr *e, const std::string &text) {
  return elementOf(e->getType()) ? text : "::tt::i64(" + text + ")";
}

void Planner::tooMany(SourceLocation at, size_t n) const {
  refuse(at, "this device statement carries " + std::to_string(n) + " values (with the flags its exits set, and a "
             "for loop that breaks or returns its index); "
             "the combinators carry at most 6: group the variables in fewer tiles");
}

void Planner::notCounted(const ForStmt *f) const {
  refuse(f->getForLoc(), "the hybrid front end rewrites a device loop written `for (i32 i = lo; i < hi; i += step)` "
                         "(or ++i, i++): this one has another form; write it so, or as a while loop");
}

/// A device loop's flag (set by its breaks, and by its returns where it
/// holds them: `returned`), carried last.
void Planner::planFlags(DeviceStatement &d, const Stmt *body, const std::string &returned) const {
  d.returned = returned;
  d.flag = breaks(body) ? flagOf(d.keyword) : returned;
  if (!d.flag.empty()) d.carried.push_back(d.flag);
  if (!returned.empty() && returned != d.flag) d.carried.push_back(returned);
}

void Planner::planFor(const ForStmt *f, int depth, const std::string &returned) {
  // The index: declared by the loop (i32 k = lo), or a variable declared
  // before it that the loop assigns (k = lo), which is read after it.
  const VarDecl *var = nullptr;
  const Expr *first = nullptr;
  bool declares = false;
  if (auto *init = dyn_cast_or_null<DeclStmt>(f->getInit()); init && init->isSingleDecl())
    if ((var = dyn_cast<VarDecl>(init->getSingleDecl()))) first = var->getInit(), declares = true;
  if (auto *e = dyn_cast_or_null<Expr>(f->getInit())) {
    const Expr *to = nullptr, *assign = e->IgnoreImplicit();
    if (auto *b = dyn_cast<BinaryOperator>(assign); b && b->getOpcode() == BO_Assign) to = b->getLHS(), first = b->getRHS();
    if (auto *o = dyn_cast<CXXOperatorCallExpr>(assign); o && o->getOperator() == OO_Equal && o->getNumArgs() == 2)
      to = o->getArg(0), first = o->getArg(1);
    if (auto *r = dyn_cast_or_null<DeclRefExpr>(to ? to->IgnoreParenImpCasts() : nullptr))
      var = dyn_cast<VarDecl>(r->getDecl());
  }
  if (!var || !first || f->getConditionVariable()) notCounted(f);
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
  for (const Expr *part : {peel(first), peel(hi), peel(stepExpr)})
    if (part && recordOf(part->getType()) && nameOf(recordOf(part->getType())) == "Tile")
      refuse(part->getExprLoc(), "a bound or step of this device loop is a tile (a reduction's result, say): "
                                 "for_range takes scalars; give it a scalar's type first (i32 m = ...)");
  pureCondition(hi, f, "the bound of this device loop");
  pureCondition(stepExpr, f, "the step of this device loop");
  std::vector<Assigned> inBody;
  assignedIn(f->getBody(), spanOf(f->getBody()), inBody);
  for (const Assigned &a : inBody)
    if (a.var == var)
      refuse(a.at, "the loop variable '" + var->getNameAsString() + "' of a device loop is assigned in its body: "
                   "the hybrid front end rewrites the loop into for_range or while_loop, which step the index "
                   "themselves");
  // A while_loop where for_range would not do: a loop that breaks or
  // returns (it stops there; the index keeps its value), an index declared
  // before the loop (read after it), a bound or step the body changes (read
  // each iteration, as C++ reads them). Else for_range, as the parse front
  // end lowers a counted loop.
  bool changesBound = std::any_of(inBody.begin(), inBody.end(), [&](const Assigned &a) { return read.count(a.var); });
  bool asWhile = !declares || changesBound || breaks(f->getBody()) || !returned.empty();
  checkLoopBody(f->getBody(), !returned.empty());
  DeviceStatement d = statement(DeviceStatement::Kind::For, depth);
  d.keyword = offset(f->getForLoc());
  d.lparen = offset(f->getLParenLoc());
  d.rparen = offset(f->getRParenLoc());
  d.then = textOf(f->getBody());
  d.var = var->getNameAsString();
  d.wideIndex = wide;
  d.lo = text(peel(first)->getSourceRange());  // `i32 k = 0`, `i32 k(0)`, `i32 k{0}`, `k = 0`: 0
  d.hi = text(hi->getSourceRange());
  d.step = step;
  if (wide) {  // the bounds and step an i64 index takes, as the parse front end takes them
    d.lo = asI64(peel(first), d.lo);
    d.hi = asI64(peel(hi), d.hi);
    d.step = stepExpr ? asI64(peel(stepExpr), d.step) : "::tt::i64(1)";
  }
  d.asWhile = asWhile;
  if (asWhile) {
    // The index declared before the loop as the language's scalar of its
    // own width (an i64 bound does not widen it: C++'s `<` compares, the
    // parse front end's while loop keeps its type), or assigned where it is
    // declared already; carried after what the body assigns (the parse
    // front end's order: the body's, then the step's). Bounds and step as
    // written.
    bool own64 = index ? index->elem == ir::ScalarKind::I64 : ctx_.getTypeSize(var->getType()) == 64;
    d.wideIndex = false;
    d.lo = text(peel(first)->getSourceRange());
    d.hi = text(hi->getSourceRange());
    d.step = step;
    d.init = declares ? std::string(own64 ? "::tt::i64 " : "::tt::i32 ") + d.var + " = " + d.lo + ";"
                      : d.var + " = " + d.lo + ";";
    d.condition = text(f->getCond()->getSourceRange());
    pureCondition(f->getCond(), f, "the condition of this device loop");
    d.carried = carried(f, {f->getBody(), f->getInc()}, Order::ByFirstAssignment);
    if (declares) d.carried.push_back(d.var);
  } else {
    d.carried = carried(f, {f->getBody()}, Order::ByFirstAssignment);
  }
  planFlags(d, f->getBody(), returned);
  if (d.carried.size() > 6) tooMany(f->getForLoc(), d.carried.size());
  noShadow({f->getBody()}, d);
  std::string flag = d.flag;
  statements_.push_back(std::move(d));
  for (const Stmt *part : {f->getInit(), static_cast<const Stmt *>(f->getCond()), static_cast<const Stmt *>(f->getInc())})
    visit(part, {depth, false, nullptr, {}, true});  // the helpers they call; their text is copied whole
  visit(f->getBody(), {depth + 1, false, f->getBody(), flag, false, nullptr, returned});
}

void Planner::planWhile(const WhileStmt *w, int depth, const std::string &returned) {
  if (w->getConditionVariable())
    refuse(w->getWhileLoc(), "a while loop declaring a variable in its device condition is not rewritten by the "
                             "hybrid front end: declare it before the loop");
  checkLoopBody(w->getBody(), !returned.empty());
  pureCondition(w->getCond(), w, "the condition of this device while loop");
  DeviceStatement d = statement(DeviceStatement::Kind::While, depth);
  d.keyword = offset(w->getWhileLoc());
  d.numberCondition = testsNumber(w->getCond());
  d.lparen = offset(w->getLParenLoc());
  d.rparen = offset(w->getRParenLoc());
  d.then = textOf(w->getBody());
  d.carried = carried(w, {w->getBody(), w->getCond()}, Order::ByFirstAssignment);
  planFlags(d, w->getBody(), returned);
  if (d.carried.size() > 6) tooMany(w->getWhileLoc(), d.carried.size());
  noShadow({w->getBody()}, d);
  std::string flag = d.flag;
  statements_.push_back(std::move(d));
  visit(w->getCond(), {depth + 2, false, nullptr});  // inside its `(c) != 0`
  visit(w->getBody(), {depth + 1, false, w->getBody(), flag, false, nullptr, returned});
}

} // namespace twintile::hybrid::plan
