#include "ir/Builder.h"

#include "ir/TypeRules.h"

namespace twintile::ir {

Op *Builder::create(OpKind kind, std::vector<Value *> operands, AttrMap attrs,
                    std::vector<Type> explicitTypes) {
  std::vector<Type> types;
  types.reserve(operands.size());
  for (Value *v : operands) types.push_back(v->type);
  TypeRuleResult r = inferResultTypes(kind, types, attrs, explicitTypes);
  if (!r.error.empty()) throw BuildError(loc_, r.error);

  auto op = std::make_unique<Op>(kind, loc_);
  op->operands = std::move(operands);
  op->attrs = std::move(attrs);
  for (Type &t : r.results) op->addResult(std::move(t));
  for (int i = 0; i < op->info().numRegions; ++i) op->addRegion();
  op->parent = block_;
  block_->ops.push_back(std::move(op));
  return block_->ops.back().get();
}

Value *Builder::value(OpKind kind, std::vector<Value *> operands, AttrMap attrs,
                      std::vector<Type> explicitTypes) {
  return create(kind, std::move(operands), std::move(attrs), std::move(explicitTypes))->result();
}

Value *Builder::programId(int axis) {
  return value(OpKind::ProgramId, {}, {{"axis", Attr::integer(axis)}});
}
Value *Builder::numPrograms(int axis) {
  return value(OpKind::NumPrograms, {}, {{"axis", Attr::integer(axis)}});
}
Value *Builder::constInt(Type type, int64_t v) {
  if (type.isFloat()) return constFloat(std::move(type), static_cast<double>(v));
  return value(OpKind::Constant, {}, {{"value", Attr::integer(v)}}, {std::move(type)});
}
Value *Builder::constFloat(Type type, double v) {
  return value(OpKind::Constant, {}, {{"value", Attr::floating(v)}}, {std::move(type)});
}
Value *Builder::arange(int64_t start, int64_t end) {
  return value(OpKind::Arange, {}, {{"start", Attr::integer(start)}, {"end", Attr::integer(end)}});
}

Value *Builder::splat(Value *scalar, Shape shape) {
  return value(OpKind::Splat, {scalar}, {}, {scalar->type.withShape(std::move(shape))});
}
Value *Builder::broadcast(Value *tile, Shape shape) {
  return value(OpKind::Broadcast, {tile}, {}, {tile->type.withShape(std::move(shape))});
}
Value *Builder::expandDims(Value *v, int64_t axis) {
  return value(OpKind::ExpandDims, {v}, {{"axis", Attr::integer(axis)}});
}
Value *Builder::reshape(Value *v, Shape shape) {
  return value(OpKind::Reshape, {v}, {}, {v->type.withShape(std::move(shape))});
}
Value *Builder::trans(Value *v, std::vector<int64_t> perm) {
  return value(OpKind::Trans, {v}, {{"perm", Attr::list(std::move(perm))}});
}
Value *Builder::cast(Value *v, ScalarKind to) {
  return value(OpKind::Cast, {v}, {}, {v->type.withElem(to)});
}

Value *Builder::bitcast(Value *v, ScalarKind to) {
  return value(OpKind::Bitcast, {v}, {}, {v->type.withElem(to)});
}

Value *Builder::hint(OpKind kind, Value *v, std::vector<int64_t> values) {
  return value(kind, {v}, {{"values", Attr::list(std::move(values))}});
}

namespace {
AttrMap memoryHints(std::string_view cache, std::string_view evict) {
  AttrMap attrs;
  if (!cache.empty()) attrs["cache"] = Attr::string(std::string(cache));
  if (!evict.empty()) attrs["evict"] = Attr::string(std::string(evict));
  return attrs;
}
} // namespace

Value *Builder::load(Value *ptr, Value *mask, Value *other, std::string_view cache, std::string_view evict) {
  std::vector<Value *> ops{ptr};
  if (mask) ops.push_back(mask);
  if (other) {
    if (!mask) throw BuildError(loc_, "'load' with other needs a mask");
    ops.push_back(other);
  }
  return value(OpKind::Load, std::move(ops), memoryHints(cache, evict));
}
Op *Builder::descriptor(Value *base, const std::vector<Value *> &shape, const std::vector<Value *> &strides,
                        const std::vector<Value *> &offsets, Shape block, Value *value) {
  std::vector<Value *> ops{base};
  for (const std::vector<Value *> *part : {&shape, &strides, &offsets}) ops.insert(ops.end(), part->begin(), part->end());
  if (value) ops.push_back(value);
  return create(value ? OpKind::DescriptorStore : OpKind::DescriptorLoad, std::move(ops),
                {{"block", Attr::list(std::move(block))}});
}
void Builder::store(Value *ptr, Value *val, Value *mask, std::string_view cache, std::string_view evict) {
  std::vector<Value *> ops{ptr, val};
  if (mask) ops.push_back(mask);
  create(OpKind::Store, std::move(ops), memoryHints(cache, evict));
}
Value *Builder::atomicAdd(Value *ptr, Value *val, Value *mask) {
  std::vector<Value *> ops{ptr, val};
  if (mask) ops.push_back(mask);
  return value(OpKind::AtomicAdd, std::move(ops));
}

Value *Builder::atomic(OpKind kind, std::vector<Value *> operands, std::string_view sem, std::string_view scope) {
  AttrMap attrs;
  if (sem != kAtomicSems[0]) attrs["sem"] = Attr::string(std::string(sem));
  if (scope != kAtomicScopes[0]) attrs["scope"] = Attr::string(std::string(scope));
  return value(kind, std::move(operands), std::move(attrs));
}

Value *Builder::reduce(OpKind kind, Value *v, int64_t axis) {
  return value(kind, {v}, {{"axis", Attr::integer(axis)}});
}
Op *Builder::combine(OpKind kind, std::vector<Value *> tiles, int64_t axis) {
  Op *op = create(kind, tiles, {{"axis", Attr::integer(axis)}});
  for (int side = 0; side < 2; ++side)  // the earlier element of each tile, then the later
    for (Value *v : tiles) op->region(0).addArg(Type::scalar(v->type.elem));
  return op;
}
void Builder::print(std::string prefix, std::vector<Value *> vals) {
  create(OpKind::Print, std::move(vals), {{"prefix", Attr::string(std::move(prefix))}});
}
void Builder::assertTrue(Value *cond, std::string msg) {
  create(OpKind::Assert, {cond}, {{"msg", Attr::string(std::move(msg))}});
}

void Builder::barrier() { create(OpKind::Barrier, {}); }

Op *Builder::forOp(Value *lo, Value *hi, Value *step, std::vector<Value *> inits) {
  std::vector<Value *> ops{lo, hi, step};
  ops.insert(ops.end(), inits.begin(), inits.end());
  Op *op = create(OpKind::For, std::move(ops));
  Block &body = op->region(0);
  body.addArg(lo->type);
  for (Value *v : inits) body.addArg(v->type);
  return op;
}

Op *Builder::ifOp(Value *cond, std::vector<Type> resultTypes) {
  return create(OpKind::If, {cond}, {}, std::move(resultTypes));
}

Op *Builder::whileOp(std::vector<Value *> inits) {
  Op *op = create(OpKind::While, inits);
  for (Block *b : {&op->region(0), &op->region(1)})
    for (Value *v : inits) b->addArg(v->type);
  return op;
}

void Builder::yield(std::vector<Value *> vals) { create(OpKind::Yield, std::move(vals)); }
void Builder::ret() { create(OpKind::Return, {}); }

} // namespace twintile::ir
