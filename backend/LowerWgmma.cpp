//===- LowerWgmma.cpp - dot on Hopper's warpgroup MMA ----------------------===//
//
// A dot dotEngine (TensorCores.h) puts on wgmma: its layout, wgmma's
// accumulator's, has wm warps along M (a multiple of 4), each holding 16
// adjacent rows of every 16wm-row block, and one along N, so warps 4G..4G+3
// form warpgroup G, and the accumulator of every 16wm-row block of the tile
// is, for warpgroup G, the 64 rows wgmma's m64 gives it. Per k step of 16,
// every warpgroup issues one
//
//   wgmma.mma_async.sync.aligned.m64n{nI}k16.f32.T.T {d}, a-desc, b-desc, p, 1, 1, 0, transB
//
// per (64-row block mi, nI-column chunk nc), accumulating into the registers
// of the MMA layout that hold those elements, in the order
//
//   fence.proxy.async; bar.sync   (operands staged by this dot: stores, then
//                                  fenced for the async proxy; a pipeline's
//                                  copies are fenced after their wait)
//   wgmma.fence                   (the accumulators' registers are ready:
//                                  nothing but wgmma writes them after it)
//   wgmma.mma_async x (K/16 * blocks * chunks)
//   wgmma.commit_group; wgmma.wait_group 0
//
// or, for a pipeline's asyncDot (PipelinePlan.h), wgmma.wait_group 1: the
// group stays in flight, the accumulators carried to the next iteration's
// MMAs as they are, and pipelineEpilogue waits for the last after the loop.
//
// The wait takes every accumulator register as an in-out operand of its
// inline assembly, so that LLVM reads none of them before it. A descriptor
// is the operand's shared address >> 4 in its low 14 bits, the leading and
// stride byte offsets (>> 4) and the swizzle mode; it is computed once per
// operand and advanced per (block, chunk, k step) by a constant, as the
// address field never carries past the buffer.
//
// Operands in shared memory (TensorCores.h's panels; S the swizzle bytes,
// E = S / 2 elements per panel row):
//   a, K-major: rows m, panels along k;
//     LBO = M * S (the next panel; unused inside one), SBO = 8 * S.
//   b, K-major (rows n): the same with N; MN-major (rows k, n contiguous,
//     imm-trans-b 1): panels along n, LBO = K * S between them, SBO = 8 * S.
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

#include <llvm/IR/InlineAsm.h>

namespace twintile::backend {

using namespace twintile::ir;

namespace {

/// `regs` through inline assembly `text` that takes and gives them back
/// ("+f"), so that nothing reads them before it runs.
std::vector<llvm::Value *> throughAsm(LowerContext &L, const std::string &text, const std::vector<llvm::Value *> &regs,
                                      const std::vector<llvm::Value *> &inputs, const std::string &inputConstraints) {
  std::string constraints;
  for (size_t i = 0; i < regs.size(); ++i) constraints += (i ? ",=f" : "=f");
  std::vector<llvm::Value *> args;
  for (llvm::Value *v : inputs) args.push_back(v);
  if (!inputConstraints.empty()) constraints += "," + inputConstraints;
  for (size_t i = 0; i < regs.size(); ++i) {
    constraints += "," + std::to_string(i);
    args.push_back(regs[i]);
  }
  constraints += ",~{memory}";
  llvm::Type *ret = llvm::StructType::get(L.ctx, std::vector<llvm::Type *>(regs.size(), L.b.getFloatTy()));
  llvm::CallInst *call = sideEffectAsm(L, ret, text, constraints, args);
  std::vector<llvm::Value *> out;
  for (unsigned i = 0; i < regs.size(); ++i) out.push_back(L.b.CreateExtractValue(call, {i}));
  return out;
}

/// The descriptor of the matrix at shared `base` + `extra` bytes.
llvm::Value *descriptor(LowerContext &L, llvm::Value *base, llvm::Value *extra, int64_t lbo, int64_t sbo, int swizzle) {
  llvm::IRBuilder<> &b = L.b;
  llvm::Value *addr = b.CreatePtrToInt(base, b.getInt64Ty());
  if (extra) addr = b.CreateAdd(addr, b.CreateZExt(extra, b.getInt64Ty()));
  uint64_t mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : 3;
  uint64_t fixed = (static_cast<uint64_t>(lbo) >> 4) << 16 | (static_cast<uint64_t>(sbo) >> 4) << 32 | mode << 62;
  return b.CreateOr(b.CreateAnd(b.CreateLShr(addr, 4), 0x3fff), b.getInt64(fixed));
}

} // namespace

llvm::CallInst *sideEffectAsm(LowerContext &L, llvm::Type *ret, const std::string &text, const std::string &constraints,
                              const std::vector<llvm::Value *> &args) {
  std::vector<llvm::Type *> types;
  for (llvm::Value *a : args) types.push_back(a->getType());
  auto *fn = llvm::FunctionType::get(ret, types, false);
  llvm::CallInst *call = L.b.CreateCall(llvm::InlineAsm::get(fn, text, constraints, /*hasSideEffects=*/true), args);
  call->addFnAttr(llvm::Attribute::Convergent);
  return call;
}

std::vector<llvm::Value *> waitForWgmma(LowerContext &L, const std::vector<llvm::Value *> &accumulators, int pending) {
  std::vector<llvm::Value *> out =
      throughAsm(L, "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";", accumulators, {}, "");
  // Complete: through one more empty in-out asm (CUTLASS's fence after its
  // wait), so that any copy LLVM makes of them (a result carried into
  // another position, say) lands after the wait, not between it and the MMAs.
  return pending == 0 ? throughAsm(L, "", out, {}, "") : out;
}

void fenceProxyAsync(LowerContext &L) {
  sideEffectAsm(L, L.b.getVoidTy(), "fence.proxy.async.shared::cta;", "~{memory}", {});
}

TileVal dotOnWarpgroups(LowerContext &L, const Op &op) {
  llvm::IRBuilder<> &b = L.b;
  const Type &at = op.operand(0)->type, &bt = op.operand(1)->type, &ct = op.result()->type;
  const Layout &l = L.layoutOf(op.result());
  int64_t M = ct.shape[0], N = ct.shape[1], K = at.shape[1];
  ScalarKind ek = at.elem;
  int64_t eb = byteSize(ek);
  StagedForm fa = stagedForm(op, 0, L.layouts, L.numWarps, L.options.arch);
  StagedForm fb = stagedForm(op, 1, L.layouts, L.numWarps, L.options.arch);
  TileVal c = L.get(op.operand(2), &l);

  // Each operand in shared memory: where a pipeline put it, else staged now.
  auto pipelined = [&](const Value *v) { auto it = L.inShared.find(v); return it == L.inShared.end() ? nullptr : &it->second; };
  const SharedOperand *pa = pipelined(op.operand(0)), *pb = pipelined(op.operand(1));
  if ((pa && !(pa->form == fa)) || (pb && !(pb->form == fb)))
    throw InternalError("a dot's operand was staged in another form than wgmma reads", op.loc);
  int64_t aBytes = pa ? 0 : M * K * eb, bBytes = pb ? 0 : K * N * eb;
  llvm::Value *aBase = pa ? pa->base : nullptr, *bBase = pb ? pb->base : nullptr;
  if (aBytes + bBytes) {
    std::optional<TileVal> a, bv;
    if (!pa) a = L.get(op.operand(0));
    if (!pb) bv = L.get(op.operand(1));
    llvm::Value *window = sharedBase(L, aBytes + bBytes, op);
    barrierBeforeWindow(L);
    if (!pa) stageSwizzled(L, at, *a, aBase = window, fa);
    if (!pb) stageSwizzled(L, bt, *bv, bBase = b.CreateGEP(b.getInt8Ty(), window, L.c32(aBytes)), fb);
    fenceProxyAsync(L);
    barrier(L);
  }

  const int wm = l.warpsPerCTA[0];
  const int64_t blocks = M / (16 * wm), nI = wgmmaN(N, fb, ek), chunks = N / nI, kSteps = K / 16;
  const int64_t sa = fa.swizzleBytes, sb = fb.swizzleBytes, ea = sa / eb, ebPanel = sb / eb;
  const bool bMnMajor = fb.rowDim == 0;
  // Warpgroup G reads rows 64G.. of every 16wm-row block of the staged a.
  llvm::Value *group = b.CreateLShr(L.warpId(), 2);
  llvm::Value *descA = descriptor(L, aBase, b.CreateMul(group, L.c32(64 * sa)), M * sa, 8 * sa, static_cast<int>(sa));
  llvm::Value *descB = descriptor(L, bBase, nullptr, (bMnMajor ? K : N) * sb, 8 * sb, static_cast<int>(sb));
  auto advanced = [&](llvm::Value *desc, int64_t bytes) {
    return bytes ? b.CreateAdd(desc, b.getInt64(static_cast<uint64_t>(bytes >> 4))) : desc;
  };
  auto aOffset = [&](int64_t block, int64_t ks) {
    int64_t k = 16 * ks;
    return (k / ea) * M * sa + 16 * wm * block * sa + (k % ea) * eb;
  };
  auto bOffset = [&](int64_t chunk, int64_t ks) {
    int64_t k = 16 * ks, n = chunk * nI;
    if (bMnMajor) return (n / ebPanel) * K * sb + k * sb;
    return (k / ebPanel) * N * sb + n * sb + (k % ebPanel) * eb;
  };

  const std::string type = ek == ScalarKind::F16 ? "f16" : "bf16";
  std::string operandsText;
  for (int64_t i = 0; i < nI / 2; ++i) operandsText += (i ? ", $" : "$") + std::to_string(i);
  const std::string r = std::to_string(nI / 2);
  const std::string mmaText = "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, $" + std::to_string(nI / 2 + 2) +
                              ", 0;\n\twgmma.mma_async.sync.aligned.m64n" + std::to_string(nI) + "k16.f32." + type +
                              "." + type + " {" + operandsText + "}, $" + r + ", $" + std::to_string(nI / 2 + 1) +
                              ", p, 1, 1, 0, " + (bMnMajor ? "1" : "0") + ";\n\t}";

  // Every accumulator through an empty in-out asm first (CUTLASS's
  // warpgroup_fence_operand): each is then a value of its own, used once, so
  // the copies LLVM makes for tied operands (32 registers of one zero, say)
  // land before the fence; after it, only wgmma may touch them.
  std::vector<llvm::Value *> acc = throughAsm(L, "", c.regs, {}, "");
  sideEffectAsm(L, b.getVoidTy(), "wgmma.fence.sync.aligned;", "~{memory}", {});
  for (int64_t ks = 0; ks < kSteps; ++ks)
    for (int64_t block = 0; block < blocks; ++block)
      for (int64_t chunk = 0; chunk < chunks; ++chunk) {
        // d[4j + 2h + e] is row 8h + g, column 8j + 2t + e of the chunk: the
        // layout's row register 2 * block + h, column register 2q + e.
        std::vector<size_t> at;
        for (int64_t i = 0; i < nI / 2; ++i) {
          int64_t j = i / 4, h = (i / 2) % 2, e = i % 2;
          at.push_back(static_cast<size_t>(regIndex(l, ct.shape, {2 * block + h, 2 * (chunk * nI / 8 + j) + e})));
        }
        std::vector<llvm::Value *> in;
        for (size_t k : at) in.push_back(acc[k]);
        std::vector<llvm::Value *> out =
            throughAsm(L, mmaText, in, {advanced(descA, aOffset(block, ks)), advanced(descB, bOffset(chunk, ks)), L.c32(1)},
                       "l,l,r");
        for (size_t k = 0; k < at.size(); ++k) acc[at[k]] = out[k];
      }
  sideEffectAsm(L, b.getVoidTy(), "wgmma.commit_group.sync.aligned;", "~{memory}", {});
  // In a pipelined loop that only carries the result, this group stays in
  // flight into the next iteration (the previous iteration's is waited for);
  // else all of it is waited for here.
  return {false, l, waitForWgmma(L, acc, L.asyncDots.count(&op) ? 1 : 0)};
}

} // namespace twintile::backend
