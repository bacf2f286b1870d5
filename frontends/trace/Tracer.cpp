//===- Tracer.cpp - abstract device values that record tile IR -----------===//
//
// Defines the tt::detail entry points that twintile.h declares: each one
// turns its operands into IR values, broadcasts them as NumPy does, and
// records one op through the IR builder at the user's call site. Errors
// (shapes that do not broadcast, a bad axis, a type the op does not take,
// native control flow) throw a TraceStop that the session turns into a
// located diagnostic.
//===----------------------------------------------------------------------===//
#include "frontends/trace/Trace.h"

#include "frontends/trace/Entry.h"

#include "ir/Builder.h"
#include "ir/Verifier.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <mutex>

namespace tt::detail {

/// A combinator's op being built: which region is open, and the types it
/// must yield.
struct Region {
  ir::Op *op = nullptr;
  int current = 0;                      // the open region's index
  std::vector<ir::Type> thenTypes;      // for `if`: what the then region yielded
  ir::Location loc;
};

} // namespace tt::detail

namespace twintile::detail {

using tt::detail::Loc;
using tt::detail::Node;
namespace ir = tt::ir;

namespace {

struct TraceStop {
  ir::Location loc;
  std::string message;
};

} // namespace

struct Session::State {
  std::unique_ptr<ir::Func> func = std::make_unique<ir::Func>();
  std::vector<ir::Builder> builders;  // innermost region last
  std::vector<std::unique_ptr<tt::detail::Region>> regions;
  TraceOptions opts;
  size_t metaIndex = 0;
  State *outer = nullptr;  // a trace started while another runs (nested)
};

namespace {

thread_local Session::State *current = nullptr;

Session::State &state() {
  if (!current)
    throw TraceStop{{}, "a device operation ran outside a trace (call the kernel through twintile::trace)"};
  return *current;
}

ir::Builder &builder() { return state().builders.back(); }

ir::Location toLoc(Loc l) {
  if (!l.file || l.line == 0) return {};
  return ir::Location(l.file, static_cast<int>(l.line), static_cast<int>(l.col));
}

[[noreturn]] void stop(Loc l, std::string msg) { throw TraceStop{toLoc(l), std::move(msg)}; }

ir::Value *val(Node *n, Loc l, const char *what) {
  if (!n) stop(l, std::string(what) + " uses a device value that was never assigned");
  return reinterpret_cast<ir::Value *>(n);
}
Node *node(ir::Value *v) { return reinterpret_cast<Node *>(v); }

ir::ScalarKind kindOf(tt::detail::Kind k) { return static_cast<ir::ScalarKind>(k); }

ir::Type typeOf(tt::detail::TypeCode t) {
  ir::Type ty = t.kind == tt::detail::Kind::Ptr ? ir::Type::ptr(kindOf(t.pointee))
                                                  : ir::Type::scalar(kindOf(t.kind));
  return ty;
}

/// Runs a builder call at `l`, turning a typing error into a located stop.
template <class F> auto at(Loc l, F &&f) {
  ir::Builder &b = builder();
  b.setLoc(toLoc(l));
  try {
    return f(b);
  } catch (const ir::BuildError &e) {
    throw TraceStop{toLoc(l), e.what()};
  }
}

std::string spelling(tt::detail::Op op) {
  using tt::detail::Op;
  switch (op) {
  case Op::Add: return "+"; case Op::Sub: return "-"; case Op::Mul: return "*";
  case Op::Div: return "/"; case Op::Rem: return "%"; case Op::And: return "&";
  case Op::Or: return "|"; case Op::Xor: return "^"; case Op::Shl: return "<<";
  case Op::Shr: return ">>"; case Op::Eq: return "=="; case Op::Ne: return "!=";
  case Op::Lt: return "<"; case Op::Le: return "<="; case Op::Gt: return ">";
  case Op::Ge: return ">="; case Op::Minimum: return "minimum"; case Op::Maximum: return "maximum";
  default: return std::string(ir::opInfo(ir::OpKind::Add).name);
  }
}

ir::OpKind kindOf(tt::detail::Op op) {
  using tt::detail::Op;
  switch (op) {
  case Op::Add: return ir::OpKind::Add;
  case Op::Sub: return ir::OpKind::Sub;
  case Op::Mul: return ir::OpKind::Mul;
  case Op::Div: return ir::OpKind::Div;
  case Op::Rem: return ir::OpKind::Rem;
  case Op::And: return ir::OpKind::And;
  case Op::Or: return ir::OpKind::Or;
  case Op::Xor: return ir::OpKind::Xor;
  case Op::Shl: return ir::OpKind::Shl;
  case Op::Shr: return ir::OpKind::Shr;
  case Op::Minimum: return ir::OpKind::Minimum;
  case Op::Maximum: return ir::OpKind::Maximum;
  case Op::Eq: return ir::OpKind::Eq;
  case Op::Ne: return ir::OpKind::Ne;
  case Op::Lt: return ir::OpKind::Lt;
  case Op::Le: return ir::OpKind::Le;
  case Op::Gt: return ir::OpKind::Gt;
  case Op::Ge: return ir::OpKind::Ge;
  case Op::Neg: return ir::OpKind::Neg;
  case Op::Not: return ir::OpKind::Not;
  case Op::Abs: return ir::OpKind::Abs;
  case Op::Exp: return ir::OpKind::Exp;
  case Op::Exp2: return ir::OpKind::Exp2;
  case Op::Log: return ir::OpKind::Log;
  case Op::Log2: return ir::OpKind::Log2;
  case Op::Sqrt: return ir::OpKind::Sqrt;
  case Op::Rsqrt: return ir::OpKind::Rsqrt;
  case Op::Sin: return ir::OpKind::Sin;
  case Op::Cos: return ir::OpKind::Cos;
  case Op::Tanh: return ir::OpKind::Tanh;
  case Op::Sigmoid: return ir::OpKind::Sigmoid;
  case Op::Sum: return ir::OpKind::Sum;
  case Op::Max: return ir::OpKind::Max;
  case Op::Min: return ir::OpKind::Min;
  case Op::Argmax: return ir::OpKind::Argmax;
  case Op::Argmin: return ir::OpKind::Argmin;
  case Op::Cumsum: return ir::OpKind::Cumsum;
  }
  assert(false && "unknown language op");
  return ir::OpKind::Add;
}

//===-- Broadcasting ------------------------------------------------------===//

/// The NumPy broadcast of two shapes, or nothing.
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

std::string shapeText(const ir::Shape &s) { return s.empty() ? "a scalar" : "[" + ir::shapeString(s) + "]"; }

/// `v` broadcast to `shape` (which it is known to broadcast to).
ir::Value *broadcastTo(ir::Builder &b, ir::Value *v, const ir::Shape &shape) {
  const ir::Shape &s = v->type.shape;
  if (s == shape) return v;
  if (s.empty()) return b.splat(v, shape);
  while (v->type.shape.size() < shape.size()) v = b.expandDims(v, 0);
  if (v->type.shape != shape) v = b.broadcast(v, shape);
  return v;
}

/// Broadcasts every value to their common shape.
std::vector<ir::Value *> broadcastAll(ir::Builder &b, std::vector<ir::Value *> vs, Loc l,
                                      const std::string &what) {
  ir::Shape shape;
  for (ir::Value *v : vs) {
    auto s = broadcastShapes(shape, v->type.shape);
    if (!s) {
      std::string shapes;
      for (size_t i = 0; i < vs.size(); ++i) shapes += (i ? " and " : "") + shapeText(vs[i]->type.shape);
      stop(l, "shapes " + shapes + " cannot be broadcast together in '" + what + "'");
    }
    shape = *s;
  }
  for (ir::Value *&v : vs) v = broadcastTo(b, v, shape);
  return vs;
}

ir::Shape shapeOf(const int *shape, int rank, Loc l) {
  ir::Shape s;
  for (int i = 0; i < rank; ++i) {
    if (shape[i] <= 0) stop(l, "tile dimensions must be positive, got " + std::to_string(shape[i]));
    s.push_back(shape[i]);
  }
  return s;
}

} // namespace

//===-- Sessions ----------------------------------------------------------===//

namespace {

ir::Attr metaValue(std::string text) {
  text.erase(std::remove_if(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); }), text.end());
  if (text == "true") return ir::Attr::integer(1);
  if (text == "false") return ir::Attr::integer(0);
  try {
    size_t used = 0;
    long long v = std::stoll(text, &used, 0);
    if (used == text.size()) return ir::Attr::integer(v);
    double d = std::stod(text, &used);
    if (used == text.size() || (used + 1 == text.size() && (text.back() == 'f' || text.back() == 'F')))
      return ir::Attr::floating(d);
  } catch (const std::exception &) {
  }
  return ir::Attr::string(text);
}

/// Splits "name<a, b<c>>" into "name" and its top-level template arguments.
std::pair<std::string, std::vector<std::string>> splitSpec(const std::string &spec) {
  size_t open = spec.find('<');
  std::string name = spec.substr(0, open);
  name.erase(std::remove_if(name.begin(), name.end(), [](unsigned char c) { return std::isspace(c); }), name.end());
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

} // namespace

Session::Session(const std::string &spec, TraceOptions opts) : state_(std::make_unique<State>()) {
  auto [name, args] = splitSpec(spec);
  state_->func->name = name;
  state_->func->numWarps = opts.numWarps;
  state_->opts = std::move(opts);
  for (std::string &a : args) {
    size_t i = state_->metaIndex++;
    std::string key = i < state_->opts.metaNames.size() ? state_->opts.metaNames[i] : "arg" + std::to_string(i);
    state_->func->meta.emplace_back(key, metaValue(a));
  }
  state_->builders.emplace_back(state_->func->body);
  state_->outer = current;
  current = state_.get();
}

Session::~Session() { current = state_->outer; }

Node *Session::deviceParam(tt::detail::TypeCode t) {
  ir::Type ty = typeOf(t);
  if (t.tile) ty.shape = {1};  // refused in finish(): tiles are not parameters
  return node(state_->func->body.addArg(ty));
}

void Session::hostParam(long long v) {
  size_t i = state_->metaIndex++;
  std::string key = i < state_->opts.metaNames.size() ? state_->opts.metaNames[i] : "arg" + std::to_string(i);
  state_->func->meta.emplace_back(key, ir::Attr::integer(v));
}

void Session::hostParam(double v) {
  size_t i = state_->metaIndex++;
  std::string key = i < state_->opts.metaNames.size() ? state_->opts.metaNames[i] : "arg" + std::to_string(i);
  state_->func->meta.emplace_back(key, ir::Attr::floating(v));
}

TraceResult Session::finish(std::exception_ptr failure, double seconds) {
  TraceResult r;
  r.seconds = seconds;
  try {
    if (failure) std::rethrow_exception(failure);
    for (auto &a : state_->func->body.args)
      if (a->type.isTile())
        throw TraceStop{{}, "kernel parameters are scalars and pointers; a Tile parameter cannot be passed"};
    state_->builders.front().setLoc({});
    state_->builders.front().ret();
    std::vector<ir::Diagnostic> diags = ir::verify(*state_->func);
    if (!diags.empty()) {
      // The tracer built invalid IR: a bug here, reported rather than hidden.
      r.error = ir::Diagnostic{diags[0].loc, "internal error: the trace does not verify: " + diags[0].message};
      return r;
    }
    r.func = std::move(state_->func);
  } catch (const TraceStop &s) {
    r.error = ir::Diagnostic{s.loc, s.message};
  } catch (const ir::BuildError &e) {
    r.error = ir::Diagnostic{e.loc, e.what()};
  } catch (const std::exception &e) {
    r.error = ir::Diagnostic{{}, std::string("the kernel threw: ") + e.what()};
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

void end(Session *s, void *result, bool failed) {
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s->start).count();
  *static_cast<TraceResult *>(result) = s->session.finish(failed ? std::current_exception() : nullptr, seconds);
  delete s;
}

} // namespace twintile::entry

//===-- The language's entry points ---------------------------------------===//

namespace tt::detail {

using twintile::detail::TraceStop;
namespace ir = tt::ir;

namespace {
using twintile::detail::at;
using twintile::detail::broadcastAll;
using twintile::detail::builder;
using twintile::detail::node;
using twintile::detail::stop;
using twintile::detail::toLoc;
using twintile::detail::val;
} // namespace

Node *constantInt(long long v, TypeCode t, Loc loc) {
  ir::Type ty = twintile::detail::typeOf(t);
  return node(at(loc, [&](ir::Builder &b) { return b.constInt(ty, v); }));
}

Node *constantFloat(double v, TypeCode t, Loc loc) {
  ir::Type ty = twintile::detail::typeOf(t);
  return node(at(loc, [&](ir::Builder &b) { return b.constFloat(ty, v); }));
}

Node *binary(Op op, Node *a, Node *b, Loc loc) {
  std::string what = twintile::detail::spelling(op);
  ir::Value *x = val(a, loc, what.c_str()), *y = val(b, loc, what.c_str());
  return node(at(loc, [&](ir::Builder &bd) {
    auto vs = broadcastAll(bd, {x, y}, loc, what);
    return bd.binary(twintile::detail::kindOf(op), vs[0], vs[1]);
  }));
}

Node *unary(Op op, Node *a, Loc loc) {
  ir::Value *x = val(a, loc, "an elementwise function");
  return node(at(loc, [&](ir::Builder &b) { return b.unary(twintile::detail::kindOf(op), x); }));
}

Node *reduce(Op op, Node *a, int axis, Loc loc) {
  ir::Value *x = val(a, loc, "a reduction");
  if (axis < 0) axis += static_cast<int>(x->type.rank());  // Python-style negative axes
  return node(at(loc, [&](ir::Builder &b) { return b.reduce(twintile::detail::kindOf(op), x, axis); }));
}

Node *addptr(Node *p, Node *offset, Loc loc) {
  ir::Value *x = val(p, loc, "'+'"), *k = val(offset, loc, "'+'");
  return node(at(loc, [&](ir::Builder &b) {
    auto vs = broadcastAll(b, {x, k}, loc, "+");
    return b.addptr(vs[0], vs[1]);
  }));
}

Node *select(Node *c, Node *a, Node *b, Loc loc) {
  ir::Value *x = val(c, loc, "where"), *y = val(a, loc, "where"), *z = val(b, loc, "where");
  return node(at(loc, [&](ir::Builder &bd) {
    auto vs = broadcastAll(bd, {x, y, z}, loc, "where");
    return bd.select(vs[0], vs[1], vs[2]);
  }));
}

Node *fma(Node *a, Node *b, Node *c, Loc loc) {
  ir::Value *x = val(a, loc, "fma"), *y = val(b, loc, "fma"), *z = val(c, loc, "fma");
  return node(at(loc, [&](ir::Builder &bd) {
    auto vs = broadcastAll(bd, {x, y, z}, loc, "fma");
    return bd.value(ir::OpKind::Fma, {vs[0], vs[1], vs[2]});
  }));
}

Node *cast(Node *a, Kind to, Loc loc) {
  ir::Value *x = val(a, loc, "cast");
  return node(at(loc, [&](ir::Builder &b) { return b.cast(x, twintile::detail::kindOf(to)); }));
}

Node *programId(int axis, Loc loc) {
  return node(at(loc, [&](ir::Builder &b) { return b.programId(axis); }));
}
Node *numPrograms(int axis, Loc loc) {
  return node(at(loc, [&](ir::Builder &b) { return b.numPrograms(axis); }));
}
Node *arange(int start, int end, Loc loc) {
  return node(at(loc, [&](ir::Builder &b) { return b.arange(start, end); }));
}

Node *full(const int *shape, int rank, Node *value, Loc loc) {
  ir::Shape s = twintile::detail::shapeOf(shape, rank, loc);
  ir::Value *v = val(value, loc, "full");
  return node(at(loc, [&](ir::Builder &b) { return b.splat(v, s); }));
}

Node *expandDims(Node *a, int axis, Loc loc) {
  ir::Value *x = val(a, loc, "expand_dims");
  if (axis < 0) axis += static_cast<int>(x->type.rank()) + 1;
  return node(at(loc, [&](ir::Builder &b) { return b.expandDims(x, axis); }));
}

Node *broadcastTo(Node *a, const int *shape, int rank, Loc loc) {
  ir::Value *x = val(a, loc, "broadcast_to");
  ir::Shape s = twintile::detail::shapeOf(shape, rank, loc);
  auto common = twintile::detail::broadcastShapes(x->type.shape, s);
  if (!common || *common != s)
    stop(loc, "cannot broadcast " + twintile::detail::shapeText(x->type.shape) + " to " +
                  twintile::detail::shapeText(s));
  return node(at(loc, [&](ir::Builder &b) { return twintile::detail::broadcastTo(b, x, s); }));
}

Node *reshape(Node *a, const int *shape, int rank, Loc loc) {
  ir::Value *x = val(a, loc, "reshape");
  ir::Shape s = twintile::detail::shapeOf(shape, rank, loc);
  return node(at(loc, [&](ir::Builder &b) { return b.reshape(x, s); }));
}

Node *trans(Node *a, const int *perm, int rank, Loc loc) {
  ir::Value *x = val(a, loc, "trans");
  return node(at(loc, [&](ir::Builder &b) { return b.trans(x, std::vector<int64_t>(perm, perm + rank)); }));
}

Node *load(Node *ptr, Node *mask, Node *other, Loc loc) {
  ir::Value *p = val(ptr, loc, "load");
  return node(at(loc, [&](ir::Builder &b) {
    std::vector<ir::Value *> vs{p};
    if (mask) vs.push_back(val(mask, loc, "load"));
    if (other) vs.push_back(val(other, loc, "load"));
    vs = broadcastAll(b, vs, loc, "load");
    return b.load(vs[0], mask ? vs[1] : nullptr, other ? vs[2] : nullptr);
  }));
}

void store(Node *ptr, Node *value, Node *mask, Loc loc) {
  ir::Value *p = val(ptr, loc, "store"), *v = val(value, loc, "store");
  at(loc, [&](ir::Builder &b) {
    std::vector<ir::Value *> vs{p, v};
    if (mask) vs.push_back(val(mask, loc, "store"));
    vs = broadcastAll(b, vs, loc, "store");
    b.store(vs[0], vs[1], mask ? vs[2] : nullptr);
    return 0;
  });
}

Node *atomicAdd(Node *ptr, Node *value, Node *mask, Loc loc) {
  ir::Value *p = val(ptr, loc, "atomic_add"), *v = val(value, loc, "atomic_add");
  return node(at(loc, [&](ir::Builder &b) {
    std::vector<ir::Value *> vs{p, v};
    if (mask) vs.push_back(val(mask, loc, "atomic_add"));
    vs = broadcastAll(b, vs, loc, "atomic_add");
    return b.atomicAdd(vs[0], vs[1], mask ? vs[2] : nullptr);
  }));
}

Node *dot(Node *a, Node *b, Node *acc, Loc loc) {
  ir::Value *x = val(a, loc, "dot"), *y = val(b, loc, "dot"), *z = val(acc, loc, "dot");
  return node(at(loc, [&](ir::Builder &bd) { return bd.dot(x, y, z); }));
}

void print(const char *prefix, Node *const *values, int n, Loc loc) {
  std::vector<ir::Value *> vs;
  for (int i = 0; i < n; ++i) vs.push_back(val(values[i], loc, "device_print"));
  at(loc, [&](ir::Builder &b) {
    b.print(prefix ? prefix : "", vs);
    return 0;
  });
}

void assertTrue(Node *cond, const char *msg, Loc loc) {
  ir::Value *c = val(cond, loc, "device_assert");
  at(loc, [&](ir::Builder &b) {
    b.assertTrue(c, msg ? msg : "");
    return 0;
  });
}

void nativeControlFlow(Node *cond) {
  ir::Location where;
  if (cond) {
    ir::Value *c = reinterpret_cast<ir::Value *>(cond);
    if (c->def) where = c->def->loc;
  }
  throw TraceStop{where, "a device value is used as a C++ condition (native control flow: `if`, "
                         "`for`, `while`, `?:`, `&&` or `||` on a device value), which tracing "
                         "cannot see; write it with tt::if_else(cond, then, else), "
                         "tt::for_range(lo, hi, step, carried..., body) or "
                         "tt::while_loop(cond, body, carried...)"};
}

//===-- Regions -----------------------------------------------------------===//

namespace {

std::string typeList(const std::vector<ir::Type> &ts) {
  std::string s = "(";
  for (size_t i = 0; i < ts.size(); ++i) s += (i ? ", " : "") + ir::toString(ts[i]);
  return s + ")";
}

Region *newRegion(ir::Op *op, ir::Location loc) {
  auto &st = twintile::detail::state();
  st.regions.push_back(std::make_unique<Region>());
  Region *r = st.regions.back().get();
  r->op = op;
  r->loc = std::move(loc);
  return r;
}

void open(Region *r, int index) {
  r->current = index;
  twintile::detail::state().builders.emplace_back(r->op->region(index));
}

} // namespace

Region *forBegin(Node *lo, Node *hi, Node *step, Node *const *inits, int n, Loc loc) {
  std::vector<ir::Value *> carried;
  for (int i = 0; i < n; ++i) carried.push_back(val(inits[i], loc, "for_range"));
  ir::Value *l = val(lo, loc, "for_range"), *h = val(hi, loc, "for_range"), *s = val(step, loc, "for_range");
  ir::Op *op = at(loc, [&](ir::Builder &b) {
    // Bounds of mixed widths meet in i64.
    bool wide = l->type.elem == ir::ScalarKind::I64 || h->type.elem == ir::ScalarKind::I64 ||
                s->type.elem == ir::ScalarKind::I64;
    auto widen = [&](ir::Value *v) { return wide && v->type.elem != ir::ScalarKind::I64 ? b.cast(v, ir::ScalarKind::I64) : v; };
    return b.forOp(widen(l), widen(h), widen(s), carried);
  });
  Region *r = newRegion(op, toLoc(loc));
  open(r, 0);
  return r;
}

Region *ifBegin(Node *cond, Loc loc) {
  ir::Value *c = val(cond, loc, "if_else");
  if (!(c->type == ir::Type::scalar(ir::ScalarKind::I1)))
    stop(loc, "if_else needs a scalar i1 condition, got " + ir::toString(c->type));
  ir::Op *op = at(loc, [&](ir::Builder &b) { return b.ifOp(c, {}); });
  Region *r = newRegion(op, toLoc(loc));
  open(r, 0);
  return r;
}

Region *whileBegin(Node *const *inits, int n) {
  std::vector<ir::Value *> carried;
  for (int i = 0; i < n; ++i) carried.push_back(val(inits[i], {}, "while_loop"));
  ir::Op *op = at({}, [&](ir::Builder &b) { return b.whileOp(carried); });
  Region *r = newRegion(op, {});
  open(r, 0);
  return r;
}

Node *regionArg(Region *r, int i) { return node(r->op->region(r->current).arg(i)); }

void regionYield(Region *r, Node *const *values, int n, Loc loc) {
  ir::Location where = loc.file ? toLoc(loc) : r->loc;
  std::vector<ir::Value *> vs;
  std::vector<ir::Type> types;
  for (int i = 0; i < n; ++i) {
    vs.push_back(val(values[i], loc, "a combinator's result"));
    types.push_back(vs.back()->type);
  }
  ir::Op &op = *r->op;
  std::vector<ir::Type> want;
  std::string what;
  if (op.kind == ir::OpKind::For) {
    for (auto &res : op.results) want.push_back(res->type);
    what = "the for_range body returns " + typeList(types) + " for carried values of types " + typeList(want);
  } else if (op.kind == ir::OpKind::While && r->current == 0) {
    // The condition's location is where the loop is: the while_loop call
    // itself cannot record one.
    if (n == 1 && vs[0]->def) where = vs[0]->def->loc;
    if (!r->loc.known()) r->loc = where, op.loc = where;
    want = {ir::Type::scalar(ir::ScalarKind::I1)};
    what = "the while_loop condition returns " + typeList(types) + ", not a scalar i1";
  } else if (op.kind == ir::OpKind::While) {
    for (auto &res : op.results) want.push_back(res->type);
    what = "the while_loop body returns " + typeList(types) + " for carried values of types " + typeList(want);
  } else if (r->current == 0) {
    r->thenTypes = types;
    want = types;
  } else {
    want = r->thenTypes;
    what = "if_else branches return different types: " + typeList(r->thenTypes) + " and " + typeList(types);
  }
  if (types != want) throw TraceStop{where, what};
  auto &st = twintile::detail::state();
  st.builders.back().setLoc(where);
  st.builders.back().yield(vs);
  st.builders.pop_back();
}

void elseBegin(Region *r) { open(r, 1); }
void whileBody(Region *r) { open(r, 1); }

void regionEnd(Region *r) {
  if (r->op->kind == ir::OpKind::If)
    for (const ir::Type &t : r->thenTypes) r->op->addResult(t);
}

Node *regionResult(Region *r, int i) { return node(r->op->result(i)); }

} // namespace tt::detail
