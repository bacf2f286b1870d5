//===- EmuProfile.cpp - a launch's dynamic counts, as the hardware groups them --===//
//
// The emulator runs one thread at a time; the hardware issues one instruction
// for a whole warp. So a block's per-thread record is regrouped here by warp:
//
//   instructions  per warp and instruction, the most times any of its lanes
//                 reached it (a predicated-off lane is issued too);
//   global        the lanes' accesses of one warp-level execution of one
//                 instruction (the k-th run of it by each lane) are one
//                 request; it costs the distinct 32-byte sectors it touches;
//   shared        one request is served in phases of at most 128 bytes (32
//                 lanes of 4 bytes, 16 of 8, 8 of 16, in lane order); a
//                 phase takes as many wavefronts as the most distinct 4-byte
//                 words any one of the 32 banks must deliver (lanes reading
//                 the same word share it). Ideal: one wavefront per phase.
//
// This is the usual first-order model (Nsight Compute's sectors and
// wavefronts); it ignores caches, so it counts traffic, not time.
//===----------------------------------------------------------------------===//
#include "runtime/EmuMachine.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace twintile::runtime::emu {

namespace {

constexpr uint32_t kWarp = 32, kBanks = 32, kSector = 32, kPhaseBytes = 128;

/// Wavefronts for one warp-level shared access: `lanes` holds (lane, address, size).
std::pair<uint64_t, uint64_t> sharedWavefronts(std::vector<std::tuple<uint32_t, uint64_t, uint32_t>> lanes) {
  std::sort(lanes.begin(), lanes.end());
  uint64_t waves = 0, ideal = 0;
  size_t i = 0;
  while (i < lanes.size()) {
    uint32_t size = std::max<uint32_t>(std::get<2>(lanes[i]), 4);
    size_t perPhase = std::max<uint32_t>(kPhaseBytes / size, 1);
    std::array<std::set<uint64_t>, kBanks> words;
    for (size_t n = 0; n < perPhase && i < lanes.size(); ++n, ++i) {
      auto [lane, addr, bytes] = lanes[i];
      for (uint64_t w = addr / 4; w <= (addr + std::max<uint32_t>(bytes, 1) - 1) / 4; ++w) words[w % kBanks].insert(w);
    }
    size_t most = 0;
    for (const auto &b : words) most = std::max(most, b.size());
    waves += std::max<size_t>(most, 1);
    ideal += 1;
  }
  return {waves, ideal};
}

} // namespace

void addBlockProfile(const std::vector<Thread> &threads, const std::vector<Access> &accesses, EmuProfile &p) {
  // Instructions: per warp, the busiest lane's count of each instruction.
  std::map<uint32_t, std::unordered_map<const Instr *, uint32_t>> perWarp;
  for (const Thread &t : threads) {
    auto &warp = perWarp[t.warp()];
    for (const auto &[in, n] : t.runs) warp[in] = std::max(warp[in], n);
  }
  for (const auto &[w, counts] : perWarp)
    for (const auto &[in, n] : counts) p.warpInstructions[in->text] += n;

  // Memory: the lanes of one warp-level execution of one instruction.
  using Key = std::tuple<uint32_t, const Instr *, uint32_t, bool>;
  std::map<Key, std::vector<std::tuple<uint32_t, uint64_t, uint32_t>>> requests;
  for (const Access &a : accesses)
    requests[{a.thread / kWarp, a.in, a.run, a.shared}].emplace_back(a.thread % kWarp, a.addr, a.size);
  for (const auto &[key, lanes] : requests) {
    if (std::get<3>(key)) {
      auto [waves, ideal] = sharedWavefronts(lanes);
      p.sharedRequests += 1;
      p.sharedWavefronts += waves;
      p.sharedIdealWavefronts += ideal;
      continue;
    }
    std::set<uint64_t> sectors;
    for (const auto &[lane, addr, size] : lanes) {
      for (uint64_t s = addr / kSector; s <= (addr + size - 1) / kSector; ++s) sectors.insert(s);
      p.globalBytes += size;
    }
    p.globalRequests += 1;
    p.globalSectors += sectors.size();
  }
}

} // namespace twintile::runtime::emu
