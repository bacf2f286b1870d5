//===- CompileRequest.h - what one compile is asked for ------------------===//
//
// One request describes a compile wherever it starts: the driver's flags,
// the launch API's Kernel, the fuzz targets and the probes fill it; the
// pipeline resolves its defaults in one place (resolveOn, backendOptions)
// and hands the front ends and the backend only what they need. Every field
// has the meaning it has on the driver's command line (docs/driver.md).
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/Backend.h"
#include "frontends/trace/SourceTracer.h"
#include "ir/IR.h"
#include "support/Stage.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace twintile::pipeline {

/// How the kernel's meaning is taken: its AST walked, or it run on values
/// that record, or (hybrid) its native device control flow rewritten into
/// combinators and then run on values that record.
enum class Frontend { Parse, Trace, Hybrid };
/// The GPU the PTX is for.
enum class Target { Sm90a, Sm80 };
/// precise: the IR's semantics (libdevice); fast: Triton's defaults (ir/IR.h).
enum class MathMode { Precise, Fast };

std::string_view name(Frontend f);  // "parse", "trace", "hybrid"
std::string_view name(Target t);    // "sm_90a", "sm_80"
std::string_view name(MathMode m);  // "precise", "fast"
std::optional<Frontend> frontendNamed(std::string_view s);
std::optional<Target> targetNamed(std::string_view s);
std::optional<MathMode> mathNamed(std::string_view s);

struct CompileRequest {
  Frontend frontend = Frontend::Trace;  // compileSource, compileSources
  Target target = Target::Sm90a;
  /// 0: the kernel's own (kernel_options in its file), else ir::kDefaultNumWarps.
  int numWarps = 0;
  /// 0: the kernel's own, else ir::kDefaultNumStages (fewer where shared memory is short).
  int numStages = 0;
  MathMode math = MathMode::Precise;
  /// Parameters promised 16-byte aligned / divisible by 16, by name ('*':
  /// every parameter that can be). An unknown name is an error.
  std::vector<std::string> alignedNames, divisibleNames;
  /// The same promises per parameter; used instead of the names when not empty.
  std::vector<backend::ParamAssumption> assume;
  bool useCache = true;
  /// How the tracing front end compiles the kernel file (SourceTracer.h);
  /// unset: $TWINTILE_TRACE_HOST, else jit.
  std::optional<TraceHost> traceHost;
  support::Stage last = support::Stage::Ptx;  // stop after this stage
  bool ptxas = false;                         // run ptxas (implied when `last` is sass-info)
  bool locations = true;                      // loc(...) in the IR stages' text
  /// Threads for the cleanup and the backend when several specializations
  /// compile together (compileSources); 0: one per core.
  int jobs = 0;
  /// Whether Clang's work on the file (the parse, the host compile) is
  /// limited in time and memory ($TWINTILE_FRONTEND_SECONDS,
  /// $TWINTILE_FRONTEND_MB; FrontEnd.h): past a limit the process says so
  /// and exits with status 1 (support/Watchdog.h: Clang cannot be stopped
  /// part-way). The driver's choice; a program that embeds the compiler is
  /// never ended.
  bool endProcessOnLimits = false;
  /// Where a limit may end the process: what it then prints on standard
  /// output besides, given the error (the driver's --json report, which the
  /// command would otherwise print at its end). Made before Clang starts.
  std::function<std::string(const std::string &error)> reportOnLimit;
};

/// Why `r` cannot be compiled (warps or stages out of range), or empty.
std::string problem(const CompileRequest &r);

/// The request's warps and stages over `f`'s own: what the kernel says
/// unless the request says otherwise.
void resolveOn(const CompileRequest &r, ir::Func &f);

/// The backend's options for `f` (resolved by resolveOn: the backend reads
/// its warps and stages, and refuses values out of range) under `r`; the
/// promises by name resolved against `f`'s parameters, or the diagnostic of
/// a name it lacks.
std::optional<ir::Diagnostic> backendOptions(const CompileRequest &r, const ir::Func &f, backend::CompileOptions &out);

/// The promises `r` names (alignedNames, divisibleNames), or `r.assume`, per
/// parameter of `f` into `out`; a name `f` lacks is the diagnostic.
std::optional<ir::Diagnostic> assumptions(const ir::Func &f, const CompileRequest &r,
                                          std::vector<backend::ParamAssumption> &out);

} // namespace twintile::pipeline
