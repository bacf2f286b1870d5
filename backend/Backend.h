//===- Backend.h - tile IR to PTX: the backend's one entry point ---------===//
//
// compile() takes a verified kernel (ir::Func) to LLVM IR, then PTX through
// LLVM's NVPTX target, then (where ptxas is found) a cubin and ptxas's report
// of resources. The pipeline itself reads top to bottom in Backend.cpp:
//
//   axis analysis ► layout assignment ► lowering to LLVM IR (by op family)
//   ► libdevice link ► LLVM passes ► NVPTX ► ptxas
//
// Results are cached on disk by content (CompileCache.h). User errors (an op
// the backend cannot lower, a tile too large for shared memory) are thrown as
// BackendError with the op's location; a bug found by the backend's own
// checks (LLVM IR that does not verify, PTX ptxas rejects) is ir::InternalError.
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/Ptxas.h"
#include "ir/Diagnostic.h"
#include "ir/IR.h"
#include "runtime/Manifest.h"
#include "support/Stage.h"

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace twintile::backend {

/// A located error in a kernel the backend cannot compile.
struct BackendError : std::runtime_error {
  ir::Diagnostic diag;
  explicit BackendError(ir::Diagnostic d) : std::runtime_error(d.message), diag(std::move(d)) {}
};

/// What the caller asserts about one kernel parameter, and the launch
/// manifest: the runtime's formats, which the backend writes.
using runtime::ParamAssumption;
using runtime::Manifest;

struct CompileOptions {
  std::string arch = "sm_90a";  // sm_90a or sm_80
  int numWarps = 0;             // 0: the kernel's own (Func::numWarps)
  /// Software-pipelining depth of loops feeding tensor cores (below 2:
  /// none); 0: the kernel's own (Func::numStages), else 3, Triton's default.
  int numStages = 0;
  /// One entry per kernel parameter, or empty (nothing assumed).
  std::vector<ParamAssumption> assume;
  bool useLibdevice = true;     // link libdevice for math when it is found
  /// --math=fast: f32 exp/log/rsqrt/sin/cos/tanh through the GPU's
  /// approximations and division in f32 (f16/bf16's too) as div.full, as Triton's defaults
  /// (ir/IR.h states the bounds); false: precise, the IR's semantics.
  bool fastMath = false;
  bool runPtxas = true;         // assemble and report, when ptxas is found
  bool useCache = true;
  std::string cacheRoot;        // empty: cacheDirectory's default
  /// The backend's inner stages as text, for dumps: axes and layouts (the
  /// IR annotated with each analysis), pipelines, shared and barriers (the plans), llvm-raw
  /// (the lowered module before libdevice and optimization) and llvm (after
  /// optimization, before NVPTX). Observing any of them skips the cache
  /// lookup (the result is still stored) and keeps LLVM's value names, which
  /// are otherwise dropped. Not part of the cache key.
  support::StageObserver observe;
  /// True if `observe` wants one of the backend's inner stages.
  bool observesInner() const;
};

/// Wall time of one step of the backend's pipeline.
struct PhaseTime {
  std::string name;  // lower, libdevice, optimize, verify, print (when a dump asks), nvptx, ptxas
  double seconds = 0;
};

struct CompileResult {
  std::string ptx;
  Manifest manifest;
  PtxasReport ptxas;        // ran == false (and why) when ptxas was skipped
  std::vector<std::string> notes;  // what was skipped or approximated, and why
  bool cacheHit = false;
  double seconds = 0;       // wall time of this call
  std::vector<PhaseTime> phases;   // the steps this call ran, in order (none on a cache hit)
};

/// The valid --target names.
bool isSupportedArch(const std::string &arch);

/// The compiler-version string that keys the cache: twintile's version, a
/// hash of the backend's and the IR's sources, LLVM's version.
std::string compilerVersion();

/// Compiles one kernel. Throws BackendError for kernels it cannot compile.
CompileResult compile(const ir::Func &func, const CompileOptions &options);

/// The unoptimized LLVM IR of the lowering alone (for tests and benchmarks).
std::string lowerToLLVMText(const ir::Func &func, const CompileOptions &options);

} // namespace twintile::backend
