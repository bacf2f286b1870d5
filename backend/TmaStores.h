//===- TmaStores.h - which descriptor stores the tensor memory accelerator writes ===//
//
// The `tma-stores` decision, an analysis of the IR and its axis info made
// before lowering (beside the pipeline plan, which decides TMA's loads). On
// sm_90a a descriptor_store can be one bulk tensor copy out of shared memory
// (LowerTma.cpp emits it): the threads write the tile into a window of
// swizzled panels, as wgmma's operands lie (TensorCores.h), one thread
// copies each panel out as a box through a tensor map built beside it, and
// the elements outside the tensor are not written, as the IR's store says.
// It qualifies when
//   - it is 2-D with 32-bit sizes and offsets (TMA's coordinates);
//   - its elements are ones a tensor map holds (not i1, not pointers) and
//     its rows are at least 32 bytes (a panel the smallest swizzle fills);
//   - in more than one panel, it has at least 8 rows: the hardware swizzles
//     by the shared address, so each panel must start a swizzle atom (8 rows
//     of the panel, 1024 bytes at 128);
//   - the axis info proves its base 16-byte aligned and its row stride a
//     multiple of 16 bytes (a map can hold no other);
//   - its tile, staged, takes at most kMaxTmaStoreBytes of shared memory
//     (the window then fits beside no ring: the backend's last plan, with
//     no stages, has none, so a TMA store never makes a kernel not fit).
// The others are expanded into masked stores (ir/ExpandDescriptors.cpp),
// and on sm_90a each gets a note saying why.
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/AxisInfo.h"
#include "ir/IR.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace twintile::backend {

/// The most shared memory a TMA store's staged tile may take: a larger one
/// is stored as a masked store is, which needs none.
inline constexpr int64_t kMaxTmaStoreBytes = 64 * 1024;

/// One descriptor_store written by TMA.
struct TmaStore {
  int index = 0;          // among the plan's stores, in program order
  int swizzleBytes = 0;   // each panel's width, its swizzle: 32, 64 or 128 bytes
  int64_t tileBytes = 0;  // the staged tile: panels of rows x swizzleBytes
  /// The window: the tile's panels, then 128 bytes where warp 0 builds the map.
  int64_t stagingOffset() const { return (tileBytes + 127) / 128 * 128; }
  int64_t windowBytes() const { return stagingOffset() + 128; }
  /// The window's start: the 128-byte swizzle's atom (the smaller swizzles'
  /// divide it), from which the panels' swizzle is the hardware's.
  static constexpr int64_t kAlignment = 1024;
};

struct TmaStorePlan {
  std::unordered_map<const ir::Op *, TmaStore> stores;
  /// The descriptor stores left to be expanded, each with why (sm_90a only).
  std::vector<std::pair<const ir::Op *, std::string>> kept;

  /// The plan for `store`, or null where it is not written by TMA.
  const TmaStore *find(const ir::Op &store) const;
};

/// Decides every descriptor_store of `func` for `arch` (none but on sm_90a).
TmaStorePlan planTmaStores(const ir::Func &func, const AxisInfoMap &axes, const std::string &arch);

/// tensormap.replace's .elemtype for elements of `k` (the PTX ISA's codes),
/// or -1 for those no map holds.
int tensorMapElemtype(ir::ScalarKind k);

} // namespace twintile::backend
