//===- LowerShared.cpp - reshape, through shared memory --------------------===//
//
// reshape keeps the row-major order of elements, so writing the operand to
// shared memory row-major and reading it back at the result's coordinates is
// the whole op.
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

namespace tt::backend {

using namespace tt::ir;

TileVal Lowerer::lowerReshape(const Op &op) {
  const Value *in = op.operand(0);
  TileVal x = get(in);
  const Type &t = op.result()->type;
  if (x.scalar) {  // a scalar into a tile of one element
    TileVal out{false, layoutOf(op.result()), {}};
    out.regs.assign(static_cast<size_t>(numRegisters(out.layout, t.shape)), x.regs[0]);
    return out;
  }
  if (t.isScalar()) fail(op, "'reshape' of a tile to a scalar is not supported by the backend; use a reduction");
  return throughShared(in->type, x, layoutOf(op.result()), op, &t.shape);
}

} // namespace tt::backend
