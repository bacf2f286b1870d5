//===- HostEval.cpp - expressions, evaluated on host values --------------===//
//
// Every expression of the kernel's instantiated body is evaluated here:
// host subexpressions to numbers and objects, the language's calls handed
// to Builtins.cpp, user calls to Inline.cpp.
//===----------------------------------------------------------------------===//
#include "frontends/parse/WalkerInternal.h"

namespace twintile::walker {

Val Walker::eval(const Expr *e) {
  Val v = evalExpr(e);
  // An unsigned 64-bit value's bits may read negative: its type says it is not.
  if (v.kind == Val::Kind::Int) {
    QualType t = e->getType().getCanonicalType();
    v.unsigned64 = t->isUnsignedIntegerType() && !t->isBooleanType() && ctx_.getTypeSize(t) == 64;
  }
  return v;
}

Val Walker::evalExpr(const Expr *e) {
  e = e->IgnoreParens();
  if (auto *c = dyn_cast<ConstantExpr>(e)) return eval(c->getSubExpr());
  if (auto *c = dyn_cast<ImplicitCastExpr>(e)) return implicitCast(c);
  if (auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) return eval(m->getSubExpr());
  if (auto *b = dyn_cast<CXXBindTemporaryExpr>(e)) return eval(b->getSubExpr());
  if (auto *w = dyn_cast<ExprWithCleanups>(e)) return eval(w->getSubExpr());
  if (auto *s = dyn_cast<SubstNonTypeTemplateParmExpr>(e)) return eval(s->getReplacement());
  if (auto *d = dyn_cast<CXXDefaultArgExpr>(e)) return eval(d->getExpr());
  if (auto *d = dyn_cast<CXXDefaultInitExpr>(e)) return eval(d->getExpr());
  if (auto *l = dyn_cast<IntegerLiteral>(e))  // an unsigned literal keeps its value: 0xFFFFFFFF is not -1
    return Val::integer(l->getType()->isUnsignedIntegerType() ? static_cast<int64_t>(l->getValue().getZExtValue())
                                                             : l->getValue().getSExtValue());
  if (auto *l = dyn_cast<FloatingLiteral>(e)) return toHostType(Val::floating(l->getValueAsApproximateDouble()), e->getType(), e->getExprLoc());
  if (auto *l = dyn_cast<CXXBoolLiteralExpr>(e)) return Val::integer(l->getValue());
  if (auto *l = dyn_cast<CharacterLiteral>(e)) return Val::integer(l->getValue());
  if (auto *l = dyn_cast<StringLiteral>(e)) {
    Val v;
    v.kind = Val::Kind::String;
    v.s = l->getString().str();
    return v;
  }
  if (auto *r = dyn_cast<DeclRefExpr>(e)) return readVar(r->getDecl(), e->getExprLoc());
  if (auto *m = dyn_cast<MemberExpr>(e)) return member(m);
  if (auto *s = dyn_cast<ArraySubscriptExpr>(e)) return element(s);
  if (auto *b = dyn_cast<BinaryOperator>(e)) return binaryOperator(b);
  if (auto *u = dyn_cast<UnaryOperator>(e)) return unaryOperator(u);
  if (auto *c = dyn_cast<ConditionalOperator>(e)) {
    if (const Expr *dc = deviceCondition(c->getCond())) return deviceConditional(c, dc);
    return truthy(eval(c->getCond()), c->getCond()) ? eval(c->getTrueExpr()) : eval(c->getFalseExpr());
  }
  if (auto *c = dyn_cast<CallExpr>(e)) return call(c);
  if (auto *c = dyn_cast<CXXConstructExpr>(e)) return construct(c);
  if (auto *c = dyn_cast<CXXFunctionalCastExpr>(e)) return explicitCast(c, c->getSubExpr());
  if (auto *c = dyn_cast<CStyleCastExpr>(e)) return explicitCast(c, c->getSubExpr());
  if (auto *c = dyn_cast<CXXStaticCastExpr>(e)) return explicitCast(c, c->getSubExpr());
  if (auto *l = dyn_cast<LambdaExpr>(e)) return lambda(l);
  if (auto *i = dyn_cast<InitListExpr>(e)) return initList(i);
  if (isa<CXXThisExpr>(e)) {
    Val v;
    v.kind = Val::Kind::Object;
    v.obj = frame().self;
    return v;
  }
  if (isa<CXXThrowExpr>(e)) fail(e->getExprLoc(), "exceptions are not supported in kernels (throw)");
  if (isa<CXXNewExpr>(e) || isa<CXXDeleteExpr>(e)) fail(e->getExprLoc(), "dynamic allocation is not supported in kernels");
  // __builtin_FILE() and friends: the positions the header's functions capture
  // for the tracer (TT_HERE_), where the walker inlines one (clamp); it has its own.
  if (isa<SourceLocExpr>(e)) return Val();
  // Anything else that Clang can evaluate is a host constant.
  Expr::EvalResult result;
  if (!e->isValueDependent() && e->EvaluateAsRValue(result, ctx_)) {
    if (result.Val.isInt()) return Val::integer(result.Val.getInt().getExtValue());
    if (result.Val.isFloat()) return Val::floating(result.Val.getFloat().convertToDouble());
  }
  fail(e->getExprLoc(), std::string("this expression (") + e->getStmtClassName() + ") is not supported in kernels");
}

bool Walker::truthy(const Val &v, const Expr *e) {
  if (v.isHostNumber()) return v.number() != 0;
  fail(e->getExprLoc(), "a condition must be a host number or a device i1");
}

Val Walker::implicitCast(const ImplicitCastExpr *c) {
  Val v = eval(c->getSubExpr());
  switch (c->getCastKind()) {
  case CK_IntegralCast: case CK_IntegralToFloating: case CK_FloatingToIntegral: case CK_FloatingCast:
  case CK_IntegralToBoolean: case CK_FloatingToBoolean: case CK_BooleanToSignedIntegral:
    return toHostType(v, c->getType(), c->getExprLoc());
  case CK_ArrayToPointerDecay:
    if (v.kind == Val::Kind::String) return v;
    fail(c->getExprLoc(), "host pointers are not supported in kernels (an array decays to a pointer here)");
  default: return v;
  }
}

Val Walker::explicitCast(const Expr *c, const Expr *sub) {
  if (c->getType()->isVoidType()) {  // (void)x: evaluated for its effects, if any
    eval(sub);
    return Val();
  }
  if (isDeviceType(c->getType()) && !isa<CXXConstructExpr>(sub->IgnoreParenImpCasts()) && !isDeviceType(sub->getType()))
    return construct(nullptr, c->getType(), {sub}, c->getExprLoc());
  Val v = eval(sub);
  if (v.isDevice()) {
    if (isDeviceType(c->getType())) return v;
    fail(c->getExprLoc(), "a device value cannot become a host value ('" + c->getType().getAsString() + "')");
  }
  return toHostType(v, c->getType(), c->getExprLoc());
}

Val Walker::binaryOperator(const BinaryOperator *b) {
  BinaryOperatorKind op = b->getOpcode();
  SourceLocation at = b->getOperatorLoc();
  if (op == BO_LAnd || op == BO_LOr) {
    if (deviceCondition(b->getLHS()) || deviceCondition(b->getRHS()))
      fail(at, std::string("'") + (op == BO_LAnd ? "&&" : "||") +
                   "' between a device number and another condition: compare the number first (x != 0), "
                   "which makes a mask that '" + (op == BO_LAnd ? "&&" : "||") + "' combines");
    bool l = truthy(eval(b->getLHS()), b->getLHS());
    if (op == BO_LAnd ? !l : l) return Val::integer(l);
    return Val::integer(truthy(eval(b->getRHS()), b->getRHS()));
  }
  if (op == BO_Comma) {
    eval(b->getLHS());
    return eval(b->getRHS());
  }
  if (b->isAssignmentOp()) {
    Val *slot = lvalue(b->getLHS());
    Val rhs = eval(b->getRHS());
    if (op == BO_Assign) *slot = toHostType(rhs, b->getLHS()->getType(), at);
    else
      *slot = hostBinary(BinaryOperator::getOpForCompoundAssignment(op), *slot, rhs, b->getLHS()->getType(), at,
                         b->getLHS()->getType());
    return *slot;
  }
  if (b->getLHS()->getType()->isPointerType() || b->getRHS()->getType()->isPointerType())
    fail(at, "host pointers are not supported in kernels");
  Val l = eval(b->getLHS()), r = eval(b->getRHS());
  return hostBinary(op, l, r, b->getType(), at, b->getLHS()->getType());
}

Val Walker::unaryOperator(const UnaryOperator *u) {
  SourceLocation at = u->getOperatorLoc();
  switch (u->getOpcode()) {
  case UO_AddrOf: case UO_Deref: fail(at, "host pointers are not supported in kernels");
  case UO_Plus: return eval(u->getSubExpr());
  case UO_Minus: {
    Val v = eval(u->getSubExpr());
    if (v.kind == Val::Kind::Float) return Val::floating(-v.f);
    return toHostType(Val::integer(static_cast<int64_t>(0 - static_cast<uint64_t>(v.i))), u->getType(), at);
  }
  case UO_Not: return toHostType(Val::integer(~eval(u->getSubExpr()).i), u->getType(), at);
  case UO_LNot:
    if (deviceCondition(u->getSubExpr()))
      fail(at, "'!' on a device number: compare it instead (x == 0)");
    return Val::integer(!truthy(eval(u->getSubExpr()), u->getSubExpr()));
  case UO_PreInc: case UO_PreDec: case UO_PostInc: case UO_PostDec: {
    Val *slot = lvalue(u->getSubExpr());
    Val old = *slot;
    bool inc = u->getOpcode() == UO_PreInc || u->getOpcode() == UO_PostInc;
    *slot = hostBinary(inc ? BO_Add : BO_Sub, old, Val::integer(1), u->getSubExpr()->getType(), at);
    return u->isPrefix() ? *slot : old;
  }
  default: fail(at, "this unary operator is not supported in kernels");
  }
}

Val Walker::lambda(const LambdaExpr *l) {
  Val v;
  v.kind = Val::Kind::Object;
  v.obj = std::make_shared<HostObject>();
  v.obj->record = l->getLambdaClass();
  v.obj->captureFrame = frames_.back();
  for (const LambdaCapture &c : l->captures()) {
    if (c.capturesThis())
      fail(c.getLocation(), "lambdas capturing 'this' are not supported by the parsing front end");
    if (!c.capturesVariable()) continue;
    const ValueDecl *var = c.getCapturedVar();
    if (auto *vd = dyn_cast<VarDecl>(var); vd && vd->isInitCapture())
      fail(c.getLocation(), "init-captures ([x = ...]) are not supported by the parsing front end");
    if (c.getCaptureKind() == LCK_ByCopy)
      if (Val *cur = lookup(var)) {
        Val copy = *cur;
        if (copy.kind == Val::Kind::Object && copy.obj) copy.obj = clone(copy.obj);
        v.obj->capturedCopies[var] = copy;
      }
  }
  return v;
}

Val Walker::initList(const InitListExpr *i) {
  if (i->getType()->isScalarType() || i->getType()->isReferenceType()) {  // int m{5};
    if (i->getNumInits() == 0) return toHostType(Val::integer(0), i->getType(), i->getExprLoc());
    return eval(i->getInit(0));
  }
  if (isDeviceType(i->getType())) return i->getNumInits() ? eval(i->getInit(0)) : Val::dev(nullptr);
  Val v;
  v.kind = Val::Kind::Object;
  v.obj = std::make_shared<HostObject>();
  if (const CXXRecordDecl *r = recordOf(i->getType())) {
    v.obj->record = r;
    unsigned n = 0;
    // A default member initializer (`int m = k + 1;`) reads the object being
    // made, its earlier members already set: `this` is that object meanwhile.
    std::shared_ptr<Frame> here = frames_.back();
    struct Self {
      Frame &f;
      std::shared_ptr<HostObject> outer;
      ~Self() { f.self = outer; }
    } restore{*here, here->self};
    for (const FieldDecl *f : r->fields()) {
      if (n < i->getNumInits()) {
        const Expr *init = i->getInit(n);
        here->self = isa<CXXDefaultInitExpr>(init) ? v.obj : restore.outer;
        v.obj->fields[f] = eval(init);
      }
      ++n;
    }
    return v;
  }
  for (unsigned n = 0; n < i->getNumInits(); ++n) v.obj->elems.push_back(eval(i->getInit(n)));
  if (auto *array = ctx_.getAsConstantArrayType(i->getType())) {  // `int a[4] = {1};` fills the rest
    uint64_t size = hostArraySize(array, i->getBeginLoc());
    Val fill = i->hasArrayFiller() ? eval(i->getArrayFiller()) : Val::integer(0);
    while (v.obj->elems.size() < size) v.obj->elems.push_back(fill);
  }
  return v;
}

uint64_t Walker::hostArraySize(const ConstantArrayType *array, SourceLocation at) {
  // All its elements, those of its inner arrays too.
  uint64_t total = 1;
  for (const ConstantArrayType *a = array; a; a = ctx_.getAsConstantArrayType(a->getElementType())) {
    uint64_t n = a->getSize().getZExtValue();
    total = n != 0 && total > kMaxHostElements / n ? kMaxHostElements + 1 : total * n;
  }
  if (total > kMaxHostElements)
    fail(at, "this host array has more than " + std::to_string(kMaxHostElements) + " elements, the most the parsing "
             "front end evaluates at compile time");
  return array->getSize().getZExtValue();
}

Val Walker::stdPair(const CXXRecordDecl *r, const std::vector<Val> &refs, SourceLocation at) {
  std::vector<Val> args;
  for (const Val &a : refs) args.push_back(a.kind == Val::Kind::Ref && a.ref ? *deref(a.ref) : a);
  Val v;
  v.kind = Val::Kind::Object;
  v.obj = std::make_shared<HostObject>();
  v.obj->record = r;
  std::vector<const FieldDecl *> fields(r->field_begin(), r->field_end());
  if (fields.size() != 2) fail(at, "this standard library's std::pair is not two fields; use a struct of two values");
  if (args.size() == 1 && args[0].kind == Val::Kind::Object && args[0].obj) {  // a copy, or a pair converted
    std::vector<const FieldDecl *> from(args[0].obj->record->field_begin(), args[0].obj->record->field_end());
    for (size_t i = 0; i < 2 && i < from.size(); ++i) v.obj->fields[fields[i]] = args[0].obj->fields[from[i]];
    return v;
  }
  if (!args.empty() && args.size() != 2) fail(at, "std::pair takes its two values");
  for (size_t i = 0; i < fields.size(); ++i) {
    Val x = args.empty() ? Val::dev(nullptr) : args[i];
    if (x.isHostNumber())
      if (std::optional<ir::Type> e = elementOf(fields[i]->getType())) x = Val::dev(constant(x, ir::Type::scalar(e->elem), at));
    v.obj->fields[fields[i]] = x;
  }
  return v;
}

Val Walker::construct(const CXXConstructExpr *c) {
  std::vector<const Expr *> args(c->arg_begin(), c->arg_end());
  return construct(c->getConstructor(), c->getType(), args, c->getExprLoc());
}

ir::Value *Walker::constant(const Val &v, const ir::Type &elem, SourceLocation at) {
  if (!v.isHostNumber()) fail(at, "expected a number");
  if (elem.isFloat()) return rec_.constFloat(elem, v.number(), loc(at));
  if (v.kind == Val::Kind::Float) fail(at, "a floating-point number does not convert to " + ir::toString(elem));
  if (v.unsigned64) return rec_.constUInt(elem, static_cast<uint64_t>(v.i), loc(at));
  return rec_.constInt(elem, v.i, loc(at));
}

Val Walker::construct(const CXXConstructorDecl *ctor, QualType type, const std::vector<const Expr *> &args, SourceLocation at) {
  const CXXRecordDecl *r = recordOf(type);
  // The language's classes and its conversion wrappers (its aggregates,
  // MemoryHints and KernelOptions, are host structs like a user's).
  if (r && inNamespace(r, "tt") && !r->isAggregate()) {
    llvm::StringRef name = nameOf(r);
    if (name == "Prefix") return eval(args.at(0));
    if (args.empty()) return Val::dev(nullptr);  // a device variable without a value yet
    Val v = eval(args[0]);
    if (v.isDevice() && v.device && scalarKindNamed(name))  // `f32 m = max(x, 0)`: a 0-d tile only
      return Val::dev(twintile::Recorder::scalar(v.device, loc(at)));
    if (v.isDevice()) return v;
    if (v.kind == Val::Kind::Object) return v;
    ir::Type elem = ir::Type::scalar(ir::ScalarKind::I32);  // Offset, Bound
    if (name == "i1") elem = ir::Type::scalar(ir::ScalarKind::I1);
    else if (std::optional<ir::Type> e = elementOf(type)) elem = *e;
    return Val::dev(constant(v, elem, at));
  }
  if (r && r->isLambda()) return args.empty() ? Val() : eval(args[0]);  // copying a closure
  if (r && inStd(r) && nameOf(r) == "pair") {  // Python's 2-tuple: two fields, first and second
    std::vector<Val> vals;
    for (const Expr *a : args) vals.push_back(eval(a));
    return stdPair(r, vals, at);
  }
  if (r && inStd(r)) fail(at, "the C++ standard library ('" + qualifiedName(r) + "') runs only when traced: containers of device values are not supported by the parsing front end (of the standard library it reads std::pair, Python's 2-tuple; for more values return a struct)");
  if (!r) {
    if (args.size() == 1) return toHostType(eval(args[0]), type, at);
    return Val::integer(0);
  }
  // A user struct: copy, or run its constructor.
  if (ctor && (ctor->isCopyOrMoveConstructor()) && args.size() == 1) {
    Val src = eval(args[0]);
    if (src.kind == Val::Kind::Object) {
      Val copy = src;
      copy.obj = clone(src.obj);
      return copy;
    }
    return src;
  }
  Val v;
  v.kind = Val::Kind::Object;
  v.obj = std::make_shared<HostObject>();
  v.obj->record = r;
  for (const FieldDecl *f : r->fields()) v.obj->fields[f] = Val();
  if (!ctor || ctor->isTrivial()) return v;
  if (!ctor->hasBody()) fail(at, "the constructor of '" + qualifiedName(r) + "' has no body to inline");
  std::vector<Val> argVals;
  for (const Expr *a : args) argVals.push_back(eval(a));
  auto f = enter(ctor, argVals, v.obj, at, nullptr);
  prepareReturns(ctor, ctor->getBody());
  for (const CXXCtorInitializer *init : ctor->inits())
    if (FieldDecl *field = init->getMember()) v.obj->fields[field] = eval(init->getInit());
  exec(ctor->getBody());
  leave();
  (void)f;
  return v;
}

} // namespace twintile::walker
