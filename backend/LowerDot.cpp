//===- LowerDot.cpp - dot: on tensor cores where it fits, else on FMA units --===//
//
// On tensor cores (when mmaLayout in Layout.h gives a layout, which layout
// assignment then gave the result): each operand is written to shared memory
// as a matrix of 16-byte chunks, XOR-swizzled by row, and read back into
// mma.sync fragments with ldmatrix; each warp issues one mma.sync per
// (16-row tile, 8-column tile, k step) of the accumulator it holds, which
// stays in the registers of the MMA layout.
//
//   a [M,K]   rows m, k contiguous; ldmatrix.x4 reads one 16 x k-step tile.
//   b [K,N]   16-bit elements held n-fastest: rows k, n contiguous, read with
//             ldmatrix.trans (x4: two 8-column tiles). Otherwise (i8, whose
//             8-bit units ldmatrix cannot transpose, or b held k-fastest):
//             rows n, k contiguous, read without .trans.
//
// An operand a pipelined load brought (LowerPipeline.cpp) is already there,
// in the same form; only the others are staged, between two barriers.
//
// ldmatrix reads eight 16-byte rows per 8x8 matrix, one address per lane. In
// a row-major tile whose rows are a multiple of 128 bytes apart, those rows
// would all fall in the same four of the 32 banks; the swizzle stores chunk c
// of row r at chunk c ^ ((r / perPhase) % maxPhase), which spreads eight
// consecutive rows from a multiple of 8 over all banks when a row's chunk
// count is a power of two (perPhase rows share a 128-byte line when rows are
// shorter than it).
//
// Elsewhere (other types, shapes off the instruction's grid), the FMA units:
// both operands are staged in shared memory row-major, and each thread walks
// k for the accumulator elements it holds.
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <optional>

namespace twintile::backend {

using namespace twintile::ir;

static TileVal dotOnTensorCores(LowerContext &L, const Op &op, const Layout &l);
static TileVal dotOnFma(LowerContext &L, const Op &op);

namespace {

/// A matrix in shared memory whose rows are `rowBytes` long (a multiple of
/// 16), its 16-byte chunks swizzled per row.
struct SwizzledMatrix {
  llvm::Value *base;  // ptr addrspace(3)
  int64_t rowBytes;
  int elemBytes;
  int perPhase = 1, maxPhase = 1;

  SwizzledMatrix(llvm::Value *base, int64_t rowElems, int elemBytes)
      : base(base), rowBytes(rowElems * elemBytes), elemBytes(elemBytes) {
    int64_t chunks = rowBytes / 16;
    // XOR within the largest power-of-two group of chunks that divides the
    // row, so that the swizzled chunk stays inside it.
    maxPhase = static_cast<int>(std::min<int64_t>(8, chunks & -chunks));
    perPhase = chunks >= 8 ? 1 : static_cast<int>(8 / chunks);
  }

  /// The byte offset of element (row, col).
  llvm::Value *offset(llvm::IRBuilder<> &b, llvm::Value *row, llvm::Value *col) const {
    llvm::Value *bytes = b.CreateMul(col, b.getInt32(static_cast<uint32_t>(elemBytes)));
    llvm::Value *chunk = b.CreateLShr(bytes, 4), *within = b.CreateAnd(bytes, 15);
    llvm::Value *phase = b.CreateURem(b.CreateUDiv(row, b.getInt32(static_cast<uint32_t>(perPhase))),
                                      b.getInt32(static_cast<uint32_t>(maxPhase)));
    llvm::Value *swizzled = b.CreateShl(b.CreateXor(chunk, phase), 4);
    return b.CreateAdd(b.CreateMul(row, b.getInt32(static_cast<uint32_t>(rowBytes))), b.CreateOr(swizzled, within));
  }
  llvm::Value *address(llvm::IRBuilder<> &b, llvm::Value *row, llvm::Value *col) const {
    return b.CreateGEP(b.getInt8Ty(), base, offset(b, row, col));
  }
};

} // namespace

bool feedsTensorCoresOnly(LowerContext &L, const Value *v) {
  if (L.users.empty())
    walk(L.func.body, [&](const Op &o) {
      for (const Value *x : o.operands) L.users[x].push_back(&o);
    });
  auto it = L.users.find(v);
  if (it == L.users.end()) return false;
  for (const Op *u : it->second) {
    if (u->kind != OpKind::Dot || u->operand(2) == v || !onTensorCores(*u, L.layouts, L.numWarps)) return false;
  }
  return true;
}

TileVal lowerDot(LowerContext &L, const Op &op) {
  switch (dotEngine(op, L.layouts, L.numWarps, L.options.arch)) {
  case DotEngine::Wgmma: return dotOnWarpgroups(L, op);
  case DotEngine::MmaSync: return dotOnTensorCores(L, op, L.layoutOf(op.result()));
  case DotEngine::Fma: break;
  }
  return dotOnFma(L, op);
}

llvm::Value *stagedAddress(LowerContext &L, llvm::Value *base, const Type &t, const StagedForm &form, llvm::Value *row,
                           llvm::Value *col) {
  llvm::IRBuilder<> &b = L.b;
  int eb = static_cast<int>(byteSize(t.elem));
  int64_t rowElems = t.shape[static_cast<size_t>(1 - form.rowDim)];
  if (!form.wgmma()) return SwizzledMatrix(base, rowElems, eb).address(b, row, col);
  // Panels of swizzleBytes: element col of a row is in panel col / E, each
  // panel rows * swizzleBytes bytes, swizzled within as SwizzledMatrix does
  // rows of that width (the hardware's 128/64/32-byte swizzle).
  int64_t rows = t.shape[static_cast<size_t>(form.rowDim)], perPanel = form.swizzleBytes / eb;
  llvm::Value *panel = b.CreateUDiv(col, L.c32(perPanel)), *within = b.CreateURem(col, L.c32(perPanel));
  llvm::Value *start = b.CreateMul(panel, L.c32(rows * form.swizzleBytes));
  return b.CreateGEP(b.getInt8Ty(), base, b.CreateAdd(start, SwizzledMatrix(base, perPanel, eb).offset(b, row, within)));
}

void stageSwizzled(LowerContext &L, const Type &t, const TileVal &v, llvm::Value *base, const StagedForm &form) {
  if (form.rowDim == 0 && fitsStmatrix(L, t, v.layout))
    return storeByStmatrix(L, t, v, [&](llvm::Value *row, llvm::Value *col) { return stagedAddress(L, base, t, form, row, col); });
  llvm::IRBuilder<> &b = L.b;
  int rowDim = form.rowDim, colDim = 1 - rowDim;
  int eb = static_cast<int>(byteSize(t.elem));
  const std::vector<RegCoord> &cs = L.coords(v.layout, t.shape);
  std::vector<DimPlan> plan = planDims(v.layout, t.shape);
  // Registers that hold consecutive columns (the layout's fastest dim is the
  // matrix's contiguous one) go out as one vector, up to a 16-byte chunk.
  int vec = 1;
  if (v.layout.tileOrder()[0] == colDim)
    while (vec * 2 <= plan[static_cast<size_t>(colDim)].spt && vec * 2 * eb <= 16 &&
           plan[static_cast<size_t>(colDim)].spt % (vec * 2) == 0 && t.shape[static_cast<size_t>(colDim)] % (vec * 2) == 0)
      vec *= 2;
  llvm::Type *st = L.storageType(t.elem);
  std::vector<llvm::Value *> regs = colDim == 1 ? narrowedInPairs(L, t, v) : v.regs;
  for (size_t r = 0; r < regs.size(); r += static_cast<size_t>(vec)) {
    llvm::Value *value = regs[r];
    if (vec > 1) {
      value = llvm::PoisonValue::get(llvm::FixedVectorType::get(st, static_cast<unsigned>(vec)));
      for (int e = 0; e < vec; ++e) value = b.CreateInsertElement(value, regs[r + static_cast<size_t>(e)], uint64_t(e));
    }
    const RegCoord &c = cs[r];
    b.CreateAlignedStore(value, stagedAddress(L, base, t, form, c.idx[static_cast<size_t>(rowDim)], c.idx[static_cast<size_t>(colDim)]),
                         llvm::Align(static_cast<uint64_t>(vec * eb)));
  }
}

static TileVal dotOnTensorCores(LowerContext &L, const Op &op, const Layout &l) {
  llvm::IRBuilder<> &b = L.b;
  const Type &at = op.operand(0)->type, &bt = op.operand(1)->type, &ct = op.result()->type;
  int64_t M = ct.shape[0], N = ct.shape[1], K = at.shape[1];
  ScalarKind ek = at.elem;
  int eb = static_cast<int>(byteSize(ek)), kStep = mmaK(ek), chunkElems = 16 / eb;
  TileVal c = L.get(op.operand(2), &l);
  // Each operand in shared memory: where a pipelined load put it this
  // iteration, else staged from registers now. a's rows are m; b's are k
  // (read with ldmatrix.trans) for 16-bit elements held n-fastest, else n.
  auto pipelined = [&](const Value *v) { auto it = L.inShared.find(v); return it == L.inShared.end() ? nullptr : &it->second; };
  const SharedOperand *pa = pipelined(op.operand(0)), *pb = pipelined(op.operand(1));
  StagedForm fa = stagedForm(op, 0, L.layouts, L.numWarps, L.options.arch);
  StagedForm fb = stagedForm(op, 1, L.layouts, L.numWarps, L.options.arch);
  if ((pa && !(pa->form == fa)) || (pb && !(pb->form == fb)))
    throw ir::InternalError("a dot's operand was staged in another form than the dot reads", op.loc);
  std::optional<TileVal> a, bv;
  if (!pa) a = L.get(op.operand(0));
  if (!pb) bv = L.get(op.operand(1));
  int bRowDim = fb.rowDim;
  int64_t aBytes = pa ? 0 : M * K * eb, bBytes = pb ? 0 : K * N * eb;
  llvm::Value *aBase = pa ? pa->base : nullptr, *bBase = pb ? pb->base : nullptr;
  if (aBytes + bBytes) {
    llvm::Value *window = sharedBase(L, aBytes + bBytes, op);
    barrierBeforeWindow(L);
    if (!pa) stageSwizzled(L, at, *a, aBase = window, fa);
    if (!pb) stageSwizzled(L, bt, *bv, bBase = b.CreateGEP(b.getInt8Ty(), window, L.c32(aBytes)), fb);
    barrier(L);
  }
  bool bTrans = bRowDim == 0;
  SwizzledMatrix sa(aBase, K, eb), sb(bBase, bTrans ? N : K, eb);

  // Lane 8*mat + i supplies the address of row i of the instruction's
  // matrix `mat`; `half` and `upper` are that matrix's place in the tile.
  int wm = l.warpsPerCTA[0], wn = l.warpsPerCTA[1];
  int64_t mTiles = M / (16 * wm), nTiles = (N + 8 * wn - 1) / (8 * wn);  // per warp
  llvm::Value *lane = L.laneId(), *i = b.CreateAnd(lane, 7), *mat = b.CreateLShr(lane, 3);
  llvm::Value *half = b.CreateAnd(mat, 1), *upper = b.CreateLShr(mat, 1);
  llvm::Value *warpM = L.warpCoord(l, 0), *warpN = L.warpCoord(l, 1);
  bool nWraps = nTiles * 8 * wn != N;
  auto ldmatrix = [&](int count, bool trans, llvm::Value *addr) {
    using namespace llvm::Intrinsic;
    ID id = count == 4 ? (trans ? nvvm_ldmatrix_sync_aligned_m8n8_x4_trans_b16 : nvvm_ldmatrix_sync_aligned_m8n8_x4_b16)
                       : (trans ? nvvm_ldmatrix_sync_aligned_m8n8_x2_trans_b16 : nvvm_ldmatrix_sync_aligned_m8n8_x2_b16);
    llvm::CallInst *r = b.CreateIntrinsic(id, {addr->getType()}, {addr});
    r->addFnAttr(llvm::Attribute::Convergent);  // warp-wide: never moved under a divergent branch
    std::vector<llvm::Value *> out;
    for (int k = 0; k < count; ++k) out.push_back(b.CreateExtractValue(r, {static_cast<unsigned>(k)}));
    return out;
  };
  // The first column of this warp's 8-column tile q (a value, or per lane).
  auto tileColumn = [&](llvm::Value *q) {
    llvm::Value *col = b.CreateMul(b.CreateAdd(warpN, b.CreateMul(q, L.c32(wn))), L.c32(8));
    return nWraps ? b.CreateURem(col, L.c32(N)) : col;
  };

  // One k step's fragments: a's 16-row tile mi (4 registers), b's 8-column
  // tiles q and q+1 (2 registers each; one tile if q is the last).
  auto aTile = [&](int64_t ks, int64_t mi) {
    llvm::Value *row = b.CreateAdd(b.CreateAdd(b.CreateMul(warpM, L.c32(8)), i),
                                   b.CreateMul(b.CreateAdd(L.c32(2 * mi), half), L.c32(8 * wm)));
    llvm::Value *col = b.CreateAdd(L.c32(ks * kStep), b.CreateMul(upper, L.c32(chunkElems)));
    return ldmatrix(4, false, sa.address(b, row, col));
  };
  auto bTiles = [&](int64_t ks, int64_t q) {
    bool pair = q + 1 < nTiles;
    llvm::Value *n0 = tileColumn(pair ? b.CreateAdd(L.c32(q), upper) : L.c32(q));
    llvm::Value *addr = bTrans ? sb.address(b, b.CreateAdd(L.c32(ks * kStep), b.CreateAdd(b.CreateMul(half, L.c32(8)), i)), n0)
                               : sb.address(b, b.CreateAdd(n0, i), b.CreateAdd(L.c32(ks * kStep), b.CreateMul(half, L.c32(chunkElems))));
    std::vector<llvm::Value *> r = ldmatrix(pair ? 4 : 2, bTrans, addr);
    std::vector<std::vector<llvm::Value *>> out = {{r[0], r[1]}};
    if (pair) out.push_back({r[2], r[3]});
    return out;
  };
  std::vector<llvm::Value *> acc = c.regs;
  auto mma = [&](const std::vector<llvm::Value *> &af, const std::vector<llvm::Value *> &bf, int64_t mi, int64_t q) {
    std::array<int64_t, 4> at4 = {regIndex(l, ct.shape, {2 * mi, 2 * q}), regIndex(l, ct.shape, {2 * mi, 2 * q + 1}),
                                  regIndex(l, ct.shape, {2 * mi + 1, 2 * q}), regIndex(l, ct.shape, {2 * mi + 1, 2 * q + 1})};
    std::vector<llvm::Value *> args;
    auto operand = [&](llvm::Value *reg) {
      return ek == ScalarKind::F16 ? b.CreateBitCast(reg, llvm::FixedVectorType::get(b.getHalfTy(), 2)) : reg;
    };
    for (llvm::Value *reg : af) args.push_back(operand(reg));
    for (llvm::Value *reg : bf) args.push_back(operand(reg));
    for (int64_t r : at4) args.push_back(acc[static_cast<size_t>(r)]);
    llvm::Intrinsic::ID id = ek == ScalarKind::F16    ? llvm::Intrinsic::nvvm_mma_m16n8k16_row_col_f32_f32
                             : ek == ScalarKind::BF16 ? llvm::Intrinsic::nvvm_mma_m16n8k16_row_col_bf16
                             : ek == ScalarKind::F32  ? llvm::Intrinsic::nvvm_mma_m16n8k8_row_col_tf32
                                                      : llvm::Intrinsic::nvvm_mma_m16n8k32_row_col_s8;
    llvm::CallInst *d = b.CreateIntrinsic(id, {}, args);
    d->addFnAttr(llvm::Attribute::Convergent);
    for (unsigned k = 0; k < 4; ++k) acc[static_cast<size_t>(at4[k])] = b.CreateExtractValue(d, {k});
  };
  // Per k step, the operand with fewer fragment registers is read whole and
  // the other streamed past it, so that few fragments are live at once
  // beside the accumulator.
  bool streamB = 4 * mTiles <= 2 * nTiles;
  for (int64_t ks = 0; ks < K / kStep; ++ks) {
    if (streamB) {
      std::vector<std::vector<llvm::Value *>> af;
      for (int64_t mi = 0; mi < mTiles; ++mi) af.push_back(aTile(ks, mi));
      for (int64_t q = 0; q < nTiles; q += 2) {
        std::vector<std::vector<llvm::Value *>> bf = bTiles(ks, q);
        for (size_t e = 0; e < bf.size(); ++e)
          for (int64_t mi = 0; mi < mTiles; ++mi) mma(af[static_cast<size_t>(mi)], bf[e], mi, q + static_cast<int64_t>(e));
      }
    } else {
      std::vector<std::vector<llvm::Value *>> bf;
      for (int64_t q = 0; q < nTiles; q += 2)
        for (auto &t : bTiles(ks, q)) bf.push_back(std::move(t));
      for (int64_t mi = 0; mi < mTiles; ++mi) {
        std::vector<llvm::Value *> af = aTile(ks, mi);
        for (int64_t q = 0; q < nTiles; ++q) mma(af, bf[static_cast<size_t>(q)], mi, q);
      }
    }
  }
  return {false, l, acc};
}

static TileVal dotOnFma(LowerContext &L, const Op &op) {
  llvm::IRBuilder<> &b = L.b;
  const Type &at = op.operand(0)->type, &bt = op.operand(1)->type, &ct = op.result()->type;
  int64_t M = at.shape[0], K = at.shape[1], N = bt.shape[1];
  ScalarKind ak = at.elem, ck = ct.elem;
  const Layout &l = L.layoutOf(op.result());
  TileVal a = L.get(op.operand(0)), bv = L.get(op.operand(1)), c = L.get(op.operand(2), &l);
  llvm::Type *st = L.storageType(ak);
  int64_t elemBytes = static_cast<int64_t>(L.mod.getDataLayout().getTypeAllocSize(st));
  llvm::Value *base = sharedBase(L, (M * K + K * N) * elemBytes, op);
  llvm::Value *bBase = b.CreateGEP(b.getInt8Ty(), base, b.getInt64(static_cast<uint64_t>(M * K * elemBytes)));
  barrierBeforeWindow(L);
  for (auto [val, ty, buf] : {std::tuple{&a, &at, base}, std::tuple{&bv, &bt, bBase}}) {
    const std::vector<RegCoord> &cs = L.coords(val->layout, ty->shape);
    for (size_t r = 0; r < val->regs.size(); ++r)
      b.CreateStore(val->regs[r], b.CreateGEP(st, buf, linearIndex(L, cs[r].idx, ty->shape)));
  }
  barrier(L);

  // The accumulator's rows and columns this thread holds, by register index.
  const std::vector<RegCoord> &cc = L.coords(l, ct.shape);
  std::map<int64_t, llvm::Value *> rowOf, colOf;
  for (int64_t r = 0; r < numRegisters(l, ct.shape); ++r) {
    std::vector<int64_t> rd = regDims(l, ct.shape, r);
    rowOf.emplace(rd[0], cc[static_cast<size_t>(r)].idx[0]);
    colOf.emplace(rd[1], cc[static_cast<size_t>(r)].idx[1]);
  }

  bool fp = isFloat(ck);
  llvm::Type *accTy = L.llvmType(ck);
  llvm::Function *f = b.GetInsertBlock()->getParent();
  llvm::BasicBlock *pre = b.GetInsertBlock();
  llvm::BasicBlock *header = llvm::BasicBlock::Create(L.ctx, "dot.k", f);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(L.ctx, "dot.done", f);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  llvm::PHINode *k = b.CreatePHI(L.i32(), 2, "k");
  k->addIncoming(L.c32(0), pre);
  std::vector<llvm::PHINode *> acc;
  for (llvm::Value *v : c.regs) {
    acc.push_back(b.CreatePHI(accTy, 2));
    acc.back()->addIncoming(v, pre);
  }
  auto precision = op.attrs.find("precision");
  bool tf32 = precision != op.attrs.end() && precision->second.s == "tf32";
  auto operand = [&](llvm::Value *buf, llvm::Value *index) {
    llvm::Value *v = b.CreateLoad(st, b.CreateGEP(st, buf, index));
    if (tf32) {  // the upper 19 bits, as on tensor cores (a NaN stays one)
      llvm::Value *cut = b.CreateBitCast(b.CreateAnd(b.CreateBitCast(v, b.getInt32Ty()), 0xffffe000u), v->getType());
      v = b.CreateSelect(b.CreateFCmpUNO(v, v), v, cut);
    }
    if (fp) return v->getType() == accTy ? v : b.CreateFPExt(v, accTy);
    return b.CreateSExt(v, accTy);
  };
  std::map<int64_t, llvm::Value *> aRow, bCol;
  for (auto &[r0, m] : rowOf) aRow[r0] = operand(base, b.CreateAdd(b.CreateMul(m, L.c32(K)), k));
  for (auto &[r1, n] : colOf) bCol[r1] = operand(bBase, b.CreateAdd(b.CreateMul(k, L.c32(N)), n));
  std::vector<llvm::Value *> next;
  for (int64_t r = 0; r < numRegisters(l, ct.shape); ++r) {
    std::vector<int64_t> rd = regDims(l, ct.shape, r);
    llvm::Value *x = aRow[rd[0]], *y = bCol[rd[1]], *s = acc[static_cast<size_t>(r)];
    next.push_back(fp ? b.CreateIntrinsic(llvm::Intrinsic::fma, {accTy}, {x, y, s}) : b.CreateAdd(s, b.CreateMul(x, y)));
  }
  llvm::Value *kNext = b.CreateAdd(k, L.c32(1));
  k->addIncoming(kNext, b.GetInsertBlock());
  for (size_t r = 0; r < acc.size(); ++r) acc[r]->addIncoming(next[r], b.GetInsertBlock());
  b.CreateCondBr(b.CreateICmpSLT(kNext, L.c32(K)), header, exit);
  b.SetInsertPoint(exit);
  // The loop exits after its last step: the result is that step's sums.
  return {false, l, next};
}

} // namespace twintile::backend
