//===- Layout.h - how a tile's elements are distributed over threads -----===//
//
// A program runs as numWarps warps of 32 threads. A tile value lives in the
// registers of those threads, each thread holding some of its elements. A
// Layout says which: it is a *blocked* layout over a parent space (Triton's
// BlockedEncoding) seen through a choice of the parent's dimensions.
//
//   parent dim p: sizePerThread[p] consecutive elements per thread,
//                 threadsPerWarp[p] threads of a warp side by side,
//                 repsPerWarp[p] such blocks of the warp's one after the
//                 other (1 unless set: wgmma's accumulator, whose warps hold
//                 16 adjacent rows as two 8-row blocks), then
//                 warpsPerCTA[p] warps side by side; the pattern repeats
//                 (more registers) when the tile is larger than it, and wraps
//                 (the same element in several threads) when smaller.
//   order:        parent dims from fastest to slowest varying, both for the
//                 thread and warp numbering and for the registers.
//   dims:         tile dim i is parent dim dims[i]. Parent dims not named are
//                 *sliced*: the tile does not extend along them, and threads
//                 that differ only along them hold the same elements (the
//                 result of a reduction is the slice of its input's layout).
//
// So a reduction removes a dim from `dims`, expand_dims puts a sliced one back,
// trans permutes `dims`, and none of them moves data. Replicated elements have
// one canonical owner (raw coordinate inside the tile, zero along sliced dims):
// stores and atomics are done by it alone, reductions count it alone.
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/AxisInfo.h"
#include "ir/IR.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace twintile::backend {

struct Layout {
  std::vector<int> sizePerThread, threadsPerWarp, warpsPerCTA, order;  // parent space
  std::vector<int> dims;  // tile dim i -> parent dim
  /// Per parent dim; empty where every one is 1 (so that equal layouts
  /// compare equal: withoutReps keeps it so, and wgmma's accumulator layout,
  /// TensorCores.cpp's asWgmma, is the one that sets it).
  std::vector<int> repsPerWarp;

  int repsAlong(int parentDim) const { return repsPerWarp.empty() ? 1 : repsPerWarp[static_cast<size_t>(parentDim)]; }

  int parentRank() const { return static_cast<int>(order.size()); }
  int rank() const { return static_cast<int>(dims.size()); }
  /// True if parent dim `parentDim` is not a tile dim.
  bool isSliced(int parentDim) const;
  /// Tile dims from fastest to slowest varying (by the parent's order).
  std::vector<int> tileOrder() const;

  /// This layout with tile dim `axis` removed (a reduction's result).
  Layout sliced(int axis) const;
  /// Puts the sliced parent dim back at tile position `axis`, if the dims
  /// around it allow; false if not (then a conversion is needed).
  bool expanded(int axis, Layout &out) const;
  /// trans: tile dim i of the result is tile dim perm[i] of this.
  Layout permuted(const std::vector<int64_t> &perm) const;
  /// This layout with one block per warp along parent dim `parentDim`
  /// (repsPerWarp 1 there; empty where that leaves every one 1).
  Layout withoutReps(int parentDim) const;

  friend bool operator==(const Layout &, const Layout &) = default;
};

/// "#blocked<spt=[1,4] tpw=[2,16] wpc=[4,1] order=[1,0] dims=[0,1]>", with
/// " rpw=[2,1]" before " wpc" where repsPerWarp is set.
std::string toString(const Layout &l);

/// Per tile dim, how the layout covers a tile of `shape`.
///
/// Register rd along the dim (run j = rd / spt) of the thread at lane and
/// warp coordinates (l, w) holds element
///   rd % spt + spt * l + spt * tpw * (j % rpw) + spt * tpw * rpw * w + cover * (j / rpw)
/// (modulo size where it wraps): rising with rd.
struct DimPlan {
  int parent;        // parent dim
  int64_t size;      // tile extent
  int spt, tpw, wpc; // from the parent
  int rpw;           // repsPerWarp
  int64_t cover;     // spt * tpw * rpw * wpc
  int64_t regs;      // registers along this dim: spt * rpw * ceil(size / cover)
  bool wraps;        // the layout covers more than size: some elements repeat
  /// A thread's registers, then the lanes, then the warps, in element order,
  /// each element once: what a scan in registers and shuffles needs.
  bool inOrder() const { return !wraps && rpw == 1; }
};
std::vector<DimPlan> planDims(const Layout &l, const ir::Shape &shape);
/// Registers per thread for a tile of `shape`.
int64_t numRegisters(const Layout &l, const ir::Shape &shape);
/// True if some element of `shape` is held by more than one (thread,
/// register): then only its canonical owner may store it.
bool hasReplication(const Layout &l, const ir::Shape &shape);

/// A blocked layout for `shape` with `vec` consecutive elements per thread
/// along `order[0]`, threads and warps filling the fastest dims first.
Layout blockedLayout(const ir::Shape &shape, int numWarps, int vec, std::vector<int> order);

/// The accumulator layout of dot `op` on tensor cores (mma.sync m16n8k16 for
/// f16/bf16 into f32, m16n8k32 for i8 into i32, m16n8k8 for f32 into f32
/// with precision tf32), or nothing if its types, precision or shape (M %
/// 16, N % 8, K % the instruction's k) do not fit one.
///
/// The m16n8 accumulator fragment gives lane 4g+t the elements (g, 2t..2t+1)
/// and (g+8, 2t..2t+1): two 8-row groups of a blocked layout with
/// sizePerThread [1,2] and threadsPerWarp [8,4]. So the MMA layout *is* that
/// blocked layout, with warps tiled over M first (keeping a row's elements in
/// one warp when M >= 16 * numWarps, for the row reductions of attention) and
/// then over N. A warp's
/// 16-row mma tile is its row registers 2i and 2i+1, which lie 8*warpsPerCTA[0]
/// rows apart; ldmatrix takes a row address per lane, so the tile's rows need
/// not be adjacent. (wgmma's accumulator is this layout with repsPerWarp 2
/// along M: TensorCores.h.)
std::optional<Layout> mmaLayout(const ir::Op &dot, int numWarps);
/// The k of the mma instruction for operands of kind `k` (8 for f32 as
/// TF32, 16 or 32).
int mmaK(ir::ScalarKind k);
/// The rows of the matrix a tensor-core dot's operand (0: a, 1: b) held in
/// layout `l` is staged as in shared memory: a by m; b by k for 16-bit
/// elements held n-fastest (read with ldmatrix.trans), else by n.
int stagedRowDim(int operand, const Layout &l, ir::ScalarKind k);

/// True if `v` is index arithmetic over constants, splats and aranges, at
/// most `budget` ops deep: lowering recomputes it in whatever layout a user
/// wants instead of converting it, so its layout should not steer others.
bool recomputable(const ir::Value *v, int budget = 12);

using LayoutMap = std::unordered_map<const ir::Value *, Layout>;

/// Chooses a layout for every tile value of `func` (scalars have none):
/// loads and stores fix a layout per shape from the pointer's contiguity and
/// alignment (16-byte accesses where possible), values flow forward from
/// their operands, reductions take the slice of their input, a dot that fits
/// the tensor cores gets their accumulator's layout on `arch` (wgmma's or
/// mma.sync's: TensorCores.h's tensorCoreLayout). A loop carries its values in the
/// layout its body yields them (found by a first pass; the initial values
/// are converted once, before the loop), else in that of the initial value. Where an operand arrives in
/// another layout than its user needs, lowering converts it (recomputing
/// cheap index arithmetic, else through shared memory).
LayoutMap assignLayouts(const ir::Func &func, const AxisInfoMap &axes, int numWarps, const std::string &arch);

/// The largest power-of-two number of elements a memory op may access at
/// once along its fastest dim, given the pointer's (and mask's) axis info.
int vectorWidth(const ir::Type &ptrType, const AxisInfo &ptr, const AxisInfo *mask, int dim);

} // namespace twintile::backend
