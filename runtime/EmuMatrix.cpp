//===- EmuMatrix.cpp - ldmatrix, stmatrix and mma.sync, one warp at a time ===//
//
// The tensor-core instructions are warp-wide: every lane of the warp gives
// its part (a row address, fragment registers) and gets its part of the
// result. resolveWarps (Emulator.cpp) calls these once all 32 lanes wait at
// the instruction. The fragment layouts are the PTX ISA's ("Matrix
// Fragments for mma.m16n8k*"): with g = lane / 4 and t = lane % 4, the
// accumulator's element i of a lane is at row g + 8 * (i / 2), column
// 2t + i % 2; A's and B's are in aRow/aCol/bRow below.
//
// Arithmetic: products are exact and summed in double, then rounded once to
// f32 or f16 (the hardware's order and intermediate rounding are unspecified; the
// IR's semantics state the tolerance that covers both); tf32 inputs keep
// the upper 19 bits of their f32 (sign, exponent, 10 fraction bits), as the
// tensor core reads them; 8-bit integers accumulate exactly into s32,
// wrapping.
//===----------------------------------------------------------------------===//
#include "runtime/EmuMachine.h"
#include "runtime/PtxFloat.h"

#include <bit>
#include <cstring>

namespace twintile::runtime::emu {

using namespace ptx;

namespace {

/// A's element i of lane (g, t), for a K-deep shape of `elemBits`-bit elements.
int aRow(int i, int g, int k, int elemBits) {
  if (elemBits == 32) return g + 8 * (i % 2);                 // tf32 m16n8k8: a0 (g, t), a1 (g+8, t), a2, a3 (+4 cols)
  int perReg = 32 / elemBits, regs = k * 16 / 32 / perReg;  // registers of A per lane
  return g + 8 * ((i / perReg) % 2) * (regs > 1);
}
int aCol(int i, int t, int k, int elemBits) {
  if (elemBits == 32) return t + 4 * (i / 2);
  int perReg = 32 / elemBits, regs = k * 16 / 32 / perReg;
  return t * perReg + i % perReg + (regs == 4 ? (k / 2) * (i / (2 * perReg)) : 0);
}
/// B's element i of lane (g, t): row (k) and, always, column g.
int bRow(int i, int t, int k, int elemBits) {
  if (elemBits == 32) return t + 4 * i;
  int perReg = 32 / elemBits;
  return t * perReg + i % perReg + (k / 2) * (i / perReg);
}

/// Element `i` of a fragment held in 32-bit registers `regs`, as a double.
double element(const uint64_t *regs, int i, Type type) {
  unsigned bits = type == Type::F32 ? 32 : (type == Type::S8 || type == Type::U8) ? 8 : 16;
  unsigned perReg = 32 / bits;
  uint32_t word = static_cast<uint32_t>(regs[i / perReg]);
  uint32_t raw = bits == 32 ? word : (word >> (bits * (i % perReg))) & ((1u << bits) - 1);
  switch (type) {
  case Type::F16: return fromF16(static_cast<uint16_t>(raw));
  case Type::BF16: return fromBF16(static_cast<uint16_t>(raw));
  case Type::F32:  // tf32: 10 fraction bits (a NaN stays a NaN)
    return (raw & 0x7f800000u) == 0x7f800000u && (raw & 0x7fffffu) ? std::bit_cast<float>(raw)
                                                                    : std::bit_cast<float>(raw & 0xffffe000u);
  case Type::S8: return static_cast<int8_t>(raw);
  default: return raw;  // U8
  }
}

} // namespace

bool Machine::warpLdmatrix(uint32_t base, const Instr &in) {
  // rows[m][r]: the 8 16-bit elements of row r of matrix m, from lane 8m + r's address.
  uint16_t rows[4][8][8];
  for (uint32_t m = 0; m < in.vec; ++m)
    for (uint32_t r = 0; r < 8; ++r) {
      Thread &t = threads_[base + 8 * m + r];
      const Frame &f = t.frames.back();
      const uint8_t *p = access(t, in, addressOf(f, t.regs.data() + f.regBase, in.ops[1]), 16, Space::Shared, false);
      if (!p) return false;
      std::memcpy(rows[m][r], p, 16);
    }
  for (uint32_t l = 0; l < 32; ++l) {
    Thread &t = threads_[base + l];
    Frame &f = t.frames.back();
    uint64_t *regs = t.regs.data() + f.regBase;
    uint32_t r = l / 4, c = 2 * (l % 4);
    for (uint32_t m = 0; m < in.vec; ++m) {
      uint16_t lo = in.mode == Mode::Trans ? rows[m][c][r] : rows[m][r][c];
      uint16_t hi = in.mode == Mode::Trans ? rows[m][c + 1][r] : rows[m][r][c + 1];
      const Operand &d = f.fn->vecPool[in.ops[0].reg + m];
      if (d.kind == Operand::Kind::Reg) regs[d.reg] = (uint32_t(lo) | uint32_t(hi) << 16) & d.imm;
    }
  }
  return true;
}

bool Machine::warpStmatrix(uint32_t base, const Instr &in) {
  // rows[m][r]: row r of matrix m, gathered from every lane's registers.
  uint16_t rows[4][8][8];
  for (uint32_t l = 0; l < 32; ++l) {
    Thread &t = threads_[base + l];
    const Frame &f = t.frames.back();
    const uint64_t *regs = t.regs.data() + f.regBase;
    uint32_t r = l / 4, c = 2 * (l % 4);
    for (uint32_t m = 0; m < in.vec; ++m) {
      uint32_t word = static_cast<uint32_t>(value(t, f, regs, f.fn->vecPool[in.ops[1].reg + m]));
      uint16_t lo = static_cast<uint16_t>(word), hi = static_cast<uint16_t>(word >> 16);
      if (in.mode == Mode::Trans) rows[m][c][r] = lo, rows[m][c + 1][r] = hi;
      else rows[m][r][c] = lo, rows[m][r][c + 1] = hi;
    }
  }
  for (uint32_t m = 0; m < in.vec; ++m)
    for (uint32_t r = 0; r < 8; ++r) {
      Thread &t = threads_[base + 8 * m + r];
      const Frame &f = t.frames.back();
      uint8_t *p = access(t, in, addressOf(f, t.regs.data() + f.regBase, in.ops[0]), 16, Space::Shared, true);
      if (!p) return false;
      std::memcpy(p, rows[m][r], 16);
    }
  return true;
}

bool Machine::warpMma(uint32_t base, const Instr &in) {
  const int k = in.vec;
  const int elemBits = in.type2 == Type::F32 ? 32 : (in.type2 == Type::S8 || in.type2 == Type::U8) ? 8 : 16;
  const int perRegA = 32 / elemBits;
  const size_t aRegs = in.ops[1].imm, bRegs = in.ops[2].imm;
  double a[16][32] = {}, b[32][8] = {}, c[16][8] = {};
  for (uint32_t l = 0; l < 32; ++l) {
    Thread &t = threads_[base + l];
    const Frame &f = t.frames.back();
    const uint64_t *regs = t.regs.data() + f.regBase;
    auto read = [&](const Operand &vec, uint64_t *out) {
      for (uint64_t j = 0; j < vec.imm; ++j) out[j] = value(t, f, regs, f.fn->vecPool[vec.reg + j]);
    };
    uint64_t ar[4], br[2], cr[4];  // an f16 accumulator: c0,c1 in cr[0], c2,c3 in cr[1]
    read(in.ops[1], ar);
    read(in.ops[2], br);
    read(in.ops[3], cr);
    int g = static_cast<int>(l / 4), tg = static_cast<int>(l % 4);
    for (int i = 0; i < static_cast<int>(aRegs) * perRegA; ++i)
      a[aRow(i, g, k, elemBits)][aCol(i, tg, k, elemBits)] = element(ar, i, in.type2);
    for (int i = 0; i < static_cast<int>(bRegs) * perRegA; ++i) b[bRow(i, tg, k, elemBits)][g] = element(br, i, in.type3);
    for (int i = 0; i < 4; ++i) {
      double &to = c[g + 8 * (i / 2)][2 * tg + i % 2];
      if (in.type == Type::F16) {
        to = fromF16(static_cast<uint16_t>(cr[i / 2] >> (16 * (i % 2))));
        continue;
      }
      uint32_t word = static_cast<uint32_t>(cr[i]);
      to = in.type == Type::S32 ? static_cast<double>(static_cast<int32_t>(word)) : std::bit_cast<float>(word);
    }
  }
  for (uint32_t l = 0; l < 32; ++l) {
    Thread &t = threads_[base + l];
    Frame &f = t.frames.back();
    uint64_t *regs = t.regs.data() + f.regBase;
    int g = static_cast<int>(l / 4), tg = static_cast<int>(l % 4);
    uint32_t halves[2] = {0, 0};  // an f16 accumulator's two registers
    for (int i = 0; i < 4; ++i) {
      int row = g + 8 * (i / 2), col = 2 * tg + i % 2;
      uint32_t word;
      if (in.type == Type::S32) {
        int64_t sum = static_cast<int64_t>(c[row][col]);
        for (int kk = 0; kk < k; ++kk) sum += static_cast<int64_t>(a[row][kk]) * static_cast<int64_t>(b[kk][col]);
        word = static_cast<uint32_t>(sum);  // wraps
      } else {
        double sum = c[row][col];
        for (int kk = 0; kk < k; ++kk) sum += a[row][kk] * b[kk][col];
        if (in.type == Type::F16) {
          halves[i / 2] |= uint32_t(toF16(sum)) << (16 * (i % 2));
          continue;
        }
        word = std::bit_cast<uint32_t>(toF32(sum));
      }
      const Operand &d = f.fn->vecPool[in.ops[0].reg + i];
      if (d.kind == Operand::Kind::Reg) regs[d.reg] = word & d.imm;
    }
    for (int j = 0; j < 2 && in.type == Type::F16; ++j) {
      const Operand &d = f.fn->vecPool[in.ops[0].reg + j];
      if (d.kind == Operand::Kind::Reg) regs[d.reg] = halves[j] & d.imm;
    }
  }
  return true;
}

} // namespace twintile::runtime::emu
