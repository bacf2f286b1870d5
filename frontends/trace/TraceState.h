//===- TraceState.h - the trace running on this thread ------------------===//
//
// What the tracer's two halves share: Tracer.cpp (sessions, the registry,
// the entry of a compiled kernel) and TraceOps.cpp (the language's entry
// points, which record ops). The state of the trace in progress, and the
// conversions between the language's handles and codes and the IR's values
// and types. Internal to the tracing front end.
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/common/Recorder.h"
#include "frontends/trace/Isolate.h"
#include "frontends/trace/Trace.h"

#include <memory>
#include <unordered_set>
#include <vector>

namespace tt::detail {

/// A combinator's op being built, and which of its regions is open.
struct Region {
  twintile::ir::Op *op = nullptr;
  int current = 0;
  twintile::ir::Location loc;
};

} // namespace tt::detail

namespace twintile::detail {

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

/// The trace running on this thread; nullptr outside one.
extern thread_local Session::State *current;
/// The isolated tracer's shared record of where the trace is (Isolate.h).
extern TraceProgress *progress;
/// The last operation's location on this thread: where an exception from
/// the kernel's host code is reported.
extern thread_local tt::detail::Loc lastLoc;

/// The running trace; a KernelError outside one.
Session::State &state();
Recorder &recorder();
/// The IR location of a call site (none for an unknown one), remembered as
/// the last operation's.
ir::Location toLoc(tt::detail::Loc l);
/// The handle the kernel gets for a value this trace made, and back: val()
/// refuses a handle this trace never made, as the kernel's error.
tt::detail::Node *node(ir::Value *v);
ir::Value *val(tt::detail::Node *n);
ir::ScalarKind kindOf(tt::detail::Kind k);
ir::Type typeOf(tt::detail::TypeCode t);

} // namespace twintile::detail
