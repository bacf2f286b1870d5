//===- Tracer.cpp - traces: sessions, the registry, a compiled kernel's entry ===//
//
// A Session is one trace: it owns the function being built, records the
// kernel's parameters and meta-parameters, and turns how the trace ended
// (an op's KernelError, an exception from the kernel's host code, an
// internal error) into a result with a located diagnostic. The registry
// holds kernels compiled into a program; the entry functions are what a
// kernel file compiled as a shared object calls (Entry.h). The language's
// entry points that record ops are in TraceOps.cpp.
//===----------------------------------------------------------------------===//
#include "frontends/trace/TraceState.h"

#include "frontends/clang/KernelDecl.h"
#include "frontends/trace/Entry.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <optional>

namespace twintile::detail {

using tt::detail::Loc;
using tt::detail::Node;

thread_local Session::State *current = nullptr;

Session::State &state() {
  if (!current)
    throw KernelError{{}, "a device operation ran outside a trace (call the kernel through twintile::trace)"};
  return *current;
}

Recorder &recorder() { return state().recorder; }

TraceProgress *progress = nullptr;
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

namespace {

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
        throw KernelError{{}, kTileParameter};
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

tt::detail::Node *deviceParam(Session *s, tt::detail::TypeCode t) { return s->session.deviceParam(t); }

void run(const void *options, const char *spec, void *result, const char *opTable, KernelCall call,
         void (*kernel)()) {
  Session s(spec, *static_cast<const TraceOptions *>(options));
  std::exception_ptr thrown;
  try {
    if (std::strcmp(opTable, tt::detail::kOpTable) != 0)
      throw KernelError{{}, "the language header the kernel was compiled with (include/twintile/ops.def) lists other "
                            "operations than this twintile program was built with, so its calls would record the "
                            "wrong ops: rebuild twintile (scripts/build), or use the header installed with it"};
    call(&s, kernel);
  } catch (...) {
    thrown = std::current_exception();
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s.start).count();
  *static_cast<TraceResult *>(result) = s.session.finish(thrown, seconds);
}

} // namespace twintile::entry
