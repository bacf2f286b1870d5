//===- SharedPlan.h - every shared-memory buffer, before lowering --------===//
//
// The `shared` stage: an analysis of the IR, its layouts and the pipelines'
// plan (MemoryPlan.cpp, with the barriers) that lists, in the order lowering will use them, every buffer of the
// kernel's one shared array, with its offset and size, and so knows the
// array's size before anything is lowered:
//
//   ring        a pipelined loop's cp.async ring (PipelinePlan.h), live for
//               the loop, stacked after the rings of the loops around it;
//   window      scratch one op uses and gives back before the next op: a
//               layout conversion through shared memory (a chunk of it, when
//               the tile is larger than the room), a reshape, partials
//               combined across warps (reductions, scans), the operands a dot
//               stages for ldmatrix or the FMA units, the value thread 0
//               shares (a scalar atomic's or volatile load's result), an
//               atomic's old values from their owners. Windows start after
//               the rings live at that point; barriers separate them.
//
// The backend plans with the pipelines' depth, and with one stage fewer
// while the plan does not fit in what a block may use. Lowering takes each
// buffer from the plan, in order, and checks that it asks for what was
// planned (a mismatch is a compiler bug, an ir::InternalError).
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Diagnostic.h"
#include "ir/IR.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace twintile::backend {

/// Static shared memory a kernel may declare. A kernel that needs more (up
/// to the target's maxSharedBytes) declares its buffer `.extern .shared`,
/// and its launches pass the size (Manifest::dynamicSharedBytes).
inline constexpr int64_t kMaxStaticShared = 48 * 1024;

struct SharedBuffer {
  enum class Kind { Ring, Window };
  Kind kind;
  const ir::Op *op;  // the loop (a ring), or the op being lowered (a window)
  int64_t offset;
  int64_t bytes;
  std::string what;  // for readers: "ring of 3 stages", "tile<64x64xf16> from #blocked<...> to #blocked<...>", ...
};

struct SharedPlan {
  std::vector<SharedBuffer> buffers;  // in the order lowering takes them
  int64_t bytes = 0;                  // the array: the most any point uses, a multiple of 16
  int64_t alignment = 16;             // the array's: the most any buffer needs (1024 for wgmma's operands)
  /// Set when some point needs more than a block may use on the target: the
  /// first such buffer (buffers' index), and the user's error there.
  std::optional<ir::Diagnostic> overflow;
  size_t overflowAt = 0;

  bool fits() const { return !overflow; }
  /// True if the array is dynamic shared memory (over kMaxStaticShared).
  bool dynamic() const { return bytes > kMaxStaticShared; }
};

/// The plan as a table, one buffer per line, `header` first.
std::string toString(const SharedPlan &plan, const std::string &header);

} // namespace twintile::backend
