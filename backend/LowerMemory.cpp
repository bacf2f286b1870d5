//===- LowerMemory.cpp - load, store, atomics, and the barriers between ---===//
//
// A thread accesses its registers of a tile in groups of up to 16 bytes:
// `w` registers consecutive along the layout's fastest dim become one
// `ld.global.v4.b32` (or v2, or b32) when the axis analysis proves the
// addresses consecutive and aligned and the mask constant over the group.
// The vector accesses are written as predicated PTX (as Triton does), so a
// masked access needs no branch; narrower ones are plain LLVM loads and
// stores, branched around when masked. Only the canonical owner of a
// replicated element stores it or adds to it. A scalar is loaded by every
// thread, stored by thread 0, and an atomic's or a volatile load's result is
// thread 0's, shared. orderMemory emits the barrier the plan puts before an
// access (BarrierPlan.h: when different threads may touch one element).
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"

#include <llvm/IR/InlineAsm.h>

#include <numeric>

namespace twintile::backend {

using namespace twintile::ir;

namespace {

/// "{$0, $1, $2, $3}" for operands first..first+n.
std::string operandList(int first, int n) {
  if (n == 1) return "$" + std::to_string(first);
  std::string s = "{";
  for (int i = 0; i < n; ++i) s += (i ? ", $" : "$") + std::to_string(first + i);
  return s + "}";
}

std::string vectorSuffix(int words) { return words == 1 ? ".b32" : ".v" + std::to_string(words) + ".b32"; }

} // namespace

/// True if a word of kind `k`'s elements travels as an f32 register: f32
/// elements are words, and LLVM 19's NVPTX keeps f32 and b32 registers apart,
/// so giving an f32 to "r" costs a mov.b32 per word each way (ptxas removes
/// them, but the PTX is read and measured).
static bool floatWords(ScalarKind k) { return k == ScalarKind::F32; }

/// The group's elements as `words` 32-bit words, or back. Two f16 or bf16
/// elements just narrowed from f32 pack with one cvt.rn.{f16,bf16}x2.f32.
static std::vector<llvm::Value *> packWords(LowerContext &L, const std::vector<llvm::Value *> &elems, ScalarKind k, int words) {
  llvm::IRBuilder<> &b = L.b;
  if (floatWords(k)) return elems;
  llvm::Type *st = L.storageType(k);
  llvm::Value *vec = llvm::PoisonValue::get(llvm::FixedVectorType::get(st, static_cast<unsigned>(elems.size())));
  for (size_t i = 0; i < elems.size(); ++i) vec = b.CreateInsertElement(vec, toStorage(L, elems[i], k), i);
  llvm::Value *w = b.CreateBitCast(vec, llvm::FixedVectorType::get(b.getInt32Ty(), static_cast<unsigned>(words)));
  std::vector<llvm::Value *> out;
  for (int i = 0; i < words; ++i) out.push_back(b.CreateExtractElement(w, static_cast<uint64_t>(i)));
  if ((k != ScalarKind::F16 && k != ScalarKind::BF16) || elems.size() != 2 * static_cast<size_t>(words)) return out;
  for (int i = 0; i < words; ++i)
    if (llvm::Value *lo = narrowedFrom(elems[2 * i]), *hi = narrowedFrom(elems[2 * i + 1]); lo && hi)
      out[i] = narrowedWord(L, k, lo, hi);
  return out;
}

static std::vector<llvm::Value *> unpackWords(LowerContext &L, const std::vector<llvm::Value *> &words, ScalarKind k, size_t n) {
  llvm::IRBuilder<> &b = L.b;
  if (floatWords(k)) return words;
  llvm::Value *w = llvm::PoisonValue::get(llvm::FixedVectorType::get(b.getInt32Ty(), static_cast<unsigned>(words.size())));
  for (size_t i = 0; i < words.size(); ++i) w = b.CreateInsertElement(w, words[i], i);
  llvm::Value *vec = b.CreateBitCast(w, llvm::FixedVectorType::get(L.storageType(k), static_cast<unsigned>(n)));
  std::vector<llvm::Value *> out;
  for (size_t i = 0; i < n; ++i) out.push_back(fromStorage(L, b.CreateExtractElement(vec, i), k));
  return out;
}

/// One element's load or store with `hints` (".cg", ".L1::evict_first") as
/// predicated PTX: a load's register starts as `other` (or 0) where `pred`
/// is off. Bytes travel in 16-bit registers (PTX has no 8-bit ones).
/// The load instruction with `hints`: ld.volatile.global (volatile takes the
/// cache operator's place, before the state space), else ld.global.cg etc.
static std::string loadOpcode(const std::string &hints) {
  return hints == ".volatile" ? "ld.volatile.global" : "ld.global" + hints;
}

static llvm::Value *hintedAccess(LowerContext &L, const Op &op, const std::string &hints, llvm::Value *ptr,
                                 llvm::Value *pred, llvm::Value *value, llvm::Value *other) {
  llvm::IRBuilder<> &b = L.b;
  ScalarKind k = op.operand(0)->type.pointee;
  llvm::Type *st = L.storageType(k);
  unsigned bits = st->getPrimitiveSizeInBits();
  llvm::Type *reg = floatWords(k) ? st : b.getIntNTy(std::max(16u, bits));
  const char *constraint = floatWords(k) ? "f" : bits == 64 ? "l" : bits == 32 ? "r" : "h";
  std::string type = ".b" + std::to_string(bits), regType = ".b" + std::to_string(std::max(16u, bits));
  auto toReg = [&](llvm::Value *v) {  // an element as the register's bits
    if (floatWords(k)) return v;
    llvm::Value *x = b.CreateBitCast(toStorage(L, v, k), b.getIntNTy(bits));
    return bits < 16 ? b.CreateZExt(x, reg) : x;
  };
  std::vector<llvm::Value *> args{ptr};
  std::string constraints, text;
  if (op.kind == OpKind::Load) {
    constraints = std::string("=") + constraint + ",l";
    if (pred) {
      constraints += std::string(",b,") + constraint;
      args.push_back(pred);
      args.push_back(other ? toReg(other) : llvm::Constant::getNullValue(reg));
      text = "mov" + regType + " $0, $3;\n\t@$2 ";
    }
    text += loadOpcode(hints) + type + " $0, [$1];";
    if (hints == ".volatile") constraints += ",~{memory}";  // ordered with the program's other accesses
  } else {
    constraints = std::string("l,") + constraint;
    args.push_back(toReg(value));
    if (pred) {
      constraints += ",b";
      args.push_back(pred);
      text = "@$2 ";
    }
    text += "st.global" + hints + type + " [$0], $1;";
    constraints += ",~{memory}";
  }
  std::vector<llvm::Type *> argTys;
  for (llvm::Value *a : args) argTys.push_back(a->getType());
  llvm::Type *retTy = op.kind == OpKind::Load ? reg : b.getVoidTy();
  llvm::Value *r = b.CreateCall(llvm::InlineAsm::get(llvm::FunctionType::get(retTy, argTys, false), text, constraints, true), args);
  if (op.kind != OpKind::Load) return nullptr;
  if (floatWords(k)) return r;
  if (bits < 16) r = b.CreateTrunc(r, b.getIntNTy(bits));
  return fromStorage(L, b.CreateBitCast(r, st), k);
}

static void orderMemory(LowerContext &L, const Op &op) {
  if (L.barrierPlan.needsBeforeAccess(op)) barrier(L);  // BarrierPlan.h's rule
}

static llvm::Value *atomicAccess(LowerContext &L, const Op &op, llvm::Value *ptr, llvm::Value *value, llvm::Value *cmp,
                                 llvm::Align align) {
  llvm::IRBuilder<> &b = L.b;
  bool fp = isFloat(op.operand(0)->type.pointee), uns = isUnsigned(op.operand(0)->type.pointee);
  std::string sem = op.attrs.count("sem") ? op.attr("sem").s : std::string(kAtomicSems[0]);
  std::string scope = op.attrs.count("scope") ? op.attr("scope").s : std::string(kAtomicScopes[0]);
  // LLVM 19's NVPTX backend emits every atomic relaxed, whatever its order
  // and scope, and cannot select a fence: the order is made of PTX fences
  // around the relaxed atomic (the PTX memory model's fence-based release
  // and acquire patterns).
  auto fence = [&] {
    auto *fn = llvm::FunctionType::get(b.getVoidTy(), false);
    b.CreateCall(llvm::InlineAsm::get(fn, "fence.acq_rel." + scope + ";", "~{memory}", /*hasSideEffects=*/true), {});
  };
  if (sem == "release" || sem == "acq_rel") fence();
  llvm::Value *old = nullptr;
  constexpr auto relaxed = llvm::AtomicOrdering::Monotonic;
  if (op.kind == OpKind::AtomicCas) {
    old = b.CreateExtractValue(b.CreateAtomicCmpXchg(ptr, cmp, value, align, relaxed, relaxed), {0});
  } else {
    using B = llvm::AtomicRMWInst::BinOp;
    B bin = B::Xchg;
    switch (op.kind) {
    case OpKind::AtomicAdd: bin = fp ? B::FAdd : B::Add; break;
    case OpKind::AtomicMax: bin = fp ? B::FMax : uns ? B::UMax : B::Max; break;
    case OpKind::AtomicMin: bin = fp ? B::FMin : uns ? B::UMin : B::Min; break;
    case OpKind::AtomicAnd: bin = B::And; break;
    case OpKind::AtomicOr: bin = B::Or; break;
    case OpKind::AtomicXor: bin = B::Xor; break;
    case OpKind::AtomicXchg: bin = B::Xchg; break;
    default: throw InternalError("'" + std::string(op.name()) + "' is not a read-modify-write atomic", op.loc);
    }
    old = b.CreateAtomicRMW(bin, ptr, value, align, relaxed);
  }
  if (sem == "acquire" || sem == "acq_rel") fence();
  return old;
}

void lowerMemory(LowerContext &L, const Op &op) {
  llvm::IRBuilder<> &b = L.b;
  const Value *ptrV = op.operand(0);
  const Type &pt = ptrV->type;
  ScalarKind k = pt.pointee;
  llvm::Type *st = L.storageType(k);
  bool isLoad = op.kind == OpKind::Load, isAtomic = twintile::ir::isAtomic(op.kind);
  size_t maskIdx = static_cast<size_t>(maskOperand(op.kind));
  size_t valueIdx = static_cast<size_t>(valueOperand(op.kind));
  const Value *cmpV = op.kind == OpKind::AtomicCas ? op.operand(1) : nullptr;
  const Value *maskV = op.operands.size() > maskIdx ? op.operand(maskIdx) : nullptr;
  const Value *otherV = isLoad && op.operands.size() > 2 ? op.operand(2) : nullptr;
  llvm::Align align(static_cast<uint64_t>(byteSize(k)));
  // The access's cache operator or L1 eviction priority, as PTX spells it (IR.h).
  std::string hints;
  if (op.attrs.count("cache")) hints = "." + op.attr("cache").s;
  if (op.attrs.count("evict")) hints = ".L1::" + op.attr("evict").s;

  // One element: an LLVM load, store or atomic, branched around when masked;
  // with hints, predicated PTX (LLVM has no words for them).
  auto scalarAccess = [&](llvm::Value *ptr, llvm::Value *pred, llvm::Value *value, llvm::Value *other,
                          llvm::Value *cmp = nullptr) -> llvm::Value * {
    // A masked tile feeding tensor cores loads element by element without
    // promises; predicated PTX keeps that straight-line code (a branch per
    // element left flash attention at 64 at the edge of the register file).
    if (!hints.empty() || (pred && op.kind == OpKind::Load && feedsTensorCoresOnly(L, op.result())))
      return hintedAccess(L, op, hints, ptr, pred, value, other);
    if (!pred && op.kind == OpKind::Load) return fromStorage(L, b.CreateAlignedLoad(st, ptr, align), k);
    llvm::BasicBlock *from = b.GetInsertBlock();
    llvm::Value *result = nullptr;
    ifThen(L, pred, [&] {
      if (op.kind == OpKind::Load) result = fromStorage(L, b.CreateAlignedLoad(st, ptr, align), k);
      else if (op.kind == OpKind::Store) b.CreateAlignedStore(toStorage(L, value, k), ptr, align);
      else
        result = atomicAccess(L, op, ptr, value, cmp, align);
    });
    if (!pred || op.kind == OpKind::Store) return result;
    // ifThen left us in the join block: merge the loaded value with `other`.
    llvm::PHINode *phi = b.CreatePHI(result->getType(), 2);
    for (llvm::BasicBlock *p : llvm::predecessors(b.GetInsertBlock()))
      phi->addIncoming(p == from ? (other ? other : llvm::Constant::getNullValue(result->getType())) : result, p);
    return phi;
  };

  if (pt.isScalar()) {
    // Every thread loads a scalar; thread 0 alone stores or adds, and shares
    // what an atomic returned through shared memory. A volatile load is
    // thread 0's too, shared the same way: threads that each read it could
    // see two values (another program writing between their reads) and part
    // ways at a loop's condition, where the loop's barriers would no longer
    // pair up (a decoupled look-back's spin).
    llvm::Value *ptr = L.scalar(ptrV), *mask = maskV ? L.scalar(maskV) : nullptr;
    orderMemory(L, op);
    bool shareResult = isAtomic || (isLoad && op.hasEffects());
    if (isLoad && !shareResult)
      return L.set(op.result(), {true, {}, {scalarAccess(ptr, mask, nullptr, otherV ? L.scalar(otherV) : nullptr)}});
    llvm::Value *pred = andMaybe(L, mask, isThreadZero(L));
    llvm::Value *old = isLoad ? scalarAccess(ptr, pred, nullptr, otherV ? L.scalar(otherV) : nullptr)
                              : scalarAccess(ptr, pred, L.scalar(op.operand(valueIdx)), nullptr, cmpV ? L.scalar(cmpV) : nullptr);
    if (!shareResult) return;
    llvm::Value *slot = sharedBase(L, 8, op);
    barrierBeforeWindow(L);
    ifThen(L, isThreadZero(L), [&] { b.CreateStore(old, slot); });
    barrier(L);
    return L.set(op.result(), {true, {}, {b.CreateLoad(old->getType(), slot)}});
  }

  const Layout &l = L.layoutOf(isLoad || isAtomic ? static_cast<const Value *>(op.result()) : ptrV);
  TileVal ptrs = L.get(ptrV, &l);
  TileVal mask = maskV ? L.get(maskV, &l) : TileVal{};
  TileVal other = otherV ? L.get(otherV, &l) : TileVal{};
  TileVal value = isLoad ? TileVal{} : L.get(op.operand(valueIdx), &l);
  TileVal cmp = cmpV ? L.get(cmpV, &l) : TileVal{};
  const std::vector<RegCoord> &cs = L.coords(l, pt.shape);
  std::vector<DimPlan> plan = planDims(l, pt.shape);
  orderMemory(L, op);

  // The vector width: consecutive, aligned, equally masked registers.
  int f = l.tileOrder()[0];
  int w = isAtomic ? 1 : vectorWidth(pt, L.axes.at(ptrV), maskV ? &L.axes.at(maskV) : nullptr, f);
  w = std::gcd(w, plan[f].spt);
  while (w > 1 && (pt.shape[f] % w != 0 || w * static_cast<int>(byteSize(k)) < 4)) w /= 2;
  int words = w * static_cast<int>(byteSize(k)) / 4;

  int64_t n = numRegisters(l, pt.shape);
  std::vector<llvm::Value *> result(static_cast<size_t>(n));
  for (int64_t r = 0; r < n; ++r) {
    std::vector<int64_t> rd = regDims(l, pt.shape, r);
    if (rd[f] % w != 0) continue;
    std::vector<size_t> group;
    for (int j = 0; j < w; ++j) {
      std::vector<int64_t> g = rd;
      g[f] += j;
      group.push_back(static_cast<size_t>(regIndex(l, pt.shape, g)));
    }
    size_t r0 = group[0];
    llvm::Value *pred = maskV ? mask.regs[r0] : nullptr;
    if (!isLoad) pred = andMaybe(L, pred, cs[r0].canonical);
    if (w == 1) {
      llvm::Value *v = scalarAccess(ptrs.regs[r0], pred, isLoad ? nullptr : value.regs[r0],
                                    otherV ? other.regs[r0] : nullptr, cmpV ? cmp.regs[r0] : nullptr);
      if (v) result[r0] = v;
      continue;
    }
    // Predicated PTX for the whole group.
    llvm::Type *i32 = floatWords(k) ? b.getFloatTy() : b.getInt32Ty();
    const std::string reg = floatWords(k) ? "f" : "r";
    std::vector<llvm::Value *> args;
    std::vector<llvm::Type *> argTys;
    std::string constraints, text;
    if (isLoad) {
      std::vector<llvm::Value *> init;
      if (pred) {
        std::vector<llvm::Value *> elems;
        for (size_t g : group) elems.push_back(otherV ? other.regs[g] : llvm::Constant::getNullValue(L.llvmType(k)));
        init = packWords(L, elems, k, words);
      }
      for (int i = 0; i < words; ++i) constraints += "=" + reg + ",";
      constraints += "l";
      args.push_back(ptrs.regs[r0]);
      if (pred) {
        constraints += ",b";
        args.push_back(pred);
        for (int i = 0; i < words; ++i) {
          constraints += "," + reg;
          args.push_back(init[static_cast<size_t>(i)]);
          text += "mov.b32 $" + std::to_string(i) + ", $" + std::to_string(words + 2 + i) + ";\n\t";
        }
        text += "@$" + std::to_string(words + 1) + " ";
      }
      text += loadOpcode(hints) + vectorSuffix(words) + " " + operandList(0, words) + ", [$" + std::to_string(words) + "];";
      if (hints == ".volatile") constraints += ",~{memory}";
      for (llvm::Value *a : args) argTys.push_back(a->getType());
      llvm::Type *retTy = words == 1 ? static_cast<llvm::Type *>(i32)
                                     : llvm::StructType::get(L.ctx, std::vector<llvm::Type *>(static_cast<size_t>(words), i32));
      auto *asmFn = llvm::InlineAsm::get(llvm::FunctionType::get(retTy, argTys, false), text, constraints, true);
      llvm::Value *ret = b.CreateCall(asmFn, args);
      std::vector<llvm::Value *> ws;
      for (int i = 0; i < words; ++i) ws.push_back(words == 1 ? ret : b.CreateExtractValue(ret, {static_cast<unsigned>(i)}));
      std::vector<llvm::Value *> elems = unpackWords(L, ws, k, group.size());
      for (size_t j = 0; j < group.size(); ++j) result[group[j]] = elems[j];
      continue;
    }
    std::vector<llvm::Value *> elems;
    for (size_t g : group) elems.push_back(value.regs[g]);
    args = packWords(L, elems, k, words);
    for (int i = 0; i < words; ++i) constraints += reg + ",";
    constraints += "l";
    args.push_back(ptrs.regs[r0]);
    if (pred) {
      constraints += ",b";
      args.push_back(pred);
      text += "@$" + std::to_string(words + 1) + " ";
    }
    text += "st.global" + hints + vectorSuffix(words) + " [$" + std::to_string(words) + "], " + operandList(0, words) + ";";
    constraints += ",~{memory}";
    for (llvm::Value *a : args) argTys.push_back(a->getType());
    auto *asmFn = llvm::InlineAsm::get(llvm::FunctionType::get(b.getVoidTy(), argTys, false), text, constraints, true);
    b.CreateCall(asmFn, args);
  }
  if (op.kind == OpKind::Store) return;
  TileVal out{false, l, result};
  // An atomic's old value is known to the owner alone: share it with copies.
  if (isAtomic && hasReplication(l, pt.shape)) out = throughShared(L, op.result()->type, out, l, op, nullptr, true);
  L.set(op.result(), std::move(out));
}

} // namespace twintile::backend
