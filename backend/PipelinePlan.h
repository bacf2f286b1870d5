//===- PipelinePlan.h - which loops are software-pipelined, and how ------===//
//
// The `pipelines` stage: an analysis of the IR, its axis info and layouts,
// run before lowering. In a `for` loop whose body loads the tiles a
// tensor-core `dot` multiplies, those loads can become cp.async copies from
// global memory straight into the swizzled shared matrices the dot reads
// (with ldmatrix, or wgmma's descriptors: the form is TensorCores.h's), into
// a ring of S = num_stages buffers filled S - 1 iterations ahead (Ampere's
// pipeline, as Triton's; LowerPipeline.cpp emits it; S + 1 buffers where a
// wgmma dot stays in flight into the next iteration: asyncDot below). A load
// qualifies when
//   - tensor-core dots are its only users (its registers never exist), as
//     operand a with k contiguous, or as b (k-major only for 16-bit
//     elements, which ldmatrix.trans moves);
//   - its pointer and mask depend only on the induction variable, values from
//     outside the loop, and pure ops of the body over them (the plan's
//     `slice`: evaluated again for the iteration being fetched), and no
//     integer division or remainder is among them (evaluated for iterations
//     that may not run, a divisor may be zero);
//   - `other` is absent or zero: a masked-off run is the copy's zero fill;
//   - its layout gives each thread runs of 4, 8 or 16 contiguous, aligned,
//     equally masked bytes along the dim the staged matrix keeps contiguous,
//     and no element to two threads;
//   - the loop writes no global memory (a copy issued ahead must not pass a
//     store), and the load asks for no cache or eviction policy (cp.async has
//     its own).
// Dot operands defined before the loop (attention's q) are staged once, in
// front of the ring, when every dot of the loop reads them alike.
//
// A descriptor_load only wgmma dots read (sm_90a) is copied by the tensor
// memory accelerator instead (LowerTma.cpp emits it): one thread issues
// cp.async.bulk.tensor boxes into the same ring, each stage's completing on
// an mbarrier of its own that every thread waits on (parity: the buffer's
// use count), through a tensor map built in the prologue in the program's
// global scratch. It qualifies when
//   - it is 2-D with 32-bit sizes and offsets (TMA's coordinates), its base,
//     sizes and strides are loop-invariant (the map is built before the
//     loop, evaluating the body's pure ops they need: mapSlice) and its
//     offsets come from the slice;
//   - the axis info proves its base 16-byte aligned and its row stride a
//     multiple of 16 bytes (a map can hold no other);
//   - the loop writes no global memory, as for cp.async.
// A box is a panel wide (the staged form's swizzle) and all the tile's rows
// high, so that each panel is one box. A load only
// a `trans` reads, whose result only dots read as b (attention's k), is
// staged as that b: k-major, its rows the load's rows. Loads that do not
// qualify are expanded (ir/ExpandDescriptors.cpp) and planned again.
//
// The plan is made for one depth; the backend plans again with fewer stages
// when the shared plan (the rings, and the windows after them) does not fit
// in the shared memory a block may use.
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/AxisInfo.h"
#include "backend/Layout.h"
#include "backend/TensorCores.h"
#include "ir/IR.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace twintile::backend {

/// One `for` loop's plan.
struct LoopPipeline {
  /// A load copied ahead by cp.async.
  struct Load {
    const ir::Op *op;
    Layout layout;     // the load's: which thread copies which runs
    StagedForm form;   // the staged matrix's (its rows run along form.rowDim)
    int width;         // elements per cp.async copy; 0 for TMA
    int64_t bytes;     // one stage, a multiple of 128 bytes and of form.alignment()
    int64_t offset;  // buffer 0's, in the ring
    /// TMA (a descriptor_load): its box's rows (the box is one panel wide)
    /// and its tensor map's index among the program's; 0 and -1 for cp.async.
    int boxRows = 0;
    int map = -1;
    /// The tile the dots read where it is not the load's own: its transpose
    /// (attention's k), which TMA stages as the transposed matrix it is.
    const ir::Value *transposed = nullptr;
    bool tma() const { return boxRows > 0; }
    /// The tile its dots read from the ring.
    const ir::Value *staged() const { return transposed ? transposed : op->result(); }
  };
  /// A tile a dot in the loop multiplies that is defined before it: staged
  /// once, before the loop.
  struct Invariant {
    const ir::Value *value;
    StagedForm form;
    int64_t offset;  // in the ring
  };
  /// A tile load of the body left to lowering as it is, and why.
  struct Kept {
    const ir::Op *op;
    std::string why;
  };
  const ir::Op *loop = nullptr;
  int stages = 0;  // of the loads; 0 without any
  /// The loop's one wgmma dot whose operands are both in buffers no later
  /// iteration overwrites and whose accumulator only the loop carries: its
  /// group of MMAs is left in flight at the end of each iteration
  /// (wait_group 1: the previous iteration's done) and waited for after the
  /// loop; the ring then has stages + 1 buffers per load, so that the copies
  /// (stages - 1 iterations ahead) never refill the buffer the MMAs in flight
  /// read. Null where there is none.
  const ir::Op *asyncDot = nullptr;
  int asyncCarried = -1;  // which of the loop's carried values (results) it accumulates
  int buffers = 0;        // per load: stages, or stages + 1 with an asyncDot
  std::vector<Load> loads;
  std::vector<Invariant> invariants;
  std::vector<const ir::Op *> slice;  // the body's pure ops the addresses need, in order
  /// The body's pure, loop-invariant ops the TMA loads' maps need (a stride
  /// widened where it is used), in order: evaluated before the loop.
  std::vector<const ir::Op *> mapSlice;
  int64_t ringBytes = 0;              // invariants, then each load's `stages` buffers
  /// With TMA loads: the ring offsets of the buffers' mbarriers (8 bytes
  /// each, one per buffer) and of the tensor maps' staging (128 bytes each),
  /// and the bytes a stage's boxes bring; -1, -1, 0 without.
  int64_t barrierOffset = -1, mapOffset = -1, tmaBytes = 0;
  int64_t alignment = 16;             // the ring's start (and its size a multiple of it)
  std::vector<Kept> kept;
  std::string whyNot;                 // why no load is pipelined ("" where some is)

  /// True if lowering has anything to do: loads to copy ahead or invariants to stage.
  bool active() const { return !loads.empty() || !invariants.empty(); }
  /// True if some load is copied by cp.async, or by TMA.
  bool copiesAsync() const;
  bool copiesTma() const { return tmaBytes > 0; }
};

/// Every `for` loop with a dot in its body, at any depth.
struct PipelinePlan {
  int stages = 0;  // the depth planned for: below 2, no loads copied ahead; 0, no invariants staged either
  std::unordered_map<const ir::Op *, LoopPipeline> loops;
  int tensorMaps = 0;  // TMA's, each 128 bytes of the program's global scratch

  /// True if `load` (a descriptor_load) is copied by TMA.
  bool copiesByTma(const ir::Op &load) const;

  /// The plan of `loop` if lowering has anything to do for it, else null.
  const LoopPipeline *find(const ir::Op &loop) const;
  /// The most shared memory the rings hold at once (a loop's ring stays
  /// reserved while the loops inside it reserve theirs).
  int64_t peakRingBytes(const ir::Func &func) const;
};

/// Plans every loop of `func` for a depth of `stages` (PipelinePlan::stages).
PipelinePlan planPipelines(const ir::Func &func, const AxisInfoMap &axes, const LayoutMap &layouts, int numWarps,
                           int stages, const std::string &arch);

/// The IR with the plan beside each loop, load, staged invariant and
/// address op; `header` first, as comment lines.
std::string toString(const ir::Func &func, const PipelinePlan &plan, const std::string &header);

} // namespace twintile::backend
