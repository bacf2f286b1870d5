//===- FrontEnd.h - a kernel file through one front end ------------------===//
//
// Internal to the pipeline: the first stages of compileSources (Pipeline.h),
// from a file and its specializations to tile IR, once for the file (one
// parse, or one host compile). What the command line got wrong (a kernel
// the file does not define, template arguments that do not fit) is said in
// those words, before a compiler reports it inside generated code.
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/clang/KernelDecl.h"
#include "pipeline/Pipeline.h"
#include "support/Environment.h"
#include "support/Watchdog.h"

#include <memory>
#include <string>
#include <vector>

namespace twintile::pipeline {

/// One front end's work on a file: per specialization its result so far
/// (the front end's phases and notes, or its error) and its tile IR.
struct FrontEndOutput {
  std::vector<Result> results;
  std::vector<std::unique_ptr<ir::Func>> funcs;  // null where results[i] failed
  /// The file failed as a whole on one specialization the host compiler (or
  /// Clang) rejects: compile each specialization alone instead, those that
  /// name a kernel of `kernels` (what Clang read of the file) at least.
  bool eachAlone = false;
  std::vector<twintile::DeclaredKernel> kernels;
};

/// Whether `kernels` has one of the name `spec` names (qualified or not).
bool declaresKernelNamed(const std::vector<twintile::DeclaredKernel> &kernels, const std::string &spec);

/// The error of a specialization Clang could not instantiate, from what it
/// read of the file (`kernels`): no kernel of that name (or only in another
/// namespace), not a template, overloads, or template arguments that do not
/// fit its parameters.
std::string notASpecialization(const std::string &spec, const std::string &file,
                               const std::vector<twintile::DeclaredKernel> &kernels);

/// The environment variable that sets the largest kernel file a front end
/// reads, in MiB.
inline constexpr const char *kMaxSourceVariable = support::envName(support::Env::MaxSourceMB);

/// The error of a kernel file larger than a front end reads (4 MiB, or
/// $TWINTILE_MAX_SOURCE_MB MiB: a real kernel file is a few kilobytes, and
/// Clang takes seconds a megabyte on machine-made ones), or of a limit set
/// to what is not one (that, the two below, $TWINTILE_STACK_MB or
/// $TWINTILE_CACHE_MB); empty if none.
std::string overLimits(const std::string &file);

/// Per entry of `kernels`, the error of one that is not a specialization
/// (Spec.h's specProblem; "" for one that is); empty when each is.
/// Nothing of the file is read: whether a spec names one of its kernels is
/// for Clang to say, and the front ends to explain from its AST.
std::vector<std::string> malformedKernels(const std::vector<std::string> &kernels);

/// The environment variables that limit Clang's work on one kernel file
/// where the compile may end its process (CompileRequest::endProcessOnLimits):
/// its seconds (60 by default) and the process's resident memory meanwhile,
/// in MiB (4096); 0 for no limit.
inline constexpr const char *kFrontEndSecondsVariable = support::envName(support::Env::FrontendSeconds);
inline constexpr const char *kFrontEndMemoryVariable = support::envName(support::Env::FrontendMB);

/// Where `options` let the compile end its process: a watch on Clang's
/// work on `file` (the parse, the host compile), which nothing else stops,
/// with the limits above (the defaults for a setting overLimits refuses).
/// Else null. The walks and the traces have limits of their own.
std::unique_ptr<support::Watchdog> watchClang(const std::string &file, const CompileRequest &options);

/// `r` failed with `d`, rendered.
Result failure(Result r, ir::Diagnostic d);

/// The parsing front end: one Clang parse of `file`, a walk per specialization.
FrontEndOutput parseFile(const std::string &file, const std::vector<std::string> &kernels, const CompileRequest &options,
                         const ObserverFor &observer);
/// The parse front end's part of a compile through both front ends that
/// shares the tracing front end's Clang parse (compileBoth): traceFile fills
/// it in when its host compile reads the file in process, without an error.
struct SharedParse {
  ObserverFor observer;  // the parse front end's
  bool done = false;     // `out` holds the walks: the parse front end needs no parse of its own
  bool walking = false;  // the walks are under way (and stay so if the stack runs out in one)
  FrontEndOutput out;    // as parseFile would give it
};

/// The tracing front end: one host compile of `file`, a trace per
/// specialization; and with `shared`, the parse front end's walks of the
/// same AST. `includeDirs` are searched by the file's own includes.
FrontEndOutput traceFile(const std::string &file, const std::vector<std::string> &kernels, const CompileRequest &options,
                         const ObserverFor &observer, SharedParse *shared = nullptr,
                         const std::vector<std::string> &includeDirs = {});

/// The hybrid front end (HybridFile.cpp): one Clang parse of `file`, each
/// specialization's native device control flow rewritten into combinators,
/// the rewritten file traced (once for the specializations rewritten alike).
FrontEndOutput hybridFile(const std::string &file, const std::vector<std::string> &kernels, const CompileRequest &options,
                          const ObserverFor &observer);

} // namespace twintile::pipeline
