//===- LowerShape.cpp - broadcast, expand_dims, trans, reshape -----------===//
//
// The shape ops. broadcast, expand_dims and trans move no data: the operand,
// in the layout the result's implies (the same; with the new dim sliced out;
// permuted back), has the result's registers under other indices. reshape
// keeps the row-major order of elements, so writing the operand to shared
// memory row-major and reading it back at the result's coordinates is the
// whole op.
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

#include "ir/Diagnostic.h"

namespace twintile::backend {

using namespace twintile::ir;

TileVal lowerShapeOp(LowerContext &L, const Op &op, const Layout *l) {
  const Type &t = op.result()->type, &src = op.operand(0)->type;
  switch (op.kind) {
  case OpKind::Broadcast: {
    // Same layout, shape with the 1s stretched: register r of the result
    // reads the source register at the same per-dim indices, taken modulo
    // the source's registers along a stretched dim (they hold one element).
    TileVal in = L.get(op.operand(0), l);
    TileVal out{false, *l, {}};
    if (in.scalar) {
      out.regs.assign(static_cast<size_t>(numRegisters(*l, t.shape)), in.regs[0]);
      return out;
    }
    std::vector<DimPlan> sp = planDims(*l, src.shape);
    int64_t n = numRegisters(*l, t.shape);
    for (int64_t r = 0; r < n; ++r) {
      std::vector<int64_t> rd = regDims(*l, t.shape, r);
      for (size_t i = 0; i < rd.size(); ++i) rd[i] %= sp[i].regs;
      out.regs.push_back(in.regs[static_cast<size_t>(regIndex(*l, src.shape, rd))]);
    }
    return out;
  }
  case OpKind::ExpandDims: {
    // The operand lives in the result's layout with the new dim sliced out;
    // its registers are the result's, one for one.
    int axis = static_cast<int>(op.intAttr("axis"));
    if (src.isScalar()) {
      TileVal out{false, *l, {}};
      out.regs.assign(static_cast<size_t>(numRegisters(*l, t.shape)), L.scalar(op.operand(0)));
      return out;
    }
    Layout inner = l->sliced(axis);
    TileVal in = L.get(op.operand(0), &inner);
    TileVal out{false, *l, {}};
    std::vector<DimPlan> plan = planDims(*l, t.shape);
    int64_t n = numRegisters(*l, t.shape);
    for (int64_t r = 0; r < n; ++r) {
      std::vector<int64_t> rd = regDims(*l, t.shape, r);
      rd.erase(rd.begin() + axis);
      out.regs.push_back(in.regs[static_cast<size_t>(regIndex(inner, src.shape, rd))]);
    }
    return out;
  }
  case OpKind::Trans: {
    // trans only renames dims: the operand in the inverse permutation of the
    // result's layout has the same registers.
    const std::vector<int64_t> &perm = op.attr("perm").ints;
    std::vector<int64_t> inverse(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) inverse[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
    Layout inner = l->permuted(inverse);
    TileVal in = L.get(op.operand(0), &inner);
    TileVal out{false, *l, {}};
    int64_t n = numRegisters(*l, t.shape);
    for (int64_t r = 0; r < n; ++r) {
      std::vector<int64_t> rd = regDims(*l, t.shape, r), srd(rd.size());
      for (size_t i = 0; i < perm.size(); ++i) srd[static_cast<size_t>(perm[i])] = rd[i];
      out.regs.push_back(in.regs[static_cast<size_t>(regIndex(inner, src.shape, srd))]);
    }
    return out;
  }
  default: break;
  }
  throw ir::InternalError("not a shape op");
}

TileVal lowerReshape(LowerContext &L, const Op &op) {
  const Value *in = op.operand(0);
  TileVal x = L.get(in);
  const Type &t = op.result()->type;
  if (x.scalar) {  // a scalar into a tile of one element
    TileVal out{false, L.layoutOf(op.result()), {}};
    out.regs.assign(static_cast<size_t>(numRegisters(out.layout, t.shape)), x.regs[0]);
    return out;
  }
  if (t.isScalar()) L.fail(op, "'reshape' of a tile to a scalar is not supported by the backend; use a reduction");
  return throughShared(L, in->type, x, L.layoutOf(op.result()), op, &t.shape);
}

} // namespace twintile::backend
