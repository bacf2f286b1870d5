//===- Lowering.h - the state shared by the op-family lowerings ----------===//
//
// Internal to the backend. A Lowerer turns one ir::Func into one NVPTX kernel
// in an llvm::Module. Each tile value becomes the registers its layout gives
// the calling thread (TileVal), each scalar one uniform LLVM value. The
// driver (LowerFunc.cpp) walks the body, builds control flow and dispatches
// each op to its family:
//
//   LowerConvert.cpp      values in registers; layout conversion (recomputed
//                         or through shared memory)
//   LowerControlFlow.cpp  for, if, while: loops and branches, one phi per register
//   LowerElementwise.cpp  arithmetic, comparisons, casts, math, constants,
//                         arange, splat
//   LowerShape.cpp        broadcast, expand_dims, trans (registers renamed),
//                         reshape (through shared memory)
//   LowerMemory.cpp       load, store, atomics (vectorized by axis info), with
//                         the barriers the plan puts before them
//   LowerReduce.cpp       sum/max/min/argmax/argmin and reduce (registers,
//                         shuffles, shared memory), cumsum and scan
//   LowerDot.cpp          dot: mma.sync and ldmatrix, else the FMA units
//   LowerPipeline.cpp     cp.async software pipelining of the loads a dot
//                         reads, as PipelinePlan.cpp planned it
//   LowerDebug.cpp        device_print (vprintf), device_assert
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/AxisInfo.h"
#include "backend/Backend.h"
#include "backend/BarrierPlan.h"
#include "backend/Layout.h"
#include "backend/PipelinePlan.h"
#include "backend/SharedPlan.h"
#include "ir/IR.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace tt::backend {

/// A value in registers: one LLVM value per register of the layout, or one
/// uniform value for a scalar.
struct TileVal {
  bool scalar = true;
  Layout layout;
  std::vector<llvm::Value *> regs;
};

/// The coordinates of one register's element, and whether this thread is its
/// canonical owner (null: always).
struct RegCoord {
  std::vector<llvm::Value *> idx;  // i32 per tile dim
  llvm::Value *canonical = nullptr;
  std::vector<llvm::Value *> inside;  // per tile dim: not a wrapped copy (null: never wraps)
};

class Lowerer {
public:
  Lowerer(const ir::Func &func, const CompileOptions &options, int numWarps, bool libdevice,
          const AxisInfoMap &axes, const LayoutMap &layouts, const PipelinePlan &pipelines, const SharedPlan &shared,
          const BarrierPlan &barrierPlan, llvm::Module &module);

  /// Emits the kernel. Throws BackendError at an op the backend refuses.
  void run();
  /// True if every user of `v` is a dot on tensor cores, as operand a or b.
  bool feedsTensorCoresOnly(const ir::Value *v);
  const std::vector<std::string> &notes() const { return notes_; }

  // --- for the op families ------------------------------------------------
  const ir::Func &func;
  const CompileOptions &options;
  const int numWarps;
  const bool libdevice;
  const AxisInfoMap &axes;
  const LayoutMap &layouts;
  const PipelinePlan &pipelines;
  const SharedPlan &shared;
  const BarrierPlan &barrierPlan;
  llvm::Module &mod;
  llvm::LLVMContext &ctx;
  llvm::IRBuilder<> b;

  [[noreturn]] void fail(const ir::Op &op, const std::string &message) const;
  void note(const std::string &n);

  llvm::Type *llvmType(ir::ScalarKind k) const;           // an element (ptr: global)
  llvm::Type *llvmType(const ir::Type &t) const { return llvmType(t.elem); }
  llvm::Type *storageType(ir::ScalarKind k) const;        // in memory (i1: i8)
  llvm::Type *i32() { return b.getInt32Ty(); }
  llvm::Value *c32(int64_t v) { return b.getInt32(static_cast<uint32_t>(v)); }

  /// The layout assigned to `v` (tile values only).
  const Layout &layoutOf(const ir::Value *v) const;
  /// `v` in registers of layout `want` (null: as it is), converting (by
  /// recomputation where cheap, else through shared memory) if needed.
  TileVal get(const ir::Value *v, const Layout *want = nullptr);
  /// Scalar `v`'s one LLVM value.
  llvm::Value *scalar(const ir::Value *v);
  void set(const ir::Value *v, TileVal t);
  /// Converts registers `t` of a tile of `type` to layout `want`.
  TileVal convert(const ir::Type &type, const TileVal &t, const Layout &want, const ir::Op &at);

  /// Per register of `l` over `shape`: coordinates and ownership. Computed
  /// once per layout and shape, in the kernel's prologue.
  const std::vector<RegCoord> &coords(const Layout &l, const ir::Shape &shape);
  /// Lane and warp numbers, and this thread's coordinate along each parent
  /// dim at the lane and warp level (prologue values).
  llvm::Value *laneId();
  llvm::Value *warpId();
  llvm::Value *threadId();  // tid.x
  llvm::Value *laneCoord(const Layout &l, int parentDim);
  llvm::Value *warpCoord(const Layout &l, int parentDim);
  /// The register index holding tile coordinate `regDims` (per tile dim).
  static int64_t regIndex(const Layout &l, const ir::Shape &shape, const std::vector<int64_t> &regDims);
  /// The per-dim register indices of register `r`.
  static std::vector<int64_t> regDims(const Layout &l, const ir::Shape &shape, int64_t r);
  /// Per register of `v` (in layout `l`), the register that holds the same
  /// value by the axis analysis' constancy (itself if none does).
  std::vector<size_t> runStarts(const Layout &l, const ir::Value *v) const;

  /// The next shared-memory window of the plan, which must be `at`'s and of
  /// `bytes` (else an ir::InternalError: the plan and lowering disagree).
  /// Windows are separated by barriers.
  llvm::Value *sharedBase(int64_t bytes, const ir::Op &at);
  /// The next buffer of the plan, which must be loop `at`'s ring of `bytes`.
  llvm::Value *reserveShared(int64_t bytes, const ir::Op &at);
  /// The next buffer of the plan, which must be a window of `at`'s (for
  /// what it says that lowering must know before asking: a chunk's size).
  const SharedBuffer &nextWindow(const ir::Op &at) const;
  /// bar.sync: all threads of the program arrive; their shared and global
  /// memory accesses before it are visible to each other after it.
  void barrier();
  /// The barrier the plan puts before the first write to the window
  /// sharedBase just gave (earlier readers of the array done), if any.
  void barrierBeforeWindow();
  /// The barrier the plan puts before memory op `op`'s access, if any.
  void orderMemory(const ir::Op &op);
  /// Row-major element offset of coordinates in `shape`.
  llvm::Value *linearIndex(const std::vector<llvm::Value *> &idx, const ir::Shape &shape);
  /// Writes the canonical registers of `t` (type `type`) into shared memory
  /// row-major at `base`, reads them back in layout `want`: the general
  /// layout change. Barriers before and after the write.
  /// With ownersOnly, only canonical owners write (the other copies may
  /// differ, e.g. the old values of an atomic only the owner performed).
  TileVal throughShared(const ir::Type &type, const TileVal &t, const Layout &want, const ir::Op &at,
                        const ir::Shape *readShape = nullptr, bool ownersOnly = false);
  /// Thread 0 of the program: the owner of scalars.
  llvm::Value *isThreadZero();
  /// An element to/from its in-memory form (i1 <-> i8, ptr <-> i64).
  llvm::Value *toStorage(llvm::Value *v, ir::ScalarKind k);
  llvm::Value *fromStorage(llvm::Value *v, ir::ScalarKind k);

  /// Shuffles `v` (any element kind) from lane (self xor mask).
  llvm::Value *shuffleXor(llvm::Value *v, int mask);
  /// shfl.sync over the whole warp of a value of any type (split into 32-bit
  /// words; a struct, field by field): from lane ^ `lane` (Xor), lane -
  /// `lane` (Up; a lane below that keeps its own), or lane `lane` (Idx).
  enum class Shuffle { Xor, Up, Idx };
  llvm::Value *shuffle(llvm::Value *v, Shuffle mode, llvm::Value *lane);
  /// Stores `value` (a scalar integer or float, or a struct of them, field
  /// by field) to shared memory at `ptr` where `cond` holds (null: always),
  /// as predicated st.shared; an i1 as a 0/1 byte.
  void storeSharedIf(llvm::Value *cond, llvm::Value *value, llvm::Value *ptr);
  /// Loads a `t` that storeSharedIf stored at `ptr` (an i1 from its byte).
  llvm::Value *loadShared(llvm::Type *t, llvm::Value *ptr);
  /// Emits `if (cond) { body }` around code built by `body`.
  void ifThen(llvm::Value *cond, const std::function<void()> &body);
  /// A string constant (generic address) for vprintf and assertions.
  llvm::Value *cString(const std::string &s);
  /// cond-and, treating null as true.
  llvm::Value *andMaybe(llvm::Value *a, llvm::Value *c);

  // The op families.
  TileVal lowerElementwise(const ir::Op &op, const Layout *l);
  TileVal lowerShapeOp(const ir::Op &op, const Layout *l);
  void lowerMemory(const ir::Op &op);
  /// One element's atomic of `op` at `ptr` (cmp: atomic_cas's expected value), ordered by its sem.
  llvm::Value *atomicAccess(const ir::Op &op, llvm::Value *ptr, llvm::Value *value, llvm::Value *cmp, llvm::Align align);
  TileVal lowerReduce(const ir::Op &op);
  TileVal lowerCumsum(const ir::Op &op);
  /// The tiles reduce or scan `op` combines together, in layout `l`: each
  /// register the struct of the tiles' registers (one tile: itself).
  TileVal combinedOperands(const ir::Op &op, const Layout &l);
  /// Sets `op`'s results from `v`, whose registers are structs of one
  /// register per result where it has several (combinedOperands' packing).
  void setUnpacked(const ir::Op &op, TileVal v);
  /// A struct field's form of an element (an f16 or bf16 as the i32 of its
  /// bits), and back to element type `t`.
  llvm::Value *packedField(llvm::Value *v);
  llvm::Value *unpackedField(llvm::Value *v, llvm::Type *t);
  /// combine(earlier, later) for a scan's elements.
  using Combine = std::function<llvm::Value *(llvm::Value *, llvm::Value *)>;
  /// cumsum/scan's inclusive scan of `vals` (layout `l`) along the op's
  /// axis, in place: in registers, lanes and warps where `l` tiles the axis
  /// exactly, else through shared memory (LowerReduce.cpp).
  void scanInRegisters(const ir::Op &op, const Layout &l, std::vector<llvm::Value *> &vals, const Combine &combine);
  void scanThroughShared(const ir::Op &op, const Layout &l, std::vector<llvm::Value *> &vals, const Combine &combine);
  /// The region of reduce or scan `op` applied to scalars x and y (structs
  /// of one scalar per tile, where it combines several), emitted here.
  llvm::Value *combineRegion(const ir::Op &op, llvm::Value *x, llvm::Value *y);
  TileVal lowerReshape(const ir::Op &op);
  TileVal lowerDot(const ir::Op &op);
  TileVal dotOnTensorCores(const ir::Op &op, const Layout &mma);
  /// A tile a dot finds in shared memory: a pipelined load's for the current
  /// iteration, or a loop invariant staged before the loop; a swizzled
  /// matrix whose rows run along tile dim rowDim (see LowerDot.cpp).
  struct SharedOperand {
    llvm::Value *base;
    int rowDim;
  };
  std::unordered_map<const ir::Value *, SharedOperand> inShared;
  TileVal dotOnFma(const ir::Op &op);
  /// Writes 2-D tile `v` to shared memory at `base` as a matrix whose rows
  /// run along tile dim `rowDim`, its 16-byte chunks swizzled (LowerDot.cpp).
  void stageSwizzled(const ir::Type &t, const TileVal &v, llvm::Value *base, int rowDim);
  /// Where element (row, col) of such a matrix of tile type `t` lies.
  llvm::Value *stagedAddress(llvm::Value *base, const ir::Type &t, int rowDim, llvm::Value *row, llvm::Value *col);
  void lowerDebug(const ir::Op &op);
  /// The kernel's first block, where allocas go.
  llvm::BasicBlock *kernelEntry() const { return prologue_; }
  /// Math: libdevice when linked, else fast approximations.
  llvm::Value *math(const ir::Op &op, ir::OpKind k, llvm::Value *x, ir::ScalarKind elem);
  /// Elementwise combination of two LLVM values of kind `k` (shared with
  /// reductions and dot): add, max, min, ... `rounded`: never fused with
  /// the multiply feeding it, even under --math=fast.
  llvm::Value *binary(ir::OpKind k, llvm::Value *x, llvm::Value *y, ir::ScalarKind elem, bool rounded = false);
  /// fmod (the IR's rem of floats), exact.
  llvm::Value *fmod(llvm::Value *x, llvm::Value *y, ir::ScalarKind elem);
  /// f16/bf16 go through f32.
  llvm::Value *widen(llvm::Value *v, ir::ScalarKind k);
  llvm::Value *narrow(llvm::Value *v, ir::ScalarKind k);
  static ir::ScalarKind computeKind(ir::ScalarKind k);

  /// A loop's pipeline being emitted (LowerPipeline.cpp): the plan, and the
  /// ring reserved for it. The invariants and the copies for the first
  /// stages go before the loop, copies for a later iteration at the start of
  /// each, and the ring is drained after it.
  struct PipelineRing {
    const LoopPipeline &plan;
    llvm::Value *ring = nullptr;
  };
  void pipelinePrologue(PipelineRing &p, llvm::Value *lo, llvm::Value *hi, llvm::Value *step);
  void pipelineIteration(const PipelineRing &p, llvm::Value *iv, llvm::Value *lo, llvm::Value *hi, llvm::Value *step);
  void pipelineEpilogue(const PipelineRing &p);

private:
  void issueCopies(const PipelineRing &p, llvm::Value *stage, llvm::Value *iv, llvm::Value *inRange);
  std::unordered_map<const ir::Value *, TileVal> values_;
  std::map<std::string, std::vector<RegCoord>> coords_;
  std::map<std::string, llvm::Value *> prologueValues_;
  /// Values recomputed in another layout, per region nesting (inner last).
  std::vector<std::map<std::pair<const ir::Value *, std::string>, TileVal>> remat_;
  std::vector<std::string> notes_;
  llvm::Function *kernel_ = nullptr;
  const ir::Op *current_ = nullptr;  // the op being lowered, for conversions and messages
  llvm::BasicBlock *prologue_ = nullptr;
  llvm::GlobalVariable *shared_ = nullptr;
  size_t nextBuffer_ = 0;  // of shared.buffers
  llvm::Value *takeBuffer(SharedBuffer::Kind kind, int64_t bytes, const ir::Op &at);
  std::unordered_map<const ir::Value *, std::vector<const ir::Op *>> users_;  // filled on first use
  std::map<std::string, llvm::Value *> strings_;

  llvm::IRBuilder<> atPrologue();
  void lowerBlock(const ir::Block &block);
  void lowerOp(const ir::Op &op);
  TileVal lowerPure(const ir::Op &op, const Layout *l);
  void lowerFor(const ir::Op &op);
  void lowerIf(const ir::Op &op);
  void lowerWhile(const ir::Op &op);
  /// A loop's initial values (operands from `firstInit`) in the layouts of
  /// the body's carried arguments (from `firstArg`), which go to `like`.
  std::vector<TileVal> carriedInits(const ir::Op &op, size_t firstInit, const ir::Block &body, size_t firstArg,
                                    std::vector<const ir::Value *> &like);
  /// The values a region yields, in the layouts `like` gives.
  std::vector<TileVal> yielded(const ir::Block &region, const std::vector<const ir::Value *> &like);
};

} // namespace tt::backend
