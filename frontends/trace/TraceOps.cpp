//===- TraceOps.cpp - the language's entry points: abstract values record ops ===//
//
// Defines the tt::detail entry points that twintile.h declares. Each one
// turns its operands into IR values and records its op through the shared
// Recorder (frontends/common), at the user's call site; errors (shapes that
// do not broadcast, a bad axis, a type the op does not take, native control
// flow) are KernelErrors that the session (Tracer.cpp) turns into located
// diagnostics.
//===----------------------------------------------------------------------===//
#include "frontends/trace/TraceState.h"

#include <string>
#include <vector>

namespace ir = twintile::ir;

namespace twintile::detail {

/// The IR kind of each entry of the language's table, in the enum's order.
constexpr ir::OpKind kIrKinds[] = {
#define TT_LANG_OP(Kind) ir::OpKind::Kind,
#define TT_LANG_UNARY(Kind, name, Accepts) ir::OpKind::Kind,
#define TT_LANG_REDUCE(Kind, name, Result) ir::OpKind::Kind,
#define TT_LANG_SCAN(Kind, name) ir::OpKind::Kind,
#define TT_LANG_ATOMIC(Kind, name) ir::OpKind::Kind,
#define TT_LANG_CAS(Kind, name) ir::OpKind::Kind,
#include "twintile/ops.def"
};

// The language's table agrees with the IR's: each entry's family, and the
// name of each function the header generates from it.
#define TT_LANG_OP(Kind)                                                                   \
  static_assert(ir::familyOf(ir::OpKind::Kind) == ir::OpFamily::Binary ||                 \
                    ir::familyOf(ir::OpKind::Kind) == ir::OpFamily::Compare ||            \
                    ir::familyOf(ir::OpKind::Kind) == ir::OpFamily::Unary,                \
                "twintile/ops.def: " #Kind " is not an elementwise op in ir/Ops.def");
#define TT_LANG_UNARY(Kind, name, Accepts)                                                 \
  static_assert(ir::familyOf(ir::OpKind::Kind) == ir::OpFamily::Unary &&                  \
                    ir::surfaceOf(ir::OpKind::Kind) == #name,                             \
                "twintile/ops.def: " #Kind " is not the unary op '" #name "' of ir/Ops.def");
#define TT_LANG_REDUCE(Kind, name, Result)                                                 \
  static_assert(ir::familyOf(ir::OpKind::Kind) == ir::OpFamily::Reduction &&              \
                    ir::surfaceOf(ir::OpKind::Kind) == #name,                             \
                "twintile/ops.def: " #Kind " is not the reduction '" #name "' of ir/Ops.def");
#define TT_LANG_SCAN(Kind, name)                                                           \
  static_assert(ir::familyOf(ir::OpKind::Kind) == ir::OpFamily::Scan &&                   \
                    ir::surfaceOf(ir::OpKind::Kind) == #name,                             \
                "twintile/ops.def: " #Kind " is not the scan '" #name "' of ir/Ops.def");
#define TT_LANG_ATOMIC(Kind, name)                                                         \
  static_assert(ir::isAtomic(ir::OpKind::Kind) && ir::OpKind::Kind != ir::OpKind::AtomicCas && \
                    ir::surfaceOf(ir::OpKind::Kind) == #name,                             \
                "twintile/ops.def: " #Kind " is not the atomic '" #name "' of ir/Ops.def");
#define TT_LANG_CAS(Kind, name)                                                            \
  static_assert(ir::OpKind::Kind == ir::OpKind::AtomicCas && ir::surfaceOf(ir::OpKind::Kind) == #name, \
                "twintile/ops.def: " #Kind " is not 'atomic_cas'");
#include "twintile/ops.def"
// The language's memory orders and scopes are the IR's, in the same order.
static_assert(ir::kAtomicSems[static_cast<int>(tt::Sem::Relaxed)] == "relaxed" &&
              ir::kAtomicSems[static_cast<int>(tt::Sem::Acquire)] == "acquire" &&
              ir::kAtomicSems[static_cast<int>(tt::Sem::Release)] == "release" &&
              ir::kAtomicSems[static_cast<int>(tt::Sem::AcqRel)] == "acq_rel");
static_assert(ir::kAtomicScopes[static_cast<int>(tt::Scope::Gpu)] == "gpu" &&
              ir::kAtomicScopes[static_cast<int>(tt::Scope::Cta)] == "cta" &&
              ir::kAtomicScopes[static_cast<int>(tt::Scope::Sys)] == "sys");
// And so are its cache and eviction hints.
static_assert(ir::kCacheModifiers[static_cast<int>(tt::Cache::Default)] == "" &&
              ir::kCacheModifiers[static_cast<int>(tt::Cache::Ca)] == "ca" &&
              ir::kCacheModifiers[static_cast<int>(tt::Cache::Cg)] == "cg" &&
              ir::kCacheModifiers[static_cast<int>(tt::Cache::Cv)] == "cv" &&
              ir::kCacheModifiers[static_cast<int>(tt::Cache::Wb)] == "wb" &&
              ir::kCacheModifiers[static_cast<int>(tt::Cache::Cs)] == "cs" &&
              ir::kCacheModifiers[static_cast<int>(tt::Cache::Wt)] == "wt" &&
              ir::kCacheModifiers[static_cast<int>(tt::Cache::Volatile)] == "volatile");
static_assert(ir::kEvictionPolicies[static_cast<int>(tt::Evict::Normal)] == "" &&
              ir::kEvictionPolicies[static_cast<int>(tt::Evict::First)] == "evict_first" &&
              ir::kEvictionPolicies[static_cast<int>(tt::Evict::Last)] == "evict_last");

static ir::OpKind kindOf(tt::detail::Op op) { return kIrKinds[static_cast<size_t>(op)]; }

/// How the user wrote `op`, for messages ("+", "minimum").
static std::string spelling(tt::detail::Op op) { return std::string(ir::surfaceOf(kindOf(op))); }

} // namespace twintile::detail

namespace tt::detail {

using twintile::KernelError;
using twintile::detail::kindOf;
using twintile::detail::node;
using twintile::detail::recorder;
using twintile::detail::toLoc;
using twintile::detail::val;

Node *constantInt(long long v, TypeCode t, Loc loc) {
  return node(recorder().constInt(twintile::detail::typeOf(t), v, toLoc(loc)));
}

Node *constantUInt(unsigned long long v, TypeCode t, Loc loc) {
  return node(recorder().constUInt(twintile::detail::typeOf(t), v, toLoc(loc)));
}

Node *refuseFloatToInt(TypeCode t, Loc loc) {
  throw KernelError{toLoc(loc), "a floating-point number does not convert to " + ir::toString(twintile::detail::typeOf(t))};
}

namespace {
/// Where the last of the operands that an op made was made.
ir::Location madeAt(Node *a, Node *b) {
  ir::Location where;
  for (Node *n : {a, b})
    if (ir::Value *v = n ? val(n) : nullptr; v && v->def && v->def->kind != ir::OpKind::Constant) where = v->def->loc;
  return where;
}
} // namespace

Node *placed(Op op, Node *a, Node *b) {
  return node(recorder().binary(kindOf(op), val(a), val(b), madeAt(a, b), twintile::detail::spelling(op)));
}

Node *logical(Op op, Node *a, Node *b) {
  ir::Location where = madeAt(a, b);
  if (!b) return node(recorder().unary(kindOf(op), val(a), where, "!"));
  return node(recorder().binary(kindOf(op), val(a), val(b), where, op == Op::And ? "&&" : "||"));
}

Node *scalarOf(Node *tile, Loc loc) {
  ir::Location where = loc.file ? toLoc(loc) : madeAt(tile, nullptr);
  return node(twintile::Recorder::scalar(val(tile), where));
}

Kind kindOf(Node *n) { return static_cast<Kind>(val(n)->type.elem); }

void refuseNarrowIndex(Loc loc) {
  throw KernelError{toLoc(loc), std::string(twintile::kNarrowIndex)};
}

void refuse(const char *message, Loc loc) { throw KernelError{toLoc(loc), message}; }

int shapeOf(Node *x, int axis, Loc loc) { return static_cast<int>(recorder().shapeOf(val(x), axis, toLoc(loc))); }

int rankOf(Node *x, Loc loc) {
  return static_cast<int>(twintile::Recorder::use(val(x), toLoc(loc), "rank_of")->type.rank());
}

Node *constantFloat(double v, TypeCode t, Loc loc) {
  return node(recorder().constFloat(twintile::detail::typeOf(t), v, toLoc(loc)));
}

Node *binary(Op op, Node *a, Node *b, Loc loc) {
  return node(recorder().binary(kindOf(op), val(a), val(b), toLoc(loc), twintile::detail::spelling(op)));
}

Node *unary(Op op, Node *a, Loc loc) {
  return node(recorder().unary(kindOf(op), val(a), toLoc(loc), ir::opInfo(kindOf(op)).name));
}

Node *reduce(Op op, Node *a, int axis, bool keepDims, Loc loc) {
  if (axis == kAllAxes) axis = twintile::Recorder::kAllAxes;
  return node(recorder().reduce(kindOf(op), val(a), axis, toLoc(loc), keepDims));
}
Node *addptr(Node *p, Node *offset, Loc loc) { return node(recorder().addptr(val(p), val(offset), toLoc(loc))); }
Node *subptr(Node *p, Node *offset, Loc loc) { return node(recorder().subptr(val(p), val(offset), toLoc(loc))); }
Node *select(Node *c, Node *a, Node *b, Loc loc) { return node(recorder().select(val(c), val(a), val(b), toLoc(loc))); }
Node *fma(Node *a, Node *b, Node *c, Loc loc) { return node(recorder().fma(val(a), val(b), val(c), toLoc(loc))); }
Node *cast(Node *a, Kind to, Loc loc) {  // no position (a widening assignment): where `a` was made
  return node(recorder().cast(val(a), kindOf(to), loc.file ? toLoc(loc) : madeAt(a, nullptr)));
}
Node *bitcast(Node *a, Kind to, Loc loc) { return node(recorder().bitcast(val(a), kindOf(to), toLoc(loc))); }
Node *hint(bool contiguity, Node *a, const int *values, int n, Loc loc) {
  return node(recorder().hint(contiguity ? ir::OpKind::MaxContiguous : ir::OpKind::MultipleOf, val(a),
                              std::vector<int64_t>(values, values + n), toLoc(loc)));
}
Node *programId(int axis, Loc loc) { return node(recorder().programId(axis, toLoc(loc))); }
Node *numPrograms(int axis, Loc loc) { return node(recorder().numPrograms(axis, toLoc(loc))); }
Node *arange(int start, int end, Loc loc) { return node(recorder().arange(start, end, toLoc(loc))); }

Node *full(const int *shape, int rank, Node *value, Loc loc) {
  return node(recorder().full(std::vector<int64_t>(shape, shape + rank), val(value), toLoc(loc)));
}
Node *expandDims(Node *a, int axis, Loc loc) { return node(recorder().expandDims(val(a), axis, toLoc(loc))); }
Node *broadcastTo(Node *a, const int *shape, int rank, Loc loc) {
  return node(recorder().broadcastTo(val(a), std::vector<int64_t>(shape, shape + rank), toLoc(loc)));
}
Node *reshape(Node *a, const int *shape, int rank, Loc loc) {
  return node(recorder().reshape(val(a), std::vector<int64_t>(shape, shape + rank), toLoc(loc)));
}
Node *trans(Node *a, const int *perm, int rank, Loc loc) {
  return node(recorder().trans(val(a), std::vector<int64_t>(perm, perm + rank), toLoc(loc)));
}
Node *load(Node *ptr, Node *mask, Node *other, int cache, int evict, Loc loc) {
  return node(recorder().load(val(ptr), val(mask), val(other), toLoc(loc), cache, evict));
}
void store(Node *ptr, Node *value, Node *mask, int cache, int evict, Loc loc) {
  recorder().store(val(ptr), val(value), val(mask), toLoc(loc), cache, evict);
}
namespace {
twintile::Recorder::Descriptor descriptorOf(Node *base, Node *const *shape, Node *const *strides, const int *block, int rank,
                                  const ir::Location &at) {
  std::vector<ir::Value *> sizes, steps;
  for (int d = 0; d < rank; ++d) sizes.push_back(val(shape[d])), steps.push_back(val(strides[d]));
  return recorder().descriptor(val(base), sizes, steps, std::vector<int64_t>(block, block + rank), at);
}
} // namespace
void descriptorMade(Node *base, Node *const *shape, Node *const *strides, const int *block, int rank, Loc loc) {
  descriptorOf(base, shape, strides, block, rank, toLoc(loc));
}
Node *descriptorAccess(Node *base, Node *const *shape, Node *const *strides, const int *block, int rank,
                       Node *const *offsets, Node *value, Loc loc) {
  ir::Location at = toLoc(loc);
  std::vector<ir::Value *> offs;
  for (int d = 0; d < rank; ++d) offs.push_back(val(offsets[d]));
  return node(recorder().descriptorAccess(descriptorOf(base, shape, strides, block, rank, at), offs, val(value), at));
}
Node *atomic(Op op, Node *ptr, Node *cmp, Node *value, Node *mask, int sem, int scope, Loc loc) {
  return node(recorder().atomic(kindOf(op), val(ptr), val(cmp), val(value), val(mask), sem, scope, toLoc(loc)));
}
Node *dot(Node *a, Node *b, Node *acc, int precision, Loc loc) {
  return node(recorder().dot(val(a), val(b), val(acc), precision, toLoc(loc)));
}

void print(const char *prefix, Node *const *values, int n, Loc loc) {
  std::vector<ir::Value *> vs;
  for (int i = 0; i < n; ++i) vs.push_back(val(values[i]));
  recorder().print(prefix ? prefix : "", vs, toLoc(loc));
}

void assertTrue(Node *cond, const char *msg, Loc loc) { recorder().assertTrue(val(cond), msg ? msg : "", toLoc(loc)); }
void barrier(Loc loc) { recorder().barrier(toLoc(loc)); }
void options(int numWarps, int numStages, Loc loc) { recorder().options(numWarps, numStages, toLoc(loc)); }

Node *present(Node *n, Loc loc) {
  twintile::Recorder::use(val(n), toLoc(loc), "a mask or `other`");
  return n;
}

void nativeControlFlow(Node *cond) {
  ir::Location where;
  if (ir::Value *c = val(cond); c && c->def) where = c->def->loc;
  throw KernelError{where, "a device value is used as a C++ condition (native control flow: `if`, "
                           "`for`, `while`, `?:`, `&&` or `||` on a device value), which tracing "
                           "cannot see; write it with tt::if_else(cond, then, else), "
                           "tt::for_range(lo, hi, step, carried..., body) (its bounds read once) or "
                           "tt::while_loop(cond, body, carried...) (its condition read every iteration); a "
                           "`break`, `continue` or `return` under it becomes a carried flag"};
}

//===-- Regions -----------------------------------------------------------===//

namespace {

Region *open(ir::Op *op, ir::Location loc) {
  auto &st = twintile::detail::state();
  st.regions.push_back(std::make_unique<Region>());
  Region *r = st.regions.back().get();
  r->op = op;
  r->loc = std::move(loc);
  st.recorder.pushBlock(op->region(0));
  return r;
}

std::vector<ir::Value *> values(Node *const *nodes, int n) {
  std::vector<ir::Value *> vs;
  for (int i = 0; i < n; ++i) vs.push_back(val(nodes[i]));
  return vs;
}

} // namespace

Region *forBegin(Node *lo, Node *hi, Node *step, Node *const *inits, int n, Loc loc) {
  ir::Location l = toLoc(loc);
  return open(recorder().beginFor(val(lo), val(hi), val(step), values(inits, n), l), l);
}

Region *ifBegin(Node *cond, Loc loc) {
  ir::Location l = toLoc(loc);
  ir::Value *c = val(cond);
  if (c && !(c->type == ir::Type::scalar(ir::ScalarKind::I1)))
    twintile::Recorder::fail(l, "if_else needs a scalar i1 condition, got " + ir::toString(c->type));
  return open(recorder().beginIf(c, l), l);
}

Region *whileBegin(Node *const *inits, int n) { return open(recorder().beginWhile(values(inits, n), {}), {}); }

Node *regionArg(Region *r, int i) { return node(r->op->region(r->current).arg(i)); }

void regionYield(Region *r, Node *const *nodes, int n, Loc loc) {
  ir::Location where = loc.file ? toLoc(loc) : r->loc;
  std::vector<ir::Value *> vs = values(nodes, n);
  ir::Op *op = r->op;
  const char *what = "if_else branches";
  if (op->kind == ir::OpKind::For) what = "the for_range body";
  if (op->kind == ir::OpKind::Reduce || op->kind == ir::OpKind::Scan) what = "the combine function";
  if (op->kind == ir::OpKind::While) {
    what = r->current == 0 ? "the while_loop condition" : "the while_loop body";
    // while_loop cannot record where it is called: its condition's location stands in.
    if (r->current == 0 && n == 1 && vs[0] && vs[0]->def && !r->loc.known()) r->loc = op->loc = vs[0]->def->loc;
    if (!where.known()) where = r->loc;
  }
  recorder().yield(op, r->current, vs, where, what);
  recorder().popBlock();
}

void elseBegin(Region *r) {
  r->current = 1;
  recorder().pushBlock(r->op->region(1));
}

void whileBody(Region *r) { elseBegin(r); }

Region *combineBegin(bool scan, Node *const *xs, int n, int axis, Loc loc) {
  ir::Location l = toLoc(loc);
  if (axis == kAllAxes) axis = twintile::Recorder::kAllAxes;
  return open(recorder().beginCombine(scan ? ir::OpKind::Scan : ir::OpKind::Reduce, values(xs, n), axis, l), l);
}

void combineEnd(Region *r, bool keepDims, Loc loc, Node **out) {
  std::vector<ir::Value *> vs = recorder().endCombine(r->op, keepDims, toLoc(loc));
  for (size_t i = 0; i < vs.size(); ++i) out[i] = node(vs[i]);
}

void regionEnd(Region *) {}

Node *regionResult(Region *r, int i) { return node(r->op->result(i)); }

} // namespace tt::detail
