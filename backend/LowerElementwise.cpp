//===- LowerElementwise.cpp - arithmetic, casts, math, index tiles -------===//
//
// Elementwise ops work register by register: every operand is brought to the
// result's layout, and register r of the result combines register r of each
// operand. f16 and bf16 are computed in f32 and rounded back after every op
// (IR.h's semantics; the hardware's f16 units would round the same way for
// add, sub and mul, and lack the rest).
//===----------------------------------------------------------------------===//
#include "backend/Lowering.h"
#include "backend/Rounded.h"
#include "backend/Target.h"

#include "ir/Diagnostic.h"
#include "ir/Semantics.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <cassert>
#include <cmath>
#include <numeric>

namespace twintile::backend {

using namespace twintile::ir;

static std::vector<size_t> runStarts(LowerContext &L, const Layout &l, const Value *v);

llvm::Value *narrowedFrom(llvm::Value *v) {
  auto *t = llvm::dyn_cast<llvm::FPTruncInst>(v);
  return t && t->getSrcTy()->isFloatTy() ? t->getOperand(0) : nullptr;
}

llvm::Value *narrowedWord(LowerContext &L, ScalarKind k, llvm::Value *lo, llvm::Value *hi) {
  llvm::IRBuilder<> &b = L.b;
  std::string text = std::string("cvt.rn.") + (k == ScalarKind::F16 ? "f16x2" : "bf16x2") + ".f32 $0, $1, $2;";
  auto *ty = llvm::FunctionType::get(b.getInt32Ty(), {b.getFloatTy(), b.getFloatTy()}, false);
  return b.CreateCall(llvm::InlineAsm::get(ty, text, "=r,f,f", false), {hi, lo});  // the first operand goes high
}


llvm::Value *widen(LowerContext &L, llvm::Value *v, ScalarKind k) {
  llvm::IRBuilder<> &b = L.b;
  return computeKind(k) == k ? v : b.CreateFPExt(v, b.getFloatTy());
}

llvm::Value *narrow(LowerContext &L, llvm::Value *v, ScalarKind k) {
  llvm::IRBuilder<> &b = L.b;
  return computeKind(k) == k ? v : b.CreateFPTrunc(v, L.llvmType(k));
}

namespace {

/// libdevice's name for a float (f32) or double function.
std::string libdeviceName(OpKind k, bool f64) {
  const char *base = nullptr;
  switch (k) {
  case OpKind::Exp: base = "exp"; break;
  case OpKind::Exp2: base = "exp2"; break;
  case OpKind::Log: base = "log"; break;
  case OpKind::Log2: base = "log2"; break;
  case OpKind::Sqrt: base = "sqrt"; break;
  case OpKind::Rsqrt: base = "rsqrt"; break;
  case OpKind::Sin: base = "sin"; break;
  case OpKind::Cos: base = "cos"; break;
  case OpKind::Tanh: base = "tanh"; break;
  case OpKind::Erf: base = "erf"; break;
  case OpKind::Log1p: base = "log1p"; break;
  case OpKind::Expm1: base = "expm1"; break;
  case OpKind::Pow: base = "pow"; break;
  default: throw ir::InternalError("not a libdevice function");
  }
  return std::string("__nv_") + base + (f64 ? "" : "f");
}

} // namespace

static llvm::Value *math(LowerContext &L, const Op &op, OpKind k, llvm::Value *x, ScalarKind elem) {
  llvm::IRBuilder<> &b = L.b;
  bool f64 = elem == ScalarKind::F64;
  llvm::Type *t = x->getType();
  if (k == OpKind::Sigmoid) {  // 1 / (1 + exp(-x))
    llvm::Value *e = math(L, op, OpKind::Exp, b.CreateFNeg(x), elem);
    return binary(L, OpKind::Div, llvm::ConstantFP::get(t, 1.0), binary(L, OpKind::Add, llvm::ConstantFP::get(t, 1.0), e, elem),
                  elem);
  }
  if (k == OpKind::Sqrt) return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x);  // IEEE sqrt.rn
  if (k == OpKind::Floor) return b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, x);  // cvt.rmi, exact
  if (k == OpKind::Ceil) return b.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, x);    // cvt.rpi, exact
  if (k == OpKind::Rint) return b.CreateUnaryIntrinsic(llvm::Intrinsic::rint, x);    // cvt.rni, exact
  if (k == OpKind::Round) return b.CreateUnaryIntrinsic(llvm::Intrinsic::round, x);  // halves away from zero, exact
  // --math=fast takes the GPU's approximations for f32 (there are none of
  // erf, log1p and expm1, nor of f64); so does a compile without libdevice,
  // with a note.
  bool exactOnly = k == OpKind::Erf || k == OpKind::Log1p || k == OpKind::Expm1;
  bool approximate = L.options.fastMath && !f64 && !exactOnly;
  if (L.libdevice && !approximate) {
    llvm::FunctionCallee fn = L.mod.getOrInsertFunction(libdeviceName(k, f64), t, t);
    return b.CreateCall(fn, {x});
  }
  if (f64 || exactOnly)  // no approximation of these on the GPU to fall back on
    L.fail(op, "'" + std::string(opInfo(k).name) + "'" + (f64 ? " on f64" : "") +
                 " needs libdevice, which was not found (run scripts/setup or set TWINTILE_LIBDEVICE)");
  if (!approximate) L.note("libdevice not found: exp, log, sin, cos, tanh use the GPU's fast approximations");
  auto approx = [&](llvm::Intrinsic::ID id, llvm::Value *v) { return b.CreateIntrinsic(id, {}, {v}); };
  const double log2e = 1.4426950408889634, ln2 = 0.6931471805599453;
  switch (k) {
  case OpKind::Exp2: return approx(llvm::Intrinsic::nvvm_ex2_approx_f, x);
  case OpKind::Exp: {
    // Its only user is ex2, so nothing fuses with it; `contract` keeps it a
    // multiply by an immediate (Rounded.h's rounded ops take registers only).
    llvm::FastMathFlags plain;
    plain.setAllowContract(L.options.fastMath);
    llvm::IRBuilder<>::FastMathFlagGuard keep(b);
    b.setFastMathFlags(plain);
    return approx(llvm::Intrinsic::nvvm_ex2_approx_f, b.CreateFMul(x, llvm::ConstantFP::get(t, log2e)));
  }
  case OpKind::Log2: return approx(llvm::Intrinsic::nvvm_lg2_approx_f, x);
  case OpKind::Log:  // rounded: the licence to fuse is for the kernel's multiplies, not log's own
    return rounded(b, llvm::Instruction::FMul, approx(llvm::Intrinsic::nvvm_lg2_approx_f, x), llvm::ConstantFP::get(t, ln2));
  case OpKind::Rsqrt:  // Triton's, libdevice's with __CUDA_FTZ: no subnormal-range scaling
    return approx(L.options.fastMath ? llvm::Intrinsic::nvvm_rsqrt_approx_ftz_f : llvm::Intrinsic::nvvm_rsqrt_approx_f, x);
  case OpKind::Sin: return approx(llvm::Intrinsic::nvvm_sin_approx_f, x);
  case OpKind::Cos: return approx(llvm::Intrinsic::nvvm_cos_approx_f, x);
  case OpKind::Tanh: {
    auto *asmTy = llvm::FunctionType::get(t, {t}, false);
    return b.CreateCall(llvm::InlineAsm::get(asmTy, "tanh.approx.f32 $0, $1;", "=f,f", false), {x});
  }
  default: throw ir::InternalError("not a math op");
  }
}

static llvm::Value *fmod(LowerContext &L, llvm::Value *x, llvm::Value *y, ScalarKind elem) {
  llvm::IRBuilder<> &b = L.b;
  // LLVM's frem becomes x - trunc(x / y) * y on NVPTX, which is not exact;
  // the IR's rem of floats is fmod. libdevice's is exact.
  if (!L.libdevice)
    L.fail(*L.current, "'rem' of floats needs libdevice's exact fmod, which was not found (run scripts/setup or set "
                    "TWINTILE_LIBDEVICE)");
  llvm::Type *t = x->getType();
  return b.CreateCall(L.mod.getOrInsertFunction(elem == ScalarKind::F64 ? "__nv_fmod" : "__nv_fmodf", t, t, t), {x, y});
}

llvm::Value *binary(LowerContext &L, OpKind k, llvm::Value *x, llvm::Value *y, ScalarKind elem, bool rounded) {
  llvm::IRBuilder<> &b = L.b;
  if (isFloat(elem)) {
    // --math=fast, as Triton's default enable_fp_fusion: an f32 multiply
    // feeding an add may become one fma (the product unrounded), in LLVM
    // and in ptxas. Such ops are marked `contract`; the others, f64's (IR.h
    // keeps it precise) among them, round at the end (Rounded.h).
    // `rounded` ones are built rounded here: f16/bf16's, computed in f32 and
    // narrowed after every op, which InstCombine would otherwise shrink to
    // half-precision ops (no NVVM intrinsic rounds those), and a
    // butterfly's.
    if (L.options.fastMath && rounded) {
      switch (k) {
      case OpKind::Add: case OpKind::Sum: case OpKind::Cumsum:
        return twintile::backend::rounded(b, llvm::Instruction::FAdd, x, y);
      case OpKind::Sub: return twintile::backend::rounded(b, llvm::Instruction::FSub, x, y);
      case OpKind::Mul: return twintile::backend::rounded(b, llvm::Instruction::FMul, x, y);
      default: break;
      }
    }
    llvm::FastMathFlags fusable;
    fusable.setAllowContract(L.options.fastMath && elem == ScalarKind::F32);
    llvm::IRBuilder<>::FastMathFlagGuard keep(b);
    b.setFastMathFlags(fusable);
    switch (k) {
    case OpKind::Add: case OpKind::Sum: case OpKind::Cumsum: return b.CreateFAdd(x, y);
    case OpKind::Sub: return b.CreateFSub(x, y);
    case OpKind::Mul: return b.CreateFMul(x, y);
    case OpKind::Div:
      if (L.options.fastMath && elem == ScalarKind::F32) {  // Triton's default: within 2 ulp, full range
        auto *ty = llvm::FunctionType::get(x->getType(), {x->getType(), y->getType()}, false);
        return b.CreateCall(llvm::InlineAsm::get(ty, "div.full.f32 $0, $1, $2;", "=f,f,f", false), {x, y});
      }
      return b.CreateFDiv(x, y);
    case OpKind::Rem: return fmod(L, x, y, elem);
    case OpKind::Pow: {
      if (!L.libdevice)
        L.fail(*L.current, "'pow' needs libdevice's powf, which was not found (run scripts/setup or set TWINTILE_LIBDEVICE)");
      llvm::Type *t = x->getType();
      return b.CreateCall(L.mod.getOrInsertFunction(libdeviceName(OpKind::Pow, elem == ScalarKind::F64), t, t, t), {x, y});
    }
    case OpKind::Minimum: case OpKind::Min: return b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, x, y);
    case OpKind::Maximum: case OpKind::Max: return b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, x, y);
    default: break;
    }
    throw ir::InternalError("not a float binary op");
  }
  llvm::Type *t = x->getType();
  auto zero = llvm::ConstantInt::get(t, 0);
  switch (k) {
  case OpKind::Add: case OpKind::Sum: case OpKind::Cumsum: return b.CreateAdd(x, y);
  case OpKind::Sub: return b.CreateSub(x, y);
  case OpKind::Mul: return b.CreateMul(x, y);
  case OpKind::Div:
  case OpKind::Rem: {
    if (isUnsigned(elem)) return k == OpKind::Div ? b.CreateUDiv(x, y) : b.CreateURem(x, y);
    // Division by -1 is negation (it wraps on the minimum, as IR.h says);
    // LLVM leaves that one undefined, so it is taken apart.
    llvm::Value *minusOne = b.CreateICmpEQ(y, llvm::ConstantInt::get(t, -1, true));
    llvm::Value *safe = b.CreateSelect(minusOne, llvm::ConstantInt::get(t, 1), y);
    llvm::Value *q = k == OpKind::Div ? b.CreateSDiv(x, safe) : b.CreateSRem(x, safe);
    return b.CreateSelect(minusOne, k == OpKind::Div ? b.CreateSub(zero, x) : zero, q);
  }
  // i1 holds 0 or 1 (IR.h), where LLVM's signed view of it is 0 or -1.
  case OpKind::Minimum: case OpKind::Min:
    return b.CreateBinaryIntrinsic(unsignedOrder(elem) ? llvm::Intrinsic::umin : llvm::Intrinsic::smin, x, y);
  case OpKind::Maximum: case OpKind::Max:
    return b.CreateBinaryIntrinsic(unsignedOrder(elem) ? llvm::Intrinsic::umax : llvm::Intrinsic::smax, x, y);
  case OpKind::Umulhi: {  // mul.hi.u<width>
    unsigned width = t->getIntegerBitWidth();
    llvm::Type *wide = b.getIntNTy(2 * width);
    llvm::Value *p = b.CreateMul(b.CreateZExt(x, wide), b.CreateZExt(y, wide));
    return b.CreateTrunc(b.CreateLShr(p, llvm::ConstantInt::get(wide, width)), t);
  }
  case OpKind::And: return b.CreateAnd(x, y);
  case OpKind::Or: return b.CreateOr(x, y);
  case OpKind::Xor: return b.CreateXor(x, y);
  case OpKind::Shl:
  case OpKind::Shr: {
    // Amounts outside [0, width) give 0 or the sign fill (IR.h).
    unsigned width = t->getIntegerBitWidth();
    llvm::Value *out = b.CreateICmpUGE(y, llvm::ConstantInt::get(t, width));
    llvm::Value *amt = b.CreateSelect(out, zero, y);
    if (k == OpKind::Shl) return b.CreateSelect(out, zero, b.CreateShl(x, amt));
    if (elem == ScalarKind::I1) return b.CreateSelect(out, zero, x);  // never negative: no sign to fill
    if (isUnsigned(elem)) return b.CreateSelect(out, zero, b.CreateLShr(x, amt));  // logical: zeros fill
    return b.CreateAShr(x, b.CreateSelect(out, llvm::ConstantInt::get(t, width - 1), amt));
  }
  default: break;
  }
  throw ir::InternalError("not an integer binary op");
}

namespace {

/// Floats compare ordered (ne unordered: true on NaN), integers signed,
/// unsigned kinds and i1 (it holds 0 or 1) unsigned.
llvm::CmpInst::Predicate predicate(OpKind k, bool fp, bool uns) {
  switch (k) {
  case OpKind::Eq: return fp ? llvm::CmpInst::FCMP_OEQ : llvm::CmpInst::ICMP_EQ;
  case OpKind::Ne: return fp ? llvm::CmpInst::FCMP_UNE : llvm::CmpInst::ICMP_NE;
  case OpKind::Lt: return fp ? llvm::CmpInst::FCMP_OLT : uns ? llvm::CmpInst::ICMP_ULT : llvm::CmpInst::ICMP_SLT;
  case OpKind::Le: return fp ? llvm::CmpInst::FCMP_OLE : uns ? llvm::CmpInst::ICMP_ULE : llvm::CmpInst::ICMP_SLE;
  case OpKind::Gt: return fp ? llvm::CmpInst::FCMP_OGT : uns ? llvm::CmpInst::ICMP_UGT : llvm::CmpInst::ICMP_SGT;
  case OpKind::Ge: return fp ? llvm::CmpInst::FCMP_OGE : uns ? llvm::CmpInst::ICMP_UGE : llvm::CmpInst::ICMP_SGE;
  default: break;
  }
  throw ir::InternalError("not a comparison");
}

} // namespace

/// One element of `op` from its operands' elements (already in registers).
static llvm::Value *elementOf(LowerContext &L, const Op &op, const std::vector<llvm::Value *> &x) {
  llvm::IRBuilder<> &b = L.b;
  ScalarKind in = op.operand(0)->type.elem, out = op.result()->type.elem;
  bool fp = isFloat(in);
  switch (op.kind) {
  case OpKind::Cast: {
    if (in == out) return x[0];
    if (out == ScalarKind::I1)  // "!= 0" (NaN is not 0)
      return fp ? b.CreateFCmpUNE(x[0], llvm::ConstantFP::get(x[0]->getType(), 0.0))
                : b.CreateICmpNE(x[0], llvm::ConstantInt::get(x[0]->getType(), 0));
    llvm::Type *to = L.llvmType(out);
    // Integers widen by their own signedness (i1 holds 0 or 1: zero-extended).
    bool zext = unsignedOrder(in);
    if (isInt(in) && isInt(out)) return zext ? b.CreateZExtOrTrunc(x[0], to) : b.CreateSExtOrTrunc(x[0], to);
    auto intToFP = [&](llvm::Type *ty) { return zext ? b.CreateUIToFP(x[0], ty) : b.CreateSIToFP(x[0], ty); };
    if (isInt(in) && out == ScalarKind::BF16 && bitWidth(in) < 64) {
      // sm_80 has no integer-to-bf16 conversion; through f32 it would round
      // twice. Every integer below 64 bits is exact in f64, and f64 to bf16
      // rounds once.
      return b.CreateFPTrunc(intToFP(b.getDoubleTy()), to);
    }
    if (isInt(in)) return intToFP(to);
    // Float to int truncates and saturates, NaN gives 0: exactly fpto[su]i.sat.
    if (isInt(out))
      return b.CreateIntrinsic(isUnsigned(out) ? llvm::Intrinsic::fptoui_sat : llvm::Intrinsic::fptosi_sat,
                               {to, x[0]->getType()}, {x[0]});
    if (bitWidth(in) < bitWidth(out) || (in == ScalarKind::F16 && out == ScalarKind::BF16) ||
        (in == ScalarKind::BF16 && out == ScalarKind::F16)) {
      llvm::Value *wide = bitWidth(in) == 16 && bitWidth(out) == 16 ? b.CreateFPExt(x[0], b.getFloatTy()) : x[0];
      return bitWidth(out) == 16 ? b.CreateFPTrunc(wide, to) : b.CreateFPExt(wide, to);
    }
    return b.CreateFPTrunc(x[0], to);
  }
  case OpKind::Bitcast: return b.CreateBitCast(x[0], L.llvmType(out));
  case OpKind::AddPtr: {
    ScalarKind offKind = op.operand(1)->type.elem;
    llvm::Value *off = isUnsigned(offKind) ? b.CreateZExt(x[1], b.getInt64Ty()) : b.CreateSExt(x[1], b.getInt64Ty());
    return b.CreateGEP(L.storageType(op.operand(0)->type.pointee), x[0], off);
  }
  case OpKind::Select: return b.CreateSelect(x[0], x[1], x[2]);
  default: break;
  }
  if (op.info().has(Compare)) {
    if (!fp) return b.CreateICmp(predicate(op.kind, false, unsignedOrder(in)), x[0], x[1]);
    return b.CreateFCmp(predicate(op.kind, true, false), widen(L, x[0], in), widen(L, x[1], in));
  }
  if (op.kind == OpKind::Fma) {
    llvm::Value *r = b.CreateIntrinsic(llvm::Intrinsic::fma, {L.llvmType(computeKind(in))},
                                       {widen(L, x[0], in), widen(L, x[1], in), widen(L, x[2], in)});
    return narrow(L, r, in);
  }
  if (op.operands.size() == 1) {
    llvm::Value *a = x[0];
    switch (op.kind) {
    case OpKind::Neg: return fp ? b.CreateFNeg(a) : b.CreateSub(llvm::ConstantInt::get(a->getType(), 0), a);
    case OpKind::Not: return b.CreateNot(a);
    case OpKind::Abs:
      if (isUnsigned(in)) return a;
      return fp ? b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, a)
                : b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, a, b.getFalse());
    default: return narrow(L, math(L, op, op.kind, widen(L, a, in), computeKind(in)), in);
    }
  }
  if (!fp) return binary(L, op.kind, x[0], x[1], in);
  // f16/bf16 in f32, rounded to f32 and then to their own type: exactly
  // their own op's result (f32 has more than twice their precision).
  ScalarKind k = computeKind(in);
  return narrow(L, binary(L, op.kind, widen(L, x[0], in), widen(L, x[1], in), k, /*rounded=*/k != in), in);
}

TileVal lowerElementwise(LowerContext &L, const Op &op, const Layout *l) {
  llvm::IRBuilder<> &b = L.b;
  const Type &t = op.result()->type;
  TileVal out{l == nullptr, l ? *l : Layout{}, {}};
  switch (op.kind) {
  case OpKind::Constant: {
    Elem e = constantElem(op.attr("value"), t.elem);
    llvm::Type *ty = L.llvmType(t.elem);
    llvm::Value *c = isFloat(t.elem) ? llvm::ConstantFP::get(ty, e.f)
                                     : static_cast<llvm::Value *>(llvm::ConstantInt::get(ty, static_cast<uint64_t>(e.i), true));
    out.regs.assign(l ? static_cast<size_t>(numRegisters(*l, t.shape)) : 1, c);
    return out;
  }
  case OpKind::Arange: {
    int64_t start = op.intAttr("start");
    for (const RegCoord &c : L.coords(*l, t.shape)) out.regs.push_back(b.CreateAdd(c.idx[0], L.c32(start)));
    return out;
  }
  case OpKind::Splat:
    out.regs.assign(static_cast<size_t>(numRegisters(*l, t.shape)), L.scalar(op.operand(0)));
    return out;
  default: break;
  }
  assert(op.info().has(Elementwise) && "an elementwise op");
  std::vector<TileVal> ins;
  for (const Value *v : op.operands) ins.push_back(L.get(v, l));
  size_t n = l ? static_cast<size_t>(numRegisters(*l, t.shape)) : 1;
  std::vector<size_t> first = l ? runStarts(L, *l, op.result()) : std::vector<size_t>{0};
  out.regs.assign(n, nullptr);
  for (size_t r = 0; r < n; ++r) {
    if (first[r] != r) continue;
    std::vector<llvm::Value *> x;
    for (const TileVal &in : ins) x.push_back(in.scalar ? in.regs[0] : in.regs[r]);
    out.regs[r] = elementOf(L, op, x);
  }
  for (size_t r = 0; r < n; ++r) out.regs[r] = out.regs[first[r]];
  return out;
}

static std::vector<size_t> runStarts(LowerContext &L, const Layout &l, const Value *v) {
  // Where the axis analysis knows v's elements come in aligned runs of equal
  // values (a mask `cols < n` with n divisible by 16), a thread's registers
  // within one run hold the same value: each is computed once, as Triton's
  // lowering deduplicates by constancy. Along tile dim d a thread holds runs
  // of spt consecutive elements starting at multiples of spt (when spt
  // divides the extent, so nothing wraps inside a run); the register at
  // index i along d holds an element congruent to i mod spt.
  const Shape &shape = v->type.shape;
  size_t n = static_cast<size_t>(numRegisters(l, shape));
  std::vector<size_t> first(n);
  for (size_t r = 0; r < n; ++r) first[r] = r;
  auto it = L.axes.find(v);
  if (it == L.axes.end() || shape.empty()) return first;
  std::vector<DimPlan> plan = planDims(l, shape);
  std::vector<int64_t> run(shape.size(), 1);
  bool any = false;
  for (size_t d = 0; d < shape.size(); ++d)
    if (plan[d].spt > 1 && plan[d].size % plan[d].spt == 0) {
      run[d] = std::gcd(it->second.constancy[d], static_cast<int64_t>(plan[d].spt));
      any = any || run[d] > 1;
    }
  if (!any) return first;
  for (size_t r = 0; r < n; ++r) {
    std::vector<int64_t> rd = regDims(l, shape, static_cast<int64_t>(r));
    for (size_t d = 0; d < shape.size(); ++d) rd[d] -= rd[d] % plan[d].spt % run[d];
    first[r] = static_cast<size_t>(regIndex(l, shape, rd));
  }
  return first;
}

} // namespace twintile::backend
