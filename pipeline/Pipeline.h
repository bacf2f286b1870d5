//===- Pipeline.h - a kernel from source to PTX, one stage after another --===//
//
// The compile as one straight list, read top to bottom in Pipeline.cpp:
//
//   source ► tile ► tile-opt ► axes ► layouts ► pipelines ► shared ► barriers ► llvm-raw ► llvm ► ptx ► sass-info
//   (front end)    (cleanup)   (backend: analyses, lowering, LLVM passes, NVPTX)  (ptxas)
//
// After each stage the pipeline offers its text to an observer, which takes
// the stages it wants (the text of the others is never made). The driver's
// --emit/--print-after-all/dump/diff, the launch API and $TWINTILE_DUMP_DIR
// are observers. The pipeline runs the cleanup: everything after `tile` sees
// the cleaned IR.
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/Backend.h"
#include "pipeline/CompileRequest.h"
#include "ir/Diagnostic.h"
#include "ir/IR.h"
#include "support/Stage.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace twintile::pipeline {

using support::Stage;

/// Called after each stage the observer wants, with the stage's text.
using Observer = support::StageObserver;

/// Wall time of one phase: the front end's (parse, walk; host-compile, trace),
/// each cleanup pass, and the backend's.
struct Phase {
  std::string name;
  double seconds = 0;
};

struct Result {
  std::unique_ptr<ir::Func> func;   // the tile IR after cleanup
  backend::CompileResult backend;   // when the pipeline went past tile-opt
  std::vector<Phase> phases;
  std::vector<std::string> notes;   // what was skipped or approximated, and why
  /// trace: the host compile's object came from the cache (no host-compile phase).
  bool hostCompileCached = false;
  /// trace: what the kernel's host code printed while it was traced.
  std::string hostOutput;
  /// On failure: the located error (when there is one) and its rendering
  /// (or Clang's own text, which is already rendered).
  std::optional<ir::Diagnostic> diag;
  std::string error;
  /// The error is a compile that used up its large stack (support/Stack.h):
  /// the kernel nests too deeply, or something recursed without end.
  bool exhaustedStack = false;
  bool ok() const { return error.empty(); }
  /// Failed on a bug in twintile (an ir::InternalError), not on the input.
  bool internal() const { return diag && diag->internal; }
};

/// Compiles `kernel` ("softmax<f16,1024>") from `file` with the front end
/// options.frontend names, up to options.last.
Result compileSource(const std::string &file, const std::string &kernel, const CompileRequest &options,
                     const Observer &observer = {});

/// Compiles several specializations of one file: the front end once (one
/// parse, or one host compile for the tracer), then each specialization's
/// cleanup and backend in parallel on options.jobs threads. Results in
/// `kernels`' order; observers(i) observes the i-th (from any thread, but
/// each specialization from one at a time). A phase the specializations
/// share (parse, host-compile) is in the first result only.
using ObserverFor = std::function<Observer(size_t index)>;
std::vector<Result> compileSources(const std::string &file, const std::vector<std::string> &kernels,
                                   const CompileRequest &options, const ObserverFor &observers = {});

/// `kernel` compiled through both front ends (options.frontend aside), as
/// compileSource compiles it through each, but with one Clang parse of the
/// file where the tracing front end compiles it in process: the parse front
/// end walks the AST of that compile. Where there is none (the host object
/// cached, compiled by clang++, rejected by Clang), the parse front end
/// parses the file itself. For twintile diff and dump.
struct BothResults {
  Result parse, trace;
};
BothResults compileBoth(const std::string &file, const std::string &kernel, const CompileRequest &options,
                        const Observer &parseObserver = {}, const Observer &traceObserver = {});

/// Compiles a kernel already in tile IR (traced in-process, or parsed from
/// text), from the `tile` stage on.
Result compileFunc(std::unique_ptr<ir::Func> func, const CompileRequest &options, const Observer &observer = {});

/// Whether the stage is past the front end (its text comes from the backend).
bool isBackendStage(Stage s);

/// Result::hostOutput as a note: "the kernel's host code printed, while
/// traced:\n" and the output, ending in a newline.
std::string hostOutputNote(const std::string &output);

} // namespace twintile::pipeline
