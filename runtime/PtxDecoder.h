//===- PtxDecoder.h - the decoder of one statement (internal) ------------===//
//
// Shared by PtxDecode.cpp (modifiers, operands, dispatch) and
// PtxDecodeOps.cpp (one decoder per opcode family). A decoder takes the
// modifiers it understands off the opcode, checks the operand count and
// builds operands in the types the instruction reads them in; whatever is
// left over is an error at the statement's line.
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/PtxDecode.h"
#include "runtime/PtxFloat.h"
#include "runtime/PtxModule.h"

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

namespace twintile::runtime::ptx {

inline uint64_t maskOf(unsigned bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }
inline bool isInt(Type t) { return !isFloat(t) && t != Type::Pred && t != Type::None; }

/// The inline fast path an instruction can take, if any.
Fast classifyFast(const Instr &in);

class Decoder {
public:
  Decoder(const RawInstr &raw, Scope &scope, Function &fn);
  /// Decodes the statement and appends it to the function's code.
  void run();

private:
  const RawInstr &raw_;
  Scope &scope_;
  Function &fn_;
  Instr in_;
  std::string base_;                // "ld" of "ld.global.v4.f32"
  std::vector<std::string> mods_;   // {"global", "v4", "f32"}: what no decoder has taken yet

  [[noreturn]] void fail(const std::string &msg) const { throw PtxError(raw_.line, msg); }
  void dispatch();

  // Modifiers: each takes what it recognizes off mods_.
  bool take(const char *m);
  bool has(const char *m) const;  // without taking it
  std::vector<Type> types();  // in the order written
  Type oneType();
  Rnd rounding();
  void floatMods();           // rounding, .ftz, .sat
  Space space();
  /// Memory-ordering, scope and cache qualifiers: no effect when one thread runs at a time.
  /// True when an .L2::cache_hint asks for a cache-policy operand.
  bool takeCacheHints();
  void operands(size_t n);    // exactly n operands
  Type intType(Type t);
  Type floatType(Type t);     // .f32 or .f64
  Type logicType();           // the one type of and/or/xor/not: bits, integers or .pred

  // Operands.
  const RawOperand &op(size_t i) const { return raw_.ops[i]; }
  Operand regOperand(const RawOperand &o, bool dst);
  Operand dst(const RawOperand &o);
  /// Bits of an immediate, as an operand of type t reads them.
  uint64_t immBits(const RawOperand &o, Type t);
  /// The address of a variable as a value.
  Operand varAddress(const Variable &v, uint64_t offset);
  Operand src(const RawOperand &o, Type t);
  Operand address(const RawOperand &o);
  Operand vector(const RawOperand &o, Type t, bool isDst);
  /// d, a, b, ... all of type t.
  void plain(Op o, Type t, size_t n);

  // PtxDecodeOps.cpp: one decoder per opcode family
  void mov();
  void loadStoreMods();
  void load();
  void store();
  void cvta();
  void cvt();
  void carryType(Type t);     // the type and modifiers of the carry forms
  void addSub();
  void mulMad();
  void fma();
  void divRem();
  void unaryArith();
  void minMax();
  void shift();
  void bitCount();
  void bitField();
  void prmt();
  void lop3();
  void dot();
  void selp();
  void slct();
  void setp();
  void testp();
  void mathFunction();
  void atomic();
  void branch();
  Operand callOperand(const RawOperand &o, uint64_t &size);
  void call();
  void barrier();
  void shfl();
  void vote();
  void redux();
  void asyncCopy();
  void ldmatrix();
  void stmatrix();
  void matrixModifiers(Op op);
  void mma();

  // PtxDecodeWarpgroup.cpp: Hopper's warpgroup MMAs and proxy fences
  void wgmma();
  void fenceProxy();

  // PtxDecodeBarrier.cpp: Hopper's mbarrier objects
  void mbarrier();

  // PtxDecodeBulk.cpp: tensor maps and the bulk tensor copies
  void tensormap();
  void bulkCopy();
};

} // namespace twintile::runtime::ptx
