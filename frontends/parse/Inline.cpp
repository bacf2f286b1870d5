//===- Inline.cpp - calls to user code, inlined --------------------------===//
//
// Helpers, templates, lambdas and functors are inlined: each call gets a
// frame, its location joins the inlined-at chain of every op it records.
//===----------------------------------------------------------------------===//
#include "frontends/parse/WalkerInternal.h"

#include <clang/AST/DeclTemplate.h>

namespace twintile::walker {

std::shared_ptr<Frame> Walker::enter(const FunctionDecl *fn, const std::vector<Val> &args, std::shared_ptr<HostObject> self,
                                     SourceLocation callSite, std::shared_ptr<Frame> lexicalParent) {
  if (static_cast<int>(frames_.size()) > kMaxInlineDepth)
    fail(callSite, "inlining '" + fn->getNameAsString() + "' goes deeper than " + std::to_string(kMaxInlineDepth) +
                       " calls: recursion must end on host values (recursion over device values is not supported)");
  auto f = std::make_shared<Frame>();
  f->lexicalParent = std::move(lexicalParent);
  f->self = std::move(self);
  ir::Location site = loc(callSite);
  f->inlinedAt = site.inlinedAt;
  f->inlinedAt.insert(f->inlinedAt.begin(), site.pos);
  for (unsigned i = 0; i < fn->getNumParams() && i < args.size(); ++i) {
    Val a = args[i];
    QualType pt = fn->getParamDecl(i)->getType();
    if (a.kind == Val::Kind::Object && a.obj && !pt->isReferenceType()) a.obj = clone(a.obj);
    f->vars[fn->getParamDecl(i)] = a.isHostNumber() ? toHostType(a, pt, callSite) : a;
  }
  frames_.push_back(f);
  return f;
}

Val Walker::inlineCall(const FunctionDecl *fn, const std::vector<Val> &args, std::shared_ptr<HostObject> self,
                       SourceLocation callSite) {
  if (auto *m = dyn_cast<CXXMethodDecl>(fn); m && m->isVirtual())
    fail(callSite, "virtual calls are not supported by the parsing front end: the callee of '" + qualifiedName(fn) +
                       "' is known only when the host program runs");
  if (inStd(fn)) {
    // std::pair, Python's 2-tuple of helpers' results: made and unpacked.
    // (An argument bound to a reference parameter arrives as a reference.)
    std::vector<Val> vals;
    for (const Val &a : args) vals.push_back(a.kind == Val::Kind::Ref && a.ref ? *deref(a.ref) : a);
    llvm::StringRef name = nameOf(fn);
    if (name == "make_pair") return stdPair(recordOf(fn->getReturnType()), vals, callSite);
    const TemplateArgumentList *targs = fn->getTemplateSpecializationArgs();
    if (name == "get" && vals.size() == 1 && vals[0].kind == Val::Kind::Object && vals[0].obj && targs &&
        targs->size() > 0 && targs->get(0).getKind() == TemplateArgument::Integral && vals[0].obj->record &&
        nameOf(vals[0].obj->record) == "pair") {
      std::vector<const FieldDecl *> fields(vals[0].obj->record->field_begin(), vals[0].obj->record->field_end());
      uint64_t i = targs->get(0).getAsIntegral().getZExtValue();
      if (i < fields.size()) return vals[0].obj->fields[fields[i]];
    }
    fail(callSite, "the C++ standard library ('" + qualifiedName(fn) + "') runs only when traced: containers of device "
                   "values are not supported by the parsing front end (of the standard library it reads std::pair, "
                   "Python's 2-tuple; for more values return a struct)");
  }
  const FunctionDecl *def = nullptr;
  if (!fn->hasBody(def) || !def) fail(callSite, "'" + qualifiedName(fn) + "' has no body to inline");
  std::shared_ptr<Frame> lexical = self ? self->captureFrame.lock() : nullptr;
  // A combinator calls with fewer arguments than a callee with default ones takes.
  std::vector<Val> all = args;
  for (unsigned i = static_cast<unsigned>(all.size()); i < def->getNumParams(); ++i)
    if (const Expr *d = def->getParamDecl(i)->getDefaultArg()) all.push_back(eval(d));
  enter(def, all, std::move(self), callSite, lexical);
  prepareReturns(def, def->getBody());
  Flow flow = exec(def->getBody());
  QualType ret = def->getReturnType();
  bool returnedUnderDevice = frame().returnValue && alwaysReturns(def->getBody());
  if (flow != Flow::Return && !returnedUnderDevice && !ret->isVoidType() && !isa<CXXConstructorDecl>(def)) {
    // C++ makes this undefined behaviour, not an error: say it here, at the
    // helper, rather than as a bad value where the caller uses it.
    auto *body = dyn_cast<CompoundStmt>(def->getBody());
    fail(body ? body->getRBracLoc() : def->getLocation(),
         "'" + qualifiedName(def) + "' reaches the end of its body without returning its " +
             ret.getAsString(def->getASTContext().getPrintingPolicy()) +
             " (a function that returns a value must return it on every path)");
  }
  Val result = flow == Flow::Return ? frame().returned : returnedUnderDevice ? *frame().returnValue : Val();
  leave();
  return result;
}

std::vector<const Expr *> Walker::userArgs(const CallExpr *c, unsigned first) {
  std::vector<const Expr *> out;
  for (unsigned i = first; i < c->getNumArgs(); ++i) {
    const Expr *a = c->getArg(i);
    // The language's trailing Loc arguments record locations for the tracer.
    if (auto *d = dyn_cast<CXXDefaultArgExpr>(a); d && recordOf(d->getType()) &&
                                                  nameOf(recordOf(d->getType())) == "Loc")
      continue;
    out.push_back(a);
  }
  return out;
}

Val Walker::call(const CallExpr *c) {
  const FunctionDecl *fn = c->getDirectCallee();
  SourceLocation at = c->getExprLoc();
  if (!fn) fail(at, "indirect calls are not supported by the parsing front end");
  // Conversion to bool: a device condition outside if/for/while.
  if (isa<CXXConversionDecl>(fn) && inNamespace(fn, "tt"))
    fail(at, "a device value is used as a C++ boolean here; only if, for and while take device conditions");
  bool pairAssign = isa<CXXMethodDecl>(fn) && fn->getOverloadedOperator() == OO_Equal && inStd(fn) &&
                    nameOf(cast<CXXMethodDecl>(fn)->getParent()) == "pair";  // std::pair's operator=: member-wise
  if (auto *m = dyn_cast<CXXMethodDecl>(fn);
      m && (m->isCopyAssignmentOperator() || m->isMoveAssignmentOperator() || pairAssign) && !inNamespace(m, "tt")) {
    if (!m->isDefaulted() && !pairAssign)
      fail(at, "a user-written assignment operator ('" + qualifiedName(m) + "') is not supported by the parsing front end");
    // Member-wise assignment of a user struct: a deep copy.
    bool member = isa<CXXMemberCallExpr>(c);
    const Expr *target = member ? cast<CXXMemberCallExpr>(c)->getImplicitObjectArgument() : c->getArg(0);
    Val v = eval(c->getArg(member ? 0 : 1));
    if (v.kind == Val::Kind::Object && v.obj) v.obj = clone(v.obj);
    Val *slot = lvalue(target);
    *slot = v;
    return *slot;
  }
  // The header's functions written in the language itself are inlined like a
  // user's helper, so that both front ends type their steps alike.
  if (inNamespace(fn, "tt") && !isComposite(fn)) return builtin(c, fn);
  if (fn->getBuiltinID() != 0 && c->getNumArgs() == 1 &&
      (fn->getName() == "move" || fn->getName() == "forward" || fn->getName() == "move_if_noexcept" ||
       fn->getName() == "as_const"))  // std::move and its kin: the value itself
    return eval(c->getArg(0));
  if (fn->getBuiltinID() != 0) {  // a compiler builtin on host constants
    Expr::EvalResult result;
    if (c->EvaluateAsRValue(result, ctx_)) {
      if (result.Val.isInt()) return Val::integer(result.Val.getInt().getExtValue());
      if (result.Val.isFloat()) return Val::floating(result.Val.getFloat().convertToDouble());
    }
    fail(at, "the builtin '" + fn->getNameAsString() + "' is not supported in kernels");
  }

  std::vector<Val> args;
  std::shared_ptr<HostObject> self;
  unsigned first = 0;
  if (auto *m = dyn_cast<CXXMemberCallExpr>(c)) {
    self = objectOf(m->getImplicitObjectArgument());
  } else if (auto *op = dyn_cast<CXXOperatorCallExpr>(c); op && isa<CXXMethodDecl>(fn) &&
                                                          !cast<CXXMethodDecl>(fn)->isStatic()) {
    self = objectOf(op->getArg(0));
    first = 1;
  }
  for (unsigned i = first; i < c->getNumArgs(); ++i) {
    unsigned p = i - first;
    QualType pt = p < fn->getNumParams() ? fn->getParamDecl(p)->getType() : QualType();
    bool byRef = !pt.isNull() && pt->isLValueReferenceType() && !pt.getNonReferenceType().isConstQualified() &&
                 c->getArg(i)->isLValue();
    args.push_back(byRef ? refTo(c->getArg(i)) : eval(c->getArg(i)));  // a T& parameter aliases its argument
  }
  return inlineCall(fn, args, std::move(self), at);
}

Val Walker::callCallable(const Val &callee, const Expr *calleeExpr, const std::vector<Val> &args, SourceLocation at) {
  if (callee.kind != Val::Kind::Object || !callee.obj->record)
    fail(calleeExpr->getExprLoc(), "a combinator's body must be a lambda or a function object");
  const CXXRecordDecl *r = callee.obj->record;
  const CXXMethodDecl *op = nullptr;
  if (r->isLambda()) op = r->getLambdaCallOperator();
  else
    for (const CXXMethodDecl *m : r->methods())
      if (m->getOverloadedOperator() == OO_Call) op = m;
  if (!op) fail(calleeExpr->getExprLoc(), "'" + qualifiedName(r) + "' cannot be called");
  // A generic lambda: its call operator's specialization for these arguments.
  if (const FunctionTemplateDecl *t = op->getDescribedFunctionTemplate()) {
    const CXXMethodDecl *found = nullptr;
    for (const FunctionDecl *s : t->specializations())
      if (s->getNumParams() == args.size()) found = cast<CXXMethodDecl>(s);
    if (!found) fail(calleeExpr->getExprLoc(), "a generic lambda given to a combinator was not instantiated");
    op = found;
  }
  return inlineCall(op, args, callee.obj, at);
}

} // namespace twintile::walker
