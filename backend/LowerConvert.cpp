//===- LowerConvert.cpp - values in registers, and changing their layout --===//
//
// Each IR value lowers once, in the layout assignLayouts chose. A user that
// needs it in another layout gets it converted here: recomputed in the new
// layout when its definition is cheap index arithmetic (arange, splat,
// broadcast and elementwise ops over them, within a small budget), else
// written to shared memory by its holders and read back by the new ones.
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

#include <numeric>

namespace twintile::backend {

using namespace twintile::ir;

const Layout &LowerContext::layoutOf(const Value *v) const {
  auto it = layouts.find(v);
  if (it == layouts.end()) throw InternalError("a tile value without a layout", v->def ? v->def->loc : current ? current->loc : func.loc);
  return it->second;
}

void LowerContext::set(const Value *v, TileVal t) { values[v] = std::move(t); }

llvm::Value *LowerContext::scalar(const Value *v) {
  auto it = values.find(v);
  if (it == values.end() || !it->second.scalar)
    throw InternalError(it == values.end() ? "a scalar operand used before it is lowered" : "a tile operand used as a scalar",
                        current ? current->loc : func.loc);
  return it->second.regs[0];
}

TileVal LowerContext::get(const Value *v, const Layout *want) {
  auto it = values.find(v);
  if (it == values.end()) throw InternalError("an operand used before it is lowered", current ? current->loc : func.loc);
  if (it->second.scalar || !want || it->second.layout == *want) return it->second;
  auto key = std::make_pair(v, toString(*want));
  for (auto level = remat.rbegin(); level != remat.rend(); ++level)
    if (auto hit = level->find(key); hit != level->end()) return hit->second;
  TileVal r = recomputable(v) ? lowerPure(*this, *v->def, want) : throughShared(*this, v->type, it->second, *want, *current);
  remat.back().emplace(key, r);
  return r;
}

std::vector<llvm::Value *> narrowedInPairs(LowerContext &L, const Type &type, const TileVal &t) {
  std::vector<llvm::Value *> regs = t.regs;
  if ((type.elem != ScalarKind::F16 && type.elem != ScalarKind::BF16) || type.rank() == 0) return regs;
  size_t last = type.shape.size() - 1;
  int spt = planDims(t.layout, type.shape)[last].spt;
  llvm::IRBuilder<> &b = L.b;
  for (size_t r = 0; r + 1 < regs.size(); ++r) {
    std::vector<int64_t> here = regDims(t.layout, type.shape, static_cast<int64_t>(r)), next = here;
    if (spt < 2 || here[last] % 2 || here[last] % spt == spt - 1) continue;  // a word's first half
    next[last] += 1;
    if (regIndex(t.layout, type.shape, next) != static_cast<int64_t>(r + 1)) continue;
    llvm::Value *lo = narrowedFrom(regs[r]), *hi = narrowedFrom(regs[r + 1]);
    if (!lo || !hi) continue;
    llvm::Value *pair = b.CreateBitCast(narrowedWord(L, type.elem, lo, hi), llvm::FixedVectorType::get(L.llvmType(type.elem), 2));
    regs[r] = b.CreateExtractElement(pair, uint64_t(0));
    regs[r + 1] = b.CreateExtractElement(pair, uint64_t(1));
    ++r;
  }
  return regs;
}

/// The registers of `l` that move together through shared memory: for each
/// register starting a run of `w` consecutive elements along the last dim,
/// the run's registers in order; `w` is the widest power of two, at most 16
/// bytes, that divides the thread's runs there, the tile's last dim and the
/// row length `rowLen` of the array (so every run starts `w` elements
/// aligned). Width 1 for a 0-d tile.
struct SharedRuns {
  int w = 1;
  std::vector<std::vector<size_t>> groups;
};

SharedRuns sharedRuns(const Layout &l, const Shape &shape, int64_t rowLen, int64_t elemBytes, size_t regs) {
  SharedRuns out;
  if (!shape.empty()) {
    size_t last = shape.size() - 1;
    int w = std::gcd(planDims(l, shape)[last].spt, static_cast<int>(std::max<int64_t>(1, 16 / elemBytes)));
    while (w > 1 && (shape[last] % w || rowLen % w)) w /= 2;
    out.w = w;
  }
  for (size_t r = 0; r < regs; ++r) {
    if (out.w == 1) {
      out.groups.push_back({r});
      continue;
    }
    std::vector<int64_t> rd = regDims(l, shape, static_cast<int64_t>(r));
    if (rd.back() % out.w) continue;
    std::vector<size_t> g;
    for (int j = 0; j < out.w; ++j, ++rd.back()) g.push_back(static_cast<size_t>(regIndex(l, shape, rd)));
    out.groups.push_back(std::move(g));
  }
  return out;
}

TileVal throughShared(LowerContext &L, const Type &type, const TileVal &t, const Layout &want, const Op &at,
                      const Shape *readShape, bool ownersOnly) {
  llvm::IRBuilder<> &b = L.b;
  llvm::Type *st = L.storageType(type.elem);
  int64_t elemBytes = static_cast<int64_t>(L.mod.getDataLayout().getTypeAllocSize(st));
  // Rows a multiple of 128 bytes long would all start in bank 0: then each
  // row gets 16 bytes of padding, so that the rows a warp touches at once
  // (the MMA layout writes eight rows four lanes at a time) spread over the
  // banks. Not for reshape, whose read shape is another.
  Shape stored = type.shape;
  if (!readShape && type.rank() >= 2 && stored.back() * elemBytes % 128 == 0) stored.back() += 16 / elemBytes;
  int64_t n = numElements(stored);
  // A tile larger than the room the plan gives it goes in chunks of that
  // order (SharedPlan.cpp), each thread writing and then reading the
  // elements of the chunk it holds.
  int64_t chunk = std::max<int64_t>(1, nextWindow(L, at).bytes / elemBytes);
  const std::vector<RegCoord> &from = L.coords(t.layout, type.shape);
  const Shape &shape = readShape ? *readShape : type.shape;
  const std::vector<RegCoord> &to = L.coords(want, shape);
  std::vector<llvm::Value *> fromLin, toLin;
  for (const RegCoord &c : from) fromLin.push_back(linearIndex(L, c.idx, stored));
  for (const RegCoord &c : to) toLin.push_back(linearIndex(L, c.idx, readShape ? shape : stored));
  TileVal out{false, want, std::vector<llvm::Value *>(to.size(), nullptr)};
  for (int64_t lo = 0; lo < n; lo += chunk) {
    bool whole = chunk >= n;
    // In this chunk, and where in it (0 outside, an address in bounds).
    auto place = [&](llvm::Value *lin, llvm::Value *&in) {
      if (whole) return lin;
      in = b.CreateAnd(b.CreateICmpSGE(lin, L.c32(lo)), b.CreateICmpSLT(lin, L.c32(std::min(n, lo + chunk))));
      return b.CreateSelect(in, b.CreateSub(lin, L.c32(lo)), L.c32(0));
    };
    llvm::Value *base = sharedBase(L, std::min(n, chunk) * elemBytes, at);
    barrierBeforeWindow(L);
    if (whole && !ownersOnly) {
      // One whole tile, every register writing: runs move as single aligned
      // vector accesses (LLVM's vectorizer cannot prove the alignment of
      // computed addresses, and split a 16-byte row into four accesses).
      auto vecType = [&](int w) { return llvm::FixedVectorType::get(st, static_cast<unsigned>(w)); };
      auto align = [&](int w) { return llvm::Align(static_cast<uint64_t>(w * elemBytes)); };
      if (fitsStmatrix(L, type, t.layout) && stored.back() * elemBytes % 16 == 0) {
        storeByStmatrix(L, type, t, [&](llvm::Value *row, llvm::Value *col) {
          return b.CreateGEP(st, base, b.CreateAdd(b.CreateMul(row, L.c32(stored.back())), col));
        });
      } else {
        // Pairs narrow together (one cvt.rn.f16x2), as a run stores them.
        std::vector<llvm::Value *> written = narrowedInPairs(L, type, t);
        SharedRuns writes = sharedRuns(t.layout, type.shape, stored.back(), elemBytes, t.regs.size());
        for (const std::vector<size_t> &g : writes.groups) {
          llvm::Value *v = llvm::PoisonValue::get(vecType(writes.w));
          for (size_t j = 0; j < g.size(); ++j) v = b.CreateInsertElement(v, toStorage(L, written[g[j]], type.elem), j);
          b.CreateAlignedStore(v, b.CreateGEP(st, base, fromLin[g[0]]), align(writes.w));
        }
      }
      barrier(L);
      SharedRuns reads = sharedRuns(want, shape, (readShape ? shape : stored).back(), elemBytes, to.size());
      for (const std::vector<size_t> &g : reads.groups) {
        llvm::Value *v = b.CreateAlignedLoad(vecType(reads.w), b.CreateGEP(st, base, toLin[g[0]]), align(reads.w));
        for (size_t j = 0; j < g.size(); ++j) out.regs[g[j]] = fromStorage(L, b.CreateExtractElement(v, j), type.elem);
      }
      return out;
    }
    // A chunk's stores, or the owners', are guarded one by one. Copies of an
    // element hold the same value, so every register may write.
    for (size_t r = 0; r < t.regs.size(); ++r) {
      llvm::Value *in = nullptr;
      llvm::Value *slot = place(fromLin[r], in);
      ifThen(L, andMaybe(L, in, ownersOnly ? from[r].canonical : nullptr),
             [&] { b.CreateStore(toStorage(L, t.regs[r], type.elem), b.CreateGEP(st, base, slot)); });
    }
    barrier(L);
    for (size_t r = 0; r < to.size(); ++r) {
      llvm::Value *in = nullptr;
      llvm::Value *v = fromStorage(L, b.CreateLoad(st, b.CreateGEP(st, base, place(toLin[r], in))), type.elem);
      out.regs[r] = out.regs[r] && in ? b.CreateSelect(in, v, out.regs[r]) : v;
    }
  }
  return out;
}

} // namespace twintile::backend
