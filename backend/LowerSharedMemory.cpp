//===- LowerSharedMemory.cpp - the plan's buffers and barriers -------------===//
#include "backend/Lowering.h"

#include "ir/Diagnostic.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace twintile::backend {

using namespace twintile::ir;

llvm::Value *linearIndex(LowerContext &L, const std::vector<llvm::Value *> &idx, const Shape &shape) {
  llvm::IRBuilder<> &b = L.b;
  llvm::Value *lin = L.c32(0);
  int64_t stride = 1;
  for (size_t i = idx.size(); i-- > 0;) {
    lin = b.CreateAdd(lin, b.CreateMul(idx[i], L.c32(stride)));
    stride *= shape[i];
  }
  return lin;
}

static llvm::Value *takeBuffer(LowerContext &L, SharedBuffer::Kind kind, int64_t bytes, const Op &at) {
  llvm::IRBuilder<> &b = L.b;
  bool ring = kind == SharedBuffer::Kind::Ring;
  const SharedBuffer *w = L.nextBuffer < L.shared.buffers.size() ? &L.shared.buffers[L.nextBuffer] : nullptr;
  if (!w || w->kind != kind || w->op != &at || w->bytes != bytes)
    throw InternalError("lowering '" + std::string(at.name()) + "' asks for a shared-memory " + (ring ? "ring" : "window") +
                            " of " + std::to_string(bytes) + " bytes that the plan (the shared stage) does not have next",
                        at.loc);
  // The first buffer that does not fit, where lowering reaches it (an earlier
  // refusal of the kernel's is reported first, as without a plan).
  if (L.shared.overflow && L.nextBuffer == L.shared.overflowAt) throw BackendError(*L.shared.overflow);
  ++L.nextBuffer;
  if (!L.sharedArray) {
    // A placeholder; lowerKernel replaces it by an array of the plan's size.
    L.sharedArray = new llvm::GlobalVariable(L.mod, llvm::ArrayType::get(b.getInt8Ty(), 0), false,
                                             llvm::GlobalValue::ExternalLinkage, nullptr, "twintile_smem_placeholder",
                                             nullptr, llvm::GlobalValue::NotThreadLocal, 3);
  }
  if (!w->offset) return L.sharedArray;
  return b.CreateGEP(b.getInt8Ty(), L.sharedArray, b.getInt32(static_cast<uint32_t>(w->offset)));
}

llvm::Value *sharedBase(LowerContext &L, int64_t bytes, const Op &at) { return takeBuffer(L, SharedBuffer::Kind::Window, bytes, at); }

llvm::Value *reserveShared(LowerContext &L, int64_t bytes, const Op &at) { return takeBuffer(L, SharedBuffer::Kind::Ring, bytes, at); }

const SharedBuffer &nextWindow(LowerContext &L, const Op &at) {
  if (L.nextBuffer >= L.shared.buffers.size() || L.shared.buffers[L.nextBuffer].op != &at ||
      L.shared.buffers[L.nextBuffer].kind != SharedBuffer::Kind::Window)
    throw InternalError("lowering '" + std::string(at.name()) + "' needs a shared-memory window the plan does not have next",
                        at.loc);
  return L.shared.buffers[L.nextBuffer];
}

llvm::Value *sharedAddress32(LowerContext &L, llvm::Value *ptr) { return L.b.CreatePtrToInt(ptr, L.b.getInt32Ty()); }

void barrier(LowerContext &L) { L.b.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {}); }

void barrierBeforeWindow(LowerContext &L) {
  if (L.nextBuffer == 0) throw InternalError("a barrier before a window, before any window");
  if (L.barrierPlan.needsBeforeWindow(L.nextBuffer - 1)) barrier(L);
}

void storeSharedIf(LowerContext &L, llvm::Value *cond, llvm::Value *value, llvm::Value *ptr) {
  llvm::IRBuilder<> &b = L.b;
  // Predicated PTX, not a branch around a store: the kernel stays one block
  // (as Triton's do), so LLVM does not sink comparisons and addresses into
  // the blocks after and compute them again there.
  llvm::Type *t = value->getType();
  if (auto *st = llvm::dyn_cast<llvm::StructType>(t)) {  // a reduce's tuple, field by field
    for (unsigned i = 0; i < st->getNumElements(); ++i)
      storeSharedIf(L, cond, b.CreateExtractValue(value, i), b.CreateStructGEP(st, ptr, i));
    return;
  }
  if (!cond) {
    b.CreateStore(t->isIntegerTy(1) ? b.CreateZExt(value, b.getInt8Ty()) : value, ptr);
    return;
  }
  unsigned bits = t->getPrimitiveSizeInBits();
  std::string constraint = "f", type = "b32";
  llvm::Value *v = value;
  if (t->isDoubleTy()) {
    constraint = "d", type = "b64";
  } else if (!t->isFloatTy()) {
    if (!t->isIntegerTy()) v = b.CreateBitCast(v, b.getIntNTy(bits));  // f16, bf16
    if (bits < 16) v = b.CreateZExt(v, b.getInt16Ty());                 // i1, i8: a byte from a 16-bit register
    constraint = bits == 64 ? "l" : bits == 32 ? "r" : "h";
    type = bits < 16 ? "b8" : "b" + std::to_string(bits);
  }
  llvm::Value *at = sharedAddress32(L, ptr);
  auto *fty = llvm::FunctionType::get(b.getVoidTy(), {b.getInt1Ty(), b.getInt32Ty(), v->getType()}, false);
  b.CreateCall(llvm::InlineAsm::get(fty, "@$0 st.shared." + type + " [$1], $2;", "b,r," + constraint + ",~{memory}", true),
               {cond, at, v});
}

llvm::Value *loadShared(LowerContext &L, llvm::Type *t, llvm::Value *ptr) {
  llvm::IRBuilder<> &b = L.b;
  if (auto *st = llvm::dyn_cast<llvm::StructType>(t)) {  // a reduce's tuple, field by field
    llvm::Value *out = llvm::PoisonValue::get(st);
    for (unsigned i = 0; i < st->getNumElements(); ++i)
      out = b.CreateInsertValue(out, loadShared(L, st->getElementType(i), b.CreateStructGEP(st, ptr, i)), i);
    return out;
  }
  if (!t->isIntegerTy(1)) return b.CreateLoad(t, ptr);
  return b.CreateTrunc(b.CreateLoad(b.getInt8Ty(), ptr), t);  // the asm wrote a whole byte
}

} // namespace twintile::backend
