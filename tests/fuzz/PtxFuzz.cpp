//===- PtxFuzz.cpp - fuzz target: PTX text through the emulator -----------===//
//
// Parses the input as PTX. Text the emulator's parser refuses must be a
// PtxError (a line and a message). A module that parses has each of its
// first two kernels launched on a small grid, every 8-byte parameter a
// 4 KiB buffer and every other one a small scalar, under a small instruction
// budget: the launch may fail (out of bounds, deadlock, budget) with an
// error, but never crash, hang or throw.
//===----------------------------------------------------------------------===//
#include "Finding.h"

#include "runtime/Emulator.h"
#include "runtime/PtxProgram.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace twintile::runtime;
using twintile::fuzz::finding;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 256 * 1024) return -1;
  std::string text(reinterpret_cast<const char *>(data), size);
  std::optional<PtxModule> module;
  try {
    module = PtxModule::parse(text);
  } catch (const PtxError &) {
    return 0;
  } catch (const std::exception &e) {
    finding(std::string("the PTX parser threw something other than a PtxError: ") + e.what());
  }
  std::vector<std::string> entries = module->entries();
  for (size_t k = 0; k < std::min<size_t>(entries.size(), 2); ++k) {
    const ptx::Function *fn = module->program().find(entries[k]);
    if (!fn) finding("entries() names '" + entries[k] + "', which find() does not know");
    std::vector<std::vector<uint8_t>> storage;
    std::vector<EmuArg> args;
    for (const ptx::Param &p : fn->params)
      if (p.size == 8) {
        args.push_back(EmuArg::buf(storage.size()));
        storage.emplace_back(4096, uint8_t(0));
      } else {
        args.push_back(EmuArg::scalar(3));
      }
    std::vector<std::span<uint8_t>> buffers(storage.begin(), storage.end());
    Dim3 block;
    // .reqntid is the block, exactly; .maxntid a bound (at most 128 here).
    block.x = fn->reqntid[0] ? fn->reqntid[0] : fn->maxntid[0] ? std::min<uint32_t>(fn->maxntid[0], 128) : 64;
    EmuOptions options;
    options.maxInstructionsPerThread = 1 << 12;
    options.dynamicSharedBytes = 1024;
    try {
      emulate(*module, entries[k], Dim3{2, 1, 1}, block, args, buffers, options);
    } catch (const std::exception &e) {
      finding(std::string("the emulator threw instead of failing the launch: ") + e.what());
    }
  }
  return 0;
}
