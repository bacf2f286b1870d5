//===- LowerConvert.cpp - values in registers, and changing their layout --===//
//
// Each IR value lowers once, in the layout assignLayouts chose. A user that
// needs it in another layout gets it converted here: recomputed in the new
// layout when its definition is cheap index arithmetic (arange, splat,
// broadcast and elementwise ops over them, within a small budget), else
// written to shared memory by its holders and read back by the new ones.
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

#include <cassert>

namespace tt::backend {

using namespace tt::ir;

const Layout &Lowerer::layoutOf(const Value *v) const {
  auto it = layouts.find(v);
  assert(it != layouts.end() && "every tile value has a layout");
  return it->second;
}

void Lowerer::set(const Value *v, TileVal t) { values_[v] = std::move(t); }

llvm::Value *Lowerer::scalar(const Value *v) {
  auto it = values_.find(v);
  assert(it != values_.end() && it->second.scalar && "scalar operand lowered before use");
  return it->second.regs[0];
}

TileVal Lowerer::get(const Value *v, const Layout *want) {
  auto it = values_.find(v);
  assert(it != values_.end() && "operand lowered before use");
  if (it->second.scalar || !want || it->second.layout == *want) return it->second;
  auto key = std::make_pair(v, toString(*want));
  for (auto level = remat_.rbegin(); level != remat_.rend(); ++level)
    if (auto hit = level->find(key); hit != level->end()) return hit->second;
  TileVal r = recomputable(v) ? lowerPure(*v->def, want)
                                  : convert(v->type, it->second, *want, *current_);
  remat_.back().emplace(key, r);
  return r;
}

TileVal Lowerer::convert(const Type &type, const TileVal &t, const Layout &want, const Op &at) {
  if (t.scalar || t.layout == want) return t;
  return throughShared(type, t, want, at);
}

TileVal Lowerer::throughShared(const Type &type, const TileVal &t, const Layout &want, const Op &at,
                               const Shape *readShape, bool ownersOnly) {
  llvm::Type *st = storageType(type.elem);
  int64_t bytes = type.numElements() * static_cast<int64_t>(mod.getDataLayout().getTypeAllocSize(st));
  llvm::Value *base = sharedBase(bytes, at);
  barrier();  // earlier readers of the buffer are done
  // Copies of an element hold the same value, so every register may write.
  const std::vector<RegCoord> &from = coords(t.layout, type.shape);
  for (size_t r = 0; r < t.regs.size(); ++r)
    ifThen(ownersOnly ? from[r].canonical : nullptr, [&] {
      b.CreateStore(toStorage(t.regs[r], type.elem), b.CreateGEP(st, base, linearIndex(from[r].idx, type.shape)));
    });
  barrier();
  const Shape &shape = readShape ? *readShape : type.shape;
  TileVal out{false, want, {}};
  for (const RegCoord &c : coords(want, shape))
    out.regs.push_back(fromStorage(b.CreateLoad(st, b.CreateGEP(st, base, linearIndex(c.idx, shape))), type.elem));
  return out;
}

} // namespace tt::backend
