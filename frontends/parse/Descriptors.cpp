//===- Descriptors.cpp - the parsing front end's tensor descriptors -------===//
//
// make_tensor_descriptor(base, {sizes}, {strides}, {block}) evaluates to a
// host object holding the descriptor the Recorder checked (it records
// nothing); d.load({offsets}) and d.store({offsets}, tile) record through
// it, as the tracer's TensorDescriptor (twintile/descriptor.h) does. The
// object is copied and passed like any host struct.
//===----------------------------------------------------------------------===//
#include "frontends/parse/WalkerInternal.h"

namespace twintile::walker {

namespace {

/// The descriptor's parts in a host object's elements: its rank, the base,
/// the sizes, the strides, then the block's sizes.
Val pack(const Recorder::Descriptor &d, const CXXRecordDecl *record) {
  auto obj = std::make_shared<HostObject>();
  obj->record = record;
  obj->elems.push_back(Val::integer(static_cast<int64_t>(d.block.size())));
  obj->elems.push_back(Val::dev(d.base));
  for (ir::Value *v : d.shape) obj->elems.push_back(Val::dev(v));
  for (ir::Value *v : d.strides) obj->elems.push_back(Val::dev(v));
  for (int64_t b : d.block) obj->elems.push_back(Val::integer(b));
  Val out;
  out.kind = Val::Kind::Object;
  out.obj = std::move(obj);
  return out;
}

Recorder::Descriptor unpack(const HostObject &o) {
  Recorder::Descriptor d;
  size_t rank = static_cast<size_t>(o.elems.at(0).i), at = 1;
  d.base = o.elems.at(at++).device;
  for (size_t i = 0; i < rank; ++i) d.shape.push_back(o.elems.at(at++).device);
  for (size_t i = 0; i < rank; ++i) d.strides.push_back(o.elems.at(at++).device);
  for (size_t i = 0; i < rank; ++i) d.block.push_back(o.elems.at(at++).i);
  return d;
}

} // namespace

std::vector<ir::Value *> Walker::indexList(const Expr *e, const char *what) {
  const Expr *x = e->IgnoreImplicit();
  if (auto *m = dyn_cast<MaterializeTemporaryExpr>(x)) x = m->getSubExpr()->IgnoreImplicit();
  auto *list = dyn_cast<InitListExpr>(x);
  if (!list) fail(e->getExprLoc(), std::string(what) + " must be a braced list, one value per dimension: {a, b}");
  std::vector<ir::Value *> out;
  for (const Expr *init : list->inits()) {
    const Expr *y = init->IgnoreImplicit();
    if (auto *ctor = dyn_cast<CXXConstructExpr>(y); ctor && ctor->getNumArgs() >= 1 && recordOf(ctor->getType()) &&
                                                     nameOf(recordOf(ctor->getType())) == "Index")
      y = ctor->getArg(0)->IgnoreImplicit();
    Val v = eval(y);
    if (v.isDevice()) {
      if (!v.device) fail(y->getExprLoc(), std::string(what) + " uses a device value that was never assigned");
      out.push_back(v.device);
    } else if (v.kind == Val::Kind::Int) {
      uint64_t bits = ctx_.getTypeSize(y->getType());  // as the tracer's Index: i64 for 64 bits and unsigned 32
      bool wide = bits == 64 || (bits == 32 && y->getType()->isUnsignedIntegerType());
      out.push_back(rec_.constInt(ir::Type::scalar(wide ? ir::ScalarKind::I64 : ir::ScalarKind::I32), v.i,
                                  loc(y->getExprLoc())));
    } else {
      fail(y->getExprLoc(), std::string(what) + " are integers, device scalars or host values");
    }
  }
  return out;
}

Val Walker::makeDescriptor(const CallExpr *c, const FunctionDecl *fn, const std::vector<const Expr *> &a) {
  SourceLocation at = c->getExprLoc();
  if (a.size() != 4) fail(at, "make_tensor_descriptor takes a base, a shape, strides and a block shape");
  ir::Value *base = device(a[0], "make_tensor_descriptor's base");
  std::vector<ir::Value *> shape = indexList(a[1], "a tensor descriptor's sizes"),
                           strides = indexList(a[2], "a tensor descriptor's strides");
  std::vector<int64_t> block = hostInts(a[3], "a tensor descriptor's block sizes");
  return pack(rec_.descriptor(base, shape, strides, block, loc(at)), recordOf(fn->getReturnType()));
}

Val Walker::descriptorCall(const CallExpr *c, const CXXMethodDecl *m, const std::vector<const Expr *> &a) {
  SourceLocation at = c->getExprLoc();
  auto *member = dyn_cast<CXXMemberCallExpr>(c);
  std::shared_ptr<HostObject> self = member ? objectOf(member->getImplicitObjectArgument()) : nullptr;
  bool store = nameOf(m) == "store";
  if (!self || self->elems.empty() || (nameOf(m) != "load" && !store) || a.size() != (store ? 2u : 1u))
    fail(at, "'" + qualifiedName(m) + "' is not supported by the parsing front end");
  std::vector<ir::Value *> offsets = indexList(a[0], "a tensor descriptor's offsets");
  Recorder::Descriptor d = unpack(*self);
  ir::Value *value = store ? deviceOr(a[1], ir::Type::scalar(d.base->type.pointee)) : nullptr;
  ir::Value *r = rec_.descriptorAccess(d, offsets, value, loc(at));
  return store ? Val() : Val::dev(r);
}

} // namespace twintile::walker
