//===- LowerTma.cpp - tiles copied in and out by the tensor memory accelerator ===//
//
// The TMA loads of a pipeline plan (PipelinePlan.h): descriptor_loads only
// wgmma dots read, copied box by box into the ring's swizzled panels. Around
// LowerPipeline.cpp's schedule (stages filled S - 1 iterations ahead):
//
//   before the loop   warp 0 builds each load's tensor map: zeroes the 128
//                     bytes of its staging in the ring, lane 0 sets each field
//                     with tensormap.replace, the warp copies it to the
//                     program's global scratch (tensormap.cp_fenceproxy, a
//                     release), lane 0 acquires it (fence.proxy.tensormap);
//                     thread 0 initializes one mbarrier per buffer (count 1);
//                     every thread fences the async proxy (fence.proxy.async:
//                     its earlier generic writes, shared and global); a barrier.
//   issuing into s    thread 0, for an iteration inside the loop:
//                     mbarrier.arrive.expect_tx [bar s], the stage's bytes;
//                     then every box: cp.async.bulk.tensor [buffer s + the
//                     box's place], [map, {column, row}], [bar s].
//   iteration i       every thread spins on mbarrier.try_wait.parity [bar
//                     i % R], (i / R) % 2: the buffer's (i / R)-th fill.
//   after the loop    thread 0 invalidates the barriers (the loop's next run
//                     initializes them again, its phases from 0).
//
// No box is issued for an iteration past the end, so none is in flight
// after the loop. A box is one panel of the staged form: its swizzle's
// width, which the map's swizzle mode reproduces from the panel's 1024-byte
// aligned start, and all the tile's rows.
//
// Out of bounds, TMA reads zeros, as the IR's descriptor_load does. What a
// map cannot hold: a size not above 0 (the map gets 1, and the boxes a row
// coordinate below any box's reach, so that they read zeros), and a row
// stride that is negative or 2^40 bytes or more, which traps where the loop
// runs over a tensor that is not empty (the axis info
// proved it a multiple of 16 bytes, PipelinePlan.cpp). Under PTX ISA 8.3 the
// map's stride is given in 16-byte units (ptxas's reading before 8.6).
//
// A TMA store (TmaStores.h), where the op is: warp 0 builds its map in the
// 128 bytes after the tile in its window, every thread writes its registers
// into the window's swizzled panels and fences the async proxy; after a
// barrier thread 0 copies each panel out as a box (bulk_group), commits and
// waits for the group to complete, and a barrier ends the op.
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

#include "ir/Descriptor.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace twintile::backend {

using namespace twintile::ir;

namespace {

llvm::Value *sharedAddress(LowerContext &L, llvm::Value *ring, int64_t offset, llvm::Value *extra = nullptr) {
  llvm::Value *at = L.c32(offset);
  if (extra) at = L.b.CreateAdd(at, extra);
  return sharedAddress32(L, L.b.CreateGEP(L.b.getInt8Ty(), ring, at));
}

llvm::Value *barrierAddress(LowerContext &L, const PipelineRing &p, llvm::Value *buffer) {
  return sharedAddress(L, p.ring, p.plan.barrierOffset, L.b.CreateMul(buffer, L.c32(8)));
}

/// The tensor map of descriptor op `op` (its tile's elements `elem`), its
/// boxes `swizzleBytes` wide (one panel, swizzled so) and `boxRows` high,
/// built by warp 0 in `staging` and copied to `global`; lane 0 of warp 0
/// (thread 0) acquires it. `runs`: the map is used (a row stride no map can
/// hold traps only then). Returns whether the tensor is empty.
llvm::Value *buildMap(LowerContext &L, const Op &op, ScalarKind elem, int swizzleBytes, int boxRows, llvm::Value *staging,
                      llvm::Value *global, llvm::Value *runs) {
  llvm::IRBuilder<> &b = L.b;
  DescriptorOperands d(op);
  int64_t eb = byteSize(elem);
  int elemtype = tensorMapElemtype(elem);
  if (elemtype < 0) throw InternalError("a tensor map of elements no map holds", op.loc);
  llvm::Value *base = b.CreatePtrToInt(L.scalar(d.base()), b.getInt64Ty());
  llvm::Value *rows = L.scalar(d.shape(0)), *cols = L.scalar(d.shape(1));
  // One builder call per statement: the order of a call's arguments is open.
  llvm::Value *noRows = b.CreateICmpSLE(rows, L.c32(0));
  llvm::Value *noCols = b.CreateICmpSLE(cols, L.c32(0));
  llvm::Value *empty = b.CreateOr(noRows, noCols);
  llvm::Value *pitch = b.CreateMul(L.scalar(d.stride(0)), b.getInt64(static_cast<uint64_t>(eb)));
  // A map holds a row stride in [0, 2^40): past that, a loop that runs over a
  // tensor that is not empty traps. A trap, not __assertfail with a message:
  // a call anywhere in the kernel makes ptxas serialize its wgmma.
  llvm::Value *unheld = b.CreateICmpUGE(pitch, b.getInt64(uint64_t(1) << 40));
  llvm::Value *reads = b.CreateAnd(runs, b.CreateNot(empty));
  ifThen(L, b.CreateAnd(unheld, reads), [&] { b.CreateIntrinsic(llvm::Intrinsic::trap, {}, {}); });
  // Else nothing is read through it (no iteration, or no element inside):
  // the map gets a stride it can hold.
  pitch = b.CreateSelect(unheld, b.getInt64(16), pitch);
  auto orOne = [&](llvm::Value *n) { return b.CreateSelect(empty, L.c32(1), n); };
  llvm::Value *lane = L.laneId();
  ifThen(L, b.CreateICmpEQ(L.warpId(), L.c32(0)), [&] {
    // Each lane zeroes one word of the staging; lane 0 sets the fields.
    llvm::Value *word = b.CreateGEP(b.getInt8Ty(), staging, b.CreateMul(lane, L.c32(4)));
    b.CreateStore(L.c32(0), word);
    sideEffectAsm(L, b.getVoidTy(), "bar.warp.sync -1;", "~{memory}", {});
    ifThen(L, b.CreateICmpEQ(lane, L.c32(0)), [&] {
      llvm::Value *at = sharedAddress32(L, staging);
      auto field = [&](const std::string &name, const std::string &operands, const std::string &type,
                       std::vector<llvm::Value *> args, const std::string &constraints) {
        args.insert(args.begin(), at);
        sideEffectAsm(L, b.getVoidTy(),
                      "tensormap.replace.tile." + name + ".shared::cta.b1024." + type + " [$0], " + operands + ";",
                      "r" + constraints + ",~{memory}", args);
      };
      int64_t panel = swizzleBytes / eb;
      int swizzle = swizzleBytes == 128 ? 3 : swizzleBytes == 64 ? 2 : 1;
      field("global_address", "$1", "b64", {base}, ",l");
      field("rank", "1", "b32", {}, "");
      field("box_dim", "0, " + std::to_string(panel), "b32", {}, "");
      field("box_dim", "1, " + std::to_string(boxRows), "b32", {}, "");
      field("global_dim", "0, $1", "b32", {orOne(cols)}, ",r");
      field("global_dim", "1, $1", "b32", {orOne(rows)}, ",r");
      // PTX ISA 8.3 (the kernel's): ptxas reads the stride in 16-byte units
      // (from 8.6 on, bytes; Triton and CUTLASS shift it the same way).
      field("global_stride", "0, $1", "b64", {b.CreateLShr(pitch, 4)}, ",l");
      field("element_stride", "0, 1", "b32", {}, "");
      field("element_stride", "1, 1", "b32", {}, "");
      field("elemtype", std::to_string(elemtype), "b32", {}, "");
      field("interleave_layout", "0", "b32", {}, "");
      field("swizzle_mode", std::to_string(swizzle), "b32", {}, "");
      field("fill_mode", "0", "b32", {}, "");
    });
    sideEffectAsm(L, b.getVoidTy(), "bar.warp.sync -1;", "~{memory}", {});
    sideEffectAsm(L, b.getVoidTy(),
                  "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [$0], [$1], 128;",
                  "l,r,~{memory}", {global, sharedAddress32(L, staging)});
    ifThen(L, b.CreateICmpEQ(lane, L.c32(0)), [&] {
      // The acquire, then an empty bulk group waited for: Triton's workaround
      // for ptxas dropping the fence after the acquire.
      sideEffectAsm(L, b.getVoidTy(),
                    "fence.proxy.tensormap::generic.acquire.gpu [$0], 128;\n\tcp.async.bulk.commit_group;\n\t"
                    "cp.async.bulk.wait_group.read 0;",
                    "l,~{memory}", {global});
    });
  });
  return empty;
}

} // namespace

void tmaPrologue(LowerContext &L, PipelineRing &p, llvm::Value *runs) {
  llvm::IRBuilder<> &b = L.b;
  if (!L.scratch) throw InternalError("a pipeline copies by TMA, but the kernel has no global scratch", p.plan.loop->loc);
  int staged = 0;
  ScopedValues invariant(L);  // what the maps need of the body, evaluated before it
  invariant.evaluate(p.plan.mapSlice);
  for (const LoopPipeline::Load &ld : p.plan.loads) {
    if (!ld.tma()) continue;
    llvm::Value *staging = b.CreateGEP(b.getInt8Ty(), p.ring, L.c32(p.plan.mapOffset + 128 * staged++));
    llvm::Value *global = b.CreateAdd(L.scratch, b.getInt64(static_cast<uint64_t>(128 * ld.map)));
    p.tmaEmpty.push_back(
        buildMap(L, *ld.op, ld.op->result()->type.elem, ld.form.swizzleBytes, ld.boxRows, staging, global, runs));
    p.tmaMap.push_back(global);
  }
  ifThen(L, isThreadZero(L), [&] {
    for (int s = 0; s < p.plan.buffers; ++s)
      sideEffectAsm(L, b.getVoidTy(), "mbarrier.init.shared::cta.b64 [$0], 1;", "r,~{memory}",
                    {barrierAddress(L, p, L.c32(s))});
  });
  // What this program wrote through the generic proxy before, in shared
  // memory (the ring's bytes, another op's window before) and in global
  // memory (the tensor a box reads), ordered before TMA's async proxy.
  sideEffectAsm(L, b.getVoidTy(), "fence.proxy.async;", "~{memory}", {});
  barrier(L);
}

void tmaIssue(LowerContext &L, const PipelineRing &p, llvm::Value *stage, llvm::Value *inRange) {
  llvm::IRBuilder<> &b = L.b;
  // The offsets, bound for the iteration fetched, read before the branch.
  std::vector<std::pair<llvm::Value *, llvm::Value *>> offsets;
  for (const LoopPipeline::Load &ld : p.plan.loads)
    if (ld.tma()) {
      DescriptorOperands d(*ld.op);
      offsets.emplace_back(L.scalar(d.offset(0)), L.scalar(d.offset(1)));
    }
  ifThen(L, b.CreateAnd(isThreadZero(L), inRange), [&] {
    llvm::Value *bar = barrierAddress(L, p, stage);
    sideEffectAsm(L, b.getVoidTy(),
                  "{\n\t.reg .b64 state;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 state, [$0], $1;\n\t}",
                  "r,r,~{memory}", {bar, L.c32(p.plan.tmaBytes)});
    size_t k = 0;
    for (const LoopPipeline::Load &ld : p.plan.loads) {
      if (!ld.tma()) continue;
      const Type &t = ld.op->result()->type;
      int64_t eb = byteSize(t.elem), S = ld.form.swizzleBytes, panel = S / eb, rows = t.shape[0];
      auto [row0, col0] = offsets[k];
      llvm::Value *map = p.tmaMap[k], *empty = p.tmaEmpty[k];
      ++k;
      // An empty tensor: rows far above the box, so that every element is outside.
      row0 = b.CreateSelect(empty, L.c32(-512), row0);
      llvm::Value *buffer = b.CreateAdd(L.c32(ld.offset), b.CreateMul(stage, L.c32(ld.bytes)));
      if (ld.boxRows != rows) throw InternalError("a TMA box of other than all of its tile's rows", ld.op->loc);
      for (int64_t c = 0; c < t.shape[1] / panel; ++c) {
        // Panel c (rows x S bytes) is one box.
        llvm::Value *dst = sharedAddress(L, p.ring, 0, b.CreateAdd(buffer, L.c32(c * rows * S)));
        sideEffectAsm(L, b.getVoidTy(),
                      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];",
                      "r,l,r,r,r,~{memory}", {dst, map, b.CreateAdd(col0, L.c32(c * panel)), row0, bar});
      }
    }
  });
}

void tmaWait(LowerContext &L, const PipelineRing &p, llvm::Value *i) {
  llvm::IRBuilder<> &b = L.b;
  llvm::Value *buffers = L.c32(p.plan.buffers);
  llvm::Value *bar = barrierAddress(L, p, b.CreateURem(i, buffers));
  llvm::Value *parity = b.CreateAnd(b.CreateUDiv(i, buffers), L.c32(1));
  llvm::BasicBlock *spin = llvm::BasicBlock::Create(L.ctx, "tma.wait", L.kernel);
  llvm::BasicBlock *done = llvm::BasicBlock::Create(L.ctx, "tma.landed", L.kernel);
  b.CreateBr(spin);
  b.SetInsertPoint(spin);
  llvm::Value *ready = sideEffectAsm(L, b.getInt32Ty(),
                                     "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [$1], $2;\n\t"
                                     "selp.u32 $0, 1, 0, p;\n\t}",
                                     "=r,r,r,~{memory}", {bar, parity});
  b.CreateCondBr(b.CreateICmpNE(ready, L.c32(0)), done, spin);
  b.SetInsertPoint(done);
}

void tmaEpilogue(LowerContext &L, const PipelineRing &p) {
  ifThen(L, isThreadZero(L), [&] {
    for (int s = 0; s < p.plan.buffers; ++s)
      sideEffectAsm(L, L.b.getVoidTy(), "mbarrier.inval.shared::cta.b64 [$0];", "r,~{memory}",
                    {barrierAddress(L, p, L.c32(s))});
  });
}

} // namespace twintile::backend

namespace twintile::backend {

void lowerTmaStore(LowerContext &L, const Op &op) {
  llvm::IRBuilder<> &b = L.b;
  const TmaStore *s = L.tmaStores.find(op);
  if (!s) throw InternalError("a descriptor_store TMA does not write reached lowering", op.loc);
  if (!L.scratch) throw InternalError("a TMA store, but the kernel has no global scratch", op.loc);
  DescriptorOperands d(op);
  const Type &t = d.value()->type;
  TileVal v = L.get(d.value());
  llvm::Value *row0 = L.scalar(d.offset(0)), *col0 = L.scalar(d.offset(1));
  int64_t rows = t.shape[0], S = s->swizzleBytes, panel = S / byteSize(t.elem);
  llvm::Value *window = sharedBase(L, s->windowBytes(), op);
  barrierBeforeWindow(L);
  llvm::Value *staging = b.CreateGEP(b.getInt8Ty(), window, L.c32(s->stagingOffset()));
  llvm::Value *map = b.CreateAdd(L.scratch, b.getInt64(static_cast<uint64_t>(L.mapScratchOffset(*s))));
  llvm::Value *empty = buildMap(L, op, t.elem, s->swizzleBytes, static_cast<int>(rows), staging, map, b.getTrue());
  stageSwizzled(L, t, v, window, StagedForm{0, s->swizzleBytes});
  // Every thread's writes (the tile here, and earlier ones to the tensor)
  // ordered before the async proxy's reads and writes, then a barrier.
  sideEffectAsm(L, b.getVoidTy(), "fence.proxy.async;", "~{memory}", {});
  barrier(L);
  // An empty tensor: rows far above the box, so that no element is inside.
  row0 = b.CreateSelect(empty, L.c32(-512), row0);
  ifThen(L, isThreadZero(L), [&] {
    for (int64_t c = 0; c < t.shape[1] / panel; ++c) {
      llvm::Value *src = sharedAddress32(L, b.CreateGEP(b.getInt8Ty(), window, L.c32(c * rows * S)));
      sideEffectAsm(L, b.getVoidTy(), "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$0, {$1, $2}], [$3];",
                    "l,r,r,r,~{memory}", {map, b.CreateAdd(col0, L.c32(c * panel)), row0, src});
    }
    // Done: the window read and the tensor written, its writes then ordered
    // before the generic proxy's accesses that follow the barrier below.
    sideEffectAsm(L, b.getVoidTy(), "cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group 0;\n\tfence.proxy.async;",
                  "~{memory}", {});
  });
  barrier(L);
}

} // namespace twintile::backend
