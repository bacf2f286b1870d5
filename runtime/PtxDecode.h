//===- PtxDecode.h - one PTX statement, from tokens to an Instr (internal) ===//
//
// The module parser (PtxModule.cpp) reads a statement into a RawInstr: the
// guard, the opcode as written and operands as syntax. decodeInstr turns it
// into an Instr, asking the parser's Scope for what names mean.
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/PtxProgram.h"

#include <cstdint>
#include <string>
#include <vector>

namespace twintile::runtime::ptx {

/// An operand as written.
struct RawOperand {
  enum class Kind {
    Name,     // %r1, %tid.x, twintile_smem, $L__BB0_2, param0  (text; imm: + offset)
    Int,      // 12, -1, 0x7f  (imm: the two's complement bits)
    F32Bits,  // 0f3F800000 (imm: bits)
    F64Bits,  // 0d3FF0000000000000 (imm: bits)
    Real,     // 1.5 (real)
    Mem,      // [base + imm] or [imm]  (text: base, possibly empty); [map, {c0, ...}]: elems the coordinates
    Vec,      // {a, b, ...}
    List,     // (a, b, ...) of call
    Sink,     // _
  };
  Kind kind = Kind::Int;
  std::string text;
  uint64_t imm = 0;
  double real = 0;
  bool negate = false;             // !%p
  std::vector<RawOperand> elems;   // Vec, List
  std::string pipe;                // the second result of "a|b"
};

struct RawInstr {
  int line = 0;
  std::string guard;  // "" when unguarded
  bool guardNegate = false;
  std::string opcode;
  std::vector<RawOperand> ops;
};

/// What names mean where a statement stands (the parser's scopes).
class Scope {
public:
  virtual ~Scope() = default;
  /// The slot of a register in scope; throws PtxError when there is none.
  virtual uint32_t reg(const std::string &name, int line) = 0;
  /// The slot of a register in scope, or Operand::kNoReg.
  virtual uint32_t findReg(const std::string &name) = 0;
  /// A variable in scope (innermost first, then module scope); nullptr if none.
  virtual const Variable *var(const std::string &name) = 0;
  /// Records that instruction `index` branches to `label` (resolved at the body's end).
  virtual void branch(size_t index, const std::string &label, int line) = 0;
};

/// Decodes `raw` and appends it to fn.code. Throws PtxError.
void decodeInstr(const RawInstr &raw, Scope &scope, Function &fn);

/// "%tid.x" -> its Sreg; false when `name` is no special register.
bool specialRegister(const std::string &name, Sreg &out);

/// ".f32" / "f32" -> Type::F32; Type::None if it is no type.
Type parseType(const std::string &name);

} // namespace twintile::runtime::ptx
