//===- HostValues.cpp - variables, host arithmetic, places ---------------===//
//
// Host values live in the walker's frames: numbers, strings, and objects
// (structs, arrays, closures) copied by value as C++ copies them. Host
// arithmetic follows C++'s conversions and wraps where C++ leaves overflow
// undefined.
//===----------------------------------------------------------------------===//
#include "frontends/parse/WalkerInternal.h"

namespace twintile::walker {

std::shared_ptr<HostObject> clone(const std::shared_ptr<HostObject> &o) {
  auto c = std::make_shared<HostObject>(*o);
  for (auto &[f, v] : c->fields)
    if (v.kind == Val::Kind::Object && v.obj) v.obj = clone(v.obj);
  for (Val &v : c->elems)
    if (v.kind == Val::Kind::Object && v.obj) v.obj = clone(v.obj);
  return c;
}

Val *Walker::lookup(const ValueDecl *d) {
  for (std::shared_ptr<Frame> f = frames_.back(); f; f = f->lexicalParent) {
    if (auto it = f->vars.find(d); it != f->vars.end()) return deref(&it->second);
    if (f->self && !f->self->capturedCopies.empty())
      if (auto it = f->self->capturedCopies.find(d); it != f->self->capturedCopies.end()) return deref(&it->second);
  }
  return nullptr;
}

Val *Walker::deref(Val *v) {
  while (v && v->kind == Val::Kind::Ref) v = v->ref;
  return v;
}

Val Walker::refTo(const Expr *e) {
  Val r;
  r.kind = Val::Kind::Ref;
  r.ref = lvalue(e);
  return r;
}

Val Walker::readVar(const ValueDecl *d, SourceLocation at) {
  if (Val *v = lookup(d)) return *v;
  if (auto *b = dyn_cast<BindingDecl>(d)) return eval(b->getBinding());
  if (auto *v = dyn_cast<VarDecl>(d)) {
    // A global or static constant: Clang evaluates it.
    if (v->hasGlobalStorage() && v->getInit()) {
      if (v->getType().isConstQualified() || v->isConstexpr()) {
        if (!evaluating_.insert(v).second) fail(at, "'" + v->getNameAsString() + "' is defined in terms of itself");
        struct Done {
          std::set<const VarDecl *> &set;
          const VarDecl *v;
          ~Done() { set.erase(v); }
        } done{evaluating_, v};
        if (const APValue *value = v->evaluateValue()) {
          if (value->isInt()) return toHostType(Val::integer(value->getInt().getExtValue()), v->getType(), at);
          if (value->isFloat()) return toHostType(Val::floating(value->getFloat().convertToDouble()), v->getType(), at);
        }
        return eval(v->getInit());
      }
      fail(at, "'" + v->getNameAsString() + "' is a mutable global variable: kernels read only constants");
    }
  }
  if (auto *e = dyn_cast<EnumConstantDecl>(d)) return Val::integer(e->getInitVal().getExtValue());
  fail(at, "'" + d->getNameAsString() + "' has no value here");
}

Val Walker::toHostType(Val v, QualType t, SourceLocation at) {
  t = t.getNonReferenceType().getCanonicalType();
  if (!v.isHostNumber()) return v;
  if (t->isBooleanType()) return Val::integer(v.number() != 0);
  if (t->isIntegralOrEnumerationType()) {
    int64_t x = v.kind == Val::Kind::Float ? static_cast<int64_t>(v.f) : v.i;
    unsigned width = ctx_.getIntWidth(t);
    if (width < 64) {
      uint64_t mask = (uint64_t(1) << width) - 1;
      uint64_t u = static_cast<uint64_t>(x) & mask;
      if (t->isSignedIntegerOrEnumerationType() && (u >> (width - 1)) & 1) u |= ~mask;
      x = static_cast<int64_t>(u);
    }
    return Val::integer(x);
  }
  if (t->isRealFloatingType()) {
    double d = v.number();
    if (ctx_.getTypeSize(t) == 32) d = static_cast<float>(d);
    return Val::floating(d);
  }
  fail(at, "cannot convert a host number to '" + t.getAsString() + "'");
}

Val Walker::hostBinary(BinaryOperatorKind op, Val a, Val b, QualType resultType, SourceLocation at, QualType opType) {
  bool uns = !opType.isNull() && opType.getCanonicalType()->isUnsignedIntegerOrEnumerationType() &&
             a.kind == Val::Kind::Int && b.kind == Val::Kind::Int;
  if (uns && (BinaryOperator::isComparisonOp(op) || op == BO_Div || op == BO_Rem || op == BO_Shr)) {
    // Unsigned: compare, divide and shift the bits as unsigned.
    uint64_t p = static_cast<uint64_t>(a.i), q = static_cast<uint64_t>(b.i);
    switch (op) {
    case BO_LT: return Val::integer(p < q);
    case BO_GT: return Val::integer(p > q);
    case BO_LE: return Val::integer(p <= q);
    case BO_GE: return Val::integer(p >= q);
    case BO_EQ: return Val::integer(p == q);
    case BO_NE: return Val::integer(p != q);
    case BO_Shr: return toHostType(Val::integer(static_cast<int64_t>(p >> (q & 63))), resultType, at);
    default:
      if (q == 0) fail(at, "host division by zero");
      return toHostType(Val::integer(static_cast<int64_t>(op == BO_Div ? p / q : p % q)), resultType, at);
    }
  }
  if (!a.isHostNumber() || !b.isHostNumber())
    fail(at, "operator '" + BinaryOperator::getOpcodeStr(op).str() + "' on host values needs numbers");
  bool fp = a.kind == Val::Kind::Float || b.kind == Val::Kind::Float;
  if (BinaryOperator::isComparisonOp(op)) {
    double x = a.number(), y = b.number();
    bool r = false;
    if (!fp) {
      int64_t p = a.i, q = b.i;
      switch (op) {
      case BO_LT: r = p < q; break; case BO_GT: r = p > q; break;
      case BO_LE: r = p <= q; break; case BO_GE: r = p >= q; break;
      case BO_EQ: r = p == q; break; default: r = p != q; break;
      }
    } else {
      switch (op) {
      case BO_LT: r = x < y; break; case BO_GT: r = x > y; break;
      case BO_LE: r = x <= y; break; case BO_GE: r = x >= y; break;
      case BO_EQ: r = x == y; break; default: r = x != y; break;
      }
    }
    return Val::integer(r);
  }
  if (fp) {
    double x = a.number(), y = b.number(), r = 0;
    switch (op) {
    case BO_Add: r = x + y; break; case BO_Sub: r = x - y; break;
    case BO_Mul: r = x * y; break; case BO_Div: r = x / y; break;
    default: fail(at, "operator '" + BinaryOperator::getOpcodeStr(op).str() + "' does not apply to floating-point host values");
    }
    return toHostType(Val::floating(r), resultType, at);
  }
  uint64_t x = static_cast<uint64_t>(a.i), y = static_cast<uint64_t>(b.i);
  int64_t r = 0;
  switch (op) {
  case BO_Add: r = static_cast<int64_t>(x + y); break;
  case BO_Sub: r = static_cast<int64_t>(x - y); break;
  case BO_Mul: r = static_cast<int64_t>(x * y); break;
  case BO_Div:
  case BO_Rem:
    if (b.i == 0) fail(at, "host division by zero");
    if (b.i == -1) {  // the minimum divided by -1 overflows: C++ leaves it undefined, the walker wraps
      r = op == BO_Div ? static_cast<int64_t>(0 - x) : 0;
      break;
    }
    r = op == BO_Div ? a.i / b.i : a.i % b.i;
    break;
  case BO_And: r = a.i & b.i; break;
  case BO_Or: r = a.i | b.i; break;
  case BO_Xor: r = a.i ^ b.i; break;
  case BO_Shl: r = static_cast<int64_t>(x << (b.i & 63)); break;
  case BO_Shr: r = a.i >> (b.i & 63); break;
  default: fail(at, "operator '" + BinaryOperator::getOpcodeStr(op).str() + "' is not supported on host values");
  }
  return toHostType(Val::integer(r), resultType, at);
}

Val *Walker::lvalue(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (auto *r = dyn_cast<DeclRefExpr>(e)) {
    if (Val *v = lookup(r->getDecl())) return v;
    fail(e->getExprLoc(), "cannot assign to '" + r->getDecl()->getNameAsString() + "' here");
  }
  if (auto *m = dyn_cast<MemberExpr>(e)) {
    auto *field = dyn_cast<FieldDecl>(m->getMemberDecl());
    std::shared_ptr<HostObject> obj = objectOf(m->getBase());
    if (field && obj) return &obj->fields[field];
  }
  if (auto *s = dyn_cast<ArraySubscriptExpr>(e)) {
    Val *base = lvalue(s->getBase());
    Val index = eval(s->getIdx());
    if (base->kind == Val::Kind::Object && index.kind == Val::Kind::Int && index.i >= 0 &&
        static_cast<size_t>(index.i) < base->obj->elems.size())
      return &base->obj->elems[index.i];
    fail(e->getExprLoc(), "array index out of range");
  }
  fail(e->getExprLoc(), "this assignment target is not supported in kernels");
}

Val Walker::member(const MemberExpr *m) {
  const ValueDecl *d = m->getMemberDecl();
  if (auto *v = dyn_cast<VarDecl>(d)) return readVar(v, m->getExprLoc());  // a static member
  auto *field = dyn_cast<FieldDecl>(d);
  if (!field) fail(m->getExprLoc(), "member functions are called, not read, in kernels");
  std::shared_ptr<HostObject> obj = objectOf(m->getBase());
  Val v = obj->fields[field];
  return v;
}

Val Walker::element(const ArraySubscriptExpr *s) {
  Val base = eval(s->getBase());
  Val index = eval(s->getIdx());
  if (base.kind != Val::Kind::Object || index.kind != Val::Kind::Int)
    fail(s->getExprLoc(), "only host arrays with host indices can be subscripted in kernels");
  if (index.i < 0 || static_cast<size_t>(index.i) >= base.obj->elems.size())
    fail(s->getExprLoc(), "array index " + std::to_string(index.i) + " is out of range");
  return base.obj->elems[index.i];
}

std::shared_ptr<HostObject> Walker::objectOf(const Expr *base) {
  base = base->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(base)) {
    if (!frame().self) fail(base->getExprLoc(), "'this' is not an object here (the parsing front end)");
    return frame().self;
  }
  Val v = eval(base);
  if (v.kind != Val::Kind::Object) fail(base->getExprLoc(), "member access on a value that is not an object");
  return v.obj;
}

} // namespace twintile::walker
