//===- Builtins.cpp - calls to the language ------------------------------===//
//
// A call into namespace tt becomes an op through the Recorder; the
// combinators (for_range, if_else, while_loop) and reduce/associative_scan
// call their closures inside the regions of the op they open.
//===----------------------------------------------------------------------===//
#include "frontends/parse/WalkerInternal.h"

#include <limits>

namespace twintile::walker {

ir::Value *Walker::device(const Expr *e, const char *what) {
  Val v = eval(e);
  if (!v.isDevice()) fail(e->getExprLoc(), std::string(what) + " needs a device value here");
  if (!v.device) fail(e->getExprLoc(), std::string(what) + " uses a device value that was never assigned");
  return v.device;
}

ir::Value *Walker::deviceOr(const Expr *e, const ir::Type &elem) {
  Val v = eval(e);
  if (v.isDevice()) return v.device;
  return constant(v, elem, e->getExprLoc());
}

int64_t Walker::hostInt(const Expr *e, const char *what) {
  Val v = eval(e);
  if (v.kind != Val::Kind::Int) fail(e->getExprLoc(), std::string(what) + " must be a host integer");
  return v.i;
}

std::vector<int64_t> Walker::hostInts(const Expr *e, const char *what) {
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

ir::Type Walker::elemOf(QualType t, SourceLocation at) {
  std::optional<ir::Type> e = elementOf(t);
  if (!e) fail(at, "'" + t.getAsString() + "' is not a device type");
  return *e;
}

std::optional<ir::OpKind> Walker::binaryKind(OverloadedOperatorKind op) {
  if (op == OO_AmpAmp) return ir::OpKind::And;  // on masks, Triton's `and` and `or` (twintile.h)
  if (op == OO_PipePipe) return ir::OpKind::Or;
  std::string s = spelling(op);  // `+=` as `+`
  for (ir::OpFamily family : {ir::OpFamily::Binary, ir::OpFamily::Compare})
    if (const ir::OpInfo *info = ir::surfaceOp(s, family)) return info->kind;
  return std::nullopt;
}

std::string Walker::spelling(OverloadedOperatorKind op) {
  std::string s = getOperatorSpelling(op);
  if (s.size() == 2 && s[1] == '=' && s[0] != '=' && s[0] != '!' && s[0] != '<' && s[0] != '>') s.pop_back();
  if (s == "<<=" || s == ">>=") s.pop_back();
  return s;
}

Val Walker::operatorCall(const CallExpr *c, const FunctionDecl *fn) {
  OverloadedOperatorKind op = fn->getOverloadedOperator();
  SourceLocation at = c->getExprLoc();
  ir::Location l = loc(at);
  std::vector<const Expr *> args = userArgs(c);
  // A value of a narrower element type assigned to a variable is converted
  // to the variable's (twintile.h's Widening: an i32 into an i64).
  auto converted = [&](const Expr *target, Val v) {
    std::optional<ir::Type> e = elementOf(target->getType());
    if (v.isDevice() && v.device && e && !e->isPtr() && e->elem != v.device->type.elem)
      v = Val::dev(rec_.cast(v.device, e->elem, l));
    return v;
  };
  if (op == OO_Equal) {  // copy assignment of a device variable
    if (auto *m = dyn_cast<CXXMemberCallExpr>(c)) {
      Val *slot = lvalue(m->getImplicitObjectArgument());
      *slot = converted(m->getImplicitObjectArgument(), eval(c->getArg(0)));
      return *slot;
    }
    if (args.size() != 2) fail(at, "unexpected form of assignment");
    Val *slot = lvalue(args[0]);
    *slot = converted(args[0], eval(args[1]));
    return *slot;
  }
  bool compound = spelling(op) != getOperatorSpelling(op);  // `+=`: the operation, then the assignment
  const CXXRecordDecl *owner = dyn_cast<CXXRecordDecl>(fn->getLexicalDeclContext());  // friends live in the class lexically
  bool pointerArith = owner && nameOf(owner) == "PtrArith";
  if (args.size() == 2) {
    // A host number reaches an operator as itself only where its kind outranks the device
    // operand's (twintile.h's HostOutranks): Triton's Python number, an f32 or an i32.
    bool logical = op == OO_AmpAmp || op == OO_PipePipe;  // a host bool meets a mask as an i1
    auto operand = [&](const Expr *e) {
      Val v = eval(e);
      if (logical && v.kind == Val::Kind::Int) return rec_.constInt(ir::Type::scalar(ir::ScalarKind::I1), v.i != 0, l);
      if (v.kind == Val::Kind::Float) return rec_.constFloat(ir::Type::scalar(ir::ScalarKind::F32), v.f, l);
      if (v.kind == Val::Kind::Int && v.unsigned64)
        return rec_.constUInt(ir::Type::scalar(ir::ScalarKind::I32), static_cast<uint64_t>(v.i), l);
      if (v.kind == Val::Kind::Int) return rec_.constInt(ir::Type::scalar(ir::ScalarKind::I32), v.i, l);
      return v.device ? v.device : device(e, "an operator");
    };
    ir::Value *a = operand(args[0]);
    ir::Value *b = operand(args[1]);
    std::optional<ir::OpKind> kind = binaryKind(op);
    if (!pointerArith && !kind) fail(at, "operator '" + spelling(op) + "' is not part of the language");
    if (pointerArith && !a->type.isPtr()) std::swap(a, b);  // k + p
    bool back = pointerArith && spelling(op) == "-";
    ir::Value *r = back ? rec_.subptr(a, b, l) : pointerArith ? rec_.addptr(a, b, l) : rec_.binary(*kind, a, b, l, spelling(op));
    if (compound) {
      // A scalar variable keeps its shape: `acc += sum(x, 0)` takes a 0-d tile only.
      // (The operator may be the base Arith's: the variable's own type is under the implicit cast.)
      if (const CXXRecordDecl *rd = recordOf(args[0]->IgnoreParenImpCasts()->getType());
          rd && scalarKindNamed(nameOf(rd)) && !isa<ClassTemplateSpecializationDecl>(rd))
        r = twintile::Recorder::scalar(r, l);
      Val *slot = lvalue(args[0]);
      *slot = Val::dev(r);
      return *slot;
    }
    return Val::dev(r);
  }
  ir::Value *a = device(args.at(0), "an operator");
  if (op == OO_Exclaim) return Val::dev(rec_.unary(ir::OpKind::Not, a, l, "!"));  // a mask's `not`
  if (const ir::OpInfo *unary = ir::surfaceOp(spelling(op), ir::OpFamily::Unary))  // -x, ~x
    return Val::dev(rec_.unary(unary->kind, a, l, spelling(op)));
  fail(at, "operator '" + spelling(op) + "' is not part of the language");
}

Val Walker::builtin(const CallExpr *c, const FunctionDecl *fn) {
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

  if (name == "make_tensor_descriptor") return makeDescriptor(c, fn, a);
  if (auto *m = dyn_cast<CXXMethodDecl>(fn); m && nameOf(m->getParent()) == "TensorDescriptor")
    return descriptorCall(c, m, a);
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
    if (v.isDevice() && v.device && v.device->type.elem != elem.elem)  // a device value, as twintile.h's asElement
      v = Val::dev(rec_.cast(v.device, elem.elem, l));
    return Val::dev(rec_.full(shape, v.isDevice() ? v.device : constant(v, elem, at), l));
  }
  if (name == "shape_of")  // a host int: Triton's x.shape[axis]
    return Val::integer(rec_.shapeOf(device(arg(0), "shape_of"), static_cast<int>(hostInt(arg(1), "the axis")), l));
  if (name == "rank_of") return Val::integer(static_cast<int64_t>(device(arg(0), "rank_of")->type.rank()));
  if (name == "refuse") {  // a language algorithm's refusal (twintile/algorithms.h), at its caller's line
    ir::Location where = l;
    auto inHeader = [](const std::string &f) {
      return f.ends_with("include/twintile.h") || f.find("include/twintile/") != std::string::npos;
    };
    while (inHeader(where.pos.file) && !where.inlinedAt.empty()) {
      where.pos = where.inlinedAt.front();
      where.inlinedAt.erase(where.inlinedAt.begin());
    }
    throw KernelError{where, eval(arg(0)).s};
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
  // The elementwise functions and reductions, by their spelling in ir/Ops.def.
  if (const ir::OpInfo *op = ir::surfaceOp(name, ir::OpFamily::Unary))
    return Val::dev(rec_.unary(op->kind, device(arg(0), name.c_str()), l, name));
  const ir::OpInfo *reduction = ir::surfaceOp(name, ir::OpFamily::Reduction);
  if (!reduction) reduction = ir::surfaceOp(name, ir::OpFamily::Scan);
  if (reduction) {  // name(x), name(x, axis), name(x, axis, keep_dims)
    ir::Value *x = device(arg(0), name.c_str());
    if (a.size() == 1) return Val::dev(rec_.reduce(reduction->kind, x, Recorder::kAllAxes, l));
    bool keepDims = a.size() > 2 && truthy(eval(arg(2)), arg(2));
    return Val::dev(rec_.reduce(reduction->kind, x, static_cast<int>(hostInt(arg(1), "the axis")), l, keepDims));
  }
  if (const ir::OpInfo *op = ir::surfaceOp(name, ir::OpFamily::Combine)) return combine(c, fn, op->kind, a);
  if (const ir::OpInfo *op = ir::surfaceOp(name, ir::OpFamily::Binary)) {  // minimum, maximum
    ir::Type elem = resultElem();
    ir::Value *x = deviceOr(arg(0), elem), *y = deviceOr(arg(1), elem);
    return Val::dev(rec_.binary(op->kind, x, y, l, name));
  }
  if (name == "isnan" || name == "isinf" || name == "isfinite") {  // x != x, |x| == inf, |x| < inf (twintile.h)
    ir::Value *x = device(arg(0), name.c_str());
    if (name == "isnan") return Val::dev(rec_.binary(ir::OpKind::Ne, x, x, l, name));
    ir::Value *inf = rec_.constFloat(ir::Type::scalar(x->type.elem), std::numeric_limits<double>::infinity(), l);
    ir::Value *a = rec_.unary(ir::OpKind::Abs, x, l, name);
    return Val::dev(rec_.binary(name == "isinf" ? ir::OpKind::Eq : ir::OpKind::Lt, a, inf, l, name));
  }
  if (name == "cdiv") {  // (a + b - 1) / b: of host integers an int, else recorded as twintile.h records it
    Val x = eval(arg(0)), y = eval(arg(1));
    if (x.kind == Val::Kind::Int && y.kind == Val::Kind::Int) {
      if (y.i == 0) fail(at, "cdiv by zero");
      // In the operands' common type, as twintile.h's host cdiv computes (a 64-bit size stays 64-bit).
      QualType t = fn->getReturnType()->isIntegerType() ? fn->getReturnType() : ctx_.IntTy;
      Val sum = hostBinary(BO_Add, x, y, t, at, t);
      return hostBinary(BO_Div, hostBinary(BO_Sub, sum, Val::integer(1), t, at, t), y, t, at, t);
    }
    ir::Type elem = resultElem();
    ir::Value *a0 = x.isDevice() && x.device ? x.device : constant(x, elem, arg(0)->getExprLoc());
    ir::Value *b0 = y.isDevice() && y.device ? y.device : constant(y, elem, arg(1)->getExprLoc());
    ir::Value *sum = rec_.binary(ir::OpKind::Add, a0, b0, l, "cdiv");
    ir::Value *less = rec_.binary(ir::OpKind::Sub, sum, rec_.constInt(elem, 1, l), l, "cdiv");
    return Val::dev(rec_.binary(ir::OpKind::Div, less, b0, l, "cdiv"));
  }
  if (name == "where") {
    ir::Type elem = resultElem();
    Val c = eval(arg(0));  // a device mask, or a host condition (a meta-parameter)
    ir::Value *cond = c.kind == Val::Kind::Int ? rec_.constInt(ir::Type::scalar(ir::ScalarKind::I1), c.i != 0, l)
                      : c.device                   ? c.device
                                                   : device(arg(0), "where");
    ir::Value *x = deviceOr(arg(1), elem), *y = deviceOr(arg(2), elem);
    return Val::dev(rec_.select(cond, x, y, l));
  }
  if (name == "fma") {
    ir::Value *x = device(arg(0), "fma"), *y = device(arg(1), "fma"), *z = device(arg(2), "fma");
    return Val::dev(rec_.fma(x, y, z, l));
  }
  if (name == "cast") {  // of a host number: its value as f64, i64 or (an unsigned long long) u64, converted
    Val v = eval(arg(0));
    ir::Type wide = ir::Type::scalar(v.kind == Val::Kind::Float ? ir::ScalarKind::F64
                                     : v.unsigned64              ? ir::ScalarKind::U64
                                                                 : ir::ScalarKind::I64);
    if (!v.isHostNumber() && !v.isDevice()) fail(arg(0)->getExprLoc(), "cast needs a device value or a host number here");
    if (v.isDevice() && !v.device) fail(arg(0)->getExprLoc(), "cast uses a device value that was never assigned");
    ir::Value *x = v.isHostNumber() ? constant(v, wide, arg(0)->getExprLoc()) : v.device;
    return Val::dev(rec_.cast(x, resultElem().elem, l));
  }
  if (name == "bitcast") return Val::dev(rec_.bitcast(device(arg(0), "bitcast"), resultElem().elem, l));
  if (const ir::OpInfo *op = ir::surfaceOp(name, ir::OpFamily::Hint)) {  // multiple_of(x, 16), (x, {16, 1})
    ir::Value *x = device(arg(0), name.c_str());
    Val v = eval(arg(1));
    std::vector<int64_t> values;
    if (v.kind == Val::Kind::Int) values.push_back(v.i);
    else if (v.kind == Val::Kind::Object)
      for (const Val &e : v.obj->elems) {
        if (e.kind != Val::Kind::Int) fail(arg(1)->getExprLoc(), name + "'s values must be host integers");
        values.push_back(e.i);
      }
    else fail(arg(1)->getExprLoc(), name + "'s values must be a host integer or a list of them");
    return Val::dev(rec_.hint(op->kind, x, values, l));
  }
  if (name == "load" || name == "store") {
    // A trailing MemoryHints (given, or its default): the cache modifier and eviction policy.
    int hint[2] = {0, 0};
    if (const RecordDecl *r = a.empty() ? nullptr : recordOf(a.back()->getType()); r && nameOf(r) == "MemoryHints") {
      const Expr *h = a.back();
      a.pop_back();
      Val v = isa<CXXDefaultArgExpr>(h) ? Val() : eval(h);
      if (v.kind == Val::Kind::Object && v.obj)
        for (auto &[field, x] : v.obj->fields) {
          if (x.kind != Val::Kind::Int) fail(h->getExprLoc(), "a memory hint must be a host tt::Cache or tt::Evict");
          hint[field->getName() == "cache_modifier" ? 0 : 1] = static_cast<int>(x.i);
        }
    }
    ir::Value *p = device(arg(0), name.c_str());
    if (name == "load") {
      ir::Value *m = a.size() > 1 ? device(arg(1), "load's mask") : nullptr;
      ir::Value *o = a.size() > 2 ? deviceOr(arg(2), resultElem()) : nullptr;
      return Val::dev(rec_.load(p, m, o, l, hint[0], hint[1]));
    }
    ir::Value *v = deviceOr(arg(1), ir::Type::scalar(p->type.pointee));
    ir::Value *m = a.size() > 2 ? device(arg(2), "the mask") : nullptr;
    rec_.store(p, v, m, l, hint[0], hint[1]);
    return Val();
  }
  if (const ir::OpInfo *op = ir::surfaceOp(name, ir::OpFamily::Memory); op && ir::isAtomic(op->kind)) {
    // name(ptrs, value[, mask][, sem[, scope]]), atomic_cas(ptrs, cmp, value[, sem[, scope]])
    ir::Value *p = device(arg(0), name.c_str());
    ir::Type elem = ir::Type::scalar(p->type.pointee);
    bool cas = op->kind == ir::OpKind::AtomicCas;
    size_t i = 1;
    ir::Value *cmp = cas ? deviceOr(arg(i++), elem) : nullptr;
    ir::Value *v = deviceOr(arg(i++), elem);
    bool masked = !cas && a.size() > i && isDeviceType(arg(i)->getType());  // else a Sem (no mask)
    ir::Value *m = masked ? device(arg(i++), "the mask") : nullptr;
    int sem = a.size() > i ? static_cast<int>(hostInt(arg(i++), "the memory order")) : 0;
    int scope = a.size() > i ? static_cast<int>(hostInt(arg(i++), "the scope")) : 0;
    return Val::dev(rec_.atomic(op->kind, p, cmp, v, m, sem, scope, l));
  }
  if (name == "dot") {
    ir::Value *x = device(arg(0), "dot"), *y = device(arg(1), "dot"), *z = device(arg(2), "dot");
    int precision = a.size() > 3 ? static_cast<int>(hostInt(arg(3), "the precision")) : 0;
    return Val::dev(rec_.dot(x, y, z, precision, l));
  }
  if (name == "device_print") {
    Val prefix = eval(arg(0));
    std::vector<ir::Value *> vals;
    for (size_t i = 1; i < a.size(); ++i) vals.push_back(device(a[i], "device_print"));
    rec_.print(prefix.s, vals, l);
    return Val();
  }
  if (name == "kernel_options") {  // a KernelOptions, its fields by name
    for (const std::shared_ptr<Frame> &f : frames_)
      if (f->deviceDepth > 0)
        fail(at, "kernel_options is said in the kernel's straight code, not under a device condition");
    Val o = eval(arg(0));
    if (o.kind != Val::Kind::Object || !o.obj) fail(at, "kernel_options takes a KernelOptions");
    int64_t numWarps = 0, numStages = 0;
    for (auto &[field, v] : o.obj->fields) {
      if (!v.isHostNumber()) fail(at, "kernel_options takes host numbers ('" + field->getNameAsString() + "')");
      int64_t n = v.kind == Val::Kind::Int ? v.i : static_cast<int64_t>(v.number());
      if (field->getName() == "num_warps") numWarps = n;  // out of range: refused by the recorder
      if (field->getName() == "num_stages") numStages = n;
    }
    rec_.options(numWarps, numStages, l);
    return Val();
  }
  if (name == "debug_barrier") {
    rec_.barrier(l);
    return Val();
  }
  if (name == "device_assert") {
    Val c = eval(arg(0));  // a mask, or a host condition
    ir::Value *cond = c.kind == Val::Kind::Int ? rec_.constInt(ir::Type::scalar(ir::ScalarKind::I1), c.i != 0, l)
                      : c.device                   ? c.device
                                                   : device(arg(0), "device_assert");
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

std::vector<ir::Value *> Walker::devicesOf(const Val &v, SourceLocation at, const char *what) {
  if (v.isDevice()) return {v.device};
  std::vector<ir::Value *> out;
  if (v.kind == Val::Kind::Object)
    for (const FieldDecl *f : v.obj->record->fields()) out.push_back(v.obj->fields[f].device);
  else if (v.kind != Val::Kind::Void)
    fail(at, std::string(what) + " must return device values");
  return out;
}

Val Walker::resultsOf(ir::Op *op, QualType type) {
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

Walker::IndexParam Walker::indexParam(const Expr *body) {
  IndexParam out;
  const FunctionDecl *call = nullptr;
  if (const CXXRecordDecl *r = body->getType().getNonReferenceType()->getAsCXXRecordDecl()) {
    if (r->isLambda()) {
      out.generic = r->isGenericLambda();
      call = r->getLambdaCallOperator();
    } else {  // a function object: its one call operator
      for (const Decl *d : r->decls()) {
        const auto *tmpl = dyn_cast<FunctionTemplateDecl>(d);
        const FunctionDecl *f = tmpl ? tmpl->getTemplatedDecl() : dyn_cast<FunctionDecl>(d);
        if (!f || f->getOverloadedOperator() != OO_Call) continue;
        out.generic |= tmpl != nullptr;
        call = f;
      }
    }
  } else if (const auto *ref = dyn_cast<DeclRefExpr>(body->IgnoreParenImpCasts())) {
    call = dyn_cast<FunctionDecl>(ref->getDecl());
    out.generic = call && call->getPrimaryTemplate();
  }
  if (!out.generic && call && call->getNumParams() > 0)
    if (std::optional<ir::Type> t = elementOf(call->getParamDecl(0)->getType().getNonReferenceType()))
      out.elem = t->elem;
  return out;
}

Val Walker::forRange(const CallExpr *c, const FunctionDecl *fn, const std::vector<const Expr *> &a) {
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
  // The index is i64 where a bound is; a body that declares it takes it as declared (an i32 index
  // widened to i64; i32 for an i64 index refused), a generic one is taken as i32 and refused with
  // an i64 index, as twintile.h's forLoop does.
  IndexParam declared = indexParam(a.back());
  ir::ScalarKind index = args[0].device->type.elem;
  if (index == ir::ScalarKind::I64 && (declared.generic || declared.elem == ir::ScalarKind::I32))
    fail(at, std::string(kNarrowIndex));
  if (index == ir::ScalarKind::I32 && declared.elem == ir::ScalarKind::I64)
    args[0] = Val::dev(rec_.cast(args[0].device, ir::ScalarKind::I64, l));
  Val r = callCallable(body, a.back(), args, at);
  rec_.yield(op, 0, devicesOf(r, at, "the for_range body"), l, "the for_range body");
  rec_.popBlock();
  return resultsOf(op, fn->getReturnType());
}

Val Walker::ifElse(const CallExpr *c, const FunctionDecl *fn, const std::vector<const Expr *> &a) {
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

Val Walker::whileLoop(const CallExpr *c, const FunctionDecl *fn, const std::vector<const Expr *> &a) {
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

namespace {

/// The function Clang chose where `fn`, one of the language's functions,
/// calls its parameter `param` (searching the functions it calls, `depth`
/// levels down): the right operator() of a function object among overloads,
/// or of a generic lambda among its specializations. Null when `param` is
/// called through a function reference or not found.
const FunctionDecl *chosenCallee(const Stmt *s, llvm::StringRef param, int depth) {
  if (!s) return nullptr;
  if (auto *call = dyn_cast<CXXOperatorCallExpr>(s); call && call->getOperator() == OO_Call) {
    auto *ref = dyn_cast<DeclRefExpr>(call->getArg(0)->IgnoreParenImpCasts());
    if (ref && isa<ParmVarDecl>(ref->getDecl()) && ref->getDecl()->getName() == param) return call->getDirectCallee();
  }
  if (auto *call = dyn_cast<CallExpr>(s); call && depth > 0)
    if (const FunctionDecl *f = call->getDirectCallee(); f && f->hasBody())
      if (const FunctionDecl *found = chosenCallee(f->getBody(), param, depth - 1)) return found;
  for (const Stmt *child : s->children())
    if (const FunctionDecl *found = chosenCallee(child, param, depth)) return found;
  return nullptr;
}

} // namespace

Val Walker::combine(const CallExpr *c, const FunctionDecl *fn, ir::OpKind kind, const std::vector<const Expr *> &a) {
  SourceLocation at = c->getExprLoc();
  const char *name = kind == ir::OpKind::Reduce ? "reduce" : "associative_scan";
  // reduce(x, combine), reduce(x, axis, combine[, keep_dims]), associative_scan(x, axis, combine);
  // x a tile, or carry(...) of several combined together.
  if (a.size() < 2) fail(at, std::string(name) + " needs a tile, an axis and a combine function");
  Val tiles = eval(a[0]);
  std::vector<ir::Value *> xs = tiles.kind == Val::Kind::Object ? devicesOf(tiles, at, name) : std::vector<ir::Value *>{};
  if (tiles.kind != Val::Kind::Object) {
    if (!tiles.isDevice()) fail(a[0]->getExprLoc(), std::string(name) + " needs a device value here");
    if (!tiles.device) fail(a[0]->getExprLoc(), std::string(name) + " uses a device value that was never assigned");
    xs.push_back(tiles.device);
  }
  bool allAxes = a.size() == 2;
  int axis = allAxes ? Recorder::kAllAxes : static_cast<int>(hostInt(a[1], "the axis"));
  const Expr *fnExpr = a[allAxes ? 1 : 2];
  bool keepDims = a.size() > 3 && truthy(eval(a[3]), a[3]);
  // A function (add<f32>, &add<f32>), or a lambda or function object.
  const Expr *bare = fnExpr->IgnoreParenImpCasts();
  while (auto *choice = dyn_cast<ConditionalOperator>(bare))  // `invert ? reduce_all : reduce_any`, a host choice
    bare = (truthy(eval(choice->getCond()), choice->getCond()) ? choice->getTrueExpr() : choice->getFalseExpr())
               ->IgnoreParenImpCasts();
  if (auto *u = dyn_cast<UnaryOperator>(bare); u && u->getOpcode() == UO_AddrOf) bare = u->getSubExpr()->IgnoreParenImpCasts();
  auto *ref = dyn_cast<DeclRefExpr>(bare);
  const FunctionDecl *function = ref ? dyn_cast<FunctionDecl>(ref->getDecl()) : nullptr;
  Val callable = function ? Val() : eval(fnExpr);
  // The operator() Clang chose in the header (tt::detail::combined, or
  // applyBoth for several tiles, calls `combine`).
  const FunctionDecl *chosen = nullptr;
  if (const FunctionDecl *callee = c->getDirectCallee(); !function && callee && callee->hasBody())
    chosen = chosenCallee(callee->getBody(), "combine", 2);
  ir::Location l = loc(at);
  ir::Op *op = rec_.beginCombine(kind, xs, axis, l);
  rec_.pushBlock(op->region(0));
  std::vector<Val> args;
  for (auto &arg : op->region(0).args) args.push_back(Val::dev(arg.get()));
  Val r = function ? inlineCall(function, args, nullptr, at)
          : chosen && callable.kind == Val::Kind::Object ? inlineCall(chosen, args, callable.obj, at)
                                                          : callCallable(callable, fnExpr, args, at);
  if (r.isHostNumber() && xs.size() == 1)  // `return 0;`, as the tracer converts it
    r = Val::dev(constant(r, ir::Type::scalar(xs[0]->type.elem), at));
  rec_.yield(op, 0, devicesOf(r, at, "the combine function"), l, "the combine function");
  rec_.popBlock();
  std::vector<ir::Value *> results = rec_.endCombine(op, keepDims, l);
  if (tiles.kind != Val::Kind::Object) return Val::dev(results[0]);
  Val out;  // carry(...) of a tile per input, as twintile.h's combinedAll returns
  out.kind = Val::Kind::Object;
  out.obj = std::make_shared<HostObject>();
  out.obj->record = recordOf(fn->getReturnType());
  size_t i = 0;
  for (const FieldDecl *f : out.obj->record->fields()) out.obj->fields[f] = Val::dev(results[i++]);
  return out;
}

} // namespace twintile::walker
