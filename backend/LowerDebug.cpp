//===- LowerDebug.cpp - device_print and device_assert --------------------===//
//
// device_print calls CUDA's vprintf: scalars once per program (thread 0),
// tiles once per element from its canonical owner, each line naming the
// program and the element's index. device_assert calls __assertfail for each
// element whose condition is false, which stops the kernel with the message.
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace twintile::backend {

using namespace twintile::ir;

namespace {

/// vprintf's specifier for an element, and the value as vprintf reads it
/// (floats as double, small integers as int).
std::pair<std::string, llvm::Value *> printable(LowerContext &L, llvm::Value *v, ScalarKind k) {
  llvm::IRBuilder<> &b = L.b;
  if (isFloat(k)) return {"%g", b.CreateFPExt(widen(L, v, k), b.getDoubleTy())};
  if (k == ScalarKind::Ptr) return {"%p", v};
  if (k == ScalarKind::I64) return {"%lld", v};
  if (k == ScalarKind::U64) return {"%llu", v};
  if (k == ScalarKind::U32) return {"%u", v};
  if (unsignedOrder(k)) return {"%d", b.CreateZExt(v, b.getInt32Ty())};  // i1, u8, u16
  return {"%d", b.CreateSExt(v, b.getInt32Ty())};
}

} // namespace

/// CUDA's __assertfail with `message` at `loc`: the kernel stops, and the
/// message and place are reported (a GPU prints them; the emulator's error).
static void assertFail(LowerContext &L, const std::string &message, const Location &loc) {
  llvm::IRBuilder<> &b = L.b;
  llvm::FunctionCallee fail = L.mod.getOrInsertFunction(
      "__assertfail", b.getVoidTy(), llvm::PointerType::get(L.ctx, 0), llvm::PointerType::get(L.ctx, 0), b.getInt32Ty(),
      llvm::PointerType::get(L.ctx, 0), b.getInt64Ty());
  std::string file = loc.known() ? loc.pos.file : "<unknown>";
  b.CreateCall(fail, {cString(L, message), cString(L, file), L.c32(loc.pos.line), cString(L, L.func.name), b.getInt64(1)});
}

void lowerDebug(LowerContext &L, const Op &op) {
  llvm::IRBuilder<> &b = L.b;
  if (op.kind == OpKind::Barrier) {
    b.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});  // bar.sync 0
    return;
  }
  llvm::Value *ctaid[3] = {b.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, {}, {}),
                           b.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y, {}, {}),
                           b.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z, {}, {})};
  if (op.kind == OpKind::Assert) {
    const Value *cond = op.operand(0);
    TileVal c = L.get(cond, cond->type.isTile() ? &L.layoutOf(cond) : nullptr);
    for (llvm::Value *ok : c.regs)
      ifThen(L, b.CreateNot(ok), [&] { assertFail(L, "device_assert: " + op.attr("msg").s, op.loc); });
    return;
  }
  // device_print: the values to print, all in the first tile operand's layout.
  llvm::FunctionCallee vprintf = L.mod.getOrInsertFunction("vprintf", b.getInt32Ty(), llvm::PointerType::get(L.ctx, 0),
                                                         llvm::PointerType::get(L.ctx, 0));
  const Layout *l = nullptr;
  const Shape *shape = nullptr;
  for (const Value *v : op.operands)
    if (v->type.isTile()) {
      l = &L.layoutOf(v);
      shape = &v->type.shape;
      break;
    }
  std::vector<TileVal> vals;
  for (const Value *v : op.operands) vals.push_back(L.get(v, v->type.isTile() && v->type.shape == *shape ? l : nullptr));
  for (size_t i = 0; i < op.operands.size(); ++i)
    if (op.operand(i)->type.isTile() && op.operand(i)->type.shape != *shape)
      L.fail(op, "'device_print' of tiles of different shapes is not supported by the backend");
  const std::vector<RegCoord> *cs = l ? &L.coords(*l, *shape) : nullptr;
  size_t n = l ? static_cast<size_t>(numRegisters(*l, *shape)) : 1;
  for (size_t r = 0; r < n; ++r) {
    std::string fmt = "pid (%d, %d, %d)";
    std::vector<llvm::Value *> args(ctaid, ctaid + 3);
    if (cs) {
      fmt += " idx (";
      for (size_t d = 0; d < (*cs)[r].idx.size(); ++d) {
        fmt += d ? ", %d" : "%d";
        args.push_back((*cs)[r].idx[d]);
      }
      fmt += ")";
    }
    // The user's text is printed as it is, never read as a format.
    std::string prefix;
    for (char c : op.attr("prefix").s) prefix += c == '%' ? std::string("%%") : std::string(1, c);
    fmt += " " + prefix;
    for (size_t i = 0; i < vals.size(); ++i) {
      auto [spec, v] = printable(L, vals[i].scalar ? vals[i].regs[0] : vals[i].regs[r], op.operand(i)->type.elem);
      fmt += " " + spec;
      args.push_back(v);
    }
    fmt += "\n";
    ifThen(L, cs ? (*cs)[r].canonical ? (*cs)[r].canonical : nullptr : isThreadZero(L), [&] {
      std::vector<llvm::Type *> fields;
      for (llvm::Value *a : args) fields.push_back(a->getType());
      llvm::StructType *st = llvm::StructType::get(L.ctx, fields);
      llvm::IRBuilder<> entry(&L.prologue->front());
      llvm::Value *buf = entry.CreateAlloca(st);
      for (size_t i = 0; i < args.size(); ++i) b.CreateStore(args[i], b.CreateStructGEP(st, buf, static_cast<unsigned>(i)));
      b.CreateCall(vprintf, {cString(L, fmt), b.CreateAddrSpaceCast(buf, llvm::PointerType::get(L.ctx, 0))});
    });
  }
}

} // namespace twintile::backend
