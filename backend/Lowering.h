//===- Lowering.h - the lowering context and the op families' functions --===//
//
// Internal to the backend. Lowering turns one ir::Func into one NVPTX kernel
// in an llvm::Module, emitting what the analyses planned (PipelinePlan.h,
// TmaStores.h, SharedPlan.h, BarrierPlan.h) and deciding nothing they decide. Each tile
// value becomes the registers its layout gives the calling thread (TileVal),
// each scalar one uniform LLVM value. A LowerContext holds one kernel's
// lowering: what it reads, what it builds, the value map and the caches.
// Every other operation is a free function of the context, declared below
// under the file that defines it:
//
//   LowerFunc.cpp          the kernel, the walk over its ops, the dispatch
//   LowerContext.cpp       types, per-thread coordinates, shuffles, helpers
//   LowerSharedMemory.cpp  the shared plan's buffers, the barrier plan's
//                          barriers, predicated shared-memory access
//   LowerConvert.cpp       the value map; layout conversion (recomputed or
//                          through shared memory)
//   LowerControlFlow.cpp   for, if, while: loops and branches, one phi per register
//   LowerElementwise.cpp   arithmetic, comparisons, casts, math, constants,
//                          arange, splat
//   LowerShape.cpp         broadcast, expand_dims, trans (registers renamed),
//                          reshape (through shared memory)
//   LowerMemory.cpp        load, store, atomics (vectorized by axis info)
//   LowerReduce.cpp        sum/max/min/argmax/argmin and reduce (registers,
//                          shuffles, shared memory), cumsum and scan
//   LowerDot.cpp           dot: mma.sync and ldmatrix, else the FMA units
//   LowerWgmma.cpp         dot on sm_90a's warpgroup MMA (wgmma.mma_async)
//   LowerPipeline.cpp      cp.async software pipelining of the loads a dot
//                          reads, as PipelinePlan.cpp planned it
//   LowerTma.cpp           tensor maps, a pipeline's TMA loads and the
//                          TMA stores
//   LowerDebug.cpp         device_print (vprintf), device_assert, debug_barrier
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/AxisInfo.h"
#include "backend/Backend.h"
#include "backend/BarrierPlan.h"
#include "backend/Layout.h"
#include "backend/PipelinePlan.h"
#include "backend/SharedPlan.h"
#include "backend/TensorCores.h"
#include "backend/TmaStores.h"
#include "ir/IR.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <unordered_set>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace twintile::backend {

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

/// A tile operand a dot finds in shared memory: a pipelined load's for the
/// current iteration, or a loop invariant staged before the loop, in the
/// form the dot reads (TensorCores.h).
struct SharedOperand {
  llvm::Value *base;
  StagedForm form;
};

/// A loop's pipeline being emitted (LowerPipeline.cpp): the plan, and the
/// ring reserved for it. The invariants and the copies for the first stages
/// go before the loop, copies for a later iteration at the start of each,
/// and the ring is drained after it.
struct PipelineRing {
  const LoopPipeline &plan;
  llvm::Value *ring = nullptr;
  /// Per TMA load (in plan order): true where its tensor is empty (a size
  /// not above 0), and its map's global address; built in the prologue.
  std::vector<llvm::Value *> tmaEmpty, tmaMap;
};

/// One kernel's lowering: what it reads (the function, the options, the
/// analyses' plans), what it builds (the module, through one builder), and
/// what it remembers on the way (the value map, the coordinate and string
/// caches). Every op family's functions below take it; its own methods are
/// what every family uses: the value map, the per-thread coordinates, the
/// element types, and failing at an op.
struct LowerContext {
  LowerContext(const ir::Func &func, const CompileOptions &options, int numWarps, bool libdevice,
               const AxisInfoMap &axes, const LayoutMap &layouts, const PipelinePlan &pipelines,
               const TmaStorePlan &tmaStores, const SharedPlan &shared, const BarrierPlan &barrierPlan,
               llvm::Module &module);

  // --- what lowering reads ------------------------------------------------
  const ir::Func &func;
  const CompileOptions &options;
  const int numWarps;
  const bool libdevice;
  const AxisInfoMap &axes;
  const LayoutMap &layouts;
  const PipelinePlan &pipelines;
  const TmaStorePlan &tmaStores;
  const SharedPlan &shared;
  const BarrierPlan &barrierPlan;

  // --- what it builds -------------------------------------------------------
  llvm::Module &mod;
  llvm::LLVMContext &ctx;
  llvm::IRBuilder<> b;
  llvm::Function *kernel = nullptr;
  /// This program's part of the global scratch (an i64 global address),
  /// where the plans ask for some (the manifest's globalScratchBytes).
  llvm::Value *scratch = nullptr;
  llvm::BasicBlock *prologue = nullptr;  // the kernel's first block: allocas and per-thread coordinates
  llvm::GlobalVariable *sharedArray = nullptr;  // the one shared array, sized once lowering is done
  size_t nextBuffer = 0;  // of shared.buffers: the next one lowering takes
  std::vector<std::string> notes;  // for the user (e.g. a fallback taken), each once

  // --- what it remembers ----------------------------------------------------
  std::unordered_map<const ir::Value *, TileVal> values;
  /// Values recomputed in another layout, per region nesting (inner last).
  std::vector<std::map<std::pair<const ir::Value *, std::string>, TileVal>> remat;
  /// The tiles a dot reads from shared memory (a pipeline's, while its loop is lowered).
  std::unordered_map<const ir::Value *, SharedOperand> inShared;
  /// wgmma dots whose group stays in flight into the next iteration (a
  /// pipeline's asyncDot, while its loop is lowered).
  std::unordered_set<const ir::Op *> asyncDots;
  std::map<std::string, std::vector<RegCoord>> coordCache;
  std::map<std::string, llvm::Value *> prologueValues;
  std::unordered_map<const ir::Value *, std::vector<const ir::Op *>> users;  // filled on first use
  std::map<std::string, llvm::Value *> strings;
  const ir::Op *current = nullptr;  // the op being lowered, for conversions and messages

  /// Throws BackendError at `op`: a construct the backend refuses.
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
  /// A builder at the end of the prologue.
  llvm::IRBuilder<> atPrologue();
  /// The global scratch a program needs: 128 bytes per tensor map, the
  /// pipelines' TMA loads' (PipelinePlan.h's map indices) then the TMA
  /// stores' (TmaStore::index).
  int64_t scratchBytes() const {
    return 128 * (static_cast<int64_t>(pipelines.tensorMaps) + static_cast<int64_t>(tmaStores.stores.size()));
  }
  /// The offset in that scratch of `store`'s map.
  int64_t mapScratchOffset(const TmaStore &store) const { return 128 * (int64_t{pipelines.tensorMaps} + store.index); }
};

// --- the kernel and the walk (LowerFunc.cpp) ---------------------------------

/// Emits the kernel. Throws BackendError at an op the backend refuses.
void lowerKernel(LowerContext &L);
void lowerBlock(LowerContext &L, const ir::Block &block);
void lowerOp(LowerContext &L, const ir::Op &op);
/// A recomputable op's result in layout `l` (null: the result is a scalar), from its operands.
TileVal lowerPure(LowerContext &L, const ir::Op &op, const Layout *l);

// --- registers, coordinates, small helpers (LowerContext.cpp) ----------------

/// The register index holding tile coordinate `regDims` (per tile dim).
int64_t regIndex(const Layout &l, const ir::Shape &shape, const std::vector<int64_t> &regDims);
/// The per-dim register indices of register `r`.
std::vector<int64_t> regDims(const Layout &l, const ir::Shape &shape, int64_t r);
/// Thread 0 of the program: the owner of scalars.
llvm::Value *isThreadZero(LowerContext &L);
/// An element to/from its in-memory form (i1 <-> i8, ptr <-> i64).
llvm::Value *toStorage(LowerContext &L, llvm::Value *v, ir::ScalarKind k);
llvm::Value *fromStorage(LowerContext &L, llvm::Value *v, ir::ScalarKind k);
/// Emits `if (cond) { body }` around code built by `body`.
void ifThen(LowerContext &L, llvm::Value *cond, const std::function<void()> &body);
/// cond-and, treating null as true.
llvm::Value *andMaybe(LowerContext &L, llvm::Value *a, llvm::Value *c);
/// A string constant (generic address) for vprintf and assertions.
llvm::Value *cString(LowerContext &L, const std::string &s);
/// shfl.sync over the whole warp of a value of any type (split into 32-bit
/// words; a struct, field by field): from lane ^ `lane` (Xor), lane - `lane`
/// (Up; a lane below that keeps its own), or lane `lane` (Idx).
enum class Shuffle { Xor, Up, Idx };
llvm::Value *shuffle(LowerContext &L, llvm::Value *v, Shuffle mode, llvm::Value *lane);
/// Shuffles `v` (any element kind) from lane (self xor mask).
llvm::Value *shuffleXor(LowerContext &L, llvm::Value *v, int mask);

// --- shared memory and barriers, as the plans say (LowerSharedMemory.cpp) -----

/// The next shared-memory window of the plan, which must be `at`'s and of
/// `bytes` (else an ir::InternalError: the plan and lowering disagree).
/// Windows are separated by barriers.
llvm::Value *sharedBase(LowerContext &L, int64_t bytes, const ir::Op &at);
/// The next buffer of the plan, which must be loop `at`'s ring of `bytes`.
llvm::Value *reserveShared(LowerContext &L, int64_t bytes, const ir::Op &at);
/// The next buffer of the plan, which must be a window of `at`'s (for what
/// it says that lowering must know before asking: a chunk's size).
const SharedBuffer &nextWindow(LowerContext &L, const ir::Op &at);
/// bar.sync: all threads of the program arrive; their shared and global
/// memory accesses before it are visible to each other after it.
void barrier(LowerContext &L);
/// The barrier the plan puts before the first write to the window
/// sharedBase just gave (earlier readers of the array done), if any.
void barrierBeforeWindow(LowerContext &L);
/// Row-major element offset of coordinates in `shape`.
llvm::Value *linearIndex(LowerContext &L, const std::vector<llvm::Value *> &idx, const ir::Shape &shape);
/// Stores `value` (a scalar integer or float, or a struct of them, field by
/// field) to shared memory at `ptr` where `cond` holds (null: always), as
/// predicated st.shared; an i1 as a 0/1 byte.
void storeSharedIf(LowerContext &L, llvm::Value *cond, llvm::Value *value, llvm::Value *ptr);
/// Loads a `t` that storeSharedIf stored at `ptr` (an i1 from its byte).
llvm::Value *loadShared(LowerContext &L, llvm::Type *t, llvm::Value *ptr);

// --- layout conversion (LowerConvert.cpp) ------------------------------------

/// Writes the registers of `t` (type `type`) into shared memory row-major at
/// the plan's next windows (in chunks where the plan says), reads them back
/// in layout `want` (over `readShape`, default `type`'s): the general layout
/// change. A barrier between the write and the read, and before the write
/// where the barrier plan puts one. Copies of an element hold the same value,
/// so every register writes; with ownersOnly, only canonical owners do (the
/// copies may differ, e.g. the old values of an atomic only the owner
/// performed).
TileVal throughShared(LowerContext &L, const ir::Type &type, const TileVal &t, const Layout &want, const ir::Op &at,
                      const ir::Shape *readShape = nullptr, bool ownersOnly = false);
/// t's registers, where two side by side along the last dim (one thread's
/// run, so neighbours in a shared row) were each just narrowed from f32 to
/// f16 or bf16: then narrowed together by one instruction, the pair's halves
/// stored as the word LLVM merges their two stores into.
std::vector<llvm::Value *> narrowedInPairs(LowerContext &L, const ir::Type &type, const TileVal &t);

// --- elementwise (LowerElementwise.cpp) --------------------------------------

TileVal lowerElementwise(LowerContext &L, const ir::Op &op, const Layout *l);
/// Elementwise combination of two LLVM values of kind `k` (shared with
/// reductions and dot): add, max, min, ... `rounded`: never fused with the
/// multiply feeding it, even under --math=fast.
llvm::Value *binary(LowerContext &L, ir::OpKind k, llvm::Value *x, llvm::Value *y, ir::ScalarKind elem,
                    bool rounded = false);
/// To and from the kind an element is computed in (Target.h's computeKind).
llvm::Value *widen(LowerContext &L, llvm::Value *v, ir::ScalarKind k);
llvm::Value *narrow(LowerContext &L, llvm::Value *v, ir::ScalarKind k);
/// Two f32 values narrowed to `k` (f16 or bf16) by one cvt.rn.{f16,bf16}x2.f32,
/// `lo` in the low half: the word that stores them (LLVM 19 converts each
/// alone and moves the halves together). Each rounds as cvt.rn does.
llvm::Value *narrowedWord(LowerContext &L, ir::ScalarKind k, llvm::Value *lo, llvm::Value *hi);
/// The f32 value `v` narrows (an fptrunc from f32: a cast, or f16 arithmetic's
/// rounding), or null. Where two such are stored side by side, narrowedWord
/// narrows both at once: global stores (LowerMemory.cpp's packWords) and the
/// shared-memory writes of a layout conversion (LowerConvert.cpp).
llvm::Value *narrowedFrom(llvm::Value *v);

// --- shape ops (LowerShape.cpp) ----------------------------------------------

/// broadcast, expand_dims, trans: the registers renamed.
TileVal lowerShapeOp(LowerContext &L, const ir::Op &op, const Layout *l);
/// reshape: through shared memory.
TileVal lowerReshape(LowerContext &L, const ir::Op &op);

// --- memory (LowerMemory.cpp) -------------------------------------------------

/// load, store and the atomics, vectorized by axis info, with the barriers
/// the plan puts before them.
void lowerMemory(LowerContext &L, const ir::Op &op);

// --- reductions and scans (LowerReduce.cpp) -----------------------------------

TileVal lowerReduce(LowerContext &L, const ir::Op &op);
TileVal lowerCumsum(LowerContext &L, const ir::Op &op);
/// Sets `op`'s results from `v`, whose registers are structs of one register
/// per result where it has several.
void setUnpacked(LowerContext &L, const ir::Op &op, TileVal v);

// --- dot (LowerDot.cpp) -------------------------------------------------------

/// On the unit dotEngine (TensorCores.h) says: wgmma, mma.sync and
/// ldmatrix, or the FMA units.
TileVal lowerDot(LowerContext &L, const ir::Op &op);
/// True if every user of `v` is a dot on tensor cores, as operand a or b.
bool feedsTensorCoresOnly(LowerContext &L, const ir::Value *v);
/// True if 2-D tile type `t` in layout `l` can be stored by stmatrix (sm_90a,
/// LowerStmatrix.cpp): 16-bit floats in an MMA-family layout (a thread holds
/// column pairs of 8x8 blocks: mma.sync's and wgmma's accumulators), nothing
/// wrapped, rows of whole 16-byte chunks.
bool fitsStmatrix(const LowerContext &L, const ir::Type &t, const Layout &l);
/// Where row `row` of a 2-D tile starts at column `col` in shared memory
/// (16-byte aligned wherever col is a multiple of 8).
using RowAddress = std::function<llvm::Value *(llvm::Value *row, llvm::Value *col)>;
/// Writes `v` (fitsStmatrix) by stmatrix, four 8x8 blocks to an instruction.
void storeByStmatrix(LowerContext &L, const ir::Type &t, const TileVal &v, const RowAddress &address);
/// Writes 2-D tile `v` to shared memory at `base` in staged form `form`.
void stageSwizzled(LowerContext &L, const ir::Type &t, const TileVal &v, llvm::Value *base, const StagedForm &form);
/// Where element (row, col) of a matrix of tile type `t` in form `form`
/// lies; row along form.rowDim.
llvm::Value *stagedAddress(LowerContext &L, llvm::Value *base, const ir::Type &t, const StagedForm &form,
                           llvm::Value *row, llvm::Value *col);

// --- wgmma (LowerWgmma.cpp) ---------------------------------------------------

/// A dot dotEngine puts on wgmma: each warpgroup's mma_async over both
/// operands in shared memory, waited for before the result is used.
TileVal dotOnWarpgroups(LowerContext &L, const ir::Op &op);
/// Inline assembly with side effects that LLVM neither moves across control
/// flow nor duplicates (convergent: warp- and warpgroup-wide instructions).
/// A shared-memory pointer as inline PTX takes it: a 32-bit address (an `r`
/// operand; shared pointers are 32-bit, Target.cpp).
llvm::Value *sharedAddress32(LowerContext &L, llvm::Value *ptr);
llvm::CallInst *sideEffectAsm(LowerContext &L, llvm::Type *ret, const std::string &text, const std::string &constraints,
                              const std::vector<llvm::Value *> &args);
/// fence.proxy.async.shared::cta: this thread's shared-memory writes made
/// visible to the async proxy (wgmma's operand reads), before the barrier.
void fenceProxyAsync(LowerContext &L);
/// wgmma.wait_group `pending`, with `accumulators` passed through it so that
/// nothing reads them before it (and, complete at 0, through an empty asm
/// after it, so that no copy of them lands before it); returns them.
std::vector<llvm::Value *> waitForWgmma(LowerContext &L, const std::vector<llvm::Value *> &accumulators, int pending);

// --- control flow and pipelines (LowerControlFlow.cpp, LowerPipeline.cpp) -----

void lowerFor(LowerContext &L, const ir::Op &op);
void lowerIf(LowerContext &L, const ir::Op &op);
void lowerWhile(LowerContext &L, const ir::Op &op);
void pipelinePrologue(LowerContext &L, PipelineRing &p, llvm::Value *lo, llvm::Value *hi, llvm::Value *step);
void pipelineIteration(LowerContext &L, const PipelineRing &p, llvm::Value *iv, llvm::Value *lo, llvm::Value *hi,
                       llvm::Value *step);
/// After the loop: an async dot's MMAs waited for (its carried value in
/// `carried` replaced by the registers after the wait), the copies drained.
void pipelineEpilogue(LowerContext &L, const PipelineRing &p, std::vector<TileVal> &carried);

/// Values of the body bound for a while (a later iteration's addresses, the
/// loop-invariant values a tensor map needs), restored when it ends.
class ScopedValues {
public:
  explicit ScopedValues(LowerContext &L);
  ~ScopedValues();
  ScopedValues(const ScopedValues &) = delete;
  ScopedValues &operator=(const ScopedValues &) = delete;
  void bind(const ir::Value *v, TileVal t);
  /// Each of `ops` (recomputable, in order) evaluated from what is bound, its result bound.
  void evaluate(const std::vector<const ir::Op *> &ops);

private:
  LowerContext &L_;
  std::vector<std::pair<const ir::Value *, std::optional<TileVal>>> saved_;
};

// --- TMA: a pipeline's loads, the stores (LowerTma.cpp) -------------------------

/// Before the loop: each TMA load's tensor map built (warp 0, in the ring's
/// staging, copied to the program's scratch) and the buffers' mbarriers
/// initialized (thread 0); a barrier after. `runs`: the loop has iterations
/// (a row stride no map can hold traps only then).
void tmaPrologue(LowerContext &L, PipelineRing &p, llvm::Value *runs);
/// Thread 0, where `inRange`: the boxes of every TMA load into buffer `stage`,
/// their bytes expected on its mbarrier. The loads' offsets are bound for the
/// iteration fetched (issueCopies).
void tmaIssue(LowerContext &L, const PipelineRing &p, llvm::Value *stage, llvm::Value *inRange);
/// Every thread waits until iteration `i`'s boxes have landed.
void tmaWait(LowerContext &L, const PipelineRing &p, llvm::Value *i);
/// After the loop and its barrier: thread 0 invalidates the mbarriers.
void tmaEpilogue(LowerContext &L, const PipelineRing &p);
/// A descriptor_store the TMA store plan takes: the tile written into its
/// window's swizzled panels, warp 0 building the map beside it; thread 0
/// copies the panels out and waits for the copies; barriers around.
void lowerTmaStore(LowerContext &L, const ir::Op &op);

// --- device_print, device_assert, debug_barrier (LowerDebug.cpp) -------------

void lowerDebug(LowerContext &L, const ir::Op &op);

} // namespace twintile::backend
