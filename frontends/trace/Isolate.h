//===- Isolate.h - tracing a compiled kernel in a child process ----------===//
//
// A kernel traced from its file runs its author's host code. That code may
// dereference null, divide by zero, throw an int, call exit(), loop for
// ever or allocate without bound; none of it may take twintile down. So the
// compiled kernel is loaded (its static initializers run too) and run in a
// child process (fork), with a time limit and a memory limit, its stdout and stderr captured; the traced IR
// comes back as text over a pipe and is parsed again here. A death of any
// kind becomes a located error: which specialization, what happened
// (SIGSEGV, an uncaught exception of type int, exit status 3, a time-out),
// and the last operation the trace recorded before it.
//
// In-process tracing (twintile::trace, Trace.h) is unchanged: a program that
// traces its own kernels trusts them.
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/trace/HostLoad.h"
#include "frontends/trace/Trace.h"

#include <string>
#include <vector>

namespace twintile {

struct IsolationLimits {
  double seconds = 10;                     // wall time for all the specializations of one child
  unsigned long long memoryBytes = 8ull << 30;  // address space of the child (not under AddressSanitizer)
};

/// One specialization's trace from the child.
struct IsolatedTrace {
  TraceResult trace;
  std::string output;  // what the kernel's host code printed (stdout and stderr) while this one was traced
};

/// Traces specs[i] in a child process that loads the compiled kernel at
/// `object` (HostLoad.h; `relocatable`: for the JIT linker) and calls its
/// entry point entries[i] (twintile_trace_entry_<entries[i]>) with
/// `options[i]`: the parent never loads the
/// kernel's code. Results in order; a child that dies takes only the
/// specialization it was tracing: the ones after it are traced in a new
/// child. When the object does not load, `loadError` says why and no trace
/// is made. `loadSeconds`: how long the children took to load it.
std::vector<IsolatedTrace> traceIsolated(const std::string &object, bool relocatable,
                                         const std::vector<std::string> &specs, const std::vector<size_t> &entries,
                                         const std::vector<TraceOptions> &options, const IsolationLimits &limits,
                                         LoadError &loadError, double &loadSeconds);

/// Where the trace in progress last recorded an operation. The isolated
/// child points this at memory it shares with its parent, which reads it
/// after a crash; null (the default) records nothing.
struct TraceProgress {
  int line = 0, col = 0;
  char file[1024] = {};
  char what[512] = {};  // an uncaught exception's type, from the child's terminate handler
  /// Where a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL) struck, from the
  /// child's fault handler: in twintile's own code (the tracer: a bug of
  /// ours), in the kernel's code (its shared object, or memory no loaded
  /// file maps: what the JIT linker loaded, or a jump to garbage), or
  /// elsewhere (a library it called).
  enum class Fault : int { None, Twintile, Kernel, Elsewhere } fault = Fault::None;
  char faultSymbol[512] = {};  // the function the fault struck in, as the linker names it
};
void setTraceProgress(TraceProgress *progress);

} // namespace twintile
