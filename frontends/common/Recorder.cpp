#include "frontends/common/Recorder.h"

#include "ir/Float16.h"
#include "ir/Verifier.h"
#include "twintile/promote.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace twintile {

namespace {

std::string shapeText(const ir::Shape &s) { return s.empty() ? "a scalar" : "[" + ir::shapeString(s) + "]"; }

std::string typeList(const std::vector<ir::Type> &ts) {
  std::string s = "(";
  for (size_t i = 0; i < ts.size(); ++i) s += (i ? ", " : "") + ir::toString(ts[i]);
  return s + ")";
}

std::vector<ir::Type> typesOf(const std::vector<ir::Value *> &vs) {
  std::vector<ir::Type> ts;
  for (ir::Value *v : vs) ts.push_back(v->type);
  return ts;
}

/// `v` broadcast to `shape` (which it is known to broadcast to).
ir::Value *broadcastValue(ir::Builder &b, ir::Value *v, const ir::Shape &shape) {
  if (v->type.shape == shape) return v;
  if (v->type.isScalar()) return b.splat(v, shape);
  while (v->type.shape.size() < shape.size()) v = b.expandDims(v, 0);
  if (v->type.shape != shape) v = b.broadcast(v, shape);
  return v;
}

} // namespace

std::optional<ir::Shape> broadcastShapes(const ir::Shape &a, const ir::Shape &b) {
  size_t rank = std::max(a.size(), b.size());
  ir::Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = std::max(da, db);
  }
  return out;
}

Recorder::Recorder(ir::Func &f) : f_(f) { blocks_.push_back(&f.body); }

void Recorder::fail(const ir::Location &loc, std::string message) { throw KernelError{loc, std::move(message)}; }

ir::Value *Recorder::use(ir::Value *v, const ir::Location &loc, std::string_view what) {
  if (!v) fail(loc, std::string(what) + " uses a device value that was never assigned");
  return v;
}

ir::Value *Recorder::scalar(ir::Value *v, const ir::Location &loc) {
  if (v && v->type.isTile())
    fail(loc, "a tile (" + ir::toString(v->type) + ")" +
                  " is not a scalar: reduce it (sum(x), max(x, 0)), or declare the variable a Tile or auto");
  return v;
}

void Recorder::visible(const std::vector<ir::Value *> &values, const ir::Location &loc, const ir::Block *also) const {
  for (const ir::Value *v : values) {
    const ir::Block *home = v->def ? v->def->parent : v->owner;
    if (home != also && std::find(blocks_.begin(), blocks_.end(), home) == blocks_.end())
      fail(loc, "a value from inside an earlier combinator's body or combine function is used here, outside it "
                "(a variable assigned there keeps a value that exists only there): return it from the body instead");
  }
}

std::vector<ir::Value *> Recorder::broadcastAll(std::vector<ir::Value *> vs, const ir::Location &loc,
                                                std::string_view what) {
  ir::Shape shape;
  for (ir::Value *v : vs) {
    std::optional<ir::Shape> s = broadcastShapes(shape, v->type.shape);
    if (!s) {
      std::string shapes;
      for (size_t i = 0; i < vs.size(); ++i) shapes += (i ? " and " : "") + shapeText(vs[i]->type.shape);
      fail(loc, "shapes " + shapes + " cannot be broadcast together in '" + std::string(what) + "'");
    }
    shape = *s;
  }
  return at(loc, [&](ir::Builder &b) {
    for (ir::Value *&v : vs) v = broadcastValue(b, v, shape);
    return vs;
  });
}

ir::Value *Recorder::param(const ir::Type &t, std::string name) { return f_.body.addArg(t, std::move(name)); }

ir::Value *Recorder::constInt(const ir::Type &t, int64_t v, const ir::Location &loc) {
  // A constant that does not fit its type would silently become another
  // (an offset of 3000000000 a negative one): the type's range only (i1: 0
  // and 1; a u64 takes any 64 bits, as a host's unsigned long long does),
  // and for a float type, its finite range.
  if (v < 0 && ir::isUnsigned(t.elem))
    fail(loc, "the constant " + std::to_string(v) + " does not fit in " + std::string(ir::scalarName(t.elem)) +
                  " (the type it meets here), which holds no negative number: subtract a positive one (x - 1, "
                  "not x + -1), or cast<T>(x) the unsigned value to a signed type first");
  if (unsigned bits = ir::bitWidth(t.elem); ir::isInt(t.elem) && bits < 64) {
    bool nonNegative = bits == 1 || ir::isUnsigned(t.elem);
    int64_t lo = nonNegative ? 0 : -(int64_t(1) << (bits - 1));
    int64_t hi = bits == 1 ? 1 : nonNegative ? (int64_t(1) << bits) - 1 : (int64_t(1) << (bits - 1)) - 1;
    if (v < lo || v > hi)
      fail(loc, "the constant " + std::to_string(v) + " does not fit in " + std::string(ir::scalarName(t.elem)) +
                    " (the type it meets here); cast the other operand to a wider type first");
  }
  if (ir::isFloat(t.elem)) return constFloat(t, static_cast<double>(v), loc);
  return at(loc, [&](ir::Builder &b) { return b.constInt(t, v); });
}

ir::Value *Recorder::constUInt(const ir::Type &t, uint64_t v, const ir::Location &loc) {
  if (v <= static_cast<uint64_t>(INT64_MAX)) return constInt(t, static_cast<int64_t>(v), loc);
  if (ir::isFloat(t.elem)) return constFloat(t, static_cast<double>(v), loc);
  if (t.elem != ir::ScalarKind::U64)
    fail(loc, "the constant " + std::to_string(v) + " does not fit in " + std::string(ir::scalarName(t.elem)) +
                  " (the type it meets here); cast<u64>(x) the other operand first");
  return at(loc, [&](ir::Builder &b) { return b.constInt(t, static_cast<int64_t>(v)); });  // its 64 bits
}

ir::Value *Recorder::constFloat(const ir::Type &t, double v, const ir::Location &loc) {
  if (ir::isFloat(t.elem) && std::isfinite(v) && !std::isfinite(ir::roundToFloat(v, t.elem))) {
    std::ostringstream os;
    os << "the constant " << v << " is out of " << ir::scalarName(t.elem) << "'s range (the type it meets here); "
       << "compute in a wider type, or write inf if that is meant";
    fail(loc, os.str());
  }
  return at(loc, [&](ir::Builder &b) { return b.constFloat(t, v); });
}

// promote.h's kinds are the IR's element kinds, in its order.
static_assert(static_cast<int>(tt::promotion::K::U64) == static_cast<int>(ir::ScalarKind::U64) &&
              static_cast<int>(tt::promotion::K::F64) == static_cast<int>(ir::ScalarKind::F64));

std::pair<ir::Value *, ir::Value *> Recorder::promote(ir::Value *a, ir::Value *b, ir::OpKind k,
                                                     const ir::Location &loc, std::string_view what) {
  ir::ScalarKind ea = a->type.elem, eb = b->type.elem;
  if (ea == eb || ea == ir::ScalarKind::Ptr || eb == ir::ScalarKind::Ptr) return {a, b};
  using tt::promotion::K;
  bool divOrMod = k == ir::OpKind::Div || k == ir::OpKind::Rem;
  auto to = static_cast<ir::ScalarKind>(tt::promotion::promote(static_cast<K>(ea), static_cast<K>(eb), divOrMod));
  bool bitwise = k == ir::OpKind::And || k == ir::OpKind::Or || k == ir::OpKind::Xor;
  // As Triton: a signed and an unsigned integer do not divide (C++ would
  // divide them as unsigned, 10u / -3 being 0, a surprise in a kernel).
  if (divOrMod && ir::isInt(ea) && ir::isInt(eb) && ea != ir::ScalarKind::I1 && eb != ir::ScalarKind::I1 &&
      ir::isUnsigned(ea) != ir::isUnsigned(eb))
    fail(loc, "'" + std::string(what) + "' of " + std::string(ir::scalarName(ea)) + " and " +
                  std::string(ir::scalarName(eb)) + ": a signed and an unsigned integer do not divide (as in Triton); "
                  "cast<T> one of them to the other's signedness");
  // Triton shifts a signed left operand arithmetically even where the
  // promoted type is unsigned (i32 >> u32); C++ and the IR shift a u32
  // logically. Neither is what the kernel's reader can tell: refused.
  if (k == ir::OpKind::Shr && ir::isInt(ea) && ea != ir::ScalarKind::I1 && !ir::isUnsigned(ea) && ir::isUnsigned(to))
    fail(loc, "'" + std::string(what) + "' of " + std::string(ir::scalarName(ea)) + " by " +
                  std::string(ir::scalarName(eb)) + ": a signed value shifted by an unsigned amount would be "
                  "unsigned, shifted arithmetically by Triton and logically by C++; cast<T> one of them");
  if (bitwise && ir::isFloat(to))
    fail(loc, "'" + std::string(what) + "' of " + std::string(ir::scalarName(ea)) + " and " +
                  std::string(ir::scalarName(eb)) + ": bitwise operators take integers (cast<T> the float first)");
  return {ea == to ? a : cast(a, to, loc), eb == to ? b : cast(b, to, loc)};
}

ir::Value *Recorder::toPointee(ir::Value *v, const ir::Value *ptr, const ir::Location &loc) {
  if (ptr->type.elem != ir::ScalarKind::Ptr || v->type.elem == ptr->type.pointee || v->type.elem == ir::ScalarKind::Ptr ||
      ptr->type.pointee == ir::ScalarKind::Ptr)
    return v;
  return cast(v, ptr->type.pointee, loc);
}

ir::Value *Recorder::binary(ir::OpKind k, ir::Value *a, ir::Value *b, const ir::Location &loc, std::string_view what) {
  std::tie(a, b) = promote(use(a, loc, what), use(b, loc, what), k, loc, what);
  auto vs = broadcastAll({a, b}, loc, what);
  return at(loc, [&](ir::Builder &bd) { return bd.binary(k, vs[0], vs[1]); });
}

ir::Value *Recorder::unary(ir::OpKind k, ir::Value *a, const ir::Location &loc, std::string_view what) {
  ir::Value *x = use(a, loc, what);
  return at(loc, [&](ir::Builder &b) { return b.unary(k, x); });
}

ir::Value *Recorder::reduce(ir::OpKind k, ir::Value *a, int axis, const ir::Location &loc, bool keepDims) {
  ir::Value *x = use(a, loc, ir::opInfo(k).name);
  if (axis == kAllAxes) {
    if (x->type.isScalar() && ir::familyOf(k) == ir::OpFamily::Reduction) {  // one element: itself, at index 0
      bool index = k == ir::OpKind::Argmax || k == ir::OpKind::Argmin;
      return index ? constInt(ir::Type::scalar(ir::ScalarKind::I32), 0, loc) : x;
    }
    return at(loc, [&](ir::Builder &b) {
      ir::Value *flat = x->type.rank() > 1 ? b.reshape(x, {x->type.numElements()}) : x;
      return b.reduce(k, flat, 0);
    });
  }
  if (axis < 0) axis += static_cast<int>(x->type.rank());  // Python-style negative axes
  return at(loc, [&](ir::Builder &b) {
    ir::Value *r = b.reduce(k, x, axis);
    return keepDims && ir::familyOf(k) == ir::OpFamily::Reduction ? b.expandDims(r, axis) : r;
  });
}

ir::Value *Recorder::addptr(ir::Value *p, ir::Value *offset, const ir::Location &loc) {
  auto vs = broadcastAll({use(p, loc, "'+'"), use(offset, loc, "'+'")}, loc, "+");
  return at(loc, [&](ir::Builder &b) { return b.addptr(vs[0], vs[1]); });
}

ir::Value *Recorder::subptr(ir::Value *p, ir::Value *offset, const ir::Location &loc) {
  ir::Value *k = use(offset, loc, "'-'");
  if (k->type.isUnsigned()) k = cast(k, ir::ScalarKind::I64, loc);  // a u64's bits as they are: -k steps back
  return addptr(p, unary(ir::OpKind::Neg, k, loc, "-"), loc);
}

ir::Value *Recorder::select(ir::Value *c, ir::Value *a, ir::Value *b, const ir::Location &loc) {
  std::tie(a, b) = promote(use(a, loc, "where"), use(b, loc, "where"), ir::OpKind::Select, loc, "where");
  auto vs = broadcastAll({use(c, loc, "where"), a, b}, loc, "where");
  return at(loc, [&](ir::Builder &bd) { return bd.select(vs[0], vs[1], vs[2]); });
}

ir::Value *Recorder::fma(ir::Value *a, ir::Value *b, ir::Value *c, const ir::Location &loc) {
  auto vs = broadcastAll({use(a, loc, "fma"), use(b, loc, "fma"), use(c, loc, "fma")}, loc, "fma");
  return at(loc, [&](ir::Builder &bd) { return bd.value(ir::OpKind::Fma, {vs[0], vs[1], vs[2]}); });
}

ir::Value *Recorder::cast(ir::Value *a, ir::ScalarKind to, const ir::Location &loc) {
  ir::Value *x = use(a, loc, "cast");
  return at(loc, [&](ir::Builder &b) { return b.cast(x, to); });
}

ir::Value *Recorder::bitcast(ir::Value *a, ir::ScalarKind to, const ir::Location &loc) {
  ir::Value *x = use(a, loc, "bitcast");
  return at(loc, [&](ir::Builder &b) { return b.bitcast(x, to); });
}

ir::Value *Recorder::hint(ir::OpKind kind, ir::Value *a, std::vector<int64_t> values, const ir::Location &loc) {
  ir::Value *x = use(a, loc, ir::opInfo(kind).name);
  size_t rank = std::max<size_t>(x->type.shape.size(), 1);
  if (values.size() != rank)  // one value for a 2-D tile would promise the strided axis too
    fail(loc, std::string(ir::opInfo(kind).name) + " needs one value per dimension of " + ir::toString(x->type) +
                  " ({v0, v1, ...}), got " + std::to_string(values.size()));
  return at(loc, [&](ir::Builder &b) { return b.hint(kind, x, values); });
}

ir::Value *Recorder::programId(int axis, const ir::Location &loc) {
  return at(loc, [&](ir::Builder &b) { return b.programId(axis); });
}

ir::Value *Recorder::numPrograms(int axis, const ir::Location &loc) {
  return at(loc, [&](ir::Builder &b) { return b.numPrograms(axis); });
}

ir::Value *Recorder::arange(int64_t start, int64_t end, const ir::Location &loc) {
  return at(loc, [&](ir::Builder &b) { return b.arange(start, end); });
}

ir::Value *Recorder::full(const ir::Shape &shape, ir::Value *scalar, const ir::Location &loc) {
  for (int64_t d : shape)
    if (d <= 0) fail(loc, "tile dimensions must be positive, got " + std::to_string(d));
  ir::Value *v = use(scalar, loc, "full");
  if (!v->type.isScalar())
    fail(loc, "full takes one value (a scalar or a 0-d tile), got " + ir::toString(v->type) + ": to give a tile "
              "another shape, write broadcast_to(x, shape)");
  if (shape.empty()) return v;  // a 0-d tile is its scalar
  return at(loc, [&](ir::Builder &b) { return b.splat(v, shape); });
}

ir::Value *Recorder::expandDims(ir::Value *a, int axis, const ir::Location &loc) {
  ir::Value *x = use(a, loc, "expand_dims");
  if (axis < 0) axis += static_cast<int>(x->type.rank()) + 1;
  return at(loc, [&](ir::Builder &b) { return b.expandDims(x, axis); });
}

ir::Value *Recorder::broadcastTo(ir::Value *a, const ir::Shape &shape, const ir::Location &loc) {
  ir::Value *x = use(a, loc, "broadcast_to");
  for (int64_t d : shape)
    if (d <= 0) fail(loc, "tile dimensions must be positive, got " + std::to_string(d));
  std::optional<ir::Shape> common = broadcastShapes(x->type.shape, shape);
  if (!common || *common != shape)
    fail(loc, "cannot broadcast " + shapeText(x->type.shape) + " to " + shapeText(shape));
  return at(loc, [&](ir::Builder &b) { return broadcastValue(b, x, shape); });
}

int64_t Recorder::shapeOf(ir::Value *a, int axis, const ir::Location &loc) {
  ir::Value *x = use(a, loc, "shape_of");
  int rank = static_cast<int>(x->type.rank());
  if (axis < -rank || axis >= rank)
    fail(loc, "shape_of axis " + std::to_string(axis) + " is out of range for " + ir::toString(x->type));
  return x->type.shape[static_cast<size_t>(axis < 0 ? axis + rank : axis)];
}

ir::Value *Recorder::reshape(ir::Value *a, const ir::Shape &shape, const ir::Location &loc) {
  ir::Value *x = use(a, loc, "reshape");
  for (int64_t d : shape)
    if (d <= 0) fail(loc, "tile dimensions must be positive, got " + std::to_string(d));
  return at(loc, [&](ir::Builder &b) { return b.reshape(x, shape); });
}

ir::Value *Recorder::trans(ir::Value *a, const std::vector<int64_t> &perm, const ir::Location &loc) {
  ir::Value *x = use(a, loc, "trans");
  return at(loc, [&](ir::Builder &b) { return b.trans(x, perm); });
}

namespace {
/// The hints' names, or a located error for an index outside the tables.
std::pair<std::string_view, std::string_view> memoryHints(int cache, int evict, const ir::Location &loc) {
  if (cache < 0 || cache >= static_cast<int>(std::size(ir::kCacheModifiers)) || evict < 0 ||
      evict >= static_cast<int>(std::size(ir::kEvictionPolicies)))
    Recorder::fail(loc, "a cache modifier or eviction policy out of range (use tt::Cache and tt::Evict)");
  return {ir::kCacheModifiers[cache], ir::kEvictionPolicies[evict]};
}
} // namespace

ir::Value *Recorder::load(ir::Value *ptr, ir::Value *mask, ir::Value *other, const ir::Location &loc, int cache,
                          int evict) {
  std::vector<ir::Value *> vs{use(ptr, loc, "load")};
  if (mask) vs.push_back(mask);
  if (other) vs.push_back(toPointee(other, vs[0], loc));
  if (other && !mask) fail(loc, "load with `other` needs a mask");
  vs = broadcastAll(vs, loc, "load");
  auto [c, e] = memoryHints(cache, evict, loc);
  return at(loc, [&](ir::Builder &b) { return b.load(vs[0], mask ? vs[1] : nullptr, other ? vs[2] : nullptr, c, e); });
}

void Recorder::store(ir::Value *ptr, ir::Value *value, ir::Value *mask, const ir::Location &loc, int cache,
                     int evict) {
  ptr = use(ptr, loc, "store");
  std::vector<ir::Value *> vs{ptr, toPointee(use(value, loc, "store"), ptr, loc)};
  if (mask) vs.push_back(mask);
  vs = broadcastAll(vs, loc, "store");
  auto [c, e] = memoryHints(cache, evict, loc);
  at(loc, [&](ir::Builder &b) {
    b.store(vs[0], vs[1], mask ? vs[2] : nullptr, c, e);
    return 0;
  });
}

ir::Value *Recorder::atomic(ir::OpKind kind, ir::Value *ptr, ir::Value *cmp, ir::Value *value, ir::Value *mask,
                            int sem, int scope, const ir::Location &loc) {
  std::string_view name = ir::opInfo(kind).name;
  constexpr int sems = std::size(ir::kAtomicSems), scopes = std::size(ir::kAtomicScopes);
  if (sem < 0 || sem >= sems || scope < 0 || scope >= scopes)
    fail(loc, "'" + std::string(name) + "': unknown memory order or scope (" + std::to_string(sem) + ", " +
                  std::to_string(scope) + ")");
  std::vector<ir::Value *> vs{use(ptr, loc, name)};
  if (cmp) vs.push_back(toPointee(use(cmp, loc, name), vs[0], loc));
  vs.push_back(toPointee(use(value, loc, name), vs[0], loc));
  if (mask) vs.push_back(use(mask, loc, name));
  vs = broadcastAll(vs, loc, name);
  return at(loc, [&](ir::Builder &b) { return b.atomic(kind, vs, ir::kAtomicSems[sem], ir::kAtomicScopes[scope]); });
}

ir::Value *Recorder::dot(ir::Value *a, ir::Value *b, ir::Value *acc, int precision, const ir::Location &loc) {
  ir::Value *x = use(a, loc, "dot"), *y = use(b, loc, "dot"), *z = use(acc, loc, "dot");
  if (precision != 0 && precision != 1) fail(loc, "dot: the precision must be Precision::Ieee or Precision::Tf32");
  return at(loc, [&](ir::Builder &bd) { return bd.dot(x, y, z, precision == 1 ? "tf32" : ""); });
}

void Recorder::print(const std::string &prefix, const std::vector<ir::Value *> &values, const ir::Location &loc) {
  for (ir::Value *v : values) use(v, loc, "device_print");
  at(loc, [&](ir::Builder &b) {
    b.print(prefix, values);
    return 0;
  });
}

void Recorder::assertTrue(ir::Value *cond, const std::string &msg, const ir::Location &loc) {
  ir::Value *c = use(cond, loc, "device_assert");
  at(loc, [&](ir::Builder &b) {
    b.assertTrue(c, msg);
    return 0;
  });
}

void Recorder::options(int64_t numWarps, int64_t numStages, const ir::Location &loc) {
  if (std::string why = ir::numWarpsProblem(numWarps); numWarps != 0 && !why.empty()) fail(loc, "kernel_options: " + why);
  if (std::string why = ir::numStagesProblem(numStages); numStages != 0 && !why.empty()) fail(loc, "kernel_options: " + why);
  if (numWarps) f_.numWarps = static_cast<int>(numWarps);
  if (numStages) f_.numStages = static_cast<int>(numStages);
}

void Recorder::barrier(const ir::Location &loc) {
  at(loc, [&](ir::Builder &b) {
    b.barrier();
    return 0;
  });
}

ir::Op *Recorder::beginFor(ir::Value *lo, ir::Value *hi, ir::Value *step, const std::vector<ir::Value *> &inits,
                           const ir::Location &loc) {
  for (ir::Value *v : inits) use(v, loc, "a loop");
  ir::Value *l = use(lo, loc, "a loop"), *h = use(hi, loc, "a loop"), *s = use(step, loc, "a loop");
  for (ir::Value *v : {l, h, s})
    if (v->type.isUnsigned())
      fail(loc, "a device loop's bounds and step are signed integers (i32 or i64), got " + ir::toString(v->type) +
                    ": cast<i32>(n) or cast<i64>(n) an unsigned one");
  return at(loc, [&](ir::Builder &b) {
    // Bounds of mixed widths meet in i64.
    bool wide = l->type.elem == ir::ScalarKind::I64 || h->type.elem == ir::ScalarKind::I64 ||
                s->type.elem == ir::ScalarKind::I64;
    auto widen = [&](ir::Value *v) { return wide && v->type.elem != ir::ScalarKind::I64 ? b.cast(v, ir::ScalarKind::I64) : v; };
    return b.forOp(widen(l), widen(h), widen(s), inits);
  });
}

ir::Op *Recorder::beginIf(ir::Value *cond, const ir::Location &loc) {
  ir::Value *c = use(cond, loc, "a condition");
  if (!(c->type == ir::Type::scalar(ir::ScalarKind::I1)))
    fail(loc, "a device condition must be a scalar i1, got " + ir::toString(c->type));
  return at(loc, [&](ir::Builder &b) { return b.ifOp(c, {}); });
}

ir::Op *Recorder::beginWhile(const std::vector<ir::Value *> &inits, const ir::Location &loc) {
  for (ir::Value *v : inits) use(v, loc, "a loop");
  return at(loc, [&](ir::Builder &b) { return b.whileOp(inits); });
}

ir::Op *Recorder::beginCombine(ir::OpKind kind, const std::vector<ir::Value *> &tiles, int axis,
                               const ir::Location &loc) {
  const char *what = kind == ir::OpKind::Reduce ? "reduce" : "associative_scan";
  std::vector<ir::Value *> xs;
  for (ir::Value *a : tiles) {
    ir::Value *x = use(a, loc, what);
    if (!x->type.isTile() || x->type.isPtr())
      fail(loc, std::string(what) + " needs a tile of numbers, got " + ir::toString(x->type));
    if (!xs.empty() && !(x->type.shape == xs[0]->type.shape))
      fail(loc, std::string(what) + " combines tiles of one shape, got " + ir::toString(xs[0]->type) + " and " +
                    ir::toString(x->type) + " (broadcast_to the one to the other's shape first)");
    xs.push_back(x);
  }
  int rank = static_cast<int>(xs[0]->type.rank());
  if (axis == kAllAxes) {
    if (kind != ir::OpKind::Reduce) fail(loc, "associative_scan needs an axis");
    axis = 0;
    if (rank > 1)
      for (ir::Value *&x : xs) x = at(loc, [&](ir::Builder &b) { return b.reshape(x, {x->type.numElements()}); });
  } else if (axis < -rank || axis >= rank) {
    fail(loc, std::string(what) + " axis " + std::to_string(axis) + " is out of range for " + ir::toString(xs[0]->type));
  } else if (axis < 0) {
    axis += rank;  // Python-style negative axes
  }
  return at(loc, [&](ir::Builder &b) { return b.combine(kind, xs, axis); });
}

std::vector<ir::Value *> Recorder::endCombine(ir::Op *op, bool keepDims, const ir::Location &loc) {
  std::vector<ir::Value *> out;
  for (auto &r : op->results) {
    if (!keepDims || op->kind != ir::OpKind::Reduce) out.push_back(r.get());
    else out.push_back(at(loc, [&](ir::Builder &b) { return b.expandDims(r.get(), op->intAttr("axis")); }));
  }
  return out;
}

void Recorder::yield(ir::Op *op, int index, const std::vector<ir::Value *> &values, const ir::Location &loc,
                     std::string_view what) {
  for (ir::Value *v : values) use(v, loc, what);
  std::vector<ir::Type> types = typesOf(values), want;
  std::string message;
  std::string who(what);
  if (op->kind == ir::OpKind::While && index == 0) {
    want = {ir::Type::scalar(ir::ScalarKind::I1)};
    message = who + " returns " + typeList(types) + ", not a scalar i1";
  } else if (op->kind == ir::OpKind::Reduce || op->kind == ir::OpKind::Scan) {
    // The function must compute on the two scalars it was given.
    if (const ir::Op *bad = ir::nonScalarCombineOp(op->region(index))) {
      const char *rule = ", which may only compute on the scalars it is given (arithmetic, comparisons, where, "
                         "casts), as Triton's combine_fn";
      if (!bad->results.empty() && bad->result()->type.isTile())
        fail(bad->loc, "a " + ir::toString(bad->result()->type) + " in " + who + rule +
                           ": a tile from outside it cannot be used there");
      std::string name(ir::surfaceOf(bad->kind).empty() ? bad->name() : ir::surfaceOf(bad->kind));
      fail(bad->loc, "'" + name + "' in " + who + rule);
    }
    const ir::Block &region = op->region(index);
    for (size_t i = 0; i < op->operands.size(); ++i) want.push_back(region.arg(i)->type);
    std::string got = types.size() == 1 ? ir::toString(types[0]) : typeList(types);
    message = want.size() == 1 ? who + " returns " + got + ", not one " + ir::toString(want[0]) +
                                     " (the type of the elements it combines)"
                               : who + " returns " + got + ", not carry(...) of one element of each tile, " +
                                     typeList(want);
  } else if (op->kind == ir::OpKind::For || op->kind == ir::OpKind::While) {
    for (auto &r : op->results) want.push_back(r->type);
    message = who + " returns " + typeList(types) + " for carried values of types " + typeList(want);
  } else if (index == 0) {
    want = types;  // the then region decides
  } else {
    ir::Op *thenYield = op->region(0).terminator();
    want = thenYield ? typesOf(thenYield->operands) : std::vector<ir::Type>{};
    message = who + " return different types: " + typeList(want) + " and " + typeList(types);
  }
  if (types != want) fail(loc, message);
  visible(values, loc, &op->region(index));  // the region may be closed already (DeviceFlow)
  ir::Builder b(op->region(index));
  b.setLoc(loc);
  b.yield(values);
  if (op->kind == ir::OpKind::If && index == 1)
    for (const ir::Type &t : types) op->addResult(t);
}

void Recorder::finish() {
  ir::Builder b(f_.body);
  b.ret();
  std::vector<ir::Diagnostic> diags = ir::verify(f_);
  if (!diags.empty())
    throw ir::InternalError("the front end built IR that does not verify: " + diags[0].message, diags[0].loc);
}

} // namespace twintile
