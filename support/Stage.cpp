//===- Stage.cpp - stage names and descriptions --------------------------===//
#include "support/Stage.h"

#include <array>

namespace twintile::support {

namespace {

struct StageInfo {
  Stage stage;
  std::string_view name, ext, what;
};

constexpr std::array<StageInfo, 13> kStages = {{
    {Stage::Rewritten, "rewritten", ".cpp", "the kernel file with its native device control flow (if, for, while, ?:, early exits) rewritten into if_else, for_range and while_loop (hybrid)"},
    {Stage::Source, "source", ".cpp", "the kernel as the front end sees it: Clang's instantiated body (parse), the entry compiled with the file (trace, hybrid)"},
    {Stage::Tile, "tile", ".tir", "the front end's tile IR, as recorded"},
    {Stage::TileOpt, "tile-opt", ".tir", "the tile IR after expand-descriptors and the cleanup (canonicalize, cse, dce)"},
    {Stage::Axes, "axes", ".tir", "the tile IR with the axis analysis: contiguity, divisibility, constancy"},
    {Stage::Layouts, "layouts", ".tir", "the tile IR with each tile's layout over threads"},
    {Stage::Pipelines, "pipelines", ".tir", "the tile IR with each loop's software-pipelining plan: loads copied ahead, stages, ring"},
    {Stage::Shared, "shared", ".txt", "every shared-memory buffer in the order lowering takes it: offset, size, what for; the total"},
    {Stage::Barriers, "barriers", ".txt", "every barrier in the order lowering emits it, and why: decided from the accesses, or inherent in an op"},
    {Stage::LlvmRaw, "llvm-raw", ".ll", "the lowered LLVM IR (NVVM), before libdevice and optimization"},
    {Stage::Llvm, "llvm", ".ll", "the optimized LLVM IR"},
    {Stage::Ptx, "ptx", ".ptx", "the PTX from LLVM's NVPTX target"},
    {Stage::SassInfo, "sass-info", ".txt", "ptxas's resource report, and the SASS where nvdisasm or cuobjdump exists"},
}};

static_assert([] {
  for (size_t i = 0; i < kStages.size(); ++i)
    if (static_cast<size_t>(kStages[i].stage) != i) return false;
  return true;
}(), "kStages lists the stages in the enum's order");

constexpr std::array<Stage, 13> kOrder = [] {
  std::array<Stage, 13> out{};
  for (size_t i = 0; i < kStages.size(); ++i) out[i] = kStages[i].stage;
  return out;
}();

const StageInfo &info(Stage s) { return kStages[static_cast<size_t>(s)]; }

} // namespace

std::span<const Stage> allStages() { return kOrder; }
std::string_view name(Stage s) { return info(s).name; }
std::string_view describe(Stage s) { return info(s).what; }
std::string_view fileExtension(Stage s) { return info(s).ext; }

std::optional<Stage> parseStage(std::string_view n) {
  for (const StageInfo &i : kStages)
    if (i.name == n) return i.stage;
  return std::nullopt;
}

std::string stageNames() {
  std::string out;
  for (const StageInfo &i : kStages) out += (out.empty() ? "" : ", ") + std::string(i.name);
  return out;
}

} // namespace twintile::support
