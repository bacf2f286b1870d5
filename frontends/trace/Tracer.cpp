//===- Tracer.cpp - abstract device values that record tile IR -----------===//
//
// Defines the tt::detail entry points that twintile.h declares. Each one
// turns its operands into IR values and records its op through the shared
// Recorder (frontends/common), at the user's call site; errors (shapes that
// do not broadcast, a bad axis, a type the op does not take, native control
// flow) are KernelErrors that the session turns into located diagnostics.
//===----------------------------------------------------------------------===//
#include "frontends/trace/Trace.h"

#include "frontends/common/Recorder.h"
#include "frontends/trace/Entry.h"
#include "frontends/trace/Isolate.h"

#include <algorithm>
#include <cstdio>
#include <unordered_set>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <optional>
#include <cassert>
#include <cctype>

// The language's tracing half (tt::detail) records into the compiler's IR.
namespace ir = twintile::ir;

namespace tt::detail {

/// A combinator's op being built, and which of its regions is open.
struct Region {
  ir::Op *op = nullptr;
  int current = 0;
  ir::Location loc;
};

} // namespace tt::detail

namespace twintile::detail {

using tt::detail::Loc;
using tt::detail::Node;

struct Session::State {
  std::unique_ptr<ir::Func> func = std::make_unique<ir::Func>();
  Recorder recorder{*func};
  std::vector<std::unique_ptr<tt::detail::Region>> regions;
  TraceOptions opts;
  size_t metaIndex = 0;
  State *outer = nullptr;  // a trace started while another runs (nested)
  /// Every value this trace handed the kernel (node()): what the kernel may
  /// hand back (val()).
  std::unordered_set<const void *> made;
};

namespace {

thread_local Session::State *current = nullptr;

Session::State &state() {
  if (!current)
    throw KernelError{{}, "a device operation ran outside a trace (call the kernel through twintile::trace)"};
  return *current;
}

Recorder &recorder() { return state().recorder; }

/// The isolated tracer's shared record of where the trace is (Isolate.h).
TraceProgress *progress = nullptr;
/// The last operation's location on this thread: where an exception from
/// the kernel's host code is reported.
thread_local Loc lastLoc{};

ir::Location toLoc(Loc l) {
  if (!l.file || l.line == 0) return {};
  lastLoc = l;
  if (progress) {
    progress->line = static_cast<int>(l.line);
    progress->col = static_cast<int>(l.col);
    std::snprintf(progress->file, sizeof progress->file, "%s", l.file);
  }
  return ir::Location(l.file, static_cast<int>(l.line), static_cast<int>(l.col));
}

/// The type of the exception being handled, demangled ("int", "std::string").
std::string currentExceptionType() {
  std::type_info *t = abi::__cxa_current_exception_type();
  if (!t) return "unknown";
  int status = 0;
  char *name = abi::__cxa_demangle(t->name(), nullptr, nullptr, &status);
  std::string out = status == 0 && name ? name : t->name();
  std::free(name);
  return out;
}

Node *node(ir::Value *v) {
  if (v && current) current->made.insert(v);
  return reinterpret_cast<Node *>(v);
}

/// The value behind a node the kernel handed back, which must be one this
/// trace made: a tile read out of a container's bounds, or from an object
/// never initialized or already destroyed, holds garbage, and the tracer
/// would fault on it in its own code - the kernel's doing, said as such.
ir::Value *val(Node *n) {
  if (n && current && !current->made.count(n)) {
    ir::Location at = lastLoc.file ? ir::Location(lastLoc.file, static_cast<int>(lastLoc.line), static_cast<int>(lastLoc.col))
                                   : ir::Location();
    throw KernelError{at, "a device value that this trace never made reached an operation: the kernel's host code "
                          "read it from memory that holds no traced value (a container read past its end, an "
                          "object never initialized or already destroyed); the last operation traced is here"};
  }
  return reinterpret_cast<ir::Value *>(n);
}

// The language's kinds are the IR's, in its order.
static_assert(static_cast<int>(tt::detail::Kind::U64) == static_cast<int>(ir::ScalarKind::U64) &&
              static_cast<int>(tt::detail::Kind::F64) == static_cast<int>(ir::ScalarKind::F64) &&
              static_cast<int>(tt::detail::Kind::Ptr) == static_cast<int>(ir::ScalarKind::Ptr));
ir::ScalarKind kindOf(tt::detail::Kind k) { return static_cast<ir::ScalarKind>(k); }

ir::Type typeOf(tt::detail::TypeCode t) {
  return t.kind == tt::detail::Kind::Ptr ? ir::Type::ptr(kindOf(t.pointee)) : ir::Type::scalar(kindOf(t.kind));
}

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

ir::OpKind kindOf(tt::detail::Op op) { return kIrKinds[static_cast<size_t>(op)]; }

/// How the user wrote `op`, for messages ("+", "minimum").
std::string spelling(tt::detail::Op op) { return std::string(ir::surfaceOf(kindOf(op))); }

} // namespace

//===-- Sessions ----------------------------------------------------------===//

namespace {

/// Integer arithmetic over literals in a template argument ("32+32", "(1<<4)" is
/// not: + - * / % and parentheses only), as the parsing front end sees its value.
class IntExpr {
public:
  explicit IntExpr(const std::string &t) : t_(t) {}
  std::optional<long long> value() {
    std::optional<long long> v = sum();
    return v && i_ == t_.size() ? v : std::nullopt;
  }

private:
  std::optional<long long> sum() {
    std::optional<long long> v = product();
    while (v && i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) {
      char op = t_[i_++];
      std::optional<long long> r = product();
      if (!r) return std::nullopt;
      v = op == '+' ? *v + *r : *v - *r;
    }
    return v;
  }
  std::optional<long long> product() {
    std::optional<long long> v = unary();
    while (v && i_ < t_.size() && (t_[i_] == '*' || t_[i_] == '/' || t_[i_] == '%')) {
      char op = t_[i_++];
      std::optional<long long> r = unary();
      if (!r || (op != '*' && *r == 0)) return std::nullopt;
      v = op == '*' ? *v * *r : op == '/' ? *v / *r : *v % *r;
    }
    return v;
  }
  std::optional<long long> unary() {
    if (i_ < t_.size() && (t_[i_] == '-' || t_[i_] == '+')) {
      char op = t_[i_++];
      std::optional<long long> v = unary();
      return v && op == '-' ? std::optional<long long>(-*v) : v;
    }
    if (i_ < t_.size() && t_[i_] == '(') {
      ++i_;
      std::optional<long long> v = sum();
      if (!v || i_ >= t_.size() || t_[i_] != ')') return std::nullopt;
      ++i_;
      return v;
    }
    size_t start = i_;
    while (i_ < t_.size() && std::isalnum(static_cast<unsigned char>(t_[i_]))) ++i_;
    if (start == i_) return std::nullopt;
    try {
      size_t used = 0;
      long long v = std::stoll(t_.substr(start, i_ - start), &used, 0);
      return used == i_ - start ? std::optional<long long>(v) : std::nullopt;
    } catch (const std::exception &) {
      return std::nullopt;
    }
  }
  const std::string &t_;
  size_t i_ = 0;
};

/// A template argument's text as the meta attribute the parsing front end
/// records from the instantiation: integers (and integer arithmetic) by value,
/// bools as 0/1, floats as doubles (an f suffix rounds to float first), anything
/// else, types included, as written.
ir::Attr metaValue(std::string text) {
  text.erase(std::remove_if(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); }), text.end());
  if (text == "true") return ir::Attr::integer(1);
  if (text == "false") return ir::Attr::integer(0);
  if (std::optional<long long> v = IntExpr(text).value()) return ir::Attr::integer(*v);
  try {
    size_t used = 0;
    double d = std::stod(text, &used);
    if (used == text.size()) return ir::Attr::floating(d);
    if (used + 1 == text.size() && (text.back() == 'f' || text.back() == 'F'))
      return ir::Attr::floating(static_cast<float>(d));
  } catch (const std::exception &) {
  }
  return ir::Attr::string(text);
}

/// Splits "name<a, b<c>>" into "name" and its top-level template arguments.
std::pair<std::string, std::vector<std::string>> splitSpec(const std::string &spec) {
  size_t open = spec.find('<');
  std::string name = spec.substr(0, open);
  name.erase(std::remove_if(name.begin(), name.end(), [](unsigned char c) { return std::isspace(c); }), name.end());
  // A kernel in a namespace is named as the parser names it: unqualified.
  if (size_t colons = name.rfind("::"); colons != std::string::npos) name = name.substr(colons + 2);
  std::vector<std::string> args;
  if (open == std::string::npos) return {name, args};
  size_t close = spec.rfind('>');
  if (close == std::string::npos || close < open) return {name, args};
  int depth = 0;
  std::string cur;
  for (size_t i = open + 1; i < close; ++i) {
    char c = spec[i];
    if (c == '<' || c == '(') ++depth;
    if (c == '>' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      args.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!cur.empty()) args.push_back(cur);
  return {name, args};
}

std::string metaKey(const TraceOptions &opts, size_t i) {
  return i < opts.metaNames.size() ? opts.metaNames[i] : "arg" + std::to_string(i);
}

} // namespace

Session::Session(const std::string &spec, TraceOptions opts) : state_(std::make_unique<State>()) {
  auto [name, args] = splitSpec(spec);
  state_->func->name = name;
  state_->func->numWarps = opts.numWarps;
  state_->opts = std::move(opts);
  if (state_->opts.meta) {
    state_->func->meta = *state_->opts.meta;
    state_->metaIndex = state_->func->meta.size();
  } else {
    for (std::string &a : args) state_->func->meta.emplace_back(metaKey(state_->opts, state_->metaIndex++), metaValue(a));
  }
  state_->outer = current;
  current = state_.get();
  lastLoc = {};
}

Session::~Session() { current = state_->outer; }

Node *Session::deviceParam(tt::detail::TypeCode t) {
  ir::Type ty = typeOf(t);
  if (t.tile) ty.shape = {1};  // refused in finish(): tiles are not parameters
  return node(state_->recorder.param(ty));
}

void Session::hostParam(long long v) {
  state_->func->meta.emplace_back(metaKey(state_->opts, state_->metaIndex++), ir::Attr::integer(v));
}

void Session::hostParam(double v) {
  state_->func->meta.emplace_back(metaKey(state_->opts, state_->metaIndex++), ir::Attr::floating(v));
}

TraceResult Session::finish(std::exception_ptr failure, double seconds) {
  TraceResult r;
  r.seconds = seconds;
  try {
    if (failure) std::rethrow_exception(failure);
    for (auto &a : state_->func->body.args)
      if (a->type.isTile())
        throw KernelError{{}, "kernel parameters are scalars and pointers; a Tile parameter cannot be passed"};
    state_->recorder.finish();
    r.func = std::move(state_->func);
  } catch (const KernelError &e) {
    r.error = ir::Diagnostic{e.loc, e.message};
  } catch (const ir::InternalError &e) {
    r.error = e.diag();
  } catch (const std::exception &e) {
    // Located at the last operation traced: the throw site is not known.
    ir::Location where = toLoc(lastLoc);
    r.error = ir::Diagnostic{where, std::string("the kernel's host code threw ") + currentExceptionType() + ": " +
                                        e.what() + (where.known() ? " (after the operation here)" : " before tracing any operation")};
  } catch (...) {
    ir::Location where = toLoc(lastLoc);
    r.error = ir::Diagnostic{where, "the kernel's host code threw an exception of type '" + currentExceptionType() + "'" +
                                        (where.known() ? " (after the operation here)" : " before tracing any operation")};
  }
  return r;
}

//===-- The registry ------------------------------------------------------===//

std::vector<RegisteredKernel> &registryStorage() {
  static std::vector<RegisteredKernel> kernels;
  return kernels;
}

} // namespace twintile::detail

namespace twintile {

void setTraceProgress(TraceProgress *p) { detail::progress = p; }

std::vector<RegisteredKernel> &registry() { return detail::registryStorage(); }

bool registerKernel(std::string spec, std::function<TraceResult(const TraceOptions &)> fn) {
  registry().push_back({std::move(spec), std::move(fn)});
  return true;
}

const RegisteredKernel *findRegistered(const std::string &spec) {
  auto squash = [](std::string s) {
    s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
    return s;
  };
  std::string want = squash(spec);
  for (const RegisteredKernel &k : registry())
    if (squash(k.spec) == want) return &k;
  return nullptr;
}

} // namespace twintile

//===-- The entry of a kernel compiled as a shared object ------------------===//

namespace twintile::entry {

struct Session {
  Session(const char *spec, const TraceOptions &opts) : session(spec, opts) {}
  detail::Session session;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

Session *begin(const void *options, const char *spec) {
  return new Session(spec, *static_cast<const TraceOptions *>(options));
}

tt::detail::Node *deviceParam(Session *s, tt::detail::TypeCode t) { return s->session.deviceParam(t); }

void checkLanguage(const char *opTable) {
  if (std::strcmp(opTable, tt::detail::kOpTable) != 0)
    throw KernelError{{}, "the language header the kernel was compiled with (include/twintile/ops.def) lists other "
                          "operations than this twintile program was built with, so its calls would record the "
                          "wrong ops: rebuild twintile (scripts/build), or use the header installed with it"};
}

void end(Session *s, void *result, bool failed) {
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s->start).count();
  *static_cast<TraceResult *>(result) = s->session.finish(failed ? std::current_exception() : nullptr, seconds);
  delete s;
}

} // namespace twintile::entry

//===-- The language's entry points ---------------------------------------===//

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
