//===- LowerReduce.cpp - reductions and cumsum ----------------------------===//
//
// A reduction along tile dim `a` runs at the three levels of the layout, as
// Triton's does:
//   1. registers: each thread combines its registers along a;
//   2. lanes: a butterfly of shfl.sync.bfly over the lane bits of a, after
//      which every lane along a holds the warp's partial;
//   3. warps: when warps split a, each writes its partial to shared memory
//      and every thread combines the warps' partials; to a scalar, each
//      lane reads one warp's partial and a second butterfly combines them.
// Elements a thread holds only as a wrapped copy are replaced by the
// identity first, so each element counts once. The result has the sliced
// layout: every thread ends with the values it needs, without broadcast.
// f16 and bf16 accumulate in f32, argmax/argmin carry (value, index) pairs
// and keep the first extreme, NaN ignored (IR.h).
//
// `reduce` combines with its region, inlined at every combination. It has no
// identity to stand for a wrapped copy, so each partial carries a flag
// instead (does it hold any element?), which folds away where nothing wraps.
// Over several tiles at once, each partial is an LLVM struct of one element
// per tile: selects take it whole, shuffles and shared memory field by
// field, and the region unpacks it; the results are unpacked at the end. An
// f16 or bf16 element travels as the i32 of its bits: LLVM 19's NVPTX
// merges neighbouring 16-bit loads into f16 vectors and cannot select a
// bf16 taken out of one.
//
// cumsum and `scan` are inclusive scans at the same three levels, as
// Triton's are, when the layout tiles the axis exactly (no wrapped copies):
//   1. registers: each run of spt consecutive elements a thread holds is
//      scanned in order;
//   2. lanes: a Kogge-Stone scan of the runs' totals by shfl.sync.up over the
//      lanes along the axis; each run then takes the total of the lanes
//      before it (shfl.sync.up by one lane);
//   3. warps: the last lane of each warp writes the warp's total to shared
//      memory, and each run takes the totals of the warps before it;
// and when a thread holds several runs along the axis (the tile is larger
// than the layout's cover), run c takes the tile totals of runs 0..c-1.
// Every combination keeps its operands in order (earlier elements on the
// left), which is all an associative scan needs (IR.h). A layout that wraps
// along the axis, or whose warps hold several blocks of it (wgmma's rows),
// scans through shared memory instead (Hillis-Steele, log2 n
// steps; each step combines an element with the one s places before it).
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"
#include "backend/Target.h"

#include <llvm/IR/Intrinsics.h>

#include <cassert>
#include <limits>

namespace twintile::backend {

using namespace twintile::ir;

/// The tiles reduce or scan `op` combines together, in layout `l`: each
/// register the struct of the tiles' registers (one tile: itself).
static TileVal combinedOperands(LowerContext &L, const Op &op, const Layout &l);
/// A struct field's form of an element (an f16 or bf16 as the i32 of its
/// bits), and back to element type `t`.
static llvm::Value *packedField(LowerContext &L, llvm::Value *v);
static llvm::Value *unpackedField(LowerContext &L, llvm::Value *v, llvm::Type *t);
/// combine(earlier, later) for a scan's elements.
using Combine = std::function<llvm::Value *(llvm::Value *, llvm::Value *)>;
/// cumsum/scan's inclusive scan of `vals` (layout `l`) along the op's axis,
/// in place: in registers, lanes and warps where `l` tiles the axis exactly,
/// else through shared memory.
static void scanInRegisters(LowerContext &L, const Op &op, const Layout &l, std::vector<llvm::Value *> &vals,
                            const Combine &combine);
static void scanThroughShared(LowerContext &L, const Op &op, const Layout &l, std::vector<llvm::Value *> &vals,
                              const Combine &combine);
/// The region of reduce or scan `op` applied to scalars x and y (structs of
/// one scalar per tile, where it combines several), emitted here.
static llvm::Value *combineRegion(LowerContext &L, const Op &op, llvm::Value *x, llvm::Value *y);

namespace {

struct Acc {
  llvm::Value *value;
  llvm::Value *index;  // argmax/argmin only
  llvm::Value *holds;  // reduce only: i1, whether the partial holds any element
};

} // namespace

TileVal lowerReduce(LowerContext &L, const Op &op) {
  llvm::IRBuilder<> &b = L.b;
  const Value *inV = op.operand(0);
  const Type &in = inV->type;
  bool user = op.kind == OpKind::Reduce;  // the region combines, in the element type
  ScalarKind k = in.elem, acc = user ? k : computeKind(k);
  int axis = static_cast<int>(op.intAttr("axis"));
  bool arg = op.kind == OpKind::Argmax || op.kind == OpKind::Argmin;
  bool second = arg || user;  // a second value per partial: the index, or whether it holds any
  bool wantMax = op.kind == OpKind::Max || op.kind == OpKind::Argmax;
  bool fp = isFloat(k), u = unsignedOrder(k);
  const Layout &l = L.layoutOf(inV);
  TileVal x = user ? combinedOperands(L, op, l) : L.get(inV, &l);
  llvm::Type *accTy = user ? x.regs.front()->getType() : L.llvmType(acc);

  // What a wrapped copy counts as; reduce has nothing to use: its partials carry `holds`.
  llvm::Value *identity = nullptr;
  if (!user) {
    if (op.kind == OpKind::Sum)  // -0 for floats: x + -0 is x, signed zeros too
      identity = fp ? llvm::ConstantFP::getNegativeZero(accTy) : llvm::Constant::getNullValue(accTy);
    else if (fp) identity = llvm::ConstantFP::getNaN(accTy);  // ignored by maxnum/minnum
    else {  // the least or greatest number of the kind (i1 holds 0 or 1: unsigned)
      unsigned bits = accTy->getIntegerBitWidth();
      llvm::APInt least = u ? llvm::APInt::getMinValue(bits) : llvm::APInt::getSignedMinValue(bits);
      llvm::APInt most = u ? llvm::APInt::getMaxValue(bits) : llvm::APInt::getSignedMaxValue(bits);
      identity = llvm::ConstantInt::get(L.ctx, wantMax ? least : most);
    }
  }
  llvm::Value *noIndex = L.c32(std::numeric_limits<int32_t>::max());

  // Combines two partials; for arg reductions, the better value, the lower
  // index on ties (no NaN reaches it: step 1 takes none and maps a first
  // one to the worst value).
  // `acrossLanes`: every lane along the axis must come out with the same
  // bits (all of them store the partial), so a sum there rounds as it goes
  // under --math=fast: fma(a, b, shuffled) in one lane would differ from
  // the partner's fma of its own product.
  auto combine = [&](Acc p, Acc q, bool acrossLanes = false) -> Acc {
    if (user) {  // a partial without elements leaves the other as it is
      llvm::Value *both = combineRegion(L, op, p.value, q.value);
      llvm::Value *v = b.CreateSelect(b.CreateAnd(p.holds, q.holds), both, b.CreateSelect(p.holds, p.value, q.value));
      return {v, nullptr, b.CreateOr(p.holds, q.holds)};
    }
    if (!arg) {
      return {binary(L, op.kind, p.value, q.value, acc, acrossLanes), nullptr, nullptr};
    }
    llvm::Value *better =
        fp ? b.CreateFCmp(wantMax ? llvm::CmpInst::FCMP_OGT : llvm::CmpInst::FCMP_OLT, q.value, p.value)
           : b.CreateICmp(wantMax ? (u ? llvm::CmpInst::ICMP_UGT : llvm::CmpInst::ICMP_SGT)
                                  : (u ? llvm::CmpInst::ICMP_ULT : llvm::CmpInst::ICMP_SLT),
                          q.value, p.value);
    llvm::Value *tie = fp ? b.CreateFCmpOEQ(q.value, p.value) : b.CreateICmpEQ(q.value, p.value);
    llvm::Value *take = b.CreateOr(better, b.CreateAnd(tie, b.CreateICmpSLT(q.index, p.index)));
    return {b.CreateSelect(take, q.value, p.value), b.CreateSelect(take, q.index, p.index), nullptr};
  };

  const std::vector<RegCoord> &cs = L.coords(l, in.shape);
  std::vector<DimPlan> plan = planDims(l, in.shape);
  Layout outL = l.sliced(axis);
  Shape outShape = in.shape;
  outShape.erase(outShape.begin() + axis);
  int64_t nOut = numRegisters(outL, outShape);

  // 1. Within the thread.
  std::vector<Acc> part(static_cast<size_t>(nOut));
  std::vector<bool> started(static_cast<size_t>(nOut), false);
  int64_t nRegs = numRegisters(l, in.shape);
  for (int64_t i = 0; i < nRegs; ++i) {
    // An arg reduction visits a thread's elements from the highest index
    // down (registers along the axis rise with it): each one visited has a
    // lower index than the partial's, so it wins a tie by `>=` alone.
    int64_t r = arg ? nRegs - 1 - i : i;
    std::vector<int64_t> rd = regDims(l, in.shape, r);
    std::vector<int64_t> od = rd;
    od.erase(od.begin() + axis);
    size_t o = static_cast<size_t>(regIndex(outL, outShape, od));
    const RegCoord &c = cs[static_cast<size_t>(r)];
    llvm::Value *reg = x.regs[static_cast<size_t>(r)];
    Acc e{user ? reg : widen(L, reg, k), arg ? c.idx[static_cast<size_t>(axis)] : nullptr, user ? b.getTrue() : nullptr};
    if (llvm::Value *inside = c.inside[static_cast<size_t>(axis)]) {
      if (user) e.holds = inside;
      else e.value = b.CreateSelect(inside, e.value, identity);
      if (arg) e.index = b.CreateSelect(inside, e.index, noIndex);
    }
    // A NaN never wins. Later elements need nothing for it: the ordered
    // comparisons never take a NaN. A thread's first element, the partial
    // the others are compared with, enters as the worst value (-inf for
    // argmax) with no index if it is NaN: it loses every tie, even to a real
    // -inf, so no combine meets a NaN (0 when all are NaN, as IR.h says).
    if (arg && fp && !started[o]) {
      llvm::Value *nan = b.CreateFCmpUNO(e.value, e.value);
      e.value = b.CreateSelect(nan, llvm::ConstantFP::getInfinity(accTy, wantMax), e.value);
      e.index = b.CreateSelect(nan, noIndex, e.index);
    }
    if (!started[o]) part[o] = e;
    else if (!arg) part[o] = combine(part[o], e);
    else {
      // No worse than the partial: take it (a wrapped copy, never).
      llvm::Value *take =
          fp ? b.CreateFCmp(wantMax ? llvm::CmpInst::FCMP_OGE : llvm::CmpInst::FCMP_OLE, e.value, part[o].value)
             : b.CreateICmp(wantMax ? (u ? llvm::CmpInst::ICMP_UGE : llvm::CmpInst::ICMP_SGE)
                                    : (u ? llvm::CmpInst::ICMP_ULE : llvm::CmpInst::ICMP_SLE),
                            e.value, part[o].value);
      if (llvm::Value *inside = c.inside[static_cast<size_t>(axis)]) take = b.CreateAnd(take, inside);
      part[o] = {b.CreateSelect(take, e.value, part[o].value), b.CreateSelect(take, e.index, part[o].index), nullptr};
    }
    started[o] = true;
  }

  // 2. Across the lanes along the axis.
  int p = l.dims[static_cast<size_t>(axis)];
  int laneStride = 1;
  for (int q : l.order) {
    if (q == p) break;
    laneStride *= l.threadsPerWarp[q];
  }
  for (int m = 1; m < l.threadsPerWarp[p]; m *= 2)
    for (Acc &a : part)
      a = combine(a, {shuffleXor(L, a.value, m * laneStride), arg ? shuffleXor(L, a.index, m * laneStride) : nullptr,
                      user ? shuffleXor(L, a.holds, m * laneStride) : nullptr}, true);

  // A region is commutative as a value, not necessarily to the bit (a
  // select-based max of -0 and +0; under --math=fast, an fma of one lane's
  // own product): the lanes along the axis may end the butterfly with
  // different bits. Across warps the first lane's partial speaks for them
  // (step 3); within one, every lane takes the first lane's.
  int warps = l.warpsPerCTA[p];
  if (user && l.threadsPerWarp[p] > 1 && warps == 1) {
    llvm::Value *first = b.CreateSub(L.laneId(), b.CreateMul(L.laneCoord(l, p), L.c32(laneStride)));
    for (Acc &a : part)
      a = {shuffle(L, a.value, Shuffle::Idx, first), nullptr, shuffle(L, a.holds, Shuffle::Idx, first)};
  }

  // 3. Across the warps along the axis, through shared memory.
  if (warps > 1) {
    const std::vector<RegCoord> &oc = L.coords(outL, outShape);
    int64_t slots = std::max<int64_t>(1, numElements(outShape));
    int64_t valueBytes = static_cast<int64_t>(L.mod.getDataLayout().getTypeAllocSize(accTy));
    int64_t indexOffset = (warps * slots * valueBytes + 3) / 4 * 4;  // i32 indices, 4-byte aligned
    llvm::Value *base = sharedBase(L, indexOffset + (second ? warps * slots * 4 : 0), op);
    llvm::Value *indexBase = second ? b.CreateGEP(b.getInt8Ty(), base, b.getInt64(static_cast<uint64_t>(indexOffset))) : nullptr;
    llvm::Value *wc = L.warpCoord(l, p), *lc = L.laneCoord(l, p);
    barrierBeforeWindow(L);
    for (size_t o = 0; o < part.size(); ++o) {
      llvm::Value *slot = b.CreateAdd(b.CreateMul(wc, L.c32(slots)), outShape.empty() ? L.c32(0) : linearIndex(L, oc[o].idx, outShape));
      llvm::Value *at = b.CreateGEP(accTy, base, slot), *indexAt = second ? b.CreateGEP(b.getInt32Ty(), indexBase, slot) : nullptr;
      if (!user) {
        // The built-in combines are commutative to the bit (max.f32 orders
        // -0 below +0; ties in arg reductions go to the lower index), so
        // after the butterfly every lane along the axis holds the same bits:
        // all of them store (as Triton's reductions do), with no lane test
        // or predicate.
        b.CreateStore(part[o].value, at);
        if (arg) b.CreateStore(part[o].index, indexAt);
        continue;
      }
      // A region is commutative as a value, not necessarily to the bit (a
      // select-based max of -0 and +0): its lanes may disagree, and the
      // first along the axis speaks for them.
      llvm::Value *first = b.CreateICmpEQ(lc, L.c32(0));
      storeSharedIf(L, first, part[o].value, at);
      storeSharedIf(L, first, b.CreateZExt(part[o].holds, b.getInt32Ty()), indexAt);
    }
    barrier(L);
    if (outShape.empty() && !user && !arg) {
      // To a scalar, as Triton's reductions do: lane i reads warp i % warps's
      // partial and a butterfly over the low lane bits combines them, one
      // value live per thread where reading all partials holds `warps`.
      // On the corpus (sm_90a, fast math, hints) registers fall in 9 of 39
      // specializations and rise in 3 (softmax<f32,256>: 16 -> 15, Triton
      // 15), for 2-5 more PTX instructions per reduction; precise and
      // unhinted layernorm<*,1024> rises by 6-7 (its read address lives
      // across the IEEE division's slow path).
      assert((warps & (warps - 1)) == 0 && "warps along an axis are a power of two");
      llvm::Value *slot = b.CreateAnd(L.laneId(), L.c32(warps - 1));
      Acc total{loadShared(L, accTy, b.CreateGEP(accTy, base, slot)), nullptr, nullptr};
      for (int m = 1; m < warps; m *= 2) total = combine(total, {shuffleXor(L, total.value, m), nullptr, nullptr}, true);
      part[0] = total;
    } else {
      for (size_t o = 0; o < part.size(); ++o) {
        llvm::Value *lin = outShape.empty() ? L.c32(0) : linearIndex(L, oc[o].idx, outShape);
        Acc total{nullptr, nullptr, nullptr};
        for (int w = 0; w < warps; ++w) {
          llvm::Value *slot = b.CreateAdd(L.c32(w * slots), lin);
          llvm::Value *more = second ? b.CreateLoad(b.getInt32Ty(), b.CreateGEP(b.getInt32Ty(), indexBase, slot)) : nullptr;
          Acc e{loadShared(L, accTy, b.CreateGEP(accTy, base, slot)), arg ? more : nullptr,
                user ? b.CreateICmpNE(more, L.c32(0)) : nullptr};
          total = w == 0 ? e : combine(total, e);
        }
        part[o] = total;
      }
    }
  }

  TileVal out{outShape.empty(), outShape.empty() ? Layout{} : outL, {}};
  for (Acc &a : part) {
    if (arg) out.regs.push_back(b.CreateSelect(b.CreateICmpEQ(a.index, noIndex), L.c32(0), a.index));
    else out.regs.push_back(user ? a.value : narrow(L, a.value, k));
  }
  (void)plan;
  return out;
}

TileVal lowerCumsum(LowerContext &L, const Op &op) {
  const Value *inV = op.operand(0);
  const Type &in = inV->type;
  bool user = op.kind == OpKind::Scan;  // the region combines, in the element type
  ScalarKind k = in.elem, acc = user ? k : computeKind(k);
  size_t axis = static_cast<size_t>(op.intAttr("axis"));
  const Layout &l = L.layoutOf(op.result());
  TileVal x = user ? combinedOperands(L, op, l) : L.get(inV, &l);
  std::vector<llvm::Value *> vals;
  for (llvm::Value *r : x.regs) vals.push_back(user ? r : widen(L, r, k));
  // `earlier` then `later`, in that order.
  auto combine = [&](llvm::Value *earlier, llvm::Value *later) {
    return user ? combineRegion(L, op, earlier, later) : binary(L, OpKind::Add, earlier, later, acc);
  };
  if (!planDims(l, in.shape)[axis].inOrder()) scanThroughShared(L, op, l, vals, combine);
  else scanInRegisters(L, op, l, vals, combine);
  TileVal out{false, l, {}};
  for (llvm::Value *v : vals) out.regs.push_back(user ? v : narrow(L, v, k));
  return out;
}

static void scanInRegisters(LowerContext &L, const Op &op, const Layout &l, std::vector<llvm::Value *> &vals, const Combine &combine) {
  llvm::IRBuilder<> &b = L.b;
  const Shape &shape = op.operand(0)->type.shape;
  size_t axis = static_cast<size_t>(op.intAttr("axis"));
  DimPlan d = planDims(l, shape)[axis];
  int p = d.parent, spt = d.spt, lanes = d.tpw, warps = d.wpc;
  int64_t runs = d.regs / spt;
  int laneStride = 1;
  for (int q : l.order) {
    if (q == p) break;
    laneStride *= l.threadsPerWarp[q];
  }
  llvm::Value *lc = L.laneCoord(l, p), *wc = L.warpCoord(l, p);
  // The lines along the axis (one per register of the sliced layout), each
  // as its registers in order along the axis.
  Layout lineL = l.sliced(static_cast<int>(axis));
  Shape lineShape = shape;
  lineShape.erase(lineShape.begin() + static_cast<std::ptrdiff_t>(axis));
  int64_t nLines = numRegisters(lineL, lineShape);
  std::vector<std::vector<size_t>> line(static_cast<size_t>(nLines));
  for (int64_t r = 0; r < static_cast<int64_t>(vals.size()); ++r) {
    std::vector<int64_t> rd = regDims(l, shape, r);
    int64_t along = rd[axis];
    rd.erase(rd.begin() + static_cast<std::ptrdiff_t>(axis));
    std::vector<size_t> &regs = line[static_cast<size_t>(regIndex(lineL, lineShape, rd))];
    regs.resize(static_cast<size_t>(d.regs));
    regs[static_cast<size_t>(along)] = static_cast<size_t>(r);
  }
  auto reg = [&](size_t o, int64_t run, int j) -> llvm::Value *& { return vals[line[o][static_cast<size_t>(run * spt + j)]]; };
  // What comes before each run from other lanes, warps and runs gathers in
  // one prefix per run (`has`: whether there is any; null: always), applied
  // to the run's elements once at the end, as Triton's scan does. With an
  // identity (cumsum's -0, which leaves every sum as it is, signed zeros
  // too) an absent part is the identity instead of a flag.
  llvm::Value *identity = nullptr;
  if (op.kind == OpKind::Cumsum) {
    llvm::Type *ty = vals.front()->getType();
    identity = ty->isFloatingPointTy() ? llvm::ConstantFP::getNegativeZero(ty) : llvm::Constant::getNullValue(ty);
  }
  struct Prefix {
    llvm::Value *value = nullptr, *has = nullptr;
  };
  std::vector<std::vector<Prefix>> before(static_cast<size_t>(nLines), std::vector<Prefix>(static_cast<size_t>(runs)));
  // The prefix of run c of line o becomes `pre` (when `has`) followed by it.
  auto prepend = [&](size_t o, int64_t run, llvm::Value *has, llvm::Value *pre) {
    Prefix &p = before[o][static_cast<size_t>(run)];
    if (identity && has) pre = b.CreateSelect(has, pre, identity), has = nullptr;
    if (!p.value) {
      p = {pre, has};
    } else if (!has && !p.has) {
      p.value = combine(pre, p.value);
    } else {
      llvm::Value *both = combine(pre, p.value);
      if (!has) p.value = b.CreateSelect(p.has, both, pre);
      else if (!p.has) p.value = b.CreateSelect(has, both, p.value);
      else p.value = b.CreateSelect(b.CreateAnd(has, p.has), both, b.CreateSelect(has, pre, p.value));
      p.has = has && p.has ? b.CreateOr(has, p.has) : nullptr;
    }
  };

  // 1. Within each run; totals[o][c]: what the thread's run c sums to.
  std::vector<std::vector<llvm::Value *>> totals(static_cast<size_t>(nLines));
  for (size_t o = 0; o < line.size(); ++o)
    for (int64_t c = 0; c < runs; ++c) {
      for (int j = 1; j < spt; ++j) reg(o, c, j) = combine(reg(o, c, j - 1), reg(o, c, j));
      totals[o].push_back(reg(o, c, spt - 1));
    }

  // 2. Across the lanes along the axis: totals become the warp's inclusive
  // prefix of run totals (what the lanes before contribute is taken in
  // step 5, after the warps' and runs').
  if (lanes > 1)
    for (size_t o = 0; o < line.size(); ++o)
      for (int64_t c = 0; c < runs; ++c) {
        llvm::Value *&t = totals[o][static_cast<size_t>(c)];
        for (int m = 1; m < lanes; m *= 2)
          t = b.CreateSelect(b.CreateICmpUGE(lc, L.c32(m)), combine(shuffle(L, t, Shuffle::Up, L.c32(m * laneStride)), t), t);
      }

  // 3. Across the warps: the last lane writes each warp's totals; each run
  // takes the totals of the warps before it, and learns the tile's total.
  std::vector<std::vector<llvm::Value *>> tileTotal = totals;  // per line and run, once complete
  if (warps > 1) {
    // Slot (line, run, warp), the line by its coordinates: threads apart
    // along the other dims hold other lines under the same register. A
    // run's warps side by side come back as one vector load, run by run,
    // not all runs' totals at once (row_cumsum<f32,1024>: 28 registers ->
    // 27; unhinted 45 -> 38).
    llvm::Type *ty = vals.front()->getType();
    int64_t slots = std::max<int64_t>(1, numElements(lineShape)) * runs;
    int64_t bytes = static_cast<int64_t>(L.mod.getDataLayout().getTypeAllocSize(ty));
    const std::vector<RegCoord> &lc2 = L.coords(lineL, lineShape);
    auto lineSlot = [&](size_t o, int64_t c) {
      llvm::Value *at = lineShape.empty() ? L.c32(0) : linearIndex(L, lc2[o].idx, lineShape);
      return b.CreateAdd(b.CreateMul(at, L.c32(runs)), L.c32(c));
    };
    llvm::Value *base = sharedBase(L, warps * slots * bytes, op);
    barrierBeforeWindow(L);
    llvm::Value *last = b.CreateICmpEQ(lc, L.c32(lanes - 1));
    for (size_t o = 0; o < line.size(); ++o)
      for (int64_t c = 0; c < runs; ++c) {
        llvm::Value *slot = b.CreateAdd(b.CreateMul(lineSlot(o, c), L.c32(warps)), wc);
        storeSharedIf(L, last, totals[o][static_cast<size_t>(c)], b.CreateGEP(ty, base, slot));
      }
    barrier(L);
    for (size_t o = 0; o < line.size(); ++o)
      for (int64_t c = 0; c < runs; ++c) {
        // prefix[w]: the totals of warps 0..w-1 combined.
        llvm::Value *prefix = nullptr, *before = nullptr, *at = b.CreateMul(lineSlot(o, c), L.c32(warps));
        for (int w = 0; w < warps; ++w) {
          llvm::Value *t = loadShared(L, ty, b.CreateGEP(ty, base, b.CreateAdd(at, L.c32(w))));
          if (w > 0) before = before ? b.CreateSelect(b.CreateICmpEQ(wc, L.c32(w)), prefix, before) : prefix;
          prefix = prefix ? combine(prefix, t) : t;
        }
        prepend(o, c, b.CreateICmpUGE(wc, L.c32(1)), before);
        tileTotal[o][static_cast<size_t>(c)] = prefix;
      }
  } else if (lanes > 1 && runs > 1) {
    // The tile's total of each run is the last lane's inclusive prefix.
    llvm::Value *last = b.CreateAdd(b.CreateSub(L.laneId(), b.CreateMul(lc, L.c32(laneStride))), L.c32((lanes - 1) * laneStride));
    for (size_t o = 0; o < line.size(); ++o)
      for (int64_t c = 0; c < runs; ++c) tileTotal[o][static_cast<size_t>(c)] = shuffle(L, totals[o][static_cast<size_t>(c)], Shuffle::Idx, last);
  }

  // 4. Run c after runs 0..c-1 of the whole tile.
  for (size_t o = 0; o < line.size(); ++o) {
    llvm::Value *carried = tileTotal[o][0];
    for (int64_t c = 1; c < runs; ++c) {
      prepend(o, c, nullptr, carried);
      if (c + 1 < runs) carried = combine(carried, tileTotal[o][static_cast<size_t>(c)]);
    }
  }

  // 5. Across the lanes, as Triton's scan does: with what comes before its
  // warp, a lane's inclusive total is its run's last element, complete; the
  // lane before's is what precedes the run's other elements (lane 0: what
  // precedes the warp). Across the barrier a thread keeps its inclusive
  // total, not the lanes' prefix and its own last element: one register
  // fewer per run (row_cumsum<f32,1024>: 27 -> 23).
  std::vector<std::vector<llvm::Value *>> runLast(static_cast<size_t>(nLines), std::vector<llvm::Value *>(static_cast<size_t>(runs)));
  if (lanes > 1)
    for (size_t o = 0; o < line.size(); ++o)
      for (int64_t c = 0; c < runs; ++c) {
        Prefix &p = before[o][static_cast<size_t>(c)];
        llvm::Value *t = totals[o][static_cast<size_t>(c)];
        llvm::Value *full = !p.value ? t : p.has ? b.CreateSelect(p.has, combine(p.value, t), t) : combine(p.value, t);
        runLast[o][static_cast<size_t>(c)] = full;
        llvm::Value *up = shuffle(L, full, Shuffle::Up, L.c32(laneStride)), *later = b.CreateICmpUGE(lc, L.c32(1));
        if (!p.value) {
          prepend(o, c, later, up);
        } else {  // a lane after the first always has elements before it
          p.value = b.CreateSelect(later, up, p.value);
          if (p.has) p.has = b.CreateOr(later, p.has);
        }
      }

  // Each element after its prefix.
  for (size_t o = 0; o < line.size(); ++o)
    for (int64_t c = 0; c < runs; ++c) {
      const Prefix &p = before[o][static_cast<size_t>(c)];
      if (llvm::Value *last = runLast[o][static_cast<size_t>(c)]) reg(o, c, spt - 1) = last;
      if (!p.value) continue;
      for (int j = 0; j < (runLast[o][static_cast<size_t>(c)] ? spt - 1 : spt); ++j) {
        llvm::Value *&v = reg(o, c, j);
        v = p.has ? b.CreateSelect(p.has, combine(p.value, v), v) : combine(p.value, v);
      }
    }
}

static void scanThroughShared(LowerContext &L, const Op &op, const Layout &l, std::vector<llvm::Value *> &vals, const Combine &combine) {
  llvm::IRBuilder<> &b = L.b;
  const Shape &shape = op.operand(0)->type.shape;
  size_t axis = static_cast<size_t>(op.intAttr("axis"));
  llvm::Type *ty = vals.front()->getType();
  const std::vector<RegCoord> &cs = L.coords(l, shape);
  int64_t n = numElements(shape), len = shape[axis], stride = 1;
  for (size_t d = axis + 1; d < shape.size(); ++d) stride *= shape[d];
  int64_t bytes = static_cast<int64_t>(L.mod.getDataLayout().getTypeAllocSize(ty));
  // Two buffers, ping-ponged: step s adds the element s places back.
  llvm::Value *base = sharedBase(L, 2 * n * bytes, op);
  llvm::Value *bufs[2] = {base, b.CreateGEP(b.getInt8Ty(), base, b.getInt64(static_cast<uint64_t>(n * bytes)))};
  std::vector<llvm::Value *> lin;
  for (const RegCoord &c : cs) lin.push_back(linearIndex(L, c.idx, shape));
  barrierBeforeWindow(L);
  for (size_t r = 0; r < vals.size(); ++r) storeSharedIf(L, nullptr, vals[r], b.CreateGEP(ty, bufs[0], lin[r]));
  int cur = 0;
  for (int64_t s = 1; s < len; s *= 2) {
    barrier(L);
    for (size_t r = 0; r < vals.size(); ++r) {
      llvm::Value *self = loadShared(L, ty, b.CreateGEP(ty, bufs[cur], lin[r]));
      llvm::Value *has = b.CreateICmpSGE(cs[r].idx[axis], L.c32(s));
      llvm::Value *back = b.CreateSelect(has, b.CreateSub(lin[r], L.c32(s * stride)), lin[r]);
      llvm::Value *prev = loadShared(L, ty, b.CreateGEP(ty, bufs[cur], back));
      storeSharedIf(L, nullptr, b.CreateSelect(has, combine(prev, self), self), b.CreateGEP(ty, bufs[1 - cur], lin[r]));
    }
    cur = 1 - cur;
  }
  barrier(L);
  for (size_t r = 0; r < vals.size(); ++r) vals[r] = loadShared(L, ty, b.CreateGEP(ty, bufs[cur], lin[r]));
}

static llvm::Value *combineRegion(LowerContext &L, const Op &op, llvm::Value *x, llvm::Value *y) {
  llvm::IRBuilder<> &b = L.b;
  const Block &region = op.region(0);
  const Op *outer = L.current;
  size_t n = op.operands.size();  // x and y: one element per tile (a struct of them where n > 1)
  auto field = [&](llvm::Value *v, size_t i) {
    if (n == 1) return v;
    return unpackedField(L, b.CreateExtractValue(v, static_cast<unsigned>(i)), L.llvmType(region.arg(i)->type.elem));
  };
  for (size_t i = 0; i < n; ++i) {
    L.set(region.arg(i), {true, {}, {field(x, i)}});
    L.set(region.arg(n + i), {true, {}, {field(y, i)}});
  }
  for (const auto &inner : region.ops) lowerOp(L, *inner);  // scalars only (verified)
  L.current = outer;
  const Op *yield = region.terminator();
  if (n == 1) return L.scalar(yield->operand(0));
  llvm::Value *out = llvm::PoisonValue::get(x->getType());
  for (size_t i = 0; i < n; ++i)
    out = b.CreateInsertValue(out, packedField(L, L.scalar(yield->operand(i))), static_cast<unsigned>(i));
  return out;
}

static llvm::Value *packedField(LowerContext &L, llvm::Value *v) {
  llvm::IRBuilder<> &b = L.b;
  llvm::Type *t = v->getType();
  if (!t->isHalfTy() && !t->isBFloatTy()) return v;
  return b.CreateZExt(b.CreateBitCast(v, b.getInt16Ty()), b.getInt32Ty());
}

static llvm::Value *unpackedField(LowerContext &L, llvm::Value *v, llvm::Type *t) {
  llvm::IRBuilder<> &b = L.b;
  if (!t->isHalfTy() && !t->isBFloatTy()) return v;
  return b.CreateBitCast(b.CreateTrunc(v, b.getInt16Ty()), t);
}

static TileVal combinedOperands(LowerContext &L, const Op &op, const Layout &l) {
  llvm::IRBuilder<> &b = L.b;
  if (op.operands.size() == 1) return L.get(op.operand(0), &l);
  std::vector<TileVal> tiles;
  std::vector<llvm::Type *> fields;
  for (const Value *v : op.operands) {
    tiles.push_back(L.get(v, &l));
    fields.push_back(packedField(L, tiles.back().regs.front())->getType());
  }
  auto *st = llvm::StructType::get(L.ctx, fields);
  TileVal out{tiles[0].scalar, tiles[0].layout, {}};
  for (size_t r = 0; r < tiles[0].regs.size(); ++r) {
    llvm::Value *packed = llvm::PoisonValue::get(st);
    for (size_t i = 0; i < tiles.size(); ++i)
      packed = b.CreateInsertValue(packed, packedField(L, tiles[i].regs[r]), static_cast<unsigned>(i));
    out.regs.push_back(packed);
  }
  return out;
}

void setUnpacked(LowerContext &L, const Op &op, TileVal v) {
  llvm::IRBuilder<> &b = L.b;
  if (op.results.size() == 1) return L.set(op.result(), std::move(v));
  for (size_t i = 0; i < op.results.size(); ++i) {
    TileVal t{v.scalar, v.layout, {}};
    llvm::Type *elem = L.llvmType(op.result(i)->type.elem);
    for (llvm::Value *r : v.regs) t.regs.push_back(unpackedField(L, b.CreateExtractValue(r, static_cast<unsigned>(i)), elem));
    L.set(op.result(i), std::move(t));
  }
}

} // namespace twintile::backend
