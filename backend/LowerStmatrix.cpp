//===- LowerStmatrix.cpp - 8x8 blocks of 16-bit values stored by stmatrix --===//
//
// sm_90's stmatrix stores up to four 8x8 matrices of 16-bit values from a
// warp at once: each lane gives one register (a column pair) of each
// matrix, and the address of one matrix row. A tile in an MMA-family layout
// (mma.sync's and wgmma's accumulators) holds exactly such blocks, so it can
// be written to shared memory four blocks to an instruction, where ordinary
// stores write one column pair each: when a dot's operand is staged
// (LowerDot.cpp) and when a tile changes layout through shared memory
// (LowerConvert.cpp). The caller says where a row starts.
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

namespace twintile::backend {

using namespace twintile::ir;

bool fitsStmatrix(const LowerContext &L, const Type &t, const Layout &l) {
  if (L.options.arch != "sm_90a" || (t.elem != ScalarKind::F16 && t.elem != ScalarKind::BF16) || t.rank() != 2)
    return false;
  if (l.dims != std::vector<int>{0, 1} || l.order != std::vector<int>{1, 0} ||
      l.sizePerThread != std::vector<int>{1, 2} || l.threadsPerWarp != std::vector<int>{8, 4})
    return false;
  for (const DimPlan &d : planDims(l, t.shape))
    if (d.wraps) return false;
  return l.repsAlong(1) == 1 && t.shape[1] % 8 == 0;
}

/// stmatrix: each 8x8 block (a row register rj, a column pair cp: one
/// register pair of every lane) is one matrix, four to an instruction; lane
/// l gives the address of row l % 8 of the instruction's matrix l / 8.
void storeByStmatrix(LowerContext &L, const Type &t, const TileVal &v, const RowAddress &address) {
  llvm::IRBuilder<> &b = L.b;
  const Layout &l = v.layout;
  std::vector<DimPlan> plan = planDims(l, t.shape);
  const DimPlan &rows = plan[0], &cols = plan[1];
  std::vector<llvm::Value *> regs = narrowedInPairs(L, t, v);
  // Row rj of lane row r: r + 8 (rj % rpw) + 8 rpw w + cover (rj / rpw); the
  // columns of pair cp from 8 wn + cover1 cp (DimPlan's formula, spt 1 and 2).
  llvm::Value *lane = L.laneId(), *slot = b.CreateAnd(lane, 7), *which = b.CreateLShr(lane, 3);
  llvm::Value *rowBase = b.CreateAdd(slot, b.CreateMul(L.warpCoord(l, 0), L.c32(8 * rows.rpw)));
  llvm::Value *colBase = b.CreateMul(L.warpCoord(l, 1), L.c32(8));
  std::vector<std::pair<int64_t, int64_t>> matrices;  // (rj, cp), in register order
  for (int64_t rj = 0; rj < rows.regs; ++rj)
    for (int64_t cp = 0; cp < cols.regs / 2; ++cp) matrices.emplace_back(rj, cp);
  llvm::Type *pair = llvm::FixedVectorType::get(L.storageType(t.elem), 2);
  for (size_t first = 0, count = 0; first < matrices.size(); first += count) {
    count = std::min<size_t>(4, matrices.size() - first);
    if (count == 3) count = 2;  // x1, x2 or x4: three left go as x2 then x1
    llvm::Value *row = nullptr, *col = nullptr;
    std::vector<llvm::Value *> words;
    for (size_t m = count; m-- > 0;) {  // lane's matrix: the last by default, then selected down
      auto [rj, cp] = matrices[first + m];
      llvm::Value *r = b.CreateAdd(rowBase, L.c32(8 * (rj % rows.rpw) + rows.cover * (rj / rows.rpw)));
      llvm::Value *c = b.CreateAdd(colBase, L.c32(cols.cover * cp));
      llvm::Value *mine = b.CreateICmpEQ(which, L.c32(static_cast<int64_t>(m)));
      row = row ? b.CreateSelect(mine, r, row) : r;
      col = col ? b.CreateSelect(mine, c, col) : c;
    }
    for (size_t m = 0; m < count; ++m) {
      auto [rj, cp] = matrices[first + m];
      size_t at = static_cast<size_t>(regIndex(l, t.shape, {rj, 2 * cp}));
      llvm::Value *two = b.CreateInsertElement(llvm::PoisonValue::get(pair), regs[at], uint64_t(0));
      two = b.CreateInsertElement(two, regs[at + 1], uint64_t(1));
      words.push_back(b.CreateBitCast(two, b.getInt32Ty()));
    }
    std::string text = "stmatrix.sync.aligned.m8n8.x" + std::to_string(count) + ".shared.b16 [$0], {", constraints = "r";
    for (size_t m = 0; m < count; ++m) {
      text += (m ? ", $" : "$") + std::to_string(m + 1);
      constraints += ",r";
    }
    words.insert(words.begin(), sharedAddress32(L, address(row, col)));
    sideEffectAsm(L, b.getVoidTy(), text + "};", constraints + ",~{memory}", words);
  }
}

} // namespace twintile::backend
