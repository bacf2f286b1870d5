//===- PtxDecodeOps.cpp - the decoders of PTX's opcode families ---------===//
//
// Each takes its modifiers, checks its operands and fills in the Instr; the
// semantics they select are in PtxOps.cpp (values) and PtxExec.cpp and
// Emulator.cpp (memory, control, synchronization).
//===----------------------------------------------------------------------===//
#include "runtime/PtxDecoder.h"

namespace twintile::runtime::ptx {

void Decoder::mov() {
  Type t = oneType();
  operands(2);
  in_.type = t;
  if (op(0).kind == RawOperand::Kind::Vec) {
    in_.op = Op::MovUnpack;
    if (typeBits(t) % op(0).elems.size() || op(0).elems.size() < 2)
      fail("cannot split '" + raw_.opcode + "' into that vector");
    in_.ops[0] = vector(op(0), Type::None, true);
    in_.ops[1] = src(op(1), t);
    return;
  }
  in_.ops[0] = dst(op(0));
  if (op(1).kind == RawOperand::Kind::Vec) {
    in_.op = Op::MovPack;
    size_t n = op(1).elems.size();
    if (typeBits(t) % n || n < 2) fail("cannot pack that vector into '" + raw_.opcode + "'");
    Type part = typeBits(t) / n == 8 ? Type::B8 : typeBits(t) / n == 16 ? Type::B16 : Type::B32;
    in_.ops[1] = vector(op(1), part, false);
    return;
  }
  in_.op = Op::Mov;
  in_.ops[1] = src(op(1), t);
}

void Decoder::loadStoreMods() {
  if (take("v2")) in_.vec = 2;
  else if (take("v4")) in_.vec = 4;
  else if (take("v8")) in_.vec = 8;
  in_.space = space();
}

void Decoder::load() {
  loadStoreMods();
  // What another program may have just written: where programs interleave.
  in_.yields = (in_.space == Space::Global || in_.space == Space::Generic) &&
               (has("volatile") || has("relaxed") || has("acquire"));
  bool policy = takeCacheHints();
  if (base_ == "ldu" && in_.space == Space::Generic) in_.space = Space::Global;
  in_.op = Op::Ld;
  in_.type = oneType();
  if (in_.type == Type::Pred || in_.type == Type::B128) fail("'" + raw_.opcode + "' is not supported");
  operands(policy ? 3 : 2);
  in_.nops = 2;
  if (in_.vec > 1) {
    if (op(0).kind != RawOperand::Kind::Vec || op(0).elems.size() != in_.vec)
      fail("'" + raw_.opcode + "' needs a vector of " + std::to_string(in_.vec) + " registers");
    in_.ops[0] = vector(op(0), in_.type, true);
  } else {
    in_.ops[0] = dst(op(0));
  }
  in_.ops[1] = address(op(1));
}

void Decoder::store() {
  loadStoreMods();
  bool policy = takeCacheHints();
  in_.op = Op::St;
  in_.type = oneType();
  if (in_.type == Type::Pred || in_.type == Type::B128) fail("'" + raw_.opcode + "' is not supported");
  operands(policy ? 3 : 2);
  in_.nops = 2;
  in_.ops[0] = address(op(0));
  if (in_.vec > 1) {
    if (op(1).kind != RawOperand::Kind::Vec || op(1).elems.size() != in_.vec)
      fail("'" + raw_.opcode + "' needs a vector of " + std::to_string(in_.vec) + " values");
    in_.ops[1] = vector(op(1), in_.type, false);
  } else {
    in_.ops[1] = src(op(1), in_.type);
  }
}

void Decoder::cvta() {
  if (take("to")) in_.mode = Mode::ToSpace;
  in_.space = space();
  if (in_.space == Space::Generic) fail("'" + raw_.opcode + "' needs a state space");
  in_.op = Op::Cvta;
  in_.type = oneType();
  if (typeBits(in_.type) != 32 && typeBits(in_.type) != 64) fail("cvta needs .u32 or .u64");
  operands(2);
  in_.ops[0] = dst(op(0));
  in_.ops[1] = src(op(1), in_.type);
}

void Decoder::cvt() {
  floatMods();
  if (take("relu") || take("satfinite")) fail("'" + raw_.opcode + "' is not supported");
  std::vector<Type> ts = types();
  if (ts.size() != 2) fail("'" + raw_.opcode + "' needs two types");
  in_.op = Op::Cvt;
  in_.type = ts[0];
  in_.type2 = ts[1];
  bool pack = ts[0] == Type::F16x2 || ts[0] == Type::BF16x2;
  if (pack && ts[1] != Type::F32) fail("'" + raw_.opcode + "' packs two .f32 values only");
  if (!pack && (ts[0] == Type::F16x2 || ts[0] == Type::BF16x2 || ts[1] == Type::F16x2 || ts[1] == Type::BF16x2))
    fail("unsupported conversion '" + raw_.opcode + "'");
  if (ts[0] == Type::Pred || ts[1] == Type::Pred || ts[0] == Type::B128 || ts[1] == Type::B128)
    fail("unsupported conversion '" + raw_.opcode + "'");
  operands(pack ? 3 : 2);
  in_.ops[0] = dst(op(0));
  in_.ops[1] = src(op(1), ts[1]);
  if (pack) in_.ops[2] = src(op(2), ts[1]);
  bool fromF = isFloat(ts[1]), toF = isFloat(ts[0]);
  bool intRnd = in_.rnd == Rnd::RNI || in_.rnd == Rnd::RZI || in_.rnd == Rnd::RMI || in_.rnd == Rnd::RPI;
  if (fromF && !toF) {
    if (in_.rnd == Rnd::None) in_.rnd = Rnd::RZI;
    if (!intRnd) fail("'" + raw_.opcode + "' needs an integer rounding (.rni .rzi .rmi .rpi)");
  } else if (fromF && toF) {
    if (in_.rnd == Rnd::None) in_.rnd = Rnd::RN;
  } else if (toF) {
    if (in_.rnd == Rnd::None) in_.rnd = Rnd::RN;
    if (intRnd) fail("'" + raw_.opcode + "' needs a float rounding (.rn .rz .rm .rp)");
  }
}

// The carry forms (add.cc, addc{.cc}, sub.cc, subc{.cc}, mad{.lo,.hi}.cc, madc{.lo,.hi}{.cc}) take
// .u32 .s32 .u64 .s64 only, and no .sat: CC.CF is the carry out of the addition (sub: the borrow).
void Decoder::carryType(Type t) {
  if (t != Type::U32 && t != Type::S32 && t != Type::U64 && t != Type::S64)
    fail("'" + raw_.opcode + "' needs .u32, .s32, .u64 or .s64");
  if (in_.sat || in_.ftz || in_.rnd != Rnd::None) fail("'" + raw_.opcode + "' takes no .sat, .ftz or rounding");
}

void Decoder::addSub() {
  bool carryIn = base_ == "addc" || base_ == "subc";
  in_.cc = take("cc");
  floatMods();
  Type t = oneType();
  if (carryIn || in_.cc) {
    carryType(t);
  } else if (isFloat(t)) {
    if (in_.rnd == Rnd::None) in_.rnd = Rnd::RN;
  } else if (in_.rnd != Rnd::None || in_.ftz) {
    fail("'" + raw_.opcode + "' rounds an integer");
  }
  bool add = base_ == "add" || base_ == "addc";
  Op o = carryIn ? (add ? Op::AddC : Op::SubC) : in_.cc ? (add ? Op::AddCC : Op::SubCC) : (add ? Op::Add : Op::Sub);
  plain(o, t, 3);
}

void Decoder::mulMad() {
  bool carryIn = base_ == "madc";
  bool mad = base_ == "mad" || base_ == "mad24" || carryIn;
  bool is24 = base_ == "mul24" || base_ == "mad24";
  if (take("lo")) in_.mode = Mode::Lo;
  else if (take("hi")) in_.mode = Mode::Hi;
  else if (take("wide")) in_.mode = Mode::Wide;
  in_.cc = (base_ == "mad" || carryIn) && take("cc");
  floatMods();
  Type t = oneType();
  if (carryIn || in_.cc) {
    carryType(t);
    if (in_.mode != Mode::Lo && in_.mode != Mode::Hi) fail("'" + raw_.opcode + "' needs .lo or .hi");
    plain(carryIn ? Op::MadC : Op::Mad, t, 4);
    return;
  }
  if (isFloat(t)) {
    if (in_.mode != Mode::None || is24) fail("'" + raw_.opcode + "' mixes integer and float modifiers");
    if (in_.rnd == Rnd::None) in_.rnd = Rnd::RN;
    return plain(mad ? Op::Fma : Op::Mul, t, mad ? 4 : 3);
  }
  if (in_.mode == Mode::None) {
    if (!is24 && typeBits(t) > 8 && !(t == Type::B16 || t == Type::B32 || t == Type::B64))
      fail("'" + raw_.opcode + "' needs .lo, .hi or .wide");
    in_.mode = Mode::Lo;
  }
  if (is24 && typeBits(t) != 32) fail("'" + raw_.opcode + "' needs a 32-bit type");
  Op o = is24 ? (mad ? Op::Mad24 : Op::Mul24) : (mad ? Op::Mad : Op::Mul);
  in_.op = o;
  in_.type = t;
  operands(mad ? 4 : 3);
  in_.ops[0] = dst(op(0));
  in_.ops[1] = src(op(1), t);
  in_.ops[2] = src(op(2), t);
  if (mad) {
    // mad.wide adds a double-width c.
    Type ct = t;
    if (in_.mode == Mode::Wide && typeBits(t) == 16) ct = isSigned(t) ? Type::S32 : Type::U32;
    if (in_.mode == Mode::Wide && typeBits(t) == 32) ct = isSigned(t) ? Type::S64 : Type::U64;
    in_.ops[3] = src(op(3), ct);
  }
}

void Decoder::fma() {
  floatMods();
  Type t = oneType();
  if (!isFloat(t)) fail("fma needs a float type");
  if (in_.rnd == Rnd::None) fail("'" + raw_.opcode + "' needs a rounding modifier");
  plain(Op::Fma, t, 4);
}

void Decoder::divRem() {
  in_.approx = take("approx");
  bool full = take("full");
  floatMods();
  Type t = oneType();
  if (base_ == "rem") {
    intType(t);
    return plain(Op::Rem, t, 3);
  }
  if (isFloat(t)) {
    floatType(t);
    if (in_.rnd == Rnd::None && !in_.approx && !full) {
      if (t == Type::F32) fail("'" + raw_.opcode + "' needs .approx, .full or a rounding modifier");
      in_.rnd = Rnd::RN;
    }
    if (full) in_.approx = true;  // within 2 ulp: computed as correctly rounded
    if (in_.rnd == Rnd::None) in_.rnd = Rnd::RN;
  }
  plain(Op::Div, t, 3);
}

void Decoder::unaryArith() {
  in_.ftz = take("ftz");
  Type t = oneType();
  plain(base_ == "abs" ? Op::Abs : Op::Neg, t, 2);
}

void Decoder::minMax() {
  in_.ftz = take("ftz");
  in_.nan = take("NaN");
  if (take("xorsign") || take("relu")) fail("'" + raw_.opcode + "' is not supported");
  Type t = oneType();
  plain(base_ == "min" ? Op::Min : Op::Max, t, 3);
}

void Decoder::shift() {
  Type t = intType(oneType());
  in_.op = base_ == "shl" ? Op::Shl : Op::Shr;
  in_.type = t;
  operands(3);
  in_.ops[0] = dst(op(0));
  in_.ops[1] = src(op(1), t);
  in_.ops[2] = src(op(2), Type::U32);
}

void Decoder::bitCount() {
  bool shiftAmt = take("shiftamt");
  Type t = intType(oneType());
  in_.op = base_ == "popc" ? Op::Popc : base_ == "clz" ? Op::Clz : base_ == "brev" ? Op::Brev : Op::Bfind;
  in_.type = t;
  in_.approx = shiftAmt;
  operands(2);
  in_.ops[0] = dst(op(0));
  in_.ops[1] = src(op(1), t);
}

void Decoder::bitField() {
  Type t = intType(oneType());
  bool bfe = base_ == "bfe";
  in_.op = bfe ? Op::Bfe : Op::Bfi;
  in_.type = t;
  operands(bfe ? 4 : 5);
  in_.ops[0] = dst(op(0));
  in_.ops[1] = src(op(1), t);
  if (bfe) {
    in_.ops[2] = src(op(2), Type::U32);
    in_.ops[3] = src(op(3), Type::U32);
  } else {
    in_.ops[2] = src(op(2), t);
    in_.ops[3] = src(op(3), Type::U32);
    in_.ops[4] = src(op(4), Type::U32);
  }
}

void Decoder::prmt() {
  static const std::pair<const char *, Mode> kModes[] = {{"f4e", Mode::PrmtF4e}, {"b4e", Mode::PrmtB4e},
                                                         {"rc8", Mode::PrmtRc8}, {"ecl", Mode::PrmtEcl},
                                                         {"ecr", Mode::PrmtEcr}, {"rc16", Mode::PrmtRc16}};
  in_.mode = Mode::PrmtDefault;
  for (auto [name, m] : kModes)
    if (take(name)) in_.mode = m;
  plain(Op::Prmt, oneType(), 4);
}

void Decoder::lop3() {
  Type t = oneType();
  in_.op = Op::Lop3;
  in_.type = t;
  operands(5);
  in_.ops[0] = dst(op(0));
  for (int i = 1; i < 4; ++i) in_.ops[i] = src(op(i), t);
  if (op(4).kind != RawOperand::Kind::Int) fail("lop3 needs an immediate truth table");
  in_.ops[4] = src(op(4), Type::B32);
}

void Decoder::dot() {
  if (base_ == "dp2a") {
    if (take("lo")) in_.mode = Mode::Lo;
    else if (take("hi")) in_.mode = Mode::Hi;
    else fail("dp2a needs .lo or .hi");
  }
  std::vector<Type> ts = types();
  if (ts.size() != 2) fail("'" + raw_.opcode + "' needs two types");
  in_.op = base_ == "dp4a" ? Op::Dp4a : Op::Dp2a;
  in_.type = ts[0];
  in_.type2 = ts[1];
  operands(4);
  in_.ops[0] = dst(op(0));
  in_.ops[1] = src(op(1), Type::B32);
  in_.ops[2] = src(op(2), Type::B32);
  in_.ops[3] = src(op(3), Type::B32);
}

void Decoder::selp() {
  Type t = oneType();
  in_.op = Op::Selp;
  in_.type = t;
  operands(4);
  in_.ops[0] = dst(op(0));
  in_.ops[1] = src(op(1), t);
  in_.ops[2] = src(op(2), t);
  in_.ops[3] = src(op(3), Type::Pred);
}

void Decoder::slct() {
  in_.ftz = take("ftz");
  std::vector<Type> ts = types();
  if (ts.size() != 2 || (ts[1] != Type::S32 && ts[1] != Type::F32))
    fail("'" + raw_.opcode + "' needs a type and .s32 or .f32");
  in_.op = Op::Slct;
  in_.type = ts[0];
  in_.type2 = ts[1];
  operands(4);
  in_.ops[0] = dst(op(0));
  in_.ops[1] = src(op(1), ts[0]);
  in_.ops[2] = src(op(2), ts[0]);
  in_.ops[3] = src(op(3), ts[1]);
}

void Decoder::setp() {
  static const std::pair<const char *, Cmp> kCmps[] = {
      {"eq", Cmp::Eq},   {"ne", Cmp::Ne},   {"lt", Cmp::Lt},   {"le", Cmp::Le},   {"gt", Cmp::Gt},   {"ge", Cmp::Ge},
      {"lo", Cmp::Lo},   {"ls", Cmp::Ls},   {"hi", Cmp::Hi},   {"hs", Cmp::Hs},   {"equ", Cmp::Equ}, {"neu", Cmp::Neu},
      {"ltu", Cmp::Ltu}, {"leu", Cmp::Leu}, {"gtu", Cmp::Gtu}, {"geu", Cmp::Geu}, {"num", Cmp::Num}, {"nan", Cmp::Nan}};
  bool found = false;
  for (auto [name, c] : kCmps)
    if (take(name)) {
      if (found) fail("'" + raw_.opcode + "' has two comparisons");
      in_.cmp = c;
      found = true;
    }
  if (!found) fail("'" + raw_.opcode + "' needs a comparison");
  if (take("and")) in_.boolOp = BoolOp::And;
  else if (take("or")) in_.boolOp = BoolOp::Or;
  else if (take("xor")) in_.boolOp = BoolOp::Xor;
  in_.ftz = take("ftz");
  std::vector<Type> ts = types();
  bool set = base_ == "set";
  if (ts.size() != (set ? 2u : 1u)) fail("'" + raw_.opcode + "' needs " + (set ? "two types" : "one type"));
  Type t = set ? ts[1] : ts[0];
  if (t == Type::F16x2 || t == Type::BF16x2 || t == Type::B128) fail("'" + raw_.opcode + "' is not supported");
  bool floatCmp = isFloat(t);
  bool unorderedCmp = in_.cmp >= Cmp::Equ;
  if (floatCmp && in_.cmp >= Cmp::Lo && in_.cmp <= Cmp::Hs) fail("'" + raw_.opcode + "' compares floats unsigned");
  if (!floatCmp && unorderedCmp) fail("'" + raw_.opcode + "' compares integers unordered");
  in_.op = set ? Op::Set : Op::Setp;
  in_.type = t;
  in_.type2 = set ? ts[0] : Type::Pred;
  size_t n = in_.boolOp == BoolOp::None ? 3 : 4;
  operands(n);
  in_.ops[0] = dst(op(0));
  if (!op(0).pipe.empty()) {
    if (set) fail("set has one result");
    RawOperand q;
    q.kind = RawOperand::Kind::Name;
    q.text = op(0).pipe;
    in_.dst2 = dst(q);
  }
  in_.ops[1] = src(op(1), t);
  in_.ops[2] = src(op(2), t);
  if (n == 4) in_.ops[3] = src(op(3), Type::Pred);
}

void Decoder::testp() {
  static const std::pair<const char *, Mode> kOps[] = {{"finite", Mode::Finite},       {"infinite", Mode::Infinite},
                                                       {"number", Mode::Number},       {"notanumber", Mode::NotANumber},
                                                       {"normal", Mode::Normal},       {"subnormal", Mode::Subnormal}};
  for (auto [name, m] : kOps)
    if (take(name)) in_.mode = m;
  if (in_.mode == Mode::None) fail("'" + raw_.opcode + "' needs a property");
  Type t = floatType(oneType());
  in_.op = Op::Testp;
  in_.type = t;
  operands(2);
  in_.ops[0] = dst(op(0));
  in_.ops[1] = src(op(1), t);
}

void Decoder::mathFunction() {
  const std::string &b = base_;
  in_.approx = take("approx");
  bool full = take("full");
  floatMods();
  Type t = oneType();
  in_.op = b == "rcp" ? Op::Rcp : b == "sqrt" ? Op::Sqrt : b == "rsqrt" ? Op::Rsqrt : b == "sin" ? Op::Sin
           : b == "cos" ? Op::Cos : b == "lg2" ? Op::Lg2 : b == "ex2" ? Op::Ex2 : Op::Tanh;
  bool exact = in_.op == Op::Rcp || in_.op == Op::Sqrt;
  if (exact) {
    if (!in_.approx && in_.rnd == Rnd::None) fail("'" + raw_.opcode + "' needs .approx or a rounding modifier");
    if (in_.rnd == Rnd::None) in_.rnd = Rnd::RN;
    floatType(t);
  } else {
    if (!in_.approx && !full) fail("'" + raw_.opcode + "' needs .approx");
    bool halfOk = in_.op == Op::Ex2 || in_.op == Op::Tanh;
    if (t != Type::F32 && !(t == Type::F64 && in_.op == Op::Rsqrt) && !(halfOk && (t == Type::F16 || t == Type::BF16)))
      fail("unsupported type in '" + raw_.opcode + "'");
  }
  plain(in_.op, t, 2);
}

void Decoder::atomic() {
  static const std::pair<const char *, Mode> kOps[] = {
      {"add", Mode::AtomAdd}, {"min", Mode::AtomMin}, {"max", Mode::AtomMax}, {"inc", Mode::AtomInc},
      {"dec", Mode::AtomDec}, {"and", Mode::AtomAnd}, {"or", Mode::AtomOr},   {"xor", Mode::AtomXor},
      {"exch", Mode::AtomExch}, {"cas", Mode::AtomCas}};
  for (auto [name, m] : kOps)
    if (take(name)) in_.mode = m;
  if (in_.mode == Mode::None) fail("'" + raw_.opcode + "' needs an operation");
  in_.space = space();
  in_.yields = in_.space == Space::Global || in_.space == Space::Generic;
  takeCacheHints();
  in_.ftz = take("ftz");
  in_.rnd = rounding();
  if (take("noftz")) in_.ftz = false;
  if (take("v2") || take("v4") || take("v8")) fail("vector atomics are not supported");
  Type t = oneType();
  if (t == Type::F16x2 || t == Type::BF16x2 || t == Type::B128 || t == Type::Pred)
    fail("unsupported type in '" + raw_.opcode + "'");
  if (isFloat(t) && in_.mode != Mode::AtomAdd && in_.mode != Mode::AtomMin && in_.mode != Mode::AtomMax &&
      in_.mode != Mode::AtomExch)
    fail("'" + raw_.opcode + "' on a float type");
  bool red = base_ == "red";
  in_.op = red ? Op::Red : Op::Atom;
  in_.type = t;
  size_t n = (red ? 2 : 3) + (in_.mode == Mode::AtomCas ? 1 : 0);
  operands(n);
  size_t i = 0;
  if (!red) in_.ops[i++] = dst(op(0));
  in_.ops[i] = address(op(i));
  ++i;
  for (; i < n; ++i) in_.ops[i] = src(op(i), t);
}

void Decoder::branch() {
  in_.uni = take("uni");
  in_.op = Op::Bra;
  operands(1);
  if (op(0).kind != RawOperand::Kind::Name) fail("bra needs a label");
  scope_.branch(fn_.code.size(), op(0).text, raw_.line);
}

Operand Decoder::callOperand(const RawOperand &o, uint64_t &size) {
  if (o.kind == RawOperand::Kind::Name) {
    if (uint32_t slot = scope_.findReg(o.text); slot != Operand::kNoReg) {
      size = std::max(1u, typeBytes(fn_.regTypes[slot]));
      return regOperand(o, true);
    }
    const Variable *v = scope_.var(o.text);
    if (!v || v->space != Space::Param) fail("call operand '" + o.text + "' is not a .param variable or register");
    size = v->size;
    Operand where = varAddress(*v, 0);  // the variable's memory, as an address operand
    Operand a;
    a.kind = Operand::Kind::Addr;
    a.imm = where.imm;
    a.frame = where.frame;
    return a;
  }
  size = 0;  // an immediate: the callee's parameter decides
  return src(o, Type::B64);
}

void Decoder::call() {
  in_.uni = take("uni");
  in_.op = Op::Call;
  CallInfo c;
  size_t i = 0;
  auto list = [&](std::vector<Operand> &out, std::vector<uint64_t> &sizes) {
    for (const RawOperand &e : op(i).elems) {
      uint64_t size = 0;
      out.push_back(callOperand(e, size));
      sizes.push_back(size);
    }
    ++i;
  };
  if (raw_.ops.empty()) fail("call needs a callee");
  if (op(0).kind == RawOperand::Kind::List) list(c.rets, c.retSizes);
  if (i >= raw_.ops.size() || op(i).kind != RawOperand::Kind::Name) fail("call needs a callee");
  if (scope_.findReg(op(i).text) != Operand::kNoReg) fail("indirect calls are not supported");
  c.calleeName = op(i++).text;
  if (i < raw_.ops.size() && op(i).kind == RawOperand::Kind::List) list(c.args, c.argSizes);
  if (i != raw_.ops.size()) fail("unexpected operands after the arguments of call");
  in_.target = static_cast<uint32_t>(fn_.calls.size());
  fn_.calls.push_back(std::move(c));
}

void Decoder::barrier() {
  take("cta");
  take("aligned");
  bool warp = take("warp");
  bool arrive = take("arrive");
  bool sync = take("sync");
  take("aligned");
  if (take("red")) fail("bar.red is not supported");
  if (warp) {
    if (!sync) fail("'" + raw_.opcode + "' is not supported");
    in_.op = Op::BarWarpSync;
    operands(1);
    in_.ops[0] = src(op(0), Type::B32);
    return;
  }
  if (!arrive && !sync && base_ == "barrier") fail("'" + raw_.opcode + "' needs .sync or .arrive");
  in_.op = arrive ? Op::BarArrive : Op::BarSync;
  if (raw_.ops.empty() || raw_.ops.size() > 2) fail("'" + raw_.opcode + "' takes a barrier and an optional thread count");
  in_.nops = static_cast<int8_t>(raw_.ops.size());
  in_.ops[0] = src(op(0), Type::U32);
  if (raw_.ops.size() == 2) in_.ops[1] = src(op(1), Type::U32);
  else if (arrive) fail("bar.arrive needs a thread count");
}

void Decoder::shfl() {
  bool sync = take("sync");
  if (take("up")) in_.mode = Mode::Up;
  else if (take("down")) in_.mode = Mode::Down;
  else if (take("bfly")) in_.mode = Mode::Bfly;
  else if (take("idx")) in_.mode = Mode::Idx;
  else fail("'" + raw_.opcode + "' needs .up, .down, .bfly or .idx");
  Type t = oneType();
  if (typeBits(t) != 32) fail("shfl moves 32-bit values");
  in_.op = Op::Shfl;
  in_.type = t;
  operands(sync ? 5 : 4);
  in_.ops[0] = dst(op(0));
  if (!op(0).pipe.empty()) {
    RawOperand p;
    p.kind = RawOperand::Kind::Name;
    p.text = op(0).pipe;
    in_.dst2 = dst(p);
  }
  in_.ops[1] = src(op(1), t);
  in_.ops[2] = src(op(2), Type::B32);
  in_.ops[3] = src(op(3), Type::B32);
  if (sync) {
    in_.ops[4] = src(op(4), Type::B32);
  } else {
    in_.ops[4].kind = Operand::Kind::Imm;
    in_.ops[4].imm = 0xffffffff;
    in_.nops = 5;
  }
}

void Decoder::vote() {
  if (!take("sync")) fail("only vote.sync is supported");
  if (take("all")) in_.mode = Mode::All;
  else if (take("any")) in_.mode = Mode::Any;
  else if (take("uni")) in_.mode = Mode::Uni;
  else if (take("ballot")) in_.mode = Mode::Ballot;
  else fail("'" + raw_.opcode + "' needs .all, .any, .uni or .ballot");
  in_.op = Op::Vote;
  in_.type = oneType();
  operands(3);
  in_.ops[0] = dst(op(0));
  in_.ops[1] = src(op(1), Type::Pred);
  in_.ops[2] = src(op(2), Type::B32);
}

void Decoder::redux() {
  if (!take("sync")) fail("only redux.sync is supported");
  static const std::pair<const char *, Mode> kOps[] = {{"add", Mode::AtomAdd}, {"min", Mode::AtomMin},
                                                       {"max", Mode::AtomMax}, {"and", Mode::AtomAnd},
                                                       {"or", Mode::AtomOr},   {"xor", Mode::AtomXor}};
  for (auto [name, m] : kOps)
    if (take(name)) in_.mode = m;
  if (in_.mode == Mode::None) fail("'" + raw_.opcode + "' needs an operation");
  Type t = intType(oneType());
  if (typeBits(t) != 32) fail("redux reduces 32-bit integers");
  in_.op = Op::Redux;
  in_.type = t;
  operands(3);
  in_.ops[0] = dst(op(0));
  in_.ops[1] = src(op(1), t);
  in_.ops[2] = src(op(2), Type::B32);
}

/// cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size};
/// cp.async.commit_group; cp.async.wait_group N; cp.async.wait_all. (The
/// bulk and tensor forms, an ignore-src predicate and a cache-policy operand
/// are refused.)
void Decoder::asyncCopy() {
  if (!take("async")) fail("unknown instruction '" + raw_.opcode + "'");
  if (take("bulk")) return bulkCopy();
  if (take("commit_group")) {
    in_.op = Op::CpAsyncCommit;
    return operands(0);
  }
  if (take("wait_all")) {
    in_.op = Op::CpAsyncWait;
    in_.mode = Mode::WaitAll;
    return operands(0);
  }
  if (take("wait_group")) {
    in_.op = Op::CpAsyncWait;
    operands(1);
    if (op(0).kind != RawOperand::Kind::Int || op(0).imm > 255)
      fail("'" + raw_.opcode + "' takes the number of groups left pending, an integer constant");
    in_.ops[0].kind = Operand::Kind::Imm;
    in_.ops[0].imm = op(0).imm;
    return;
  }
  bool ca = take("ca"), cg = !ca && take("cg");
  if (!ca && !cg) fail("'" + raw_.opcode + "' needs .ca or .cg");
  if (!(take("shared") || take("shared::cta"))) fail("'" + raw_.opcode + "' copies to .shared");
  if (!take("global")) fail("'" + raw_.opcode + "' copies from .global");
  if (takeCacheHints()) fail("'" + raw_.opcode + "' with a cache-policy operand is not supported");
  in_.op = Op::CpAsync;
  in_.space = Space::Shared;
  if (raw_.ops.size() != 3 && raw_.ops.size() != 4)
    fail("'" + raw_.opcode + "' takes [dst], [src], cp-size and an optional src-size");
  in_.nops = static_cast<int8_t>(raw_.ops.size());
  in_.ops[0] = address(op(0));
  in_.ops[1] = address(op(1));
  uint64_t size = op(2).kind == RawOperand::Kind::Int ? op(2).imm : 0;
  if (size != 4 && size != 8 && size != 16) fail("the cp-size of '" + raw_.opcode + "' is 4, 8 or 16");
  if (cg && size != 16) fail("'" + raw_.opcode + "' copies 16 bytes (.cg caches in L2 only, whole lines)");
  in_.ops[2].kind = Operand::Kind::Imm;
  in_.ops[2].imm = size;
  if (raw_.ops.size() == 4) {
    uint32_t slot = op(3).kind == RawOperand::Kind::Name ? scope_.findReg(op(3).text) : Operand::kNoReg;
    if (slot != Operand::kNoReg && fn_.regTypes[slot] == Type::Pred)
      fail("'" + raw_.opcode + "' with an ignore-src predicate is not supported");
    in_.ops[3] = src(op(3), Type::U32);
  }
}

} // namespace twintile::runtime::ptx
