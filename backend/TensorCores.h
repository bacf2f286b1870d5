//===- TensorCores.h - which unit runs a dot, and its operands' shared form ---===//
//
// A dot whose layout assignment gave a tensor-core accumulator layout
// (mma.sync's, mmaLayout in Layout.h, or wgmma's, below) runs on tensor
// cores; this analysis says which instruction, and how each
// operand lies in shared memory, once, for the pipeline plan (which copies
// operands there ahead), the memory plan (which sizes and aligns their
// buffers) and lowering (which writes and reads them):
//
//   mma.sync   (sm_80, and sm_90a where wgmma does not fit) each warp reads
//              its fragments with ldmatrix from a matrix whose rows are
//              whole, 16-byte chunks swizzled within the row (LowerDot.cpp);
//   wgmma      (sm_90a: f16/bf16 into f32, all warps along M in whole
//              warpgroups, M a multiple of 16 rows per warp) each warpgroup
//              issues wgmma.mma_async m64nNk16 reading both operands from
//              shared memory through descriptors (LowerWgmma.cpp). An operand
//              is stored in *panels*: its contiguous dim cut in pieces of
//              the swizzle's width S (128, 64 or 32 bytes, the largest that
//              divides it), each panel rows x S bytes, chunks swizzled as the
//              hardware's S-byte swizzle reads them, rows in order. The
//              accumulator is wgmma's: each warp's 16 rows adjacent (the MMA
//              layout with repsPerWarp 2 along M, where mma.sync's warps hold
//              8-row blocks 8 * wm rows apart). Layout assignment gives a dot
//              one of the two (tensorCoreLayout), and the layout says which
//              unit runs it (dotEngine).
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/Layout.h"
#include "ir/IR.h"

#include <cstdint>
#include <optional>
#include <string>

namespace twintile::backend {

enum class DotEngine { Fma, MmaSync, Wgmma };

/// How a tensor-core dot's operand is laid out in shared memory.
struct StagedForm {
  int rowDim = 0;        // the tile dim the matrix's rows run along (the other is contiguous)
  int swizzleBytes = 0;  // 0: mma.sync's whole rows; 32, 64, 128: wgmma's panels of that width

  bool wgmma() const { return swizzleBytes != 0; }
  /// The alignment its buffer needs: wgmma's swizzle repeats every 8 rows of
  /// a panel, which descriptors address from 1024-byte boundaries; ldmatrix
  /// and cp.async need 16.
  int64_t alignment() const { return wgmma() ? 1024 : 16; }
  friend bool operator==(const StagedForm &, const StagedForm &) = default;
};

/// The accumulator layout layout assignment gives `dot` for `numWarps` warps
/// on `arch`: wgmma's where it fits (`layouts` holds its operands'), else
/// mma.sync's (mmaLayout), or nothing (the FMA units).
std::optional<Layout> tensorCoreLayout(const ir::Op &dot, const LayoutMap &layouts, int numWarps, const std::string &arch);

/// The unit that runs `dot` for `numWarps` warps on `arch`: the one whose
/// accumulator layout its result has.
DotEngine dotEngine(const ir::Op &dot, const LayoutMap &layouts, int numWarps, const std::string &arch);

/// True if `dot` runs on tensor cores (wgmma or mma.sync), by its result's layout.
bool onTensorCores(const ir::Op &dot, const LayoutMap &layouts, int numWarps);

/// The form operand `operand` (0: a, 1: b) of tensor-core dot `dot` takes in
/// shared memory.
StagedForm stagedForm(const ir::Op &dot, int operand, const LayoutMap &layouts, int numWarps, const std::string &arch);

/// wgmma's instruction N for a dot of `n` columns: the largest multiple of 8
/// up to 256 that divides n and, for a b staged n-contiguous (MN-major), is
/// whole panels.
int64_t wgmmaN(int64_t n, const StagedForm &b, ir::ScalarKind elem);

} // namespace twintile::backend
