//===- PtxDecode.cpp - a PTX statement to an Instr -----------------------===//
//
// The decoder's vocabulary: splitting an opcode into its modifiers, reading
// operands in the type an instruction reads them (immediates converted here,
// once; names resolved to register slots and variable addresses), and the
// dispatch to the opcode families of PtxDecodeOps.cpp. Also the special
// registers and the fast-path classification the interpreter uses.
//===----------------------------------------------------------------------===//
#include "runtime/PtxDecoder.h"

#include "runtime/PtxFloat.h"
#include "runtime/PtxModule.h"

#include <algorithm>
#include <bit>
#include <unordered_map>

namespace twintile::runtime::ptx {

bool specialRegister(const std::string &name, Sreg &out) {
  static const std::unordered_map<std::string, Sreg> kSregs = {
      {"%tid.x", Sreg::TidX},         {"%tid.y", Sreg::TidY},           {"%tid.z", Sreg::TidZ},
      {"%ntid.x", Sreg::NtidX},       {"%ntid.y", Sreg::NtidY},         {"%ntid.z", Sreg::NtidZ},
      {"%ctaid.x", Sreg::CtaidX},     {"%ctaid.y", Sreg::CtaidY},       {"%ctaid.z", Sreg::CtaidZ},
      {"%nctaid.x", Sreg::NctaidX},   {"%nctaid.y", Sreg::NctaidY},     {"%nctaid.z", Sreg::NctaidZ},
      {"%laneid", Sreg::LaneId},      {"%warpid", Sreg::WarpId},        {"%nwarpid", Sreg::NWarpId},
      {"WARP_SZ", Sreg::WarpSize},    {"%smid", Sreg::SmId},            {"%nsmid", Sreg::NSmId},
      {"%gridid", Sreg::GridId},      {"%clock", Sreg::Clock},          {"%clock64", Sreg::Clock64},
      {"%globaltimer", Sreg::GlobalTimer},
      {"%lanemask_eq", Sreg::LanemaskEq}, {"%lanemask_lt", Sreg::LanemaskLt}, {"%lanemask_le", Sreg::LanemaskLe},
      {"%lanemask_gt", Sreg::LanemaskGt}, {"%lanemask_ge", Sreg::LanemaskGe},
      {"%dynamic_smem_size", Sreg::DynamicSmemSize}, {"%total_smem_size", Sreg::TotalSmemSize},
  };
  auto it = kSregs.find(name);
  if (it == kSregs.end()) return false;
  out = it->second;
  return true;
}

Fast classifyFast(const Instr &in) {
  if (in.ops[0].kind != Operand::Kind::Reg && in.ops[0].kind != Operand::Kind::Sink) return Fast::None;
  for (int i = 1; i < in.nops; ++i)
    if (in.ops[i].kind == Operand::Kind::Vec || in.ops[i].kind == Operand::Kind::Addr) return Fast::None;
  bool plain = !in.ftz && !in.sat && !in.cc;
  unsigned w = typeBits(in.type);
  switch (in.op) {
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Fma:
    if (in.type == Type::F32) {
      if (!plain || (in.rnd != Rnd::RN && in.rnd != Rnd::None)) return Fast::None;
      return in.op == Op::Add   ? Fast::AddF32
             : in.op == Op::Sub ? Fast::SubF32
             : in.op == Op::Mul ? Fast::MulF32
                                : Fast::FmaF32;
    }
    if (isFloat(in.type) || !plain) return Fast::None;
    if (in.op == Op::Mul) {
      if (w == 32 && in.mode == Mode::Lo) return Fast::MulLoI32;
      if (w == 32 && in.mode == Mode::Wide) return isSigned(in.type) ? Fast::MulWideS32 : Fast::MulWideU32;
      return Fast::None;
    }
    if (in.op == Op::Fma) return Fast::None;
    if (w == 32) return in.op == Op::Add ? Fast::AddI32 : Fast::SubI32;
    if (w == 64) return in.op == Op::Add ? Fast::AddI64 : Fast::SubI64;
    return Fast::None;
  case Op::And: return w == 32 ? Fast::AndB32 : Fast::None;
  case Op::Or: return w == 32 ? Fast::OrB32 : Fast::None;
  case Op::Xor: return w == 32 ? Fast::XorB32 : Fast::None;
  case Op::Shl: return w == 32 ? Fast::ShlB32 : w == 64 ? Fast::ShlB64 : Fast::None;
  case Op::Shr: return w == 32 && !isSigned(in.type) ? Fast::ShrU32 : Fast::None;
  case Op::Selp: return Fast::Selp;
  case Op::Cvt:
    if (in.type == Type::F32 && !in.ftz && !in.sat) {
      if (in.type2 == Type::F16) return Fast::CvtF32F16;
      if (in.type2 == Type::BF16) return Fast::CvtF32BF16;
    }
    return Fast::None;
  default: return Fast::None;
  }
}

Decoder::Decoder(const RawInstr &raw, Scope &scope, Function &fn) : raw_(raw), scope_(scope), fn_(fn) {
  size_t dot = raw.opcode.find('.');
  base_ = raw.opcode.substr(0, dot);
  while (dot != std::string::npos) {
    size_t next = raw.opcode.find('.', dot + 1);
    mods_.push_back(raw.opcode.substr(dot + 1, next == std::string::npos ? std::string::npos : next - dot - 1));
    dot = next;
  }
  in_.line = static_cast<uint32_t>(raw.line);
  in_.text = raw.opcode;
}

void Decoder::run() {
  if (!raw_.guard.empty()) {
    in_.guard = scope_.reg(raw_.guard, raw_.line);
    if (fn_.regTypes[in_.guard] != Type::Pred) fail("guard '" + raw_.guard + "' is not a predicate");
    in_.guardNegate = raw_.guardNegate;
  }
  dispatch();
  if (!mods_.empty()) fail("unsupported modifier '." + mods_.front() + "' in '" + raw_.opcode + "'");
  in_.fast = classifyFast(in_);
  fn_.code.push_back(std::move(in_));
}

bool Decoder::take(const char *m) {
  auto it = std::find(mods_.begin(), mods_.end(), m);
  if (it == mods_.end()) return false;
  mods_.erase(it);
  return true;
}

bool Decoder::has(const char *m) const { return std::find(mods_.begin(), mods_.end(), m) != mods_.end(); }

std::vector<Type> Decoder::types() {
  std::vector<Type> out;
  for (auto it = mods_.begin(); it != mods_.end();) {
    Type t = parseType(*it);
    if (t == Type::None) { ++it; continue; }
    out.push_back(t);
    it = mods_.erase(it);
  }
  return out;
}

Type Decoder::oneType() {
  std::vector<Type> ts = types();
  if (ts.size() != 1) fail("'" + raw_.opcode + "' needs exactly one type");
  return ts[0];
}

Rnd Decoder::rounding() {
  static const std::pair<const char *, Rnd> kModes[] = {{"rn", Rnd::RN},   {"rz", Rnd::RZ},   {"rm", Rnd::RM},
                                                        {"rp", Rnd::RP},   {"rni", Rnd::RNI}, {"rzi", Rnd::RZI},
                                                        {"rmi", Rnd::RMI}, {"rpi", Rnd::RPI}};
  Rnd r = Rnd::None;
  for (auto [name, mode] : kModes)
    if (take(name)) r = mode;
  return r;
}

void Decoder::floatMods() {
  in_.rnd = rounding();
  in_.ftz = take("ftz");
  in_.sat = take("sat");
}

Space Decoder::space() {
  if (take("global")) return Space::Global;
  if (take("shared") || take("shared::cta") || take("shared::cluster")) return Space::Shared;
  if (take("local")) return Space::Local;
  if (take("param") || take("param::entry") || take("param::func")) return Space::Param;
  if (take("const")) return Space::Const;
  return Space::Generic;
}

bool Decoder::takeCacheHints() {
  static const char *kIgnored[] = {"nc",  "volatile", "relaxed", "acquire", "release", "acq_rel", "weak", "sc",
                                   "mmio", "cta",     "gpu",     "sys",     "cluster", "ca",      "cg",   "cs",
                                   "lu",  "cv",       "wb",      "wt",      "uni"};
  bool policy = false;
  for (const char *m : kIgnored) take(m);
  for (auto it = mods_.begin(); it != mods_.end();) {
    if (it->rfind("L1::", 0) == 0 || it->rfind("L2::", 0) == 0 || it->rfind("level::", 0) == 0) {
      policy |= *it == "L2::cache_hint";
      it = mods_.erase(it);
    } else {
      ++it;
    }
  }
  return policy;
}

void Decoder::operands(size_t n) {
  if (raw_.ops.size() != n)
    fail("'" + raw_.opcode + "' takes " + std::to_string(n) + " operands, found " + std::to_string(raw_.ops.size()));
  in_.nops = static_cast<int8_t>(n);
}

Operand Decoder::regOperand(const RawOperand &o, bool dst) {
  uint32_t slot = scope_.findReg(o.text);
  if (slot == Operand::kNoReg) fail("undeclared register '" + o.text + "'");
  Operand r;
  r.kind = Operand::Kind::Reg;
  r.reg = slot;
  r.negate = o.negate;
  if (dst) r.imm = maskOf(typeBits(fn_.regTypes[slot]));
  if (o.negate && fn_.regTypes[slot] != Type::Pred) fail("'!' applies to predicates only, not '" + o.text + "'");
  return r;
}

Operand Decoder::dst(const RawOperand &o) {
  if (o.kind == RawOperand::Kind::Sink) return Operand{Operand::Kind::Sink};
  if (o.kind != RawOperand::Kind::Name || o.negate || o.imm) fail("the result of '" + raw_.opcode + "' must be a register");
  Sreg s;
  if (specialRegister(o.text, s)) fail("special register '" + o.text + "' is read-only");
  return regOperand(o, true);
}

uint64_t Decoder::immBits(const RawOperand &o, Type t) {
  using K = RawOperand::Kind;
  double real = o.kind == K::Real      ? o.real
                : o.kind == K::F64Bits ? std::bit_cast<double>(o.imm)
                : o.kind == K::F32Bits ? static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(o.imm)))
                                       : static_cast<double>(static_cast<int64_t>(o.imm));
  switch (t) {
  case Type::F32:
    if (o.kind == K::F32Bits) return o.imm;
    return std::bit_cast<uint32_t>(toF32(real));
  case Type::F64:
    if (o.kind == K::F64Bits) return o.imm;
    return std::bit_cast<uint64_t>(real);
  case Type::F16:
  case Type::BF16:
    if (o.kind == K::Int) return o.imm & 0xffff;
    return t == Type::F16 ? toF16(real) : toBF16(real);
  default:
    if (o.kind == K::Real) fail("a real literal where '" + raw_.opcode + "' reads an integer");
    return o.imm & maskOf(typeBits(t));
  }
}

Operand Decoder::varAddress(const Variable &v, uint64_t offset) {
  Operand r;
  r.imm = v.address + offset;
  if (v.external) {
    r.kind = Operand::Kind::FrameAddr;
    r.frame = 3;
  } else if (v.frameRelative) {
    r.kind = Operand::Kind::FrameAddr;
    r.frame = v.space == Space::Local ? 1 : 2;
  } else {
    r.kind = Operand::Kind::Imm;
  }
  return r;
}

Operand Decoder::src(const RawOperand &o, Type t) {
  using K = RawOperand::Kind;
  switch (o.kind) {
  case K::Name: {
    Sreg s;
    if (specialRegister(o.text, s)) {
      Operand r;
      r.kind = Operand::Kind::Special;
      r.reg = static_cast<uint32_t>(s);
      return r;
    }
    if (scope_.findReg(o.text) != Operand::kNoReg) {
      if (o.imm) fail("'" + o.text + "+" + std::to_string(o.imm) + "' is not an operand");
      return regOperand(o, false);
    }
    if (const Variable *v = scope_.var(o.text)) return varAddress(*v, o.imm);
    fail("unknown name '" + o.text + "'");
  }
  case K::Int:
  case K::F32Bits:
  case K::F64Bits:
  case K::Real: {
    Operand r;
    r.kind = Operand::Kind::Imm;
    r.imm = immBits(o, t);
    return r;
  }
  default: fail("unexpected operand form in '" + raw_.opcode + "'");
  }
}

Operand Decoder::address(const RawOperand &o) {
  if (o.kind != RawOperand::Kind::Mem) fail("'" + raw_.opcode + "' needs an address operand [..]");
  if (!o.elems.empty()) fail("'" + raw_.opcode + "' takes an address, not a tensor map with coordinates");
  Operand a;
  a.kind = Operand::Kind::Addr;
  a.imm = o.imm;
  if (o.text.empty()) return a;
  if (uint32_t slot = scope_.findReg(o.text); slot != Operand::kNoReg) {
    a.reg = slot;
    return a;
  }
  const Variable *v = scope_.var(o.text);
  if (!v) fail("unknown name '" + o.text + "' in an address");
  Operand va = varAddress(*v, o.imm);
  a.imm = va.imm;
  a.frame = va.frame;
  return a;
}

Operand Decoder::vector(const RawOperand &o, Type t, bool isDst) {
  Operand v;
  v.kind = Operand::Kind::Vec;
  v.reg = static_cast<uint32_t>(fn_.vecPool.size());
  v.imm = o.elems.size();
  for (const RawOperand &e : o.elems) {
    if (e.kind == RawOperand::Kind::Sink) fn_.vecPool.push_back(Operand{Operand::Kind::Sink});
    else fn_.vecPool.push_back(isDst ? dst(e) : src(e, t));
  }
  return v;
}

void Decoder::plain(Op o, Type t, size_t n) {
  in_.op = o;
  in_.type = t;
  operands(n);
  in_.ops[0] = dst(op(0));
  for (size_t i = 1; i < n; ++i) in_.ops[i] = src(op(i), t);
}

Type Decoder::intType(Type t) {
  if (!isInt(t)) fail("'" + raw_.opcode + "' needs an integer type");
  return t;
}

Type Decoder::logicType() {
  Type t = oneType();
  if (t != Type::Pred && !isInt(t)) fail("'" + raw_.opcode + "' needs a bit, integer or predicate type");
  return t;
}

Type Decoder::floatType(Type t) {
  if (t != Type::F32 && t != Type::F64) fail("'" + raw_.opcode + "' needs .f32 or .f64");
  return t;
}

void Decoder::dispatch() {
  const std::string &b = base_;
  if (b == "mov") return mov();
  if (b == "ld" || b == "ldu") return load();
  if (b == "st") return store();
  if (b == "cvta") return cvta();
  if (b == "cvt") return cvt();
  if (b == "add" || b == "sub" || b == "addc" || b == "subc") return addSub();
  if (b == "mul" || b == "mad" || b == "madc" || b == "mul24" || b == "mad24") return mulMad();
  if (b == "fma") return fma();
  if (b == "div" || b == "rem") return divRem();
  if (b == "abs" || b == "neg") return unaryArith();
  if (b == "min" || b == "max") return minMax();
  if (b == "sad") return plain(Op::Sad, intType(oneType()), 4);
  if (b == "and" || b == "or" || b == "xor")
    return plain(b == "and" ? Op::And : b == "or" ? Op::Or : Op::Xor, logicType(), 3);
  if (b == "not" || b == "cnot") return plain(b == "not" ? Op::Not : Op::CNot, logicType(), 2);
  if (b == "shl" || b == "shr") return shift();
  if (b == "popc" || b == "clz" || b == "brev" || b == "bfind") return bitCount();
  if (b == "bfe" || b == "bfi") return bitField();
  if (b == "prmt") return prmt();
  if (b == "lop3") return lop3();
  if (b == "dp4a" || b == "dp2a") return dot();
  if (b == "selp") return selp();
  if (b == "slct") return slct();
  if (b == "setp" || b == "set") return setp();
  if (b == "testp") return testp();
  if (b == "copysign") return plain(Op::Copysign, floatType(oneType()), 3);
  if (b == "rcp" || b == "sqrt" || b == "rsqrt" || b == "sin" || b == "cos" || b == "lg2" || b == "ex2" || b == "tanh")
    return mathFunction();
  if (b == "atom" || b == "red") return atomic();
  if (b == "bra") return branch();
  if (b == "call") return call();
  if (b == "ret" || b == "exit") {
    take("uni");
    in_.op = b == "ret" ? Op::Ret : Op::Exit;
    return operands(0);
  }
  if (b == "trap" || b == "brkpt") {
    in_.op = Op::Trap;
    return operands(0);
  }
  if (b == "bar" || b == "barrier") return barrier();
  if (b == "shfl") return shfl();
  if (b == "vote") return vote();
  if (b == "redux") return redux();
  if (b == "cp") return asyncCopy();
  if (b == "ldmatrix") return ldmatrix();
  if (b == "stmatrix") return stmatrix();
  if (b == "mma") return mma();
  if (b == "wgmma") return wgmma();
  if (b == "mbarrier") return mbarrier();
  if (b == "tensormap") return tensormap();
  if (b == "fence" && has("proxy") && has("async")) return fenceProxy();
  if (b == "activemask") {
    in_.op = Op::Activemask;
    in_.type = oneType();
    operands(1);
    in_.ops[0] = dst(op(0));
    return;
  }
  if (b == "membar" || b == "fence" || b == "nanosleep" || b == "prefetch" || b == "prefetchu" || b == "pmevent" ||
      b == "griddepcontrol" || b == "discard") {
    in_.op = Op::Nop;
    mods_.clear();
    return;
  }
  fail("unknown instruction '" + raw_.opcode + "'");
}


void decodeInstr(const RawInstr &raw, Scope &scope, Function &fn) { Decoder(raw, scope, fn).run(); }

} // namespace twintile::runtime::ptx
