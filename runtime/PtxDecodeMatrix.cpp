//===- PtxDecodeMatrix.cpp - the decoders of ldmatrix, stmatrix and mma.sync ===//
//
// A warp's matrix instructions: every lane takes part (EmuMatrix.cpp runs
// them, a warp at a time).
//===----------------------------------------------------------------------===//
#include "runtime/PtxDecoder.h"

namespace twintile::runtime::ptx {

/// ldmatrix's and stmatrix's modifiers: .sync.aligned.m8n8.{x1,x2,x4}{.trans}
/// {.shared{::cta}}.b16, one 32-bit register per matrix and lane.
void Decoder::matrixModifiers(Op op) {
  if (!take("sync") || !take("aligned")) fail("'" + raw_.opcode + "' needs .sync.aligned");
  if (!take("m8n8")) fail("'" + raw_.opcode + "': only the m8n8 shape (16-bit elements) is supported");
  in_.vec = take("x1") ? 1 : take("x2") ? 2 : take("x4") ? 4 : 0;
  if (!in_.vec) fail("'" + raw_.opcode + "' needs .x1, .x2 or .x4");
  if (take("trans")) in_.mode = Mode::Trans;
  take("shared") || take("shared::cta");  // without a state space: a generic address, which must be shared
  if (!take("b16")) fail("'" + raw_.opcode + "' needs .b16");
  in_.op = op;
  in_.type = Type::B32;
  in_.space = Space::Shared;
}

/// ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared{::cta}.b16 {d...}, [a]:
/// 1, 2 or 4 matrices of 8x8 16-bit elements, each row at the address one
/// lane gives (lanes 8m..8m+7 for matrix m), spread over the warp one
/// 32-bit register per matrix and lane.
void Decoder::ldmatrix() {
  matrixModifiers(Op::Ldmatrix);
  operands(2);
  if (op(0).kind == RawOperand::Kind::Vec ? op(0).elems.size() != in_.vec : in_.vec != 1)
    fail("'" + raw_.opcode + "' needs " + std::to_string(in_.vec) + " destination registers");
  if (op(0).kind == RawOperand::Kind::Vec) {
    in_.ops[0] = vector(op(0), Type::B32, true);
  } else {  // {d} written as d
    in_.ops[0].kind = Operand::Kind::Vec;
    in_.ops[0].reg = static_cast<uint32_t>(fn_.vecPool.size());
    in_.ops[0].imm = 1;
    fn_.vecPool.push_back(dst(op(0)));
  }
  in_.ops[1] = address(op(1));
}

/// stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared{::cta}.b16 [a], {s...}:
/// ldmatrix's inverse: lane l's register m holds elements (l / 4, 2(l % 4))
/// and the next of matrix m (their transpose with .trans), and lane 8m + r
/// gives the address its row r is written to.
void Decoder::stmatrix() {
  matrixModifiers(Op::Stmatrix);
  operands(2);
  if (op(1).kind != RawOperand::Kind::Vec || op(1).elems.size() != in_.vec)
    fail("'" + raw_.opcode + "' needs {" + std::to_string(in_.vec) + " source registers}");
  in_.ops[0] = address(op(0));
  in_.ops[1] = vector(op(1), Type::B32, false);
}

/// mma.sync.aligned.SHAPE.row.col.D.A.B.C {d}, {a}, {b}, {c}: one warp's
/// D = A*B + C on the fragments the ISA lays out per lane. Supported, with
/// f32 (or, for 8-bit integers, s32; for f16, f16 too) accumulators:
/// m16n8k16 and m16n8k8 on f16 or bf16, m16n8k8 on tf32, m16n8k32 on s8/u8.
/// (Mixed f16/f32 accumulators, the other shapes and .satfinite are refused.)
void Decoder::mma() {
  if (!take("sync") || !take("aligned")) fail("'" + raw_.opcode + "' needs .sync.aligned");
  int k = take("m16n8k8") ? 8 : take("m16n8k16") ? 16 : take("m16n8k32") ? 32 : 0;
  if (!k) fail("'" + raw_.opcode + "': only the m16n8k8, m16n8k16 and m16n8k32 shapes are supported");
  auto row = std::find(mods_.begin(), mods_.end(), "row"), col = std::find(mods_.begin(), mods_.end(), "col");
  if (row == mods_.end() || col != row + 1) fail("'" + raw_.opcode + "' needs .row.col (A row-major, B column-major)");
  take("row");
  take("col");
  if (take("satfinite")) fail("'" + raw_.opcode + "': .satfinite is not supported");
  if (mods_.size() != 4) fail("'" + raw_.opcode + "' needs four types: D, A, B, C");
  auto typeOf = [&](const std::string &m) { return m == "tf32" ? Type::F32 : parseType(m); };
  Type d = typeOf(mods_[0]), a = typeOf(mods_[1]), b = typeOf(mods_[2]), c = typeOf(mods_[3]);
  bool tf32 = mods_[1] == "tf32" && mods_[2] == "tf32" && mods_[0] != "tf32" && mods_[3] != "tf32";
  bool half = (a == Type::F16 || a == Type::BF16) && a == b && (k == 8 || k == 16);
  bool integer = (a == Type::S8 || a == Type::U8) && (b == Type::S8 || b == Type::U8) && k == 32;
  // f16 inputs may also accumulate in f16 (D and C both .f16: two f16x2 registers each).
  Type acc = integer ? Type::S32 : a == Type::F16 && d == Type::F16 ? Type::F16 : Type::F32;
  if (!((half || (tf32 && k == 8) || integer) && d == acc && c == acc))
    fail("'" + raw_.opcode + "' is not supported (f16 or bf16 at k8/k16, tf32 at k8, s8/u8 at k32; f32 or s32 "
         "accumulators, or f16 for f16)");
  mods_.clear();
  in_.op = Op::Mma;
  in_.vec = static_cast<uint8_t>(k);
  in_.type = acc;
  in_.type2 = a;
  in_.type3 = b;
  // Registers per lane: A and B hold 32 bits of elements each.
  size_t aRegs = tf32 ? 4 : k == 8 ? 2 : 4, bRegs = tf32 ? 2 : k == 8 ? 1 : 2;
  operands(4);
  size_t accRegs = acc == Type::F16 ? 2 : 4;
  const size_t want[4] = {accRegs, aRegs, bRegs, accRegs};
  for (size_t i = 0; i < 4; ++i)
    if (op(i).kind != RawOperand::Kind::Vec || op(i).elems.size() != want[i])
      fail("'" + raw_.opcode + "' needs {" + std::to_string(want[i]) + " registers} for " + "DABC"[i]);
  for (size_t i = 1; i < 4; ++i)
    for (const RawOperand &e : op(i).elems)
      if (e.kind != RawOperand::Kind::Name) fail("'" + raw_.opcode + "' takes registers for A, B and C");
  in_.ops[0] = vector(op(0), Type::B32, true);
  for (size_t i = 1; i < 4; ++i) in_.ops[i] = vector(op(i), Type::B32, false);
}

} // namespace twintile::runtime::ptx
