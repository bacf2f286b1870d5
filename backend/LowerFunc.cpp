//===- LowerFunc.cpp - the kernel and the walk over its ops ----------------===//
#include "backend/Lowering.h"
#include "backend/Target.h"

#include "ir/Diagnostic.h"
#include "ir/Type.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace twintile::backend {

using namespace twintile::ir;

// --- the walk -------------------------------------------------------------------

TileVal lowerPure(LowerContext &L, const Op &op, const Layout *l) {
  if (!op.info().recomputable()) throw InternalError("'" + std::string(op.name()) + "' is not recomputable", op.loc);
  switch (op.kind) {
  case OpKind::Broadcast: case OpKind::ExpandDims: case OpKind::Trans: return lowerShapeOp(L, op, l);
  case OpKind::MultipleOf: case OpKind::MaxContiguous: return L.get(op.operand(0), l);  // a hint: the operand itself
  default: return lowerElementwise(L, op, l);
  }
}

void lowerOp(LowerContext &L, const Op &op) {
  llvm::IRBuilder<> &b = L.b;
  L.current = &op;
  switch (op.kind) {
  case OpKind::For: return lowerFor(L, op);
  case OpKind::If: return lowerIf(L, op);
  case OpKind::While: return lowerWhile(L, op);
  case OpKind::Yield: case OpKind::Return: return;
  case OpKind::ProgramId: case OpKind::NumPrograms: {
    int axis = static_cast<int>(op.intAttr("axis"));
    static constexpr llvm::Intrinsic::ID ctaid[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                                    llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                                    llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
    static constexpr llvm::Intrinsic::ID nctaid[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                                                     llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                                                     llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z};
    llvm::Value *v = b.CreateIntrinsic(op.kind == OpKind::ProgramId ? ctaid[axis] : nctaid[axis], {}, {});
    return L.set(op.result(), {true, {}, {v}});
  }
  case OpKind::Load:
    if (L.inShared.count(op.result())) return;  // a pipelined load: its copies are issued ahead
    return lowerMemory(L, op);
  case OpKind::Store: case OpKind::AtomicAdd: case OpKind::AtomicMax: case OpKind::AtomicMin:
  case OpKind::AtomicAnd: case OpKind::AtomicOr: case OpKind::AtomicXor: case OpKind::AtomicXchg:
  case OpKind::AtomicCas: return lowerMemory(L, op);
  case OpKind::Sum: case OpKind::Max: case OpKind::Min: case OpKind::Argmax: case OpKind::Argmin:
    return L.set(op.result(), lowerReduce(L, op));
  case OpKind::Reduce: return setUnpacked(L, op, lowerReduce(L, op));
  case OpKind::Cumsum: return L.set(op.result(), lowerCumsum(L, op));
  case OpKind::Scan: return setUnpacked(L, op, lowerCumsum(L, op));
  case OpKind::Reshape: return L.set(op.result(), lowerReshape(L, op));
  case OpKind::Dot: return L.set(op.result(), lowerDot(L, op));
  case OpKind::Print: case OpKind::Assert: case OpKind::Barrier: return lowerDebug(L, op);
  case OpKind::DescriptorLoad:
    if (L.pipelines.copiesByTma(op)) return;  // copied by TMA ahead (its tile, or its transpose, in L.inShared)
    throw InternalError("'descriptor_load' is neither copied by TMA nor expanded", op.loc);
  case OpKind::DescriptorStore: return lowerTmaStore(L, op);  // else expanded before (Backend.cpp's lower)
  case OpKind::Trans:
    if (L.inShared.count(op.result())) return;  // a TMA load's transpose: staged by its loop's pipeline
    [[fallthrough]];
  case OpKind::Constant: case OpKind::Arange: case OpKind::Splat: case OpKind::Broadcast: case OpKind::ExpandDims:
  case OpKind::MultipleOf: case OpKind::MaxContiguous:
  TT_ARITH_CASES:
  case OpKind::Select: case OpKind::Cast: case OpKind::Bitcast: case OpKind::AddPtr: {
    const Value *r = op.result();
    return L.set(r, lowerPure(L, op, r->type.isTile() ? &L.layoutOf(r) : nullptr));
  }
  }
}

void lowerBlock(LowerContext &L, const Block &block) {
  L.remat.emplace_back();
  for (const auto &op : block.ops) lowerOp(L, *op);
  L.remat.pop_back();
}

void lowerKernel(LowerContext &L) {
  llvm::IRBuilder<> &b = L.b;
  std::vector<llvm::Type *> params;
  for (size_t i = 0; i < L.func.numParams(); ++i) {
    const Type &t = L.func.param(i)->type;
    params.push_back(t.isPtr() ? L.llvmType(ScalarKind::Ptr) : L.storageType(t.elem));  // i1 travels as a byte
  }
  // The global scratch the manifest asks for (TMA's tensor maps): one more
  // parameter, last (runtime/Device.h's launchScratchBytes).
  const int64_t scratchBytes = L.scratchBytes();
  if (scratchBytes) params.push_back(L.llvmType(ScalarKind::Ptr));
  auto *fty = llvm::FunctionType::get(b.getVoidTy(), params, false);
  L.kernel = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, L.func.name, L.mod);
  L.kernel->setCallingConv(llvm::CallingConv::PTX_Kernel);
  L.prologue = llvm::BasicBlock::Create(L.ctx, "entry", L.kernel);
  llvm::BasicBlock *start = llvm::BasicBlock::Create(L.ctx, "body", L.kernel);
  b.SetInsertPoint(L.prologue);
  b.CreateBr(start);
  b.SetInsertPoint(start);
  for (size_t i = 0; i < L.func.numParams(); ++i) {
    llvm::Argument *a = L.kernel->getArg(static_cast<unsigned>(i));
    a->setName(L.func.param(i)->name);
    const Type &t = L.func.param(i)->type;
    if (t.isPtr()) a->addAttr(llvm::Attribute::NoUndef);
    L.set(L.func.param(i), {true, {}, {t.elem == ScalarKind::I1 ? fromStorage(L, a, t.elem) : a}});
  }
  if (scratchBytes) {  // this program's part: at its linear index, x fastest
    llvm::Argument *a = L.kernel->getArg(static_cast<unsigned>(L.func.numParams()));
    a->setName("scratch");
    using namespace llvm::Intrinsic;
    auto sreg = [&](ID id) { return b.CreateZExt(b.CreateIntrinsic(id, {}, {}), b.getInt64Ty()); };
    // One builder call per statement: the order of a call's arguments is open.
    llvm::Value *z = sreg(nvvm_read_ptx_sreg_ctaid_z), *ny = sreg(nvvm_read_ptx_sreg_nctaid_y);
    llvm::Value *y = sreg(nvvm_read_ptx_sreg_ctaid_y), *nx = sreg(nvvm_read_ptx_sreg_nctaid_x);
    llvm::Value *x = sreg(nvvm_read_ptx_sreg_ctaid_x);
    llvm::Value *program = b.CreateAdd(x, b.CreateMul(nx, b.CreateAdd(y, b.CreateMul(ny, z))));
    llvm::Value *start = b.CreatePtrToInt(a, b.getInt64Ty());
    L.scratch = b.CreateAdd(start, b.CreateMul(program, b.getInt64(static_cast<uint64_t>(scratchBytes))));
  }
  lowerBlock(L, L.func.body);
  b.CreateRetVoid();
  if (L.nextBuffer != L.shared.buffers.size())
    throw InternalError("lowering took " + std::to_string(L.nextBuffer) + " of the " + std::to_string(L.shared.buffers.size()) +
                            " shared-memory buffers the plan (the shared stage) has",
                        L.func.loc);

  // The shared buffer, now that its size is known: an array of that size,
  // or, past what a kernel may declare statically, `.extern .shared` (its
  // size is the launch's dynamic shared memory).
  if (L.sharedArray) {
    bool dynamic = L.shared.dynamic();
    auto *type = llvm::ArrayType::get(b.getInt8Ty(), dynamic ? 0 : static_cast<uint64_t>(L.shared.bytes));
    auto *real = new llvm::GlobalVariable(L.mod, type, false,
                                          dynamic ? llvm::GlobalValue::ExternalLinkage : llvm::GlobalValue::InternalLinkage,
                                          dynamic ? nullptr : llvm::UndefValue::get(type), "twintile_smem", nullptr,
                                          llvm::GlobalValue::NotThreadLocal, 3);
    real->setAlignment(llvm::Align(static_cast<uint64_t>(L.shared.alignment)));
    L.sharedArray->replaceAllUsesWith(real);
    L.sharedArray->eraseFromParent();
    L.sharedArray = real;
  }
  // Kernel annotations: an entry point, launched with exactly 32 * numWarps
  // threads (.reqntid, as Triton declares it: ptxas then sizes registers for
  // that block, where .maxntid let it spill to reach another CTA per SM).
  llvm::NamedMDNode *annotations = L.mod.getOrInsertNamedMetadata("nvvm.annotations");
  auto annotate = [&](const char *key, int value) {
    llvm::Metadata *md[] = {llvm::ValueAsMetadata::get(L.kernel), llvm::MDString::get(L.ctx, key),
                            llvm::ValueAsMetadata::get(b.getInt32(static_cast<uint32_t>(value)))};
    annotations->addOperand(llvm::MDNode::get(L.ctx, md));
  };
  annotate("kernel", 1);
  annotate("reqntidx", 32 * L.numWarps);
  annotate("reqntidy", 1);
  annotate("reqntidz", 1);
}

} // namespace twintile::backend
