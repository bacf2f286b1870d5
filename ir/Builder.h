//===- Builder.h - creating ops with inferred types and a location -------===//
#pragma once

#include "ir/IR.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace twintile::ir {

/// Thrown by the builder when an op would be ill-typed; carries the op's
/// location so a front end can report it as the user's error.
class BuildError : public std::runtime_error {
public:
  BuildError(Location loc, const std::string &msg) : std::runtime_error(msg), loc(std::move(loc)) {}
  Location loc;
};

/// Appends ops at the end of a block. Every op gets the builder's current
/// location; result types are inferred by the typing rules (TypeRules.h).
class Builder {
public:
  explicit Builder(Block &block) : block_(&block) {}

  Block &block() const { return *block_; }
  void setBlock(Block &b) { block_ = &b; }
  const Location &loc() const { return loc_; }
  void setLoc(Location l) { loc_ = std::move(l); }

  /// Creates an op; `explicitTypes` are required for ExplicitType ops and `if`.
  Op *create(OpKind kind, std::vector<Value *> operands, AttrMap attrs = {},
             std::vector<Type> explicitTypes = {});
  /// Creates a single-result op and returns its result.
  Value *value(OpKind kind, std::vector<Value *> operands, AttrMap attrs = {},
               std::vector<Type> explicitTypes = {});

  // Leaves.
  Value *programId(int axis);
  Value *numPrograms(int axis);
  Value *constInt(Type type, int64_t v);
  Value *constFloat(Type type, double v);
  Value *arange(int64_t start, int64_t end);

  // Shapes.
  Value *splat(Value *scalar, Shape shape);
  Value *broadcast(Value *tile, Shape shape);
  Value *expandDims(Value *v, int64_t axis);
  Value *reshape(Value *v, Shape shape);
  Value *trans(Value *v, std::vector<int64_t> perm);

  // Elementwise.
  Value *unary(OpKind kind, Value *a) { return value(kind, {a}); }
  Value *binary(OpKind kind, Value *a, Value *b) { return value(kind, {a, b}); }
  Value *select(Value *c, Value *a, Value *b) { return value(OpKind::Select, {c, a, b}); }
  Value *cast(Value *v, ScalarKind to);
  Value *bitcast(Value *v, ScalarKind to);
  /// multiple_of or max_contiguous of `v`, one value per dimension.
  Value *hint(OpKind kind, Value *v, std::vector<int64_t> values);
  Value *addptr(Value *p, Value *offset) { return value(OpKind::AddPtr, {p, offset}); }

  // Memory.
  /// With a cache modifier and an eviction policy when not "" (kCacheModifiers, kEvictionPolicies).
  Value *load(Value *ptr, Value *mask = nullptr, Value *other = nullptr, std::string_view cache = "",
              std::string_view evict = "");
  void store(Value *ptr, Value *val, Value *mask = nullptr, std::string_view cache = "", std::string_view evict = "");
  Value *atomicAdd(Value *ptr, Value *val, Value *mask = nullptr);
  /// A block of a strided tensor (Descriptor.h): `strides` without the
  /// innermost, which is 1; a store when `value` is given.
  Op *descriptor(Value *base, const std::vector<Value *> &shape, const std::vector<Value *> &strides,
                 const std::vector<Value *> &offsets, Shape block, Value *value = nullptr);
  /// An atomic of `kind` (operands: atomic_cas's are ptr, cmp, val; the
  /// others' ptr, val and an optional mask), with its sem and scope
  /// attributes unless they are the defaults.
  Value *atomic(OpKind kind, std::vector<Value *> operands, std::string_view sem = "relaxed",
                std::string_view scope = "gpu");

  // Reductions, dot, debugging.
  Value *reduce(OpKind kind, Value *v, int64_t axis);
  /// reduce or scan of `tiles` (one shape) along `axis`: returns the op,
  /// whose region takes an earlier and a later scalar of each tile (a0..,
  /// b0..); fill it and yield their combination, one scalar per tile.
  Op *combine(OpKind kind, std::vector<Value *> tiles, int64_t axis);
  /// precision: "" (the default, IEEE) or "tf32" (f32 operands read as TF32).
  Value *dot(Value *a, Value *b, Value *acc, std::string_view precision = "") {
    AttrMap attrs;
    if (!precision.empty()) attrs["precision"] = Attr::string(std::string(precision));
    return value(OpKind::Dot, {a, b, acc}, std::move(attrs));
  }
  void print(std::string prefix, std::vector<Value *> vals);
  void assertTrue(Value *cond, std::string msg);
  void barrier();

  // Control flow. Each returns the op; fill its regions with a nested builder
  // and terminate them with yield().
  Op *forOp(Value *lo, Value *hi, Value *step, std::vector<Value *> inits);
  Op *ifOp(Value *cond, std::vector<Type> resultTypes);
  Op *whileOp(std::vector<Value *> inits);
  void yield(std::vector<Value *> vals);
  void ret();

private:
  Block *block_;
  Location loc_;
};

} // namespace twintile::ir
