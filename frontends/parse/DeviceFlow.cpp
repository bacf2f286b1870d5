//===- DeviceFlow.cpp - native device control flow -----------------------===//
//
// The research core of the parsing front end: C++'s own if, for and while
// on device conditions become structured IR. The walker snapshots every
// visible variable before a branch or loop, walks each region, and carries
// what changed through the op's results; break and continue become carried
// flags, and the statements after them run under the flag's negation, so one
// semantics serves every path. Host variables assigned under a device
// condition are refused: their value would depend on the device.
//===----------------------------------------------------------------------===//
#include "frontends/parse/WalkerInternal.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>

namespace twintile::walker {

std::map<Val *, Val> Walker::snapshot() {
  std::map<Val *, Val> out;
  std::set<const HostObject *> seen;
  std::function<void(Val &, const std::string &, SourceLocation)> visit = [&](Val &v, const std::string &name,
                                                                           SourceLocation at) {
    out[&v] = v;
    if (v.kind != Val::Kind::Object || !v.obj || !seen.insert(v.obj.get()).second) return;
    for (auto &[field, fv] : v.obj->fields) {
      std::string n = name + "." + field->getNameAsString();
      parts_[&fv] = {n, at};
      visit(fv, n, at);
    }
    for (size_t k = 0; k < v.obj->elems.size(); ++k) {
      std::string n = name + "[" + std::to_string(k) + "]";
      parts_[&v.obj->elems[k]] = {n, at};
      visit(v.obj->elems[k], n, at);
    }
  };
  for (std::shared_ptr<Frame> f = frames_.back(); f; f = f->lexicalParent) {
    for (auto &[key, v] : f->vars) {
      if (v.kind != Val::Kind::Ref) {
        visit(v, varName(&v), varLoc(&v));
        continue;
      }
      // A reference parameter or local: the storage it names, in the caller.
      if (Val *target = deref(&v); target && !out.count(target)) {
        parts_[target] = {varName(&v), varLoc(&v)};
        visit(*target, varName(&v), varLoc(&v));
      }
    }
    if (f->self)  // a method's or constructor's object: its fields
      for (auto &[field, fv] : f->self->fields)
        if (!out.count(&fv)) {
          parts_[&fv] = {"this->" + field->getNameAsString(), field->getLocation()};
          visit(fv, "this->" + field->getNameAsString(), field->getLocation());
        }
  }
  return out;
}

std::set<Val *> Walker::ownedSlots() {
  std::set<Val *> out;
  std::set<const HostObject *> seen;
  std::function<void(Val &)> visit = [&](Val &v) {
    out.insert(&v);
    if (v.kind != Val::Kind::Object || !v.obj || !seen.insert(v.obj.get()).second) return;
    for (auto &[field, fv] : v.obj->fields) visit(fv);
    for (Val &e : v.obj->elems) visit(e);
  };
  for (auto &[key, v] : frame().vars)
    if (v.kind != Val::Kind::Ref) visit(v);
  return out;
}

const void *Walker::keyOf(Val *slot) {
  for (std::shared_ptr<Frame> f = frames_.back(); f; f = f->lexicalParent)
    for (auto &[key, v] : f->vars)
      if (&v == slot) return key;
  return nullptr;
}

std::string Walker::varName(Val *slot) {
  if (auto it = parts_.find(slot); it != parts_.end()) return it->second.first;
  const void *key = keyOf(slot);
  if (auto it = synthetic_.find(key); it != synthetic_.end()) return it->second.first;
  return key ? static_cast<const ValueDecl *>(key)->getNameAsString() : std::string("?");
}

SourceLocation Walker::varLoc(Val *slot) {
  if (auto it = parts_.find(slot); it != parts_.end()) return it->second.second;
  const void *key = keyOf(slot);
  if (auto it = synthetic_.find(key); it != synthetic_.end()) return it->second.second;
  return key ? static_cast<const ValueDecl *>(key)->getLocation() : SourceLocation();
}

void Walker::sortByPlace(std::vector<Val *> &slots) {
  std::sort(slots.begin(), slots.end(), [&](Val *a, Val *b) {
    SourceLocation la = varLoc(a), lb = varLoc(b);
    return la != lb ? la < lb : varName(a) < varName(b);
  });
}

bool Walker::sameValue(const Val &a, const Val &b) {
  return a.kind == b.kind && a.device == b.device && a.i == b.i && a.f == b.f && a.obj == b.obj;
}

std::vector<Val *> Walker::changedSince(const std::map<Val *, Val> &before, const Stmt *where, bool guard) {
  std::vector<Val *> out;
  for (auto &[slot, old] : before)
    if (!sameValue(*slot, old)) {
      if (!old.isDevice() && !slot->isDevice())
        fail(where->getBeginLoc(), "host variable '" + varName(slot) + "' is assigned under a device condition" +
                                       (guard ? " (after a return, break or continue under one, what follows runs "
                                                "only where it was not taken)"
                                              : "") +
                                       "; only device variables can be");
      out.push_back(slot);
    }
  sortByPlace(out);
  return out;
}

void Walker::noReturn(Flow f, const Stmt *s, const char *what) {
  if (f == Flow::Return)  // prepareReturns saw every return under a device condition: they set flags (Returned)
    throw ir::InternalError(std::string("a return inside ") + what + " was not prepared for by the parsing front end",
                            loc(s->getBeginLoc()));
  if (f == Flow::Break || f == Flow::Continue)
    fail(s->getBeginLoc(), std::string("break and continue under a device condition leave a host loop, "
                                       "which the parsing front end cannot lower"));
}

bool Walker::containsJump(const Stmt *s, bool orContinue) {
  if (!s) return false;
  if (isa<BreakStmt>(s) || (orContinue && isa<ContinueStmt>(s))) return true;
  if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s) || isa<LambdaExpr>(s) ||
      isa<SwitchStmt>(s))
    return false;
  for (const Stmt *c : s->children())
    if (containsJump(c, orContinue)) return true;
  return false;
}

bool Walker::containsReturn(const Stmt *s) {
  if (!s || isa<LambdaExpr>(s)) return false;
  if (isa<ReturnStmt>(s)) return true;
  for (const Stmt *c : s->children())
    if (containsReturn(c)) return true;
  return false;
}

bool Walker::alwaysReturns(const Stmt *s) {
  if (!s) return false;
  if (isa<ReturnStmt>(s)) return true;
  if (auto *a = dyn_cast<AttributedStmt>(s)) return alwaysReturns(a->getSubStmt());
  if (auto *c = dyn_cast<CompoundStmt>(s))
    return std::any_of(c->body_begin(), c->body_end(), [](const Stmt *x) { return alwaysReturns(x); });
  if (auto *i = dyn_cast<IfStmt>(s)) return alwaysReturns(i->getThen()) && alwaysReturns(i->getElse());
  return false;
}

const ReturnStmt *Walker::returnUnderDevice(const Stmt *s) {
  if (!s || isa<LambdaExpr>(s)) return nullptr;
  const Stmt *deviceBody = nullptr, *deviceElse = nullptr;
  if (auto *i = dyn_cast<IfStmt>(s); i && i->getCond() && deviceCondition(i->getCond()))
    deviceBody = i->getThen(), deviceElse = i->getElse();
  else if (auto *f = dyn_cast<ForStmt>(s); f && f->getCond() && deviceCondition(f->getCond()))
    deviceBody = f->getBody();
  else if (auto *w = dyn_cast<WhileStmt>(s); w && deviceCondition(w->getCond()))
    deviceBody = w->getBody();
  for (const Stmt *b : {deviceBody, deviceElse}) {
    if (!b) continue;
    struct Find : RecursiveASTVisitor<Find> {
      const ReturnStmt *found = nullptr;
      bool TraverseLambdaExpr(LambdaExpr *) { return true; }  // a lambda's returns are its own
      bool VisitReturnStmt(ReturnStmt *r) {
        if (!found) found = r;
        return !found;
      }
    } find;
    find.TraverseStmt(const_cast<Stmt *>(b));
    if (find.found) return find.found;
  }
  for (const Stmt *c : s->children())
    if (const ReturnStmt *r = returnUnderDevice(c)) return r;
  return nullptr;
}

Val *Walker::newVariable(const std::string &name, SourceLocation at, Val v) {
  const void *key = &syntheticKeys_.emplace_back();
  synthetic_[key] = {name, at};
  Val &slot = frame().vars[key];
  slot = std::move(v);
  return &slot;
}

Val *Walker::newFlag(const std::string &name, SourceLocation at, bool value) {
  return newVariable(name, at, Val::dev(rec_.constInt(ir::Type::scalar(ir::ScalarKind::I1), value, loc(at))));
}

void Walker::setFlag(Val *flag, bool value, SourceLocation at) {
  *flag = Val::dev(rec_.constInt(ir::Type::scalar(ir::ScalarKind::I1), value, loc(at)));
}

Walker::LoopContext *Walker::currentLoop() {
  if (loops_.empty() || loops_.back().frame != &frame()) return nullptr;
  return &loops_.back();
}

Flow Walker::jump(const Stmt *s, bool isBreak) {
  LoopContext *loop = currentLoop();
  if (!loop || !loop->skip) return isBreak ? Flow::Break : Flow::Continue;
  if (isBreak) setFlag(loop->broken, true, s->getBeginLoc());
  setFlag(loop->skip, true, s->getBeginLoc());
  return Flow::Normal;
}

Flow Walker::execSequence(const std::vector<const Stmt *> &stmts, size_t first) {
  for (size_t i = first; i < stmts.size(); ++i) {
    if (Flow f = exec(stmts[i]); f != Flow::Normal) return f;
    if (i + 1 == stmts.size()) continue;
    SourceLocation at = stmts[i + 1]->getBeginLoc();
    bool returns = frame().returnFlag && containsReturn(stmts[i]);
    LoopContext *loop = currentLoop();
    if (loop && loop->skip && (returns || containsJump(stmts[i], true))) {
      ir::Value *go = rec_.unary(ir::OpKind::Not, loop->skip->device, loc(at), "!");
      deviceBranch(go, at, stmts[i + 1],
                   [&] { noReturn(execSequence(stmts, i + 1), stmts[i + 1], "a device loop"); }, [] {},
                   /*guard=*/true);
      return Flow::Normal;
    }
    if (returns) return unlessReturned(at, stmts[i + 1], [&] { return execSequence(stmts, i + 1); });
  }
  return Flow::Normal;
}

Flow Walker::unlessReturned(SourceLocation at, const Stmt *where, const std::function<Flow()> &walk) {
  ir::Value *go = rec_.unary(ir::OpKind::Not, frame().returnFlag->device, loc(at), "!");
  Flow flow = Flow::Normal;
  deviceBranch(go, at, where, [&] { flow = walk(); }, [] {}, /*guard=*/true);
  if (flow == Flow::Return)  // returns under the guard set the flag
    noReturn(flow, where, "the statements after a return under a device condition");
  return flow == Flow::Returned ? Flow::Normal : flow;
}

void Walker::prepareReturns(const FunctionDecl *fn, const Stmt *body) {
  const ReturnStmt *r = returnUnderDevice(body);
  if (!r) return;
  SourceLocation at = r->getReturnLoc();
  QualType type = fn->getReturnType();
  Frame &f = frame();
  f.function = fn;
  if (!type->isVoidType()) {
    if (!isDeviceType(type))
      fail(at, "'" + qualifiedName(fn) + "' returns a host value ('" + type.getAsString() +
                   "') under a device condition: the value would be known only on the device (return a device "
                   "value, or compute the host value before the condition)");
    f.returnValue = newVariable("the value '" + fn->getNameAsString() + "' returns", at, Val::dev(nullptr));
  }
  f.returnFlag = newFlag("the return flag of '" + fn->getNameAsString() + "'", at, false);
}

Flow Walker::deviceReturn(const ReturnStmt *r) {
  Frame &f = frame();
  SourceLocation at = r->getReturnLoc();
  if (f.returnValue) {
    Val v = eval(r->getRetValue());
    if (!v.isDevice() || !v.device)
      fail(at, "a return under a device condition returns a device value here");
    *f.returnValue = v;
  } else if (r->getRetValue()) {
    eval(r->getRetValue());  // `return g();` in a void function
  }
  setFlag(f.returnFlag, true, at);
  for (auto loop = loops_.rbegin(); loop != loops_.rend() && loop->frame == &f; ++loop) {
    if (loop->broken) setFlag(loop->broken, true, at);
    if (loop->skip) setFlag(loop->skip, true, at);
  }
  return Flow::Returned;
}

ir::Value *Walker::placeholder(const ir::Type &type, SourceLocation at) {
  if (type.isPtr())
    fail(at, "a pointer returned under a device condition is not supported by the parsing front end; return the "
             "offset and add it to the pointer after the call");
  ir::Type scalar = ir::Type::scalar(type.elem);
  ir::Value *zero = scalar.isFloat() ? rec_.constFloat(scalar, 0, loc(at)) : rec_.constInt(scalar, 0, loc(at));
  return type.isTile() ? rec_.full(type.shape, zero, loc(at)) : zero;
}

std::vector<Val *> Walker::returnSlots(SourceLocation at) {
  Frame &f = frame();
  if (!f.returnValue) return {f.returnFlag};
  if (!f.returnValue->device) {
    // Read only once the flag is set, so any value of its type will do as
    // the loop's initial one; a tile's shape is not known before its return.
    QualType type = f.function->getReturnType();
    const CXXRecordDecl *r = recordOf(type);
    if (!r || !scalarKindNamed(nameOf(r)))
      fail(at, "'" + qualifiedName(f.function) + "' returns a " + (nameOf(r) == "Ptr" ? "pointer" : "tile") +
               " from inside this device loop and nowhere before it: " +
               (nameOf(r) == "Ptr" ? "there is no pointer to start the loop with" : "its shape is not known when the loop starts") +
               "; assign the result to a variable declared before the loop, break, and return the variable after "
               "the loop");
    *f.returnValue = Val::dev(placeholder(*elementOf(type), at));
  }
  return {f.returnFlag, f.returnValue};
}

std::vector<Val *> Walker::returnCarried(SourceLocation at) {
  std::vector<Val *> out = returnSlots(at);
  // A return sets the break and continue flags of every loop around it.
  for (auto loop = loops_.rbegin(); loop != loops_.rend() && loop->frame == &frame(); ++loop)
    for (Val *flag : {loop->broken, loop->skip})
      if (flag) out.push_back(flag);
  return out;
}

ir::Value *Walker::condition(const Expr *e, const char *what) {
  ir::Value *v = device(e, what);
  if (v->type.elem == ir::ScalarKind::I1) return v;
  ir::Location l = loc(e->getExprLoc());  // a number as a condition, Triton's `if x:`: x != 0
  ir::Type elem = ir::Type::scalar(v->type.elem);
  ir::Value *zero = ir::isFloat(v->type.elem) ? rec_.constFloat(elem, 0, l) : rec_.constInt(elem, 0, l);
  return rec_.binary(ir::OpKind::Ne, v, zero, l, "!=");
}

Val Walker::deviceConditional(const ConditionalOperator *c, const Expr *condExpr) {
  // Triton's `a if cond else b` on a device condition: an if yielding the
  // branch's value, only the taken branch evaluated (as Triton's scf.if).
  ir::Value *cond = condition(condExpr, "?:");
  ir::Location l = loc(c->getQuestionLoc());
  QualType t = c->getType().getNonReferenceType();
  std::optional<ir::Type> type = elementOf(t);
  if (const auto *b = t->getAs<BuiltinType>(); !type && b) {  // host numbers: Python's under Triton's rules
    if (b->isFloatingPoint()) type = ir::Type::scalar(ir::ScalarKind::F32);
    else if (b->isBooleanType()) type = ir::Type::scalar(ir::ScalarKind::I1);
    else if (b->isInteger())  // a 64-bit C++ integer is i64, as Triton types a literal beyond i32
      type = ir::Type::scalar(ctx_.getTypeSize(t) > 32 ? ir::ScalarKind::I64 : ir::ScalarKind::I32);
  }
  if (!type) fail(c->getExprLoc(), "?: on a device condition gives a device value; this one is a host object");
  ir::Op *op = rec_.beginIf(cond, l);
  std::map<Val *, Val> before = snapshot();
  Frame &fr = frame();
  const Expr *branches[2] = {c->getTrueExpr(), c->getFalseExpr()};
  for (int region = 0; region < 2; ++region) {
    rec_.pushBlock(op->region(region));
    ++fr.deviceDepth;
    Val v = eval(branches[region]);
    --fr.deviceDepth;
    SourceLocation at = branches[region]->getExprLoc();
    if (v.isHostNumber()) v = Val::dev(constant(v, ir::Type::scalar(type->elem), at));
    if (!v.isDevice() || !v.device) fail(at, "a branch of ?: on a device condition must give a device value");
    if (v.device->type.elem != type->elem && !type->isPtr()) v = Val::dev(rec_.cast(v.device, type->elem, loc(at)));
    rec_.yield(op, region, {v.device}, l, "the branches of ?:");
    rec_.popBlock();
    for (auto &[slot, old] : before)
      if (!sameValue(*slot, old))
        fail(at, "a branch of ?: on a device condition assigns a variable: write it as an if statement");
  }
  return Val::dev(op->result(0));
}

Flow Walker::deviceIf(const IfStmt *s, const Expr *condExpr) {
  ir::Value *cond = condition(condExpr, "if");
  auto branch = [&](const Stmt *b) {
    return [this, b, s] { noReturn(exec(b), b ? b : s, "a device if"); };
  };
  deviceBranch(cond, s->getIfLoc(), s, branch(s->getThen()), branch(s->getElse()));
  return Flow::Normal;
}

void Walker::deviceBranch(ir::Value *cond, SourceLocation loc, const Stmt *where, const std::function<void()> &thenWalk,
                          const std::function<void()> &elseWalk, bool guard) {
  ir::Location l = this->loc(loc);
  ir::Op *op = rec_.beginIf(cond, l);
  std::map<Val *, Val> before = snapshot();
  std::map<Val *, Val> after[2];
  Frame &fr = frame();
  for (int region = 0; region < 2; ++region) {
    rec_.pushBlock(op->region(region));
    ++fr.deviceDepth;
    (region == 0 ? thenWalk : elseWalk)();
    --fr.deviceDepth;
    rec_.popBlock();
    after[region] = snapshot();
    for (auto &[slot, old] : before) *slot = old;  // the other branch starts from the same values
  }
  // A guard's else is the path that returned (or left the iteration): what
  // the function's own host numbers became on the other path is what every
  // later statement, guarded the same way, reads.
  std::vector<std::pair<Val *, Val>> kept;
  if (guard) {
    std::set<Val *> owned = ownedSlots();
    for (auto &[slot, old] : before) {
      auto it = after[0].find(slot);
      if (it != after[0].end() && owned.count(slot) && old.isHostNumber() && it->second.isHostNumber() &&
          !sameValue(it->second, old))
        kept.emplace_back(slot, it->second);
    }
  }
  std::set<Val *> changedSet;
  for (int region = 0; region < 2; ++region) {
    for (auto &[slot, v] : after[region]) *slot = v;
    for (auto &[slot, v] : kept) *slot = before[slot];  // taken from the then branch, not merged
    for (Val *slot : changedSince(before, where, guard)) changedSet.insert(slot);
    for (auto &[slot, old] : before) *slot = old;
  }
  std::vector<Val *> changed(changedSet.begin(), changedSet.end());
  sortByPlace(changed);
  for (int region = 0; region < 2; ++region) {
    std::vector<ir::Value *> yields;
    for (Val *slot : changed) {
      ir::Value *v = after[region][slot].device;
      if (!v && (guard || slot == fr.returnValue) && after[1 - region][slot].device) {
        // Read only where the function has not returned (or the iteration
        // has not been left): any value of the type will do.
        rec_.pushBlock(op->region(region));
        v = placeholder(after[1 - region][slot].device->type, loc);
        rec_.popBlock();
      }
      if (!v)
        fail(loc, "'" + varName(slot) + "' is assigned in only one branch of a device if "
                  "and has no value before it");
      yields.push_back(v);
    }
    rec_.yield(op, region, yields, l, "the branches of a device if");
  }
  for (size_t i = 0; i < changed.size(); ++i) *changed[i] = Val::dev(op->result(i));
  for (auto &[slot, v] : kept) *slot = v;
}

std::vector<const ValueDecl *> Walker::assignedDecls(const Stmt *body, const Stmt *alsoInc) {
  struct Finder : RecursiveASTVisitor<Finder> {
    std::vector<const ValueDecl *> found;
    void note(const Expr *lhs) {
      if (auto *r = dyn_cast<DeclRefExpr>(lhs->IgnoreParenImpCasts()))
        if (std::find(found.begin(), found.end(), r->getDecl()) == found.end()) found.push_back(r->getDecl());
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *c) {
      if (c->isAssignmentOp() && c->getNumArgs() > 0) note(c->getArg(0));
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *b) {
      if (b->isAssignmentOp()) note(b->getLHS());
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *u) {
      if (u->isIncrementDecrementOp()) note(u->getSubExpr());
      return true;
    }
  } finder;
  finder.TraverseStmt(const_cast<Stmt *>(body));
  if (alsoInc) finder.TraverseStmt(const_cast<Stmt *>(alsoInc));
  return finder.found;
}

std::vector<Val *> Walker::assignedIn(const Stmt *body, const Stmt *alsoInc) {
  std::vector<Val *> out;
  for (const ValueDecl *d : assignedDecls(body, alsoInc))
    if (Val *slot = lookup(d)) {
      if (!slot->isDevice())
        fail(body->getBeginLoc(), "host variable '" + d->getNameAsString() +
                                      "' is assigned in a device loop; only device variables can be carried");
      if (std::find(out.begin(), out.end(), slot) == out.end()) out.push_back(slot);
    }
  return out;
}

std::vector<ir::Value *> Walker::currentValues(const std::vector<Val *> &slots, SourceLocation at) {
  std::vector<ir::Value *> out;
  for (Val *s : slots) {
    if (!s->device)
      fail(at, "'" + varName(s) + "' is carried by a device loop but has no value before it");
    out.push_back(s->device);
  }
  return out;
}

std::optional<Walker::Counted> Walker::countedLoop(const ForStmt *s) {
  auto *init = dyn_cast_or_null<DeclStmt>(s->getInit());
  if (!init || !init->isSingleDecl()) return std::nullopt;
  auto *iv = dyn_cast<VarDecl>(init->getSingleDecl());
  if (!iv || !isDeviceType(iv->getType()) || !s->getCond() || !s->getInc()) return std::nullopt;
  const Expr *c = deviceCondition(s->getCond());
  auto refersToIv = [&](const Expr *e) {
    auto *r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    if (!r) {
      if (auto *k = dyn_cast<CXXConstructExpr>(e->IgnoreParenImpCasts()); k && k->getNumArgs() >= 1)
        r = dyn_cast<DeclRefExpr>(k->getArg(0)->IgnoreParenImpCasts());
    }
    return r && r->getDecl() == iv;
  };
  Counted out;
  out.iv = iv;
  auto *cmp = c ? dyn_cast<CXXOperatorCallExpr>(c->IgnoreParenImpCasts()) : nullptr;
  if (auto *m = c ? dyn_cast<MaterializeTemporaryExpr>(c->IgnoreParenImpCasts()) : nullptr)
    cmp = dyn_cast<CXXOperatorCallExpr>(m->getSubExpr()->IgnoreParenImpCasts());
  if (!cmp || cmp->getOperator() != OO_Less || !refersToIv(cmp->getArg(0))) return std::nullopt;
  out.hi = cmp->getArg(1);
  auto operatorCall = [](const Expr *e) -> const CXXOperatorCallExpr * {
    e = e->IgnoreParenImpCasts();
    if (auto *w = dyn_cast<ExprWithCleanups>(e)) e = w->getSubExpr()->IgnoreParenImpCasts();
    if (auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr()->IgnoreParenImpCasts();
    if (auto *b = dyn_cast<CXXBindTemporaryExpr>(e)) e = b->getSubExpr()->IgnoreParenImpCasts();
    if (auto *k = dyn_cast<CXXConstructExpr>(e); k && k->getNumArgs() == 1)  // a copy of the sum
      return dyn_cast<CXXOperatorCallExpr>(k->getArg(0)->IgnoreParenImpCasts());
    return dyn_cast<CXXOperatorCallExpr>(e);
  };
  // k += step, k = k + step, k = step + k
  const CXXOperatorCallExpr *inc = operatorCall(s->getInc());
  if (!inc || inc->getNumArgs() != 2 || !refersToIv(inc->getArg(0))) return std::nullopt;
  if (inc->getOperator() == OO_PlusEqual) {
    out.step = inc->getArg(1);
  } else if (inc->getOperator() == OO_Equal) {
    const CXXOperatorCallExpr *sum = operatorCall(inc->getArg(1));
    if (!sum || sum->getOperator() != OO_Plus || sum->getNumArgs() != 2) return std::nullopt;
    if (refersToIv(sum->getArg(0))) out.step = sum->getArg(1);
    else if (refersToIv(sum->getArg(1))) out.step = sum->getArg(0);
    else return std::nullopt;
  } else {
    return std::nullopt;
  }
  // The bound and step are read once, before the loop: they must not read
  // the induction variable (k = k + k doubles k: a while loop).
  struct Reads : RecursiveASTVisitor<Reads> {
    const VarDecl *iv;
    bool found = false;
    bool VisitDeclRefExpr(DeclRefExpr *r) {
      found |= r->getDecl() == iv;
      return true;
    }
  };
  for (const Expr *e : {out.hi, out.step}) {
    Reads reads;
    reads.iv = iv;
    reads.TraverseStmt(const_cast<Expr *>(e));
    if (reads.found) return std::nullopt;
  }
  // The body must not assign the induction variable.
  struct Assigns : RecursiveASTVisitor<Assigns> {
    const VarDecl *iv;
    bool found = false;
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *c) {
      if (c->isAssignmentOp())
        if (auto *r = dyn_cast<DeclRefExpr>(c->getArg(0)->IgnoreParenImpCasts()); r && r->getDecl() == iv) found = true;
      return true;
    }
  } assigns;
  assigns.iv = iv;
  assigns.TraverseStmt(const_cast<Stmt *>(s->getBody()));
  if (assigns.found) return std::nullopt;
  return out;
}

bool Walker::boundsChange(const Counted &c, const Stmt *body) {
  struct Refs : RecursiveASTVisitor<Refs> {
    std::set<const ValueDecl *> decls;
    bool VisitDeclRefExpr(DeclRefExpr *r) {
      decls.insert(r->getDecl());
      return true;
    }
  } refs;
  refs.TraverseStmt(const_cast<Expr *>(c.hi));
  refs.TraverseStmt(const_cast<Expr *>(c.step));
  for (const ValueDecl *d : assignedDecls(body))
    if (refs.decls.count(d)) return true;
  return false;
}

void Walker::onlyCarriedChanged(const std::map<Val *, Val> &before, const std::vector<Val *> &carried, const Stmt *loop) {
  for (auto &[slot, old] : before)
    if (!sameValue(*slot, old) && std::find(carried.begin(), carried.end(), slot) == carried.end())
      fail(loop->getBeginLoc(), "'" + varName(slot) + "' changes in this device loop, but not by an assignment to it "
                                "the parsing front end can carry (only variables the loop body assigns by name "
                                "are carried)");
}

void Walker::deviceBody(const Stmt *loop, const Stmt *body, Val *broken) {
  LoopContext ctx;
  ctx.broken = broken;
  ctx.frame = &frame();
  if (containsJump(body, true) || (frame().returnFlag && containsReturn(body)))
    ctx.skip = newFlag("continue flag", loop->getBeginLoc(), false);
  loops_.push_back(ctx);
  ++frame().deviceDepth;
  Flow f = exec(body);
  --frame().deviceDepth;
  loops_.pop_back();
  noReturn(f, body, "a device loop");
}

Flow Walker::deviceFor(const ForStmt *s, const Counted &c) {
  exec(s->getInit());
  ir::Value *lo = lookup(c.iv)->device;
  ir::Value *hi = device(c.hi, "the loop bound"), *step = device(c.step, "the loop step");
  std::vector<Val *> carried = assignedIn(s->getBody());
  ir::Location l = loc(s->getForLoc());
  ir::Op *op = rec_.beginFor(lo, hi, step, currentValues(carried, s->getForLoc()), l);
  rec_.pushBlock(op->region(0));
  *lookup(c.iv) = Val::dev(op->region(0).arg(0));
  for (size_t i = 0; i < carried.size(); ++i) *carried[i] = Val::dev(op->region(0).arg(i + 1));
  std::vector<Val *> bound = carried;
  bound.push_back(lookup(c.iv));
  std::map<Val *, Val> before = snapshot();
  deviceBody(s, s->getBody(), nullptr);
  onlyCarriedChanged(before, bound, s);
  rec_.yield(op, 0, currentValues(carried, s->getForLoc()), l, "the loop body");
  rec_.popBlock();
  for (size_t i = 0; i < carried.size(); ++i) *carried[i] = Val::dev(op->result(i));
  return Flow::Normal;
}

Flow Walker::deviceWhile(const Stmt *s, const Expr *cond, const Stmt *body, const Expr *inc) {
  std::vector<Val *> carried = assignedIn(body, inc);
  bool returns = frame().returnFlag && containsReturn(body);
  Val *broken = containsJump(body, false) || returns ? newFlag("break flag", s->getBeginLoc(), false) : nullptr;
  if (returns)
    for (Val *slot : returnCarried(s->getBeginLoc())) carried.push_back(slot);
  if (broken) carried.push_back(broken);
  ir::Location l = loc(s->getBeginLoc());
  ir::Op *op = rec_.beginWhile(currentValues(carried, s->getBeginLoc()), l);
  for (int region = 0; region < 2; ++region) {
    rec_.pushBlock(op->region(region));
    for (size_t i = 0; i < carried.size(); ++i) *carried[i] = Val::dev(op->region(region).arg(i));
    if (region == 0) {
      ir::Location cl = loc(cond->getExprLoc());
      ir::Value *c = condition(deviceCondition(cond), "the loop condition");
      if (broken) c = rec_.binary(ir::OpKind::And, c, rec_.unary(ir::OpKind::Not, broken->device, cl, "!"), cl, "&");
      rec_.yield(op, 0, {c}, cl, "the loop condition");
    } else {
      std::map<Val *, Val> before = snapshot();
      deviceBody(s, body, broken);
      if (inc && broken) {  // after a break the increment does not run
        ir::Value *go = rec_.unary(ir::OpKind::Not, broken->device, loc(inc->getExprLoc()), "!");
        deviceBranch(go, inc->getExprLoc(), s, [&] { eval(inc); }, [] {});
      } else if (inc) {
        eval(inc);
      }
      onlyCarriedChanged(before, carried, s);
      rec_.yield(op, 1, currentValues(carried, s->getBeginLoc()), l, "the loop body");
    }
    rec_.popBlock();
  }
  for (size_t i = 0; i < carried.size(); ++i) *carried[i] = Val::dev(op->result(i));
  return Flow::Normal;
}

} // namespace twintile::walker
