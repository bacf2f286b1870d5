//===- Walker.cpp - the parsing front end's AST walker -------------------===//
//
// Evaluates an instantiated kernel body as a partial evaluator: host values
// (ordinary C++ types) are computed at compile time, device values (the
// language's types) become IR values, recorded through the shared Recorder.
// Calls to the language become ops; calls to user code (helpers, templates,
// lambdas, functors) are inlined; host control flow is specialized or
// unrolled; native device control flow becomes structured IR with the
// variables it assigns carried through it.
//===----------------------------------------------------------------------===//
#include "frontends/parse/Walker.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/OperatorKinds.h>
#include <clang/Basic/SourceManager.h>

#include <deque>
#include <functional>
#include <map>
#include <set>

namespace twintile {

namespace {

using namespace clang;

//===-- Values ------------------------------------------------------------===//

struct HostObject;
struct Frame;

/// What an expression evaluates to.
struct Val {
  enum class Kind { Void, Device, Int, Float, String, Object, Ref } kind = Kind::Void;
  ir::Value *device = nullptr;  // Device: null for a device variable never assigned
  int64_t i = 0;                // Int: integers, bools, enums
  double f = 0;                 // Float
  std::string s;                // String: literals for messages and prefixes
  std::shared_ptr<HostObject> obj;  // Object: structs, lambdas, arrays
  Val *ref = nullptr;               // Ref: a reference variable, bound to another's storage

  static Val dev(ir::Value *v) { Val r; r.kind = Kind::Device; r.device = v; return r; }
  static Val integer(int64_t v) { Val r; r.kind = Kind::Int; r.i = v; return r; }
  static Val floating(double v) { Val r; r.kind = Kind::Float; r.f = v; return r; }
  bool isDevice() const { return kind == Kind::Device; }
  bool isHostNumber() const { return kind == Kind::Int || kind == Kind::Float; }
  double number() const { return kind == Kind::Float ? f : static_cast<double>(i); }
};

/// A host object: a struct's fields, an array's elements, a lambda's closure.
struct HostObject {
  const CXXRecordDecl *record = nullptr;
  std::map<const FieldDecl *, Val> fields;
  std::vector<Val> elems;
  std::weak_ptr<Frame> captureFrame;                // lambdas: by-reference captures (weak: no cycle)
  std::map<const ValueDecl *, Val> capturedCopies;  // lambdas: by-copy captures
};

/// A deep copy of a host object (C++ copies members and elements by value).
std::shared_ptr<HostObject> clone(const std::shared_ptr<HostObject> &o) {
  auto c = std::make_shared<HostObject>(*o);
  for (auto &[f, v] : c->fields)
    if (v.kind == Val::Kind::Object && v.obj) v.obj = clone(v.obj);
  for (Val &v : c->elems)
    if (v.kind == Val::Kind::Object && v.obj) v.obj = clone(v.obj);
  return c;
}

/// The variables of one inlined call.
struct Frame {
  std::shared_ptr<Frame> lexicalParent;  // a lambda's enclosing frame
  std::shared_ptr<HostObject> self;      // `this`
  std::map<const void *, Val> vars;  // by declaration, or a synthetic key (loop flags)
  std::vector<ir::SourcePos> inlinedAt;  // call sites, innermost first
  Val returned;
  std::vector<std::vector<const void *>> scopes{{}};  // variables declared in each open block
};

enum class Flow { Normal, Break, Continue, Return };

constexpr int kMaxInlineDepth = 64;
constexpr int64_t kMaxHostIterations = 1 << 20;
constexpr int64_t kMaxWalkSteps = 10'000'000;

//===-- The language's types ----------------------------------------------===//

/// A declaration's name if it is a plain identifier, else "" (operators,
/// constructors and conversions have no identifier).
llvm::StringRef nameOf(const NamedDecl *d) {
  return d && d->getDeclName().isIdentifier() ? d->getName() : llvm::StringRef();
}

bool inNamespace(const Decl *d, llvm::StringRef name, bool orDetail = true) {
  const DeclContext *dc = d->getDeclContext();
  while (dc && !dc->isNamespace()) dc = dc->getParent();
  if (!dc) return false;
  auto *ns = cast<NamespaceDecl>(dc);
  if (nameOf(ns) == name && ns->getParent()->isTranslationUnit()) return true;
  if (orDetail && nameOf(ns) == "detail") {
    auto *outer = dyn_cast<NamespaceDecl>(ns->getParent());
    return outer && nameOf(outer) == name && outer->getParent()->isTranslationUnit();
  }
  return false;
}

bool inStd(const Decl *d) {
  for (const DeclContext *dc = d->getDeclContext(); dc; dc = dc->getParent())
    if (auto *ns = dyn_cast<NamespaceDecl>(dc); ns && ns->getParent()->isTranslationUnit() && nameOf(ns) == "std")
      return true;
  return false;
}

const CXXRecordDecl *recordOf(QualType t) {
  return t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
}

std::optional<ir::ScalarKind> scalarKindNamed(llvm::StringRef n) {
  static const std::pair<const char *, ir::ScalarKind> kinds[] = {
      {"i1", ir::ScalarKind::I1},   {"i8", ir::ScalarKind::I8},   {"i16", ir::ScalarKind::I16},
      {"i32", ir::ScalarKind::I32}, {"i64", ir::ScalarKind::I64}, {"f16", ir::ScalarKind::F16},
      {"bf16", ir::ScalarKind::BF16}, {"f32", ir::ScalarKind::F32}, {"f64", ir::ScalarKind::F64}};
  for (auto &[name, k] : kinds)
    if (n == name) return k;
  return std::nullopt;
}

/// The element type of a language type (i32, Ptr<f16>, Tile<f32>,
/// Operand<Tile<f32>>): a scalar ir::Type, or nothing for host types.
std::optional<ir::Type> elementOf(QualType t) {
  const CXXRecordDecl *r = recordOf(t);
  if (!r || !inNamespace(r, "tt")) return std::nullopt;
  if (auto k = scalarKindNamed(nameOf(r)); k && !isa<ClassTemplateSpecializationDecl>(r)) return ir::Type::scalar(*k);
  auto *spec = dyn_cast<ClassTemplateSpecializationDecl>(r);
  if (!spec || spec->getTemplateArgs().size() < 1 || spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return std::nullopt;
  QualType arg = spec->getTemplateArgs()[0].getAsType();
  llvm::StringRef name = nameOf(spec);
  if (name == "Ptr") {
    std::optional<ir::Type> e = elementOf(arg);
    if (!e) return std::nullopt;
    return ir::Type::ptr(e->elem);
  }
  if (name == "Tile" || name == "Operand") return elementOf(arg);
  return std::nullopt;
}

bool isDeviceType(QualType t) {
  const CXXRecordDecl *r = recordOf(t);
  if (!r || !inNamespace(r, "tt", false)) return false;
  return elementOf(t).has_value() && (nameOf(r) == "Tile" || nameOf(r) == "Ptr" || scalarKindNamed(nameOf(r)));
}

/// The qualified name of a declaration, for messages.
std::string qualifiedName(const NamedDecl *d) { return d ? d->getQualifiedNameAsString() : std::string("?"); }

//===-- The walker --------------------------------------------------------===//

class Walker {
public:
  Walker(ASTContext &ctx, Recorder &rec) : ctx_(ctx), sm_(ctx.getSourceManager()), rec_(rec) {}

  void walk(const FunctionDecl &kernel) {
    auto frame = std::make_shared<Frame>();
    for (const ParmVarDecl *p : kernel.parameters()) {
      std::optional<ir::Type> t = elementOf(p->getType());
      if (!t || !isDeviceType(p->getType()))
        fail(p->getLocation(), "kernel parameter '" + p->getNameAsString() + "' has host type '" +
                                   p->getType().getAsString() +
                                   "': give host values to a kernel as template parameters");
      if (nameOf(recordOf(p->getType())) == "Tile")
        fail(p->getLocation(), "kernel parameters are scalars and pointers; a Tile parameter cannot be passed");
      frame->vars[p] = Val::dev(rec_.param(*t, p->getNameAsString()));
    }
    frames_.push_back(frame);
    Flow f = exec(kernel.getBody());
    (void)f;
    frames_.pop_back();
  }

  // Messages and locations ----------------------------------------------

  ir::Location loc(SourceLocation l) const {
    ir::Location out;
    if (l.isValid()) {
      PresumedLoc p = sm_.getPresumedLoc(sm_.getFileLoc(l));
      if (p.isValid()) out = ir::Location(p.getFilename(), static_cast<int>(p.getLine()), static_cast<int>(p.getColumn()));
    }
    if (!frames_.empty()) out.inlinedAt = frames_.back()->inlinedAt;
    return out;
  }

  [[noreturn]] void fail(SourceLocation l, std::string msg) const { throw KernelError{loc(l), std::move(msg)}; }

private:
  Frame &frame() { return *frames_.back(); }

  //===-- Variables -------------------------------------------------===//

  /// The storage of a variable, searching the frame, a lambda's captures,
  /// and the frames it captured by reference.
  Val *lookup(const ValueDecl *d) {
    for (std::shared_ptr<Frame> f = frames_.back(); f; f = f->lexicalParent) {
      if (auto it = f->vars.find(d); it != f->vars.end()) return deref(&it->second);
      if (f->self && !f->self->capturedCopies.empty())
        if (auto it = f->self->capturedCopies.find(d); it != f->self->capturedCopies.end()) return deref(&it->second);
    }
    return nullptr;
  }

  static Val *deref(Val *v) {
    while (v && v->kind == Val::Kind::Ref) v = v->ref;
    return v;
  }

  void scopeDeclared(const void *key) { frame().scopes.back().push_back(key); }

  /// Runs `body` in a new block scope: its variables end with it.
  template <class F> auto scoped(F &&body) {
    std::shared_ptr<Frame> f = frames_.back();  // this block's frame, even while an error unwinds
    f->scopes.emplace_back();
    struct Close {
      Frame &f;
      ~Close() {
        for (const void *key : f.scopes.back()) f.vars.erase(key);
        f.scopes.pop_back();
      }
    } close{*f};
    return body();
  }

  /// A reference to the storage `e` names.
  Val refTo(const Expr *e) {
    Val r;
    r.kind = Val::Kind::Ref;
    r.ref = lvalue(e);
    return r;
  }

  Val readVar(const ValueDecl *d, SourceLocation at) {
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

  //===-- Host arithmetic -------------------------------------------===//

  /// `v` converted to host type `t` (C++'s conversions).
  Val toHostType(Val v, QualType t, SourceLocation at) {
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

  Val hostBinary(BinaryOperatorKind op, Val a, Val b, QualType resultType, SourceLocation at, QualType opType = {}) {
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

  /// A place a host or device value is stored: a variable, a field, an element.
  Val *lvalue(const Expr *e) {
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

  /// Reads a member: the base stays alive while the field is copied out (it
  /// may be a temporary, `split(v).hi`).
  Val member(const MemberExpr *m) {
    const ValueDecl *d = m->getMemberDecl();
    if (auto *v = dyn_cast<VarDecl>(d)) return readVar(v, m->getExprLoc());  // a static member
    auto *field = dyn_cast<FieldDecl>(d);
    if (!field) fail(m->getExprLoc(), "member functions are called, not read, in kernels");
    std::shared_ptr<HostObject> obj = objectOf(m->getBase());
    Val v = obj->fields[field];
    return v;
  }

  Val element(const ArraySubscriptExpr *s) {
    Val base = eval(s->getBase());
    Val index = eval(s->getIdx());
    if (base.kind != Val::Kind::Object || index.kind != Val::Kind::Int)
      fail(s->getExprLoc(), "only host arrays with host indices can be subscripted in kernels");
    if (index.i < 0 || static_cast<size_t>(index.i) >= base.obj->elems.size())
      fail(s->getExprLoc(), "array index " + std::to_string(index.i) + " is out of range");
    return base.obj->elems[index.i];
  }

  std::shared_ptr<HostObject> objectOf(const Expr *base) {
    base = base->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(base)) return frame().self;
    Val v = eval(base);
    if (v.kind != Val::Kind::Object) fail(base->getExprLoc(), "member access on a value that is not an object");
    return v.obj;
  }

  //===-- Expressions -----------------------------------------------===//

  Val eval(const Expr *e) {
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
      if (deviceCondition(c->getCond()))
        fail(c->getExprLoc(), "?: on a device condition is native control flow inside an expression; use where(cond, a, b)");
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
    // Anything else that Clang can evaluate is a host constant.
    Expr::EvalResult result;
    if (!e->isValueDependent() && e->EvaluateAsRValue(result, ctx_)) {
      if (result.Val.isInt()) return Val::integer(result.Val.getInt().getExtValue());
      if (result.Val.isFloat()) return Val::floating(result.Val.getFloat().convertToDouble());
    }
    fail(e->getExprLoc(), std::string("this expression (") + e->getStmtClassName() + ") is not supported in kernels");
  }

  bool truthy(const Val &v, const Expr *e) {
    if (v.isHostNumber()) return v.number() != 0;
    fail(e->getExprLoc(), "a condition must be a host number or a device i1");
  }

  Val implicitCast(const ImplicitCastExpr *c) {
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

  Val explicitCast(const Expr *c, const Expr *sub) {
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

  Val binaryOperator(const BinaryOperator *b) {
    BinaryOperatorKind op = b->getOpcode();
    SourceLocation at = b->getOperatorLoc();
    if (op == BO_LAnd || op == BO_LOr) {
      if (deviceCondition(b->getLHS()) || deviceCondition(b->getRHS()))
        fail(at, std::string("'") + (op == BO_LAnd ? "&&" : "||") +
                     "' on a device value is native control flow (short-circuit); combine masks with '&' or '|'");
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

  Val unaryOperator(const UnaryOperator *u) {
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
        fail(at, "'!' makes a C++ bool of a device value; negate a mask with '~'");
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

  Val lambda(const LambdaExpr *l) {
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

  Val initList(const InitListExpr *i) {
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
      for (const FieldDecl *f : r->fields()) {
        if (n < i->getNumInits()) v.obj->fields[f] = eval(i->getInit(n));
        ++n;
      }
      return v;
    }
    for (unsigned n = 0; n < i->getNumInits(); ++n) v.obj->elems.push_back(eval(i->getInit(n)));
    if (auto *array = ctx_.getAsConstantArrayType(i->getType())) {  // `int a[4] = {1};` fills the rest
      uint64_t size = array->getSize().getZExtValue();
      Val fill = i->hasArrayFiller() ? eval(i->getArrayFiller()) : Val::integer(0);
      while (v.obj->elems.size() < size) v.obj->elems.push_back(fill);
    }
    return v;
  }

  //===-- Constructors ----------------------------------------------===//

  Val construct(const CXXConstructExpr *c) {
    std::vector<const Expr *> args(c->arg_begin(), c->arg_end());
    return construct(c->getConstructor(), c->getType(), args, c->getExprLoc());
  }

  /// A host number as a device constant of element type `elem`.
  ir::Value *constant(const Val &v, const ir::Type &elem, SourceLocation at) {
    if (!v.isHostNumber()) fail(at, "expected a number");
    if (elem.isFloat()) return rec_.constFloat(elem, v.number(), loc(at));
    if (v.kind == Val::Kind::Float) fail(at, "a floating-point number does not convert to " + ir::toString(elem));
    return rec_.constInt(elem, v.i, loc(at));
  }

  Val construct(const CXXConstructorDecl *ctor, QualType type, const std::vector<const Expr *> &args, SourceLocation at) {
    const CXXRecordDecl *r = recordOf(type);
    // The language's classes and its conversion wrappers.
    if (r && inNamespace(r, "tt")) {
      llvm::StringRef name = nameOf(r);
      if (name == "Prefix") return eval(args.at(0));
      if (args.empty()) return Val::dev(nullptr);  // a device variable without a value yet
      Val v = eval(args[0]);
      if (v.isDevice()) return v;
      if (v.kind == Val::Kind::Object) return v;
      ir::Type elem = ir::Type::scalar(ir::ScalarKind::I32);  // Offset, Bound
      if (name == "i1") elem = ir::Type::scalar(ir::ScalarKind::I1);
      else if (std::optional<ir::Type> e = elementOf(type)) elem = *e;
      return Val::dev(constant(v, elem, at));
    }
    if (r && r->isLambda()) return args.empty() ? Val() : eval(args[0]);  // copying a closure
    if (r && inStd(r)) fail(at, "the C++ standard library ('" + qualifiedName(r) + "') runs only when traced: containers of device values are not supported by the parsing front end");
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
    for (const CXXCtorInitializer *init : ctor->inits())
      if (FieldDecl *field = init->getMember()) v.obj->fields[field] = eval(init->getInit());
    exec(ctor->getBody());
    leave();
    (void)f;
    return v;
  }

  //===-- Calls -----------------------------------------------------===//

  /// Enters a new frame for an inlined call of `fn` with `args` bound.
  std::shared_ptr<Frame> enter(const FunctionDecl *fn, const std::vector<Val> &args, std::shared_ptr<HostObject> self,
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

  void leave() { frames_.pop_back(); }

  Val inlineCall(const FunctionDecl *fn, const std::vector<Val> &args, std::shared_ptr<HostObject> self,
                 SourceLocation callSite) {
    if (auto *m = dyn_cast<CXXMethodDecl>(fn); m && m->isVirtual())
      fail(callSite, "virtual calls are not supported by the parsing front end: the callee of '" + qualifiedName(fn) +
                         "' is known only when the host program runs");
    if (inStd(fn))
      fail(callSite, "the C++ standard library ('" + qualifiedName(fn) + "') runs only when traced: containers of device "
                     "values are not supported by the parsing front end");
    const FunctionDecl *def = nullptr;
    if (!fn->hasBody(def) || !def) fail(callSite, "'" + qualifiedName(fn) + "' has no body to inline");
    std::shared_ptr<Frame> lexical = self ? self->captureFrame.lock() : nullptr;
    enter(def, args, std::move(self), callSite, lexical);
    Flow flow = exec(def->getBody());
    QualType ret = def->getReturnType();
    if (flow != Flow::Return && !ret->isVoidType() && !isa<CXXConstructorDecl>(def)) {
      // C++ makes this undefined behaviour, not an error: say it here, at the
      // helper, rather than as a bad value where the caller uses it.
      auto *body = dyn_cast<CompoundStmt>(def->getBody());
      fail(body ? body->getRBracLoc() : def->getLocation(),
           "'" + qualifiedName(def) + "' reaches the end of its body without returning its " +
               ret.getAsString(def->getASTContext().getPrintingPolicy()) +
               " (a function that returns a value must return it on every path)");
    }
    Val result = flow == Flow::Return ? frame().returned : Val();
    leave();
    return result;
  }

  std::vector<const Expr *> userArgs(const CallExpr *c, unsigned first = 0) {
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

  Val call(const CallExpr *c) {
    const FunctionDecl *fn = c->getDirectCallee();
    SourceLocation at = c->getExprLoc();
    if (!fn) fail(at, "indirect calls are not supported by the parsing front end");
    // Conversion to bool: a device condition outside if/for/while.
    if (isa<CXXConversionDecl>(fn) && inNamespace(fn, "tt"))
      fail(at, "a device value is used as a C++ boolean here; only if, for and while take device conditions");
    if (auto *m = dyn_cast<CXXMethodDecl>(fn); m && (m->isCopyAssignmentOperator() || m->isMoveAssignmentOperator()) &&
                                               !inNamespace(m, "tt")) {
      if (!m->isDefaulted())
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
    if (inNamespace(fn, "tt") && nameOf(fn) != "cdiv") return builtin(c, fn);
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

  //===-- The language ----------------------------------------------===//

  ir::Value *device(const Expr *e, const char *what) {
    Val v = eval(e);
    if (!v.isDevice()) fail(e->getExprLoc(), std::string(what) + " needs a device value here");
    if (!v.device) fail(e->getExprLoc(), std::string(what) + " uses a device value that was never assigned");
    return v.device;
  }

  /// A device value, or a host number turned into a constant of `elem`.
  ir::Value *deviceOr(const Expr *e, const ir::Type &elem) {
    Val v = eval(e);
    if (v.isDevice()) return v.device;
    return constant(v, elem, e->getExprLoc());
  }

  int64_t hostInt(const Expr *e, const char *what) {
    Val v = eval(e);
    if (v.kind != Val::Kind::Int) fail(e->getExprLoc(), std::string(what) + " must be a host integer");
    return v.i;
  }

  std::vector<int64_t> hostInts(const Expr *e, const char *what) {
    Val v = eval(e);
    std::vector<int64_t> out;
    if (v.kind == Val::Kind::Object)
      for (const Val &x : v.obj->elems) {
        if (x.kind != Val::Kind::Int) fail(e->getExprLoc(), std::string(what) + " must be host integers");
        out.push_back(x.i);
      }
    else fail(e->getExprLoc(), std::string(what) + " must be a list of host integers");
    return out;
  }

  ir::Type elemOf(QualType t, SourceLocation at) {
    std::optional<ir::Type> e = elementOf(t);
    if (!e) fail(at, "'" + t.getAsString() + "' is not a device type");
    return *e;
  }

  static std::optional<ir::OpKind> binaryKind(OverloadedOperatorKind op) {
    switch (op) {
    case OO_Plus: case OO_PlusEqual: return ir::OpKind::Add;
    case OO_Minus: case OO_MinusEqual: return ir::OpKind::Sub;
    case OO_Star: case OO_StarEqual: return ir::OpKind::Mul;
    case OO_Slash: case OO_SlashEqual: return ir::OpKind::Div;
    case OO_Percent: return ir::OpKind::Rem;
    case OO_Amp: return ir::OpKind::And;
    case OO_Pipe: return ir::OpKind::Or;
    case OO_Caret: return ir::OpKind::Xor;
    case OO_LessLess: return ir::OpKind::Shl;
    case OO_GreaterGreater: return ir::OpKind::Shr;
    case OO_EqualEqual: return ir::OpKind::Eq;
    case OO_ExclaimEqual: return ir::OpKind::Ne;
    case OO_Less: return ir::OpKind::Lt;
    case OO_LessEqual: return ir::OpKind::Le;
    case OO_Greater: return ir::OpKind::Gt;
    case OO_GreaterEqual: return ir::OpKind::Ge;
    default: return std::nullopt;
    }
  }

  static std::string spelling(OverloadedOperatorKind op) {
    std::string s = getOperatorSpelling(op);
    if (s.size() == 2 && s[1] == '=' && s[0] != '=' && s[0] != '!' && s[0] != '<' && s[0] != '>') s.pop_back();
    return s;
  }

  Val operatorCall(const CallExpr *c, const FunctionDecl *fn) {
    OverloadedOperatorKind op = fn->getOverloadedOperator();
    SourceLocation at = c->getExprLoc();
    ir::Location l = loc(at);
    std::vector<const Expr *> args = userArgs(c);
    if (op == OO_Equal) {  // copy assignment of a device variable
      if (auto *m = dyn_cast<CXXMemberCallExpr>(c)) {
        Val *slot = lvalue(m->getImplicitObjectArgument());
        *slot = eval(c->getArg(0));
        return *slot;
      }
      if (args.size() != 2) fail(at, "unexpected form of assignment");
      Val *slot = lvalue(args[0]);
      *slot = eval(args[1]);
      return *slot;
    }
    bool compound = op == OO_PlusEqual || op == OO_MinusEqual || op == OO_StarEqual || op == OO_SlashEqual;
    const CXXRecordDecl *owner = dyn_cast<CXXRecordDecl>(fn->getLexicalDeclContext());  // friends live in the class lexically
    bool pointerArith = owner && nameOf(owner) == "PtrArith";
    if (args.size() == 2) {
      ir::Value *a = device(args[0], "an operator");
      ir::Value *b = eval(args[1]).device;
      if (!b) b = device(args[1], "an operator");
      std::optional<ir::OpKind> kind = binaryKind(op);
      if (!pointerArith && !kind) fail(at, "operator '" + spelling(op) + "' is not part of the language");
      ir::Value *r = pointerArith ? rec_.addptr(a, b, l) : rec_.binary(*kind, a, b, l, spelling(op));
      if (compound) {
        Val *slot = lvalue(args[0]);
        *slot = Val::dev(r);
        return *slot;
      }
      return Val::dev(r);
    }
    ir::Value *a = device(args.at(0), "an operator");
    if (op == OO_Minus) return Val::dev(rec_.unary(ir::OpKind::Neg, a, l, "-"));
    if (op == OO_Tilde || op == OO_Exclaim) return Val::dev(rec_.unary(ir::OpKind::Not, a, l, spelling(op)));
    fail(at, "operator '" + spelling(op) + "' is not part of the language");
  }

  Val builtin(const CallExpr *c, const FunctionDecl *fn) {
    if (fn->isOverloadedOperator()) return operatorCall(c, fn);
    std::string name = fn->getNameAsString();
    SourceLocation at = c->getExprLoc();
    ir::Location l = loc(at);
    std::vector<const Expr *> a = userArgs(c);
    auto resultElem = [&] { return elemOf(fn->getReturnType(), at); };
    auto arg = [&](size_t i) -> const Expr * {
      if (i >= a.size()) fail(at, "'" + name + "' takes more arguments");
      return a[i];
    };

    if (name == "program_id") return Val::dev(rec_.programId(static_cast<int>(hostInt(arg(0), "the axis")), l));
    if (name == "num_programs") return Val::dev(rec_.numPrograms(static_cast<int>(hostInt(arg(0), "the axis")), l));
    if (name == "arange") {
      int64_t s = hostInt(arg(0), "arange's start"), e = hostInt(arg(1), "arange's end");
      return Val::dev(rec_.arange(s, e, l));
    }
    if (name == "full" || name == "zeros") {
      std::vector<int64_t> shape = hostInts(arg(0), "the shape");
      ir::Type elem = resultElem();
      Val v = name == "full" ? eval(arg(1)) : Val::integer(0);
      return Val::dev(rec_.full(shape, constant(v, elem, at), l));
    }
    if (name == "expand_dims") {
      ir::Value *x = device(arg(0), name.c_str());
      return Val::dev(rec_.expandDims(x, static_cast<int>(hostInt(arg(1), "the axis")), l));
    }
    if (name == "broadcast_to" || name == "reshape") {
      ir::Value *x = device(arg(0), name.c_str());
      std::vector<int64_t> shape = hostInts(arg(1), "the shape");
      return Val::dev(name == "reshape" ? rec_.reshape(x, shape, l) : rec_.broadcastTo(x, shape, l));
    }
    if (name == "trans") {
      ir::Value *x = device(arg(0), name.c_str());
      std::vector<int64_t> perm = a.size() > 1 ? hostInts(arg(1), "the permutation") : std::vector<int64_t>{1, 0};
      return Val::dev(rec_.trans(x, perm, l));
    }
    static const std::pair<const char *, ir::OpKind> unaries[] = {
        {"abs", ir::OpKind::Abs},   {"exp", ir::OpKind::Exp},     {"exp2", ir::OpKind::Exp2}, {"log", ir::OpKind::Log},
        {"log2", ir::OpKind::Log2}, {"sqrt", ir::OpKind::Sqrt},   {"rsqrt", ir::OpKind::Rsqrt}, {"sin", ir::OpKind::Sin},
        {"cos", ir::OpKind::Cos},   {"tanh", ir::OpKind::Tanh},   {"sigmoid", ir::OpKind::Sigmoid}};
    for (auto &[n, k] : unaries)
      if (name == n) return Val::dev(rec_.unary(k, device(arg(0), n), l, n));
    static const std::pair<const char *, ir::OpKind> reductions[] = {
        {"sum", ir::OpKind::Sum}, {"max", ir::OpKind::Max}, {"min", ir::OpKind::Min},
        {"argmax", ir::OpKind::Argmax}, {"argmin", ir::OpKind::Argmin}, {"cumsum", ir::OpKind::Cumsum}};
    for (auto &[n, k] : reductions)
      if (name == n) {
        ir::Value *x = device(arg(0), n);
        return Val::dev(rec_.reduce(k, x, static_cast<int>(hostInt(arg(1), "the axis")), l));
      }
    if (name == "minimum" || name == "maximum") {
      ir::Type elem = resultElem();
      ir::Value *x = deviceOr(arg(0), elem), *y = deviceOr(arg(1), elem);
      return Val::dev(rec_.binary(name == "minimum" ? ir::OpKind::Minimum : ir::OpKind::Maximum, x, y, l, name));
    }
    if (name == "where") {
      ir::Type elem = resultElem();
      ir::Value *cond = device(arg(0), "where");
      ir::Value *x = deviceOr(arg(1), elem), *y = deviceOr(arg(2), elem);
      return Val::dev(rec_.select(cond, x, y, l));
    }
    if (name == "fma") {
      ir::Value *x = device(arg(0), "fma"), *y = device(arg(1), "fma"), *z = device(arg(2), "fma");
      return Val::dev(rec_.fma(x, y, z, l));
    }
    if (name == "cast") return Val::dev(rec_.cast(device(arg(0), "cast"), resultElem().elem, l));
    if (name == "load") {
      ir::Value *p = device(arg(0), "load");
      ir::Value *m = a.size() > 1 ? device(arg(1), "load's mask") : nullptr;
      ir::Value *o = a.size() > 2 ? deviceOr(arg(2), resultElem()) : nullptr;
      return Val::dev(rec_.load(p, m, o, l));
    }
    if (name == "store" || name == "atomic_add") {
      ir::Value *p = device(arg(0), name.c_str());
      ir::Value *v = deviceOr(arg(1), ir::Type::scalar(p->type.pointee));
      ir::Value *m = a.size() > 2 ? device(arg(2), "the mask") : nullptr;
      if (name == "store") {
        rec_.store(p, v, m, l);
        return Val();
      }
      return Val::dev(rec_.atomicAdd(p, v, m, l));
    }
    if (name == "dot") {
      ir::Value *x = device(arg(0), "dot"), *y = device(arg(1), "dot"), *z = device(arg(2), "dot");
      return Val::dev(rec_.dot(x, y, z, l));
    }
    if (name == "device_print") {
      Val prefix = eval(arg(0));
      std::vector<ir::Value *> vals;
      for (size_t i = 1; i < a.size(); ++i) vals.push_back(device(a[i], "device_print"));
      rec_.print(prefix.s, vals, l);
      return Val();
    }
    if (name == "device_assert") {
      ir::Value *cond = device(arg(0), "device_assert");
      rec_.assertTrue(cond, eval(arg(1)).s, l);
      return Val();
    }
    if (name == "carry") {
      Val v;
      v.kind = Val::Kind::Object;
      v.obj = std::make_shared<HostObject>();
      v.obj->record = recordOf(fn->getReturnType());
      size_t i = 0;
      for (const FieldDecl *f : v.obj->record->fields()) v.obj->fields[f] = Val::dev(device(arg(i++), "carry"));
      return v;
    }
    if (name == "for_range") return forRange(c, fn, a);
    if (name == "if_else") return ifElse(c, fn, a);
    if (name == "while_loop") return whileLoop(c, fn, a);
    fail(at, "'" + qualifiedName(fn) + "' is not part of the language the parsing front end reads");
  }

  //===-- Combinators -----------------------------------------------===//

  /// Calls a closure (lambda or functor) or names a function, with `args`.
  Val callCallable(const Val &callee, const Expr *calleeExpr, const std::vector<Val> &args, SourceLocation at) {
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

  std::vector<ir::Value *> devicesOf(const Val &v, SourceLocation at, const char *what) {
    if (v.isDevice()) return {v.device};
    std::vector<ir::Value *> out;
    if (v.kind == Val::Kind::Object)
      for (const FieldDecl *f : v.obj->record->fields()) out.push_back(v.obj->fields[f].device);
    else if (v.kind != Val::Kind::Void)
      fail(at, std::string(what) + " must return device values");
    return out;
  }

  /// What a combinator returns from its op's results: a value or a Carried object.
  Val resultsOf(ir::Op *op, QualType type) {
    if (op->results.size() == 1 && isDeviceType(type)) return Val::dev(op->result(0));
    Val v;
    if (op->results.empty()) return v;
    v.kind = Val::Kind::Object;
    v.obj = std::make_shared<HostObject>();
    v.obj->record = recordOf(type);
    size_t i = 0;
    for (const FieldDecl *f : v.obj->record->fields()) v.obj->fields[f] = Val::dev(op->result(i++));
    return v;
  }

  Val forRange(const CallExpr *c, const FunctionDecl *fn, const std::vector<const Expr *> &a) {
    SourceLocation at = c->getExprLoc();
    if (a.size() < 4) fail(at, "for_range needs bounds, a step and a body");
    ir::Value *lo = device(a[0], "for_range"), *hi = device(a[1], "for_range"), *step = device(a[2], "for_range");
    std::vector<ir::Value *> inits;
    for (size_t i = 3; i + 1 < a.size(); ++i) inits.push_back(device(a[i], "for_range's carried values"));
    Val body = eval(a.back());
    ir::Location l = loc(at);
    ir::Op *op = rec_.beginFor(lo, hi, step, inits, l);
    rec_.pushBlock(op->region(0));
    std::vector<Val> args;
    for (auto &arg : op->region(0).args) args.push_back(Val::dev(arg.get()));
    Val r = callCallable(body, a.back(), args, at);
    rec_.yield(op, 0, devicesOf(r, at, "the for_range body"), l, "the for_range body");
    rec_.popBlock();
    return resultsOf(op, fn->getReturnType());
  }

  Val ifElse(const CallExpr *c, const FunctionDecl *fn, const std::vector<const Expr *> &a) {
    SourceLocation at = c->getExprLoc();
    ir::Value *cond = device(a.at(0), "if_else");
    Val thenFn = eval(a.at(1)), elseFn = eval(a.at(2));
    ir::Location l = loc(at);
    ir::Op *op = rec_.beginIf(cond, l);
    for (int region = 0; region < 2; ++region) {
      rec_.pushBlock(op->region(region));
      Val r = callCallable(region == 0 ? thenFn : elseFn, a.at(1 + region), {}, at);
      rec_.yield(op, region, devicesOf(r, at, "if_else branches"), l, "if_else branches");
      rec_.popBlock();
    }
    return resultsOf(op, fn->getReturnType());
  }

  Val whileLoop(const CallExpr *c, const FunctionDecl *fn, const std::vector<const Expr *> &a) {
    SourceLocation at = c->getExprLoc();
    if (a.size() < 3) fail(at, "while_loop needs a condition, a body and carried values");
    Val cond = eval(a[0]), body = eval(a[1]);
    std::vector<ir::Value *> inits;
    for (size_t i = 2; i < a.size(); ++i) inits.push_back(device(a[i], "while_loop's carried values"));
    ir::Location l = loc(at);
    ir::Op *op = rec_.beginWhile(inits, l);
    for (int region = 0; region < 2; ++region) {
      rec_.pushBlock(op->region(region));
      std::vector<Val> args;
      for (auto &arg : op->region(region).args) args.push_back(Val::dev(arg.get()));
      Val r = callCallable(region == 0 ? cond : body, a[region], args, at);
      const char *what = region == 0 ? "the while_loop condition" : "the while_loop body";
      rec_.yield(op, region, devicesOf(r, at, what), l, what);
      rec_.popBlock();
    }
    return resultsOf(op, fn->getReturnType());
  }

  //===-- Statements ------------------------------------------------===//

  /// The device i1 a condition tests, if it is a device condition (a call of
  /// the language's `explicit operator bool`).
  const Expr *deviceCondition(const Expr *cond) {
    const Expr *e = cond->IgnoreParenImpCasts();
    if (auto *w = dyn_cast<ExprWithCleanups>(e)) e = w->getSubExpr()->IgnoreParenImpCasts();
    if (auto *m = dyn_cast<CXXMemberCallExpr>(e))
      if (isa_and_nonnull<CXXConversionDecl>(m->getMethodDecl()) && inNamespace(m->getMethodDecl(), "tt"))
        return m->getImplicitObjectArgument();
    return nullptr;
  }

  Flow exec(const Stmt *s) {
    if (!s) return Flow::Normal;
    if (auto *c = dyn_cast<CompoundStmt>(s))
      return scoped([&] { return execSequence({c->body_begin(), c->body_end()}, 0); });
    if (auto *d = dyn_cast<DeclStmt>(s)) {
      for (const Decl *decl : d->decls()) declare(decl);
      return Flow::Normal;
    }
    if (auto *r = dyn_cast<ReturnStmt>(s)) {
      frame().returned = r->getRetValue() ? eval(r->getRetValue()) : Val();
      return Flow::Return;
    }
    if (++steps_ > kMaxWalkSteps)
      fail(s->getBeginLoc(), "the kernel's host code runs more than " + std::to_string(kMaxWalkSteps) +
                                 " statements at compile time (runaway host loops or recursion?)");
    if (auto *i = dyn_cast<IfStmt>(s)) return scoped([&] { return ifStmt(i); });
    if (auto *f = dyn_cast<ForStmt>(s)) return scoped([&] { return forStmt(f); });
    if (auto *w = dyn_cast<WhileStmt>(s)) return scoped([&] { return whileStmt(w); });
    if (auto *d = dyn_cast<DoStmt>(s)) return doStmt(d);
    if (isa<BreakStmt>(s)) return jump(s, true);
    if (isa<ContinueStmt>(s)) return jump(s, false);
    if (isa<NullStmt>(s)) return Flow::Normal;
    if (auto *a = dyn_cast<AttributedStmt>(s)) return exec(a->getSubStmt());  // [[likely]], #pragma unroll
    if (auto *e = dyn_cast<Expr>(s)) {
      eval(e);
      return Flow::Normal;
    }
    if (isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s) || isa<LabelStmt>(s))
      fail(s->getBeginLoc(), "goto is not supported in kernels");
    if (isa<CXXTryStmt>(s)) fail(s->getBeginLoc(), "exceptions are not supported in kernels (try)");
    if (isa<SwitchStmt>(s)) fail(s->getBeginLoc(), "switch is not supported in kernels; write it with if");
    if (isa<CXXForRangeStmt>(s))
      fail(s->getBeginLoc(), "range-based for loops iterate through host pointers, which the parsing front end does not "
                             "follow; write a counted for loop");
    if (isa<AsmStmt>(s)) fail(s->getBeginLoc(), "inline assembly is not supported in kernels");
    fail(s->getBeginLoc(), std::string("this statement (") + s->getStmtClassName() + ") is not supported in kernels");
  }

  void declare(const Decl *decl) {
    auto *var = dyn_cast<VarDecl>(decl);
    if (!var) return;  // types, using-declarations, static_asserts
    if (var->isStaticLocal()) fail(var->getLocation(), "static local variables are not supported in kernels");
    if (var->getType()->isPointerType() && !var->getType()->getPointeeType().isConstQualified())
      fail(var->getLocation(), "host pointers are not supported in kernels");
    Val v;
    const Expr *init = var->getInit();
    bool mutableRef = var->getType()->isLValueReferenceType() && !var->getType().getNonReferenceType().isConstQualified();
    if (init && mutableRef && init->isLValue()) v = refTo(init);  // `auto &r = x;` aliases x
    else if (init) v = eval(init);
    else if (isDeviceType(var->getType())) v = Val::dev(nullptr);
    if (v.isHostNumber()) v = toHostType(v, var->getType(), var->getLocation());
    if (v.kind == Val::Kind::Object && v.obj && !var->getType()->isReferenceType()) v.obj = clone(v.obj);
    frame().vars[var] = v;
    scopeDeclared(var);
    if (auto *dd = dyn_cast<DecompositionDecl>(var))
      for (const BindingDecl *b : dd->bindings()) {
        frame().vars[b] = mutableRef ? refTo(b->getBinding()) : eval(b->getBinding());
        scopeDeclared(b);
      }
  }

  Flow ifStmt(const IfStmt *s) {
    if (s->isConsteval()) return exec(s->isNegatedConsteval() ? s->getThen() : s->getElse());  // not a constant evaluation
    if (s->getInit()) exec(s->getInit());
    if (const DeclStmt *d = s->getConditionVariableDeclStmt()) exec(d);
    if (const Expr *dc = deviceCondition(s->getCond())) return deviceIf(s, dc);
    bool taken = truthy(eval(s->getCond()), s->getCond());
    return exec(taken ? s->getThen() : s->getElse());
  }

  //===-- Native device control flow ---------------------------------===//

  /// Every variable visible now, with its value, and the fields and
  /// elements of the host objects they hold.
  std::map<Val *, Val> snapshot() {
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
    for (std::shared_ptr<Frame> f = frames_.back(); f; f = f->lexicalParent)
      for (auto &[key, v] : f->vars)
        if (v.kind != Val::Kind::Ref) visit(v, varName(&v), varLoc(&v));
    return out;
  }

  const void *keyOf(Val *slot) {
    for (std::shared_ptr<Frame> f = frames_.back(); f; f = f->lexicalParent)
      for (auto &[key, v] : f->vars)
        if (&v == slot) return key;
    return nullptr;
  }

  /// A variable's name and place, for messages and a deterministic order.
  std::string varName(Val *slot) {
    if (auto it = parts_.find(slot); it != parts_.end()) return it->second.first;
    const void *key = keyOf(slot);
    if (auto it = synthetic_.find(key); it != synthetic_.end()) return it->second.first;
    return key ? static_cast<const ValueDecl *>(key)->getNameAsString() : std::string("?");
  }
  SourceLocation varLoc(Val *slot) {
    if (auto it = parts_.find(slot); it != parts_.end()) return it->second.second;
    const void *key = keyOf(slot);
    if (auto it = synthetic_.find(key); it != synthetic_.end()) return it->second.second;
    return key ? static_cast<const ValueDecl *>(key)->getLocation() : SourceLocation();
  }
  void sortByPlace(std::vector<Val *> &slots) {
    std::sort(slots.begin(), slots.end(), [&](Val *a, Val *b) {
      SourceLocation la = varLoc(a), lb = varLoc(b);
      return la != lb ? la < lb : varName(a) < varName(b);
    });
  }

  static bool sameValue(const Val &a, const Val &b) {
    return a.kind == b.kind && a.device == b.device && a.i == b.i && a.f == b.f && a.obj == b.obj;
  }

  /// The variables that differ from `before`, in declaration order.
  std::vector<Val *> changedSince(const std::map<Val *, Val> &before, const Stmt *where) {
    std::vector<Val *> out;
    for (auto &[slot, old] : before)
      if (!sameValue(*slot, old)) {
        if (!old.isDevice() && !slot->isDevice())
          fail(where->getBeginLoc(), "host variable '" + varName(slot) +
                                         "' is assigned under a device condition; only device variables can be");
        out.push_back(slot);
      }
    sortByPlace(out);
    return out;
  }

  void noReturn(Flow f, const Stmt *s, const char *what) {
    if (f == Flow::Return) fail(s->getBeginLoc(), std::string("return inside ") + what + " is not supported by the parsing front end yet");
    if (f == Flow::Break || f == Flow::Continue)
      fail(s->getBeginLoc(), std::string("break and continue under a device condition leave a host loop, "
                                         "which the parsing front end cannot lower"));
  }

  /// Whether `s` holds a break (or, with `orContinue`, a continue) of the
  /// loop it is in, not of a loop nested in it.
  static bool containsJump(const Stmt *s, bool orContinue) {
    if (!s) return false;
    if (isa<BreakStmt>(s) || (orContinue && isa<ContinueStmt>(s))) return true;
    if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s) || isa<LambdaExpr>(s) ||
        isa<SwitchStmt>(s))
      return false;
    for (const Stmt *c : s->children())
      if (containsJump(c, orContinue)) return true;
    return false;
  }

  /// A device i1 variable the walker introduces, set to `value`.
  Val *newFlag(const std::string &name, SourceLocation at, bool value) {
    const void *key = &syntheticKeys_.emplace_back();
    synthetic_[key] = {name, at};
    Val &slot = frame().vars[key];
    slot = Val::dev(rec_.constInt(ir::Type::scalar(ir::ScalarKind::I1), value, loc(at)));
    return &slot;
  }

  void setFlag(Val *flag, bool value, SourceLocation at) {
    *flag = Val::dev(rec_.constInt(ir::Type::scalar(ir::ScalarKind::I1), value, loc(at)));
  }

  /// break and continue in a device loop set its flags; the statements after
  /// them run under `if (!skip)`, so one semantics serves every path.
  Flow jump(const Stmt *s, bool isBreak) {
    if (loops_.empty() || !loops_.back().skip) return isBreak ? Flow::Break : Flow::Continue;
    if (isBreak) setFlag(loops_.back().broken, true, s->getBeginLoc());
    setFlag(loops_.back().skip, true, s->getBeginLoc());
    return Flow::Normal;
  }

  /// Runs `stmts` from `first`; in a device loop with flags, what follows a
  /// statement that may break or continue runs only while `skip` is false.
  Flow execSequence(const std::vector<const Stmt *> &stmts, size_t first) {
    for (size_t i = first; i < stmts.size(); ++i) {
      if (Flow f = exec(stmts[i]); f != Flow::Normal) return f;
      bool flagged = !loops_.empty() && loops_.back().skip;
      if (!flagged || i + 1 == stmts.size() || !containsJump(stmts[i], true)) continue;
      SourceLocation at = stmts[i + 1]->getBeginLoc();
      ir::Value *go = rec_.unary(ir::OpKind::Not, loops_.back().skip->device, loc(at), "!");
      deviceBranch(go, at, stmts[i + 1], [&] { noReturn(execSequence(stmts, i + 1), stmts[i + 1], "a device loop"); },
                   [] {});
      return Flow::Normal;
    }
    return Flow::Normal;
  }

  Flow deviceIf(const IfStmt *s, const Expr *condExpr) {
    ir::Value *cond = device(condExpr, "if");
    auto branch = [&](const Stmt *b) {
      return [this, b, s] { noReturn(exec(b), b ? b : s, "a device if"); };
    };
    deviceBranch(cond, s->getIfLoc(), s, branch(s->getThen()), branch(s->getElse()));
    return Flow::Normal;
  }

  /// An IR if on `cond`: runs each branch's walk in its region, then makes
  /// the variables either branch assigned the if's results.
  void deviceBranch(ir::Value *cond, SourceLocation loc, const Stmt *where, const std::function<void()> &thenWalk,
                    const std::function<void()> &elseWalk) {
    ir::Location l = this->loc(loc);
    ir::Op *op = rec_.beginIf(cond, l);
    std::map<Val *, Val> before = snapshot();
    std::map<Val *, Val> after[2];
    for (int region = 0; region < 2; ++region) {
      rec_.pushBlock(op->region(region));
      (region == 0 ? thenWalk : elseWalk)();
      rec_.popBlock();
      after[region] = snapshot();
      for (auto &[slot, old] : before) *slot = old;  // the other branch starts from the same values
    }
    std::set<Val *> changedSet;
    for (int region = 0; region < 2; ++region) {
      for (auto &[slot, v] : after[region]) *slot = v;
      for (Val *slot : changedSince(before, where)) changedSet.insert(slot);
      for (auto &[slot, old] : before) *slot = old;
    }
    std::vector<Val *> changed(changedSet.begin(), changedSet.end());
    sortByPlace(changed);
    for (int region = 0; region < 2; ++region) {
      std::vector<ir::Value *> yields;
      for (Val *slot : changed) {
        ir::Value *v = after[region][slot].device;
        if (!v)
          fail(loc, "'" + varName(slot) + "' is assigned in only one branch of a device if "
                    "and has no value before it");
        yields.push_back(v);
      }
      rec_.yield(op, region, yields, l, "the branches of a device if");
    }
    for (size_t i = 0; i < changed.size(); ++i) *changed[i] = Val::dev(op->result(i));
  }

  /// The variables `body` (and `alsoInc`) assign by name, in source order.
  static std::vector<const ValueDecl *> assignedDecls(const Stmt *body, const Stmt *alsoInc = nullptr) {
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

  /// Device variables declared outside `body` that it assigns, in source order.
  std::vector<Val *> assignedIn(const Stmt *body, const Stmt *alsoInc = nullptr) {
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

  std::vector<ir::Value *> currentValues(const std::vector<Val *> &slots, SourceLocation at) {
    std::vector<ir::Value *> out;
    for (Val *s : slots) {
      if (!s->device)
        fail(at, "'" + varName(s) + "' is carried by a device loop but has no value before it");
      out.push_back(s->device);
    }
    return out;
  }

  /// for (i32 k = lo; k < hi; k += step): the counted form that becomes an IR for.
  struct Counted {
    const VarDecl *iv = nullptr;
    const Expr *hi = nullptr, *step = nullptr;
  };

  std::optional<Counted> countedLoop(const ForStmt *s) {
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
    auto *inc = dyn_cast<CXXOperatorCallExpr>(s->getInc()->IgnoreParenImpCasts());
    if (auto *w = dyn_cast<ExprWithCleanups>(s->getInc())) inc = dyn_cast<CXXOperatorCallExpr>(w->getSubExpr()->IgnoreParenImpCasts());
    if (!inc || inc->getOperator() != OO_PlusEqual || !refersToIv(inc->getArg(0))) return std::nullopt;
    out.step = inc->getArg(1);
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

  /// A host loop's body: its break and continue are C++'s own.
  Flow hostBody(const Stmt *body) {
    loops_.push_back({});
    Flow f = exec(body);
    loops_.pop_back();
    return f;
  }

  /// Whether the body assigns a variable the loop's bound or step reads (then
  /// the bound is re-read every iteration, as C++ does: a while loop).
  bool boundsChange(const Counted &c, const Stmt *body) {
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

  Flow forStmt(const ForStmt *s) {
    if (s->getCond() && deviceCondition(s->getCond())) {
      std::optional<Counted> counted = countedLoop(s);
      if (counted && !containsJump(s->getBody(), false) && !boundsChange(*counted, s->getBody()))
        return deviceFor(s, *counted);
      exec(s->getInit());
      return deviceWhile(s, s->getCond(), s->getBody(), s->getInc());
    }
    exec(s->getInit());
    for (int64_t n = 0;; ++n) {
      if (n > kMaxHostIterations) fail(s->getForLoc(), "this host loop runs more than " + std::to_string(kMaxHostIterations) + " iterations");
      if (s->getCond()) {
        if (deviceCondition(s->getCond()))
          fail(s->getCond()->getExprLoc(), "this loop's condition became a device value after its first iteration");
        if (!truthy(eval(s->getCond()), s->getCond())) break;
      }
      Flow f = hostBody(s->getBody());
      if (f == Flow::Return) return f;
      if (f == Flow::Break) break;
      if (s->getInc()) eval(s->getInc());
    }
    return Flow::Normal;
  }

  Flow whileStmt(const WhileStmt *s) {
    if (s->getConditionVariable()) fail(s->getWhileLoc(), "a while loop declaring its condition variable is not supported in kernels");
    if (deviceCondition(s->getCond())) return deviceWhile(s, s->getCond(), s->getBody(), nullptr);
    for (int64_t n = 0;; ++n) {
      if (n > kMaxHostIterations) fail(s->getWhileLoc(), "this host loop runs more than " + std::to_string(kMaxHostIterations) + " iterations");
      if (!truthy(eval(s->getCond()), s->getCond())) break;
      Flow f = hostBody(s->getBody());
      if (f == Flow::Return) return f;
      if (f == Flow::Break) break;
    }
    return Flow::Normal;
  }

  Flow doStmt(const DoStmt *s) {
    if (deviceCondition(s->getCond()))
      fail(s->getDoLoc(), "do-while on a device condition is not supported; write a while loop");
    for (int64_t n = 0;; ++n) {
      if (n > kMaxHostIterations) fail(s->getDoLoc(), "this host loop runs more than " + std::to_string(kMaxHostIterations) + " iterations");
      Flow f = hostBody(s->getBody());
      if (f == Flow::Return) return f;
      if (f == Flow::Break) break;
      if (!truthy(eval(s->getCond()), s->getCond())) break;
    }
    return Flow::Normal;
  }

  /// Walks a device loop's body with its flags: `skip` starts each iteration
  /// false (when the body can continue or break).
  /// After a device loop's body: anything it changed that the loop does not
  /// carry (a field, a variable assigned through a call) is refused.
  void onlyCarriedChanged(const std::map<Val *, Val> &before, const std::vector<Val *> &carried, const Stmt *loop) {
    for (auto &[slot, old] : before)
      if (!sameValue(*slot, old) && std::find(carried.begin(), carried.end(), slot) == carried.end())
        fail(loop->getBeginLoc(), "'" + varName(slot) + "' changes in this device loop, but not by an assignment to it "
                                  "the parsing front end can carry (only variables the loop body assigns by name "
                                  "are carried)");
  }

  void deviceBody(const Stmt *loop, const Stmt *body, Val *broken) {
    LoopContext ctx;
    ctx.broken = broken;
    if (containsJump(body, true)) ctx.skip = newFlag("continue flag", loop->getBeginLoc(), false);
    loops_.push_back(ctx);
    Flow f = exec(body);
    loops_.pop_back();
    noReturn(f, body, "a device loop");
  }

  Flow deviceFor(const ForStmt *s, const Counted &c) {
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

  /// A device while loop (or a for loop that is not counted, or that
  /// breaks): `break` becomes a carried flag the condition tests.
  Flow deviceWhile(const Stmt *s, const Expr *cond, const Stmt *body, const Expr *inc) {
    std::vector<Val *> carried = assignedIn(body, inc);
    Val *broken = containsJump(body, false) ? newFlag("break flag", s->getBeginLoc(), false) : nullptr;
    if (broken) carried.push_back(broken);
    ir::Location l = loc(s->getBeginLoc());
    ir::Op *op = rec_.beginWhile(currentValues(carried, s->getBeginLoc()), l);
    for (int region = 0; region < 2; ++region) {
      rec_.pushBlock(op->region(region));
      for (size_t i = 0; i < carried.size(); ++i) *carried[i] = Val::dev(op->region(region).arg(i));
      if (region == 0) {
        ir::Location cl = loc(cond->getExprLoc());
        ir::Value *c = device(deviceCondition(cond), "the loop condition");
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

  ASTContext &ctx_;
  SourceManager &sm_;
  Recorder &rec_;
  std::vector<std::shared_ptr<Frame>> frames_;

  /// The loops being walked, innermost last: a device loop's break and
  /// continue flags (null for a host loop, whose break is C++'s own).
  struct LoopContext {
    Val *broken = nullptr;  // set by break; ends the loop
    Val *skip = nullptr;    // set by break or continue; skips the rest of the iteration
  };
  std::vector<LoopContext> loops_;
  int64_t steps_ = 0;
  std::set<const VarDecl *> evaluating_;  // globals being evaluated (self-reference)
  /// Variables the walker introduces (loop flags): name and place.
  std::map<const void *, std::pair<std::string, SourceLocation>> synthetic_;
  std::deque<char> syntheticKeys_;  // their keys' stable addresses
  /// Fields and elements of host objects, named for messages ("p.lo").
  std::map<const Val *, std::pair<std::string, SourceLocation>> parts_;
};

/// The kernel's meta-parameters: its template arguments, by parameter name,
/// spelled as the tracing front end records them from the specialization's
/// text: integers by value, floats as doubles, types as written without a tag
/// keyword ("Silu", "act::Gelu"; the language's own types by their short name).
void recordMeta(const FunctionDecl &kernel, ir::Func &f) {
  const TemplateArgumentList *args = kernel.getTemplateSpecializationArgs();
  const FunctionTemplateDecl *tmpl = kernel.getPrimaryTemplate();
  if (!args || !tmpl) return;
  const TemplateParameterList *params = tmpl->getTemplateParameters();
  PrintingPolicy policy = kernel.getASTContext().getPrintingPolicy();
  policy.SuppressTagKeyword = true;
  for (unsigned i = 0; i < args->size() && i < params->size(); ++i) {
    std::string name = params->getParam(i)->getNameAsString();
    const TemplateArgument &a = args->get(i);
    if (a.getKind() == TemplateArgument::Integral) {
      f.meta.emplace_back(name, ir::Attr::integer(a.getAsIntegral().getExtValue()));
    } else if (a.getKind() == TemplateArgument::Type) {
      const CXXRecordDecl *r = recordOf(a.getAsType());
      f.meta.emplace_back(name, ir::Attr::string(r && inNamespace(r, "tt", false) ? r->getNameAsString()
                                                                                  : a.getAsType().getAsString(policy)));
    } else if (a.getKind() == TemplateArgument::StructuralValue && a.getAsStructuralValue().isFloat()) {
      llvm::APFloat v = a.getAsStructuralValue().getFloat();
      bool inexact = false;
      v.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &inexact);
      f.meta.emplace_back(name, ir::Attr::floating(v.convertToDouble()));
    }
  }
}

} // namespace

FrontendResult walkKernel(clang::ASTContext &ctx, const clang::FunctionDecl &kernel, int numWarps) {
  FrontendResult r;
  auto f = std::make_unique<ir::Func>();
  f->name = kernel.getNameAsString();
  f->numWarps = numWarps;
  recordMeta(kernel, *f);
  Recorder rec(*f);
  Walker walker(ctx, rec);
  try {
    walker.walk(kernel);
    rec.finish();
    r.func = std::move(f);
  } catch (const KernelError &e) {
    r.error = ir::Diagnostic{e.loc, e.message};
  } catch (const ir::InternalError &e) {
    r.error = e.diag();
  } catch (const std::exception &e) {
    r.error = ir::Diagnostic::internalError(std::string("the parsing front end threw: ") + e.what());
  }
  return r;
}

} // namespace twintile
