//===- Trace.h - the tracing front end: run a kernel, record tile IR -----===//
//
// A kernel written against twintile.h is traced by calling it on abstract
// device values: every operation it performs records one IR op, located at
// the user's call site. Host code (template parameters, plain C++
// parameters, loops over host values, helpers, containers of tiles) simply
// runs. Native control flow over a device value cannot be seen and stops the
// trace with a located error.
//
//   auto r = twintile::trace(&softmax<f16, 1024>, "softmax<f16,1024>");
//   if (!r.ok()) std::cerr << r.error->str();
//   else twintile::ir::print(std::cout, *r.func);
//
// Kernels listed with TWINTILE_REGISTER(softmax<f16, 1024>) can be traced by
// name (registry(), traceRegistered()).
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/common/Recorder.h"
#include "ir/Diagnostic.h"
#include "ir/IR.h"

#include <twintile.h>

#include <chrono>
#include <cstddef>
#include <array>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace twintile {

struct TraceOptions {
  /// Names of the meta-parameters, in order: the specialization's template
  /// arguments, then the kernel's plain C++ parameters. Missing names are
  /// spelled arg0, arg1, ...
  std::vector<std::string> metaNames;
  /// The specialization's template arguments as Clang resolved them (by
  /// parameter name, defaulted ones filled in; KernelDecl.h), when known:
  /// used instead of the spec's text and metaNames.
  std::optional<std::vector<std::pair<std::string, ir::Attr>>> meta;
  int numWarps = ir::kDefaultNumWarps;
};

/// The traced function, or the located error that stopped the trace;
/// `seconds` is the trace itself.
using TraceResult = FrontendResult;

namespace detail {

/// One trace in progress on this thread: owns the function being built.
class Session {
public:
  /// `spec` is "name" or "name<args>"; template arguments become meta attributes.
  Session(const std::string &spec, TraceOptions opts);
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  /// Adds a kernel parameter of device type `t` and returns its value.
  tt::detail::Node *deviceParam(tt::detail::TypeCode t);
  /// Records a plain C++ parameter's value as a meta attribute.
  void hostParam(long long v);
  void hostParam(double v);

  /// Ends the trace: the function, verified, or the error that stopped it.
  TraceResult finish(std::exception_ptr failure, double seconds);

  struct State;  // defined in TraceState.h

private:
  std::unique_ptr<State> state_;
};

template <class P> constexpr bool isDevice = tt::detail::Device<P>;

/// For each parameter, its index among the host parameters (or -1).
template <class... P> constexpr std::array<int, sizeof...(P)> hostIndices() {
  std::array<int, sizeof...(P)> idx{};
  int next = 0, i = 0;
  ((idx[i++] = isDevice<P> ? -1 : next++), ...);
  return idx;
}

template <class P> void recordHost(Session &s, const P &v) {
  if constexpr (std::is_floating_point_v<P>) s.hostParam(static_cast<double>(v));
  else s.hostParam(static_cast<long long>(v));
}

template <class... P, class Host, std::size_t... I>
void runKernel(void (*kernel)(P...), Session &s, Host &host, std::index_sequence<I...>) {
  constexpr auto hostIdx = hostIndices<P...>();
  std::array<tt::detail::Node *, sizeof...(P) + 1> nodes{};
  // Parameters in order: device ones become block arguments, host ones meta.
  (([&] {
     if constexpr (isDevice<P>) nodes[I] = s.deviceParam(tt::detail::typeCode<P>());
     else recordHost(s, static_cast<P>(std::get<hostIdx[I]>(host)));
   }()),
   ...);
  kernel([&]() -> P {
    if constexpr (isDevice<P>) return P(tt::detail::FromNode{}, nodes[I]);
    else return static_cast<P>(std::get<hostIdx[I]>(host));
  }()...);
}

} // namespace detail

/// Traces `kernel`, given values for its plain C++ parameters, in order.
template <class... P, class... H>
TraceResult traceWith(void (*kernel)(P...), const std::string &spec, TraceOptions opts, H &&...host) {
  constexpr std::size_t numHost = (static_cast<std::size_t>(!detail::isDevice<P>) + ... + 0);
  static_assert(numHost == sizeof...(H), "give one value for each plain C++ parameter of the kernel");
  detail::Session session(spec, std::move(opts));
  auto hostArgs = std::forward_as_tuple(host...);
  std::exception_ptr failure;
  auto start = std::chrono::steady_clock::now();
  try {
    detail::runKernel(kernel, session, hostArgs, std::index_sequence_for<P...>{});
  } catch (...) {
    failure = std::current_exception();
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return session.finish(failure, seconds);
}

template <class... P, class... H>
TraceResult trace(void (*kernel)(P...), const std::string &spec, H &&...host) {
  return traceWith(kernel, spec, TraceOptions{}, std::forward<H>(host)...);
}

/// A kernel specialization listed by TWINTILE_REGISTER.
struct RegisteredKernel {
  std::string spec;  // as written: "softmax<f16, 1024>"
  std::function<TraceResult(const TraceOptions &)> trace;
};

std::vector<RegisteredKernel> &registry();
bool registerKernel(std::string spec, std::function<TraceResult(const TraceOptions &)> fn);
/// The registered kernel whose spec matches `spec` ignoring spaces, or null.
const RegisteredKernel *findRegistered(const std::string &spec);

} // namespace twintile

#define TWINTILE_CONCAT_(a, b) a##b
#define TWINTILE_CONCAT(a, b) TWINTILE_CONCAT_(a, b)
/// Lists a kernel specialization without plain C++ parameters:
/// TWINTILE_REGISTER(softmax<f16, 1024>);
#define TWINTILE_REGISTER(...)                                                                   \
  [[maybe_unused]] static const bool TWINTILE_CONCAT(twintileRegistered_, __COUNTER__) =         \
      ::twintile::registerKernel(#__VA_ARGS__, [](const ::twintile::TraceOptions &o) {            \
        return ::twintile::traceWith(&__VA_ARGS__, #__VA_ARGS__, o);                             \
      })
