//===- BarrierPlan.h - every barrier of the kernel, and why ---------------===//
//
// The `barriers` stage. A program's threads run apart between barriers; a
// `bar.sync` makes what each wrote before it visible to all after it. The
// plan, made before lowering (MemoryPlan.cpp, in lowering's order, from the
// accesses and the shared plan), lists every barrier lowering emits, with
// its reason:
//
//   decided     before a global memory access when an access since the last
//               barrier may touch an element this one touches from another
//               thread, one of them a write (IR.h orders a program's memory
//               ops; its threads are not); before a shared-memory window's
//               first write when an earlier reader of the array may not be
//               done (every window but the kernel's first outside any loop);
//   inherent    inside an op's use of its window (its writes before its
//               reads; a scan through shared memory, one per step too), a
//               pipeline's (the ring free before the loop, the invariants
//               staged, each iteration's stage landed, the last copies
//               drained), and the kernel's own `debug_barrier`.
//
// Two accesses cannot conflict when thread 0 alone makes both (scalar stores
// and atomics, volatile scalar loads); when both go through the same
// addresses in the same layout, no element held by two threads and no word
// addressed twice (each thread touches its own words again: the same pointer
// value, not carried from an earlier iteration of a loop it is defined in,
// that the axis analysis proves contiguous along its one dim of more than one
// element); or through pointers
// derived from different parameters: like C's restrict, twintile assumes
// distinct pointer parameters do not overlap. Accesses of an earlier loop
// iteration count as pending at the start of the next; a `debug_barrier` is
// a barrier. Lowering asks the plan where a decided barrier goes and emits
// the inherent ones itself.
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/AxisInfo.h"
#include "backend/Layout.h"
#include "ir/IR.h"

#include <string>
#include <unordered_set>
#include <vector>

namespace twintile::backend {

struct BarrierPlan {
  struct Barrier {
    enum class Kind { BeforeAccess, BeforeWindow, Inherent };
    Kind kind;
    const ir::Op *op;  // the op it is emitted for
    std::string why;
  };
  std::vector<Barrier> barriers;  // in lowering's order
  /// Per shared buffer (SharedPlan::buffers' index): a barrier before its first write.
  std::vector<bool> beforeWindow;
  /// Memory ops with a barrier before their access.
  std::unordered_set<const ir::Op *> beforeAccess;

  bool needsBeforeAccess(const ir::Op &op) const { return beforeAccess.count(&op) != 0; }
  bool needsBeforeWindow(size_t buffer) const { return buffer < beforeWindow.size() && beforeWindow[buffer]; }
};

/// A global memory access, for the conflict rule.
struct MemoryAccess {
  const ir::Op *op;
  const ir::Value *ptr;
  const Layout *layout;  // null for a scalar access
  bool write;
  bool threadZeroOnly;   // a scalar store or atomic, or a volatile scalar load: thread 0 alone accesses
  bool distinct;         // the axis analysis proves the tile's addresses distinct (no word twice)
  /// Set for an access of an earlier iteration of this loop (pending when an
  /// iteration starts): its pointer is the same value, not the same address,
  /// where it is defined inside the loop.
  const ir::Op *earlierIterationOf = nullptr;
};

MemoryAccess accessOf(const ir::Op &op, const LayoutMap &layouts, const AxisInfoMap &axes);
/// True if `a` (pending) and `b` may touch one element from two threads, one writing.
bool mayConflict(const MemoryAccess &a, const MemoryAccess &b, const ir::Func &func);

/// The plan as a list, one barrier per line, `header` first.
std::string toString(const BarrierPlan &plan, const std::string &header);

} // namespace twintile::backend
