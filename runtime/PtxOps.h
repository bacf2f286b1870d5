//===- PtxOps.h - the semantics of PTX's value instructions (internal) ---===//
//
// Pure functions from operand bits to result bits, following the PTX ISA:
// integer arithmetic wraps (or saturates with .sat), shifts by the width or
// more give 0 (or the sign), integer division by zero gives all ones (and
// rem by zero the dividend), float results are rounded as the modifiers say,
// .ftz flushes f32 subnormal inputs and results to sign-preserving zero,
// NaN results are canonical, and min/max return the non-NaN operand (-0 is
// less than +0). Memory, control flow and synchronization are the
// emulator's (Emulator.cpp, PtxExec.cpp).
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/PtxProgram.h"

#include <cstdint>

namespace twintile::runtime::ptx {

/// The result of an instruction that computes one value from its sources
/// (s[0] is operand 1, ...), zero-extended from its type's width (sign-
/// extended for signed results of cvt). `carry` is the carry flag (.cc).
uint64_t evalAlu(const Instr &in, const uint64_t *s, bool &carry);

/// setp/set: a and b, of in.type, compared with in.cmp.
bool compare(const Instr &in, uint64_t a, uint64_t b);

/// atom/red: the value stored, given the old memory value and operands b (and c for cas).
uint64_t atomicUpdate(const Instr &in, uint64_t old, uint64_t b, uint64_t c);

/// A loaded value of type t, as the destination register receives it (sign-extended if signed).
inline uint64_t extendLoaded(uint64_t bits, Type t) {
  unsigned w = typeBits(t);
  if (w >= 64) return bits;
  if (isSigned(t)) {
    uint64_t m = uint64_t(1) << (w - 1);
    bits &= (uint64_t(1) << w) - 1;
    return (bits ^ m) - m;
  }
  return bits & ((uint64_t(1) << w) - 1);
}

} // namespace twintile::runtime::ptx
