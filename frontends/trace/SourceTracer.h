//===- SourceTracer.h - tracing a kernel from its source file ------------===//
//
// To trace a kernel the program was not compiled with, its file is compiled
// for the host together with a small entry point for each requested
// specialization, then loaded and run: by Clang inside twintile into an
// object that ORC's JIT linker loads (HostCompile.h, the default), or by a
// clang++-19 process into a shared object that dlopen() loads. The compiled
// file is cached on disk, verified before each use (HostObject.h), and
// loaded and run in a child process (Isolate.h). The compile, the load and
// the trace are timed apart.
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/clang/KernelDecl.h"
#include "frontends/trace/HostCompile.h"
#include "frontends/trace/Isolate.h"
#include "frontends/trace/Trace.h"
#include "support/Watchdog.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace twintile {

/// How a kernel file is compiled for the host to be traced.
enum class TraceHost {
  Jit,           // Clang in process, ORC's JIT linker (HostCompile.h)
  ClangProcess,  // a clang++ process, a shared object
};
std::string_view name(TraceHost h);  // "jit", "clang++"
std::optional<TraceHost> traceHostNamed(std::string_view s);

struct SourceTraceOptions {
  /// Unset: $TWINTILE_TRACE_HOST (jit or clang++), else jit.
  std::optional<TraceHost> host;
  std::string hostCompiler;  // ClangProcess: empty: $TWINTILE_HOST_CXX, else clang++-19
  std::string cacheDir;      // empty: $TWINTILE_CACHE_DIR, else ~/.cache/twintile
  bool useCache = true;
  std::vector<std::string> includeDirs;  // searched by the kernel's own includes
  int numWarps = ir::kDefaultNumWarps;
  /// Run the kernel's host code in a child process (Isolate.h), so that its
  /// crashes, exits and endless loops are errors, not twintile's death.
  /// $TWINTILE_TRACE_IN_PROCESS=1 turns it off (to measure what it costs);
  /// $TWINTILE_TRACE_TIMEOUT=SECONDS sets limits.seconds.
  bool isolate = true;
  IsolationLimits limits;
  /// When set, opened around the host compile (Clang's part, which nothing
  /// else stops), with the compile's scratch directory to remove if it ends
  /// the process: the driver's limits (pipeline/FrontEnd.h).
  std::function<std::unique_ptr<support::Watchdog>()> watchHostCompile;
  /// When set, given the kernels Clang instantiated, where the host compile
  /// runs in process and Clang reads the file without an error
  /// (HostCompile.h); not called for a cached object or a clang++ compile.
  InstantiatedKernels instantiated;
};

struct SourceTraceResult {
  TraceResult trace;           // the IR, or the located error
  double compileSeconds = 0;   // the host compile (0 on a cache hit)
  double codegenSeconds = 0;   // of which the host code generator's (in process only; clang++ does not say)
  double loadSeconds = 0;      // loading it where it runs (dlopen, or the JIT linker and static initializers)
  bool cacheHit = false;
  TraceHost host = TraceHost::Jit;  // how it was compiled
  std::string sharedObject;    // the compiled kernel's path (a shared object, or an object file for the JIT linker)
  std::string entrySource;     // the entry point compiled with the kernel file (the `source` stage)
  std::string output;          // what the kernel's host code printed while traced (isolated only)
  std::vector<std::string> notes;  // the cache's: a damaged object rebuilt, the cache bypassed
  bool hostCompileFailed = false;  // the host compiler rejected the file (for one of the specializations)
  std::string compilerOutput;      // then, its diagnostics on the user's file, as it printed them
  std::vector<DeclaredKernel> kernels;  // and the kernels the file declares, as Clang read it
};

/// Traces `spec` ("softmax<f16,1024>", or a plain name) from the kernel file
/// `file`. Compiler errors come back as the trace's error, with the
/// compiler's own text.
SourceTraceResult traceSourceFile(const std::string &file, const std::string &spec,
                                  const SourceTraceOptions &opts = {});

/// Traces several specializations of one file with one host compile (one
/// shared object, cached under the list's key): results in `specs`' order.
/// The host compile's time is in the first result's compileSeconds.
std::vector<SourceTraceResult> traceSourceFile(const std::string &file, const std::vector<std::string> &specs,
                                               const SourceTraceOptions &opts = {});

} // namespace twintile
