//===- Stage.h - the stages of a compile, in order -----------------------===//
//
// Every place that shows a compile's insides reads this list: `--emit`,
// `--print-after-all`, `twintile dump`, `twintile diff --html` and
// $TWINTILE_DUMP_DIR. A new stage added here appears in all of them. The
// pipeline and the backend both offer their stages' text through a
// StageObserver, so the list lives here, below both.
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace twintile::support {

enum class Stage {
  Rewritten,// hybrid: the kernel file with its native device control flow rewritten into combinators
  Source,   // parse: the body Clang instantiated; trace: the entry compiled with the file
  Tile,     // the front end's tile IR, as recorded
  TileOpt,  // after the default pipeline (expand-descriptors, canonicalize, cse, dce)
  Axes,     // the IR with the axis analysis (contiguity, divisibility, constancy)
  Layouts,  // the IR with each tile's distribution over threads
  Pipelines,// the IR with the software-pipelining plan of each loop feeding tensor cores
  Shared,   // every shared-memory buffer: offset, size, what for
  Barriers, // every barrier, and why
  LlvmRaw,  // the lowered LLVM IR, before libdevice and optimization
  Llvm,     // the optimized LLVM IR
  Ptx,      // NVPTX's output
  SassInfo, // ptxas's report, and the SASS where nvdisasm or cuobjdump exists
};

/// Every stage, in pipeline order.
std::span<const Stage> allStages();
std::string_view name(Stage s);
/// What the stage shows, one line (for --help and dump indexes).
std::string_view describe(Stage s);
std::optional<Stage> parseStage(std::string_view name);
/// "source, tile, ..., sass-info".
std::string stageNames();
/// The file suffix a dump of the stage takes: .cpp, .tir, .ll, .ptx, .txt.
std::string_view fileExtension(Stage s);

/// Who wants a compile's stages as text: `take` is called after each stage
/// `wants` says yes to, with the stage's text (made only then).
struct StageObserver {
  std::function<bool(Stage)> wants;
  std::function<void(Stage, const std::string &)> take;
  bool observes(Stage s) const { return wants && take && wants(s); }
  void offer(Stage s, const std::function<std::string()> &text) const {
    if (observes(s)) take(s, text());
  }
};

} // namespace twintile::support
