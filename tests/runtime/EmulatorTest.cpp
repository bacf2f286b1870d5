// The PTX emulator (runtime/Emulator.h): hand-written PTX for each family of
// instructions, checked against values worked out here; the SIMT machinery
// (warp shuffles, barriers, shared memory, atomics, vprintf); every error a
// launch can end in, with its message; and three kernels of the corpus as
// LLVM's NVPTX backend compiled them (tests/runtime/ptx), run on inputs
// built here against plain C++ references. The carry-chain instructions and libdevice's sin/cos,
// which use them, are tested in EmulatorCarryTests.inc, included at the end.
#include "runtime/Emulator.h"

#include "EmulatorHelpers.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace twintile::runtime;

using namespace twintile::test;

//===--- Parsing ------------------------------------------------------------===//

TEST_CASE("a module lists its kernels and decodes every instruction", "[emulator][parse]") {
  std::string ptx = kernel(".param .u64 k_out", "\tld.param.u64 %rd0, [k_out];\n\tst.global.u32 [%rd0], 7;\n");
  PtxModule m = PtxModule::parse(ptx);
  CHECK(m.entries() == std::vector<std::string>{"k"});
  CHECK(m.instructionCount("k") == 3);
}

TEST_CASE("an unknown opcode is a parse error at its line", "[emulator][parse]") {
  std::string ptx = kernel("", "\tmov.u32 %r1, 1;\n\tfrobnicate.b32 %r2, %r1;\n");
  try {
    PtxModule::parse(ptx);
    FAIL("parsed");
  } catch (const PtxError &e) {
    CHECK(e.line == lineOf(ptx, "frobnicate"));
    CHECK(std::string(e.what()).find("unknown instruction 'frobnicate.b32'") != std::string::npos);
  }
}

TEST_CASE("parse errors name the line and what is wrong", "[emulator][parse]") {
  auto errorOf = [](const std::string &ptx) -> std::pair<int, std::string> {
    try {
      PtxModule::parse(ptx);
    } catch (const PtxError &e) {
      return {e.line, e.message};
    }
    return {0, "parsed"};
  };
  std::string undeclared = kernel("", "\tmov.u32 %q7, 1;\n");
  CHECK(errorOf(undeclared) == std::make_pair(lineOf(undeclared, "%q7"), std::string("undeclared register '%q7'")));
  std::string label = kernel("", "\tbra $L_nowhere;\n");
  CHECK(errorOf(label) == std::make_pair(lineOf(label, "$L_nowhere"), std::string("unknown label '$L_nowhere'")));
  std::string modifier = kernel("", "\tadd.wobbly.s32 %r1, %r2, %r3;\n");
  CHECK(errorOf(modifier).second == "unsupported modifier '.wobbly' in 'add.wobbly.s32'");
  std::string operands = kernel("", "\tadd.s32 %r1, %r2;\n");
  CHECK(errorOf(operands).second == "'add.s32' takes 3 operands, found 2");
  std::string call = kernel("", "\tcall.uni malloc, (%rd1);\n");
  CHECK(errorOf(call).first == lineOf(call, "malloc"));
  CHECK(errorOf("garbage").second == "unexpected 'garbage' at module scope");
  // Nesting the parser would follow until the stack ran out (found by
  // scripts/fuzz ptx: tests/fuzz/regressions/ptx/nested-braces.ptx).
  std::string nested = kernel("", "\tmov.b32 %r1, " + std::string(100000, '{') + "%r2;\n");
  CHECK(errorOf(nested) == std::make_pair(lineOf(nested, "mov.b32"), std::string("operands nested more than 16 deep")));
  std::string initializer = kernel("", "", ".global .u32 table[1] = " + std::string(100000, '{') + "1;\n");
  CHECK(errorOf(initializer) == std::make_pair(lineOf(initializer, "table"), std::string("initializers nested more than 16 deep")));
  // A run of negations is read in a loop, however long: no nesting.
  std::string negations = kernel("", "\tnot.pred %p1, " + std::string(100001, '!') + "%p2;\n");
  CHECK(errorOf(negations).second.find("nested") == std::string::npos);
}

TEST_CASE("a register declared in a nested scope shadows the outer one", "[emulator][parse]") {
  // The shape of LLVM's inline-asm blocks: { .reg .pred %p1; setp ...; @%p1 ... }
  std::vector<uint32_t> out = results32("\tsetp.eq.s32 %p1, 0, 0;\n"
                                        "\t{\n\t.reg .pred %p1;\n\tsetp.ne.b32 %p1, 0, 0;\n"
                                        "\tmov.b32 %r1, 5;\n\t@%p1 mov.b32 %r1, 6;\n\t}\n"
                                        "\tselp.b32 %r2, 1, 0, %p1;\n"
                                        "\tst.global.u32 [%rd0], %r1;\n\tst.global.u32 [%rd0+4], %r2;\n",
                                        2);
  CHECK(out == std::vector<uint32_t>{5, 1});
}

//===--- Arithmetic ---------------------------------------------------------===//

TEST_CASE("32-bit integer arithmetic wraps, saturates and divides as PTX says", "[emulator][int]") {
  std::vector<uint32_t> out = results32(
      "\tadd.s32 %r1, 2147483647, 1;\n\tst.global.u32 [%rd0+0], %r1;\n"
      "\tadd.sat.s32 %r1, 2147483647, 1;\n\tst.global.u32 [%rd0+4], %r1;\n"
      "\tsub.sat.s32 %r1, -2147483648, 1;\n\tst.global.u32 [%rd0+8], %r1;\n"
      "\tmul.lo.s32 %r1, -3, 5;\n\tst.global.u32 [%rd0+12], %r1;\n"
      "\tmul.hi.s32 %r1, -3, 5;\n\tst.global.u32 [%rd0+16], %r1;\n"
      "\tmul.hi.u32 %r1, -1, -1;\n\tst.global.u32 [%rd0+20], %r1;\n"
      "\tmad.lo.s32 %r1, 3, 4, 5;\n\tst.global.u32 [%rd0+24], %r1;\n"
      "\tdiv.s32 %r1, -7, 2;\n\tst.global.u32 [%rd0+28], %r1;\n"
      "\trem.s32 %r1, -7, 2;\n\tst.global.u32 [%rd0+32], %r1;\n"
      "\tmov.u32 %r2, 0;\n\tdiv.u32 %r1, 7, %r2;\n\tst.global.u32 [%rd0+36], %r1;\n"
      "\trem.u32 %r1, 7, %r2;\n\tst.global.u32 [%rd0+40], %r1;\n"
      "\tdiv.s32 %r1, -2147483648, -1;\n\tst.global.u32 [%rd0+44], %r1;\n"
      "\tmin.s32 %r1, -1, 1;\n\tst.global.u32 [%rd0+48], %r1;\n"
      "\tmin.u32 %r1, -1, 1;\n\tst.global.u32 [%rd0+52], %r1;\n"
      "\tabs.s32 %r1, -2147483648;\n\tst.global.u32 [%rd0+56], %r1;\n"
      "\tneg.s32 %r1, 5;\n\tst.global.u32 [%rd0+60], %r1;\n"
      "\tmax.s32 %r1, -1, -5;\n\tst.global.u32 [%rd0+64], %r1;\n"
      "\tsad.u32 %r1, 3, 10, 100;\n\tst.global.u32 [%rd0+68], %r1;\n",
      18);
  CHECK(out == std::vector<uint32_t>{0x80000000u, 0x7fffffffu, 0x80000000u, static_cast<uint32_t>(-15), 0xffffffffu,
                                     0xfffffffeu, 17u, static_cast<uint32_t>(-3), static_cast<uint32_t>(-1), 0xffffffffu,
                                     7u, 0x80000000u, static_cast<uint32_t>(-1), 1u, 0x80000000u,
                                     static_cast<uint32_t>(-5), static_cast<uint32_t>(-1), 107u});
}

TEST_CASE("bit operations: shifts past the width, fields, counts, permutes", "[emulator][int]") {
  std::vector<uint32_t> out = results32(
      "\tshl.b32 %r1, 1, 32;\n\tst.global.u32 [%rd0+0], %r1;\n"
      "\tshr.u32 %r1, -2147483648, 31;\n\tst.global.u32 [%rd0+4], %r1;\n"
      "\tshr.s32 %r1, -2147483648, 40;\n\tst.global.u32 [%rd0+8], %r1;\n"
      "\tshr.s32 %r1, -8, 1;\n\tst.global.u32 [%rd0+12], %r1;\n"
      "\tbfe.u32 %r1, 0x12345678, 8, 8;\n\tst.global.u32 [%rd0+16], %r1;\n"
      "\tbfe.s32 %r1, 0xF000, 12, 4;\n\tst.global.u32 [%rd0+20], %r1;\n"
      "\tbfi.b32 %r1, 0xF, 0, 4, 4;\n\tst.global.u32 [%rd0+24], %r1;\n"
      "\tpopc.b32 %r1, 0xF0F0;\n\tst.global.u32 [%rd0+28], %r1;\n"
      "\tclz.b32 %r1, 1;\n\tst.global.u32 [%rd0+32], %r1;\n"
      "\tclz.b32 %r1, 0;\n\tst.global.u32 [%rd0+36], %r1;\n"
      "\tbrev.b32 %r1, 1;\n\tst.global.u32 [%rd0+40], %r1;\n"
      "\tbfind.u32 %r1, 16;\n\tst.global.u32 [%rd0+44], %r1;\n"
      "\tbfind.u32 %r1, 0;\n\tst.global.u32 [%rd0+48], %r1;\n"
      "\tprmt.b32 %r1, 0x33221100, 0x77665544, 0x5140;\n\tst.global.u32 [%rd0+52], %r1;\n"
      "\tlop3.b32 %r1, 0xF0, 0xCC, 0xAA, 0x96;\n\tst.global.u32 [%rd0+56], %r1;\n"
      "\tand.b32 %r1, 0xFF00, 0x0FF0;\n\tor.b32 %r2, %r1, 1;\n\txor.b32 %r3, %r2, 3;\n\tnot.b32 %r4, %r3;\n"
      "\tst.global.u32 [%rd0+60], %r4;\n"
      "\tcnot.b32 %r1, 0;\n\tst.global.u32 [%rd0+64], %r1;\n",
      17);
  CHECK(out == std::vector<uint32_t>{0, 1, 0xffffffffu, static_cast<uint32_t>(-4), 0x56, 0xffffffffu, 0xf0, 8, 31, 32,
                                     0x80000000u, 4, 0xffffffffu, 0x55114400u, 0xF0 ^ 0xCC ^ 0xAA,
                                     ~(((0xFF00u & 0x0FF0u) | 1u) ^ 3u), 1});
}

TEST_CASE("64-bit and 16-bit integers, carries, wide products", "[emulator][int]") {
  std::vector<uint64_t> out = results64(
      "\tmul.wide.s32 %rd1, -3, 5;\n\tst.global.u64 [%rd0+0], %rd1;\n"
      "\tmul.wide.u32 %rd1, -1, 2;\n\tst.global.u64 [%rd0+8], %rd1;\n"
      "\tmul.hi.u64 %rd1, -1, 2;\n\tst.global.u64 [%rd0+16], %rd1;\n"
      "\tshr.s64 %rd1, -16, 2;\n\tst.global.u64 [%rd0+24], %rd1;\n"
      // 0x1FFFFFFFF + 1 in 32-bit halves through the carry flag.
      "\tadd.cc.u32 %r1, -1, 1;\n\taddc.u32 %r2, 1, 0;\n\tmov.b64 %rd1, {%r1, %r2};\n\tst.global.u64 [%rd0+32], %rd1;\n"
      "\tmov.b64 {%r3, %r4}, %rd1;\n\tmov.b64 %rd2, {%r4, %r3};\n\tst.global.u64 [%rd0+40], %rd2;\n"
      "\tadd.s16 %rs1, 32767, 1;\n\tcvt.u64.u16 %rd1, %rs1;\n\tst.global.u64 [%rd0+48], %rd1;\n"
      "\tmov.b32 %r5, 0x12345678;\n\tmov.b32 {%rs2, %rs3}, %r5;\n\tcvt.u64.u16 %rd1, %rs3;\n\tst.global.u64 [%rd0+56], %rd1;\n"
      "\tdiv.s64 %rd1, -9, 4;\n\tst.global.u64 [%rd0+64], %rd1;\n"
      "\tsub.cc.u32 %r1, 0, 1;\n\tsubc.u32 %r2, 5, 0;\n\tmov.b64 %rd1, {%r1, %r2};\n\tst.global.u64 [%rd0+72], %rd1;\n",
      10);
  CHECK(out == std::vector<uint64_t>{static_cast<uint64_t>(-15), 0x1fffffffeull, 1, static_cast<uint64_t>(-4),
                                     0x200000000ull, 2, 0x8000, 0x1234,
                                     static_cast<uint64_t>(-2), 0x4ffffffffull});
}

TEST_CASE("f32 arithmetic rounds in each mode and flushes with .ftz", "[emulator][float]") {
  std::vector<uint32_t> out = results32(
      // 1 + 0.75 ulp and its negative, in the four modes.
      "\tadd.rn.f32 %f1, 0f3F800000, 0f33C00000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+0], %r1;\n"
      "\tadd.rz.f32 %f1, 0f3F800000, 0f33C00000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+4], %r1;\n"
      "\tadd.rm.f32 %f1, 0f3F800000, 0f33C00000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+8], %r1;\n"
      "\tadd.rp.f32 %f1, 0f3F800000, 0f33C00000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+12], %r1;\n"
      "\tadd.rm.f32 %f1, 0fBF800000, 0fB3C00000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+16], %r1;\n"
      "\tadd.rp.f32 %f1, 0fBF800000, 0fB3C00000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+20], %r1;\n"
      "\tdiv.rn.f32 %f1, 0f3F800000, 0f40400000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+24], %r1;\n"
      "\tdiv.rz.f32 %f1, 0f3F800000, 0f40400000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+28], %r1;\n"
      "\tfma.rn.f32 %f1, 0f3F800001, 0f3F800001, 0fBF800000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+32], %r1;\n"
      "\tfma.rp.f32 %f1, 0f3F800001, 0f3F800001, 0fBF800000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+36], %r1;\n"
      "\tsqrt.rn.f32 %f1, 0f40000000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+40], %r1;\n"
      "\tsqrt.rp.f32 %f1, 0f40000000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+44], %r1;\n"
      "\tadd.f32 %f1, 0f00000001, 0f00000001;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+48], %r1;\n"
      "\tadd.ftz.f32 %f1, 0f00000001, 0f00000001;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+52], %r1;\n"
      "\tmul.ftz.f32 %f1, 0f00800000, 0f3F000000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+56], %r1;\n"
      "\tmul.rn.f32 %f1, 0f00800000, 0f3F000000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+60], %r1;\n"
      "\tmul.rz.f32 %f1, 0f7F7FFFFF, 0f40000000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+64], %r1;\n"
      "\tmul.rn.f32 %f1, 0f7F7FFFFF, 0f40000000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+68], %r1;\n"
      "\tadd.f32 %f1, 0f7F800000, 0fFF800000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+72], %r1;\n"
      "\tadd.sat.f32 %f1, 0f3F800000, 0f3F800000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+76], %r1;\n",
      20);
  CHECK(out == std::vector<uint32_t>{0x3f800001, 0x3f800000, 0x3f800000, 0x3f800001, 0xbf800001, 0xbf800000,
                                     0x3eaaaaab, 0x3eaaaaaa, 0x34800000, 0x34800001, 0x3fb504f3, 0x3fb504f4,
                                     0x00000002, 0x00000000, 0x00000000, 0x00400000, 0x7f7fffff, 0x7f800000,
                                     0x7fffffff, 0x3f800000});
}

TEST_CASE("min/max, comparisons and tests on NaN, zeros and infinities", "[emulator][float]") {
  std::vector<uint32_t> out = results32(
      "\tmax.f32 %f1, 0f7FC00000, 0f3F800000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+0], %r1;\n"
      "\tmin.f32 %f1, 0f3F800000, 0f7FC00000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+4], %r1;\n"
      "\tmax.NaN.f32 %f1, 0f7FC00000, 0f3F800000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+8], %r1;\n"
      "\tmin.f32 %f1, 0f00000000, 0f80000000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+12], %r1;\n"
      "\tmax.f32 %f1, 0f80000000, 0f00000000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+16], %r1;\n"
      "\tsetp.lt.f32 %p1, 0f7FC00000, 0f3F800000;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+20], %r1;\n"
      "\tsetp.ltu.f32 %p1, 0f7FC00000, 0f3F800000;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+24], %r1;\n"
      "\tsetp.nan.f32 %p1, 0f3F800000, 0f7FC00000;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+28], %r1;\n"
      "\tsetp.num.f32 %p1, 0f3F800000, 0f3F800000;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+32], %r1;\n"
      "\tsetp.eq.f32 %p1, 0f00000000, 0f80000000;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+36], %r1;\n"
      "\ttestp.subnormal.f32 %p1, 0f00000001;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+40], %r1;\n"
      "\ttestp.normal.f32 %p1, 0f00000000;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+44], %r1;\n"
      "\ttestp.infinite.f32 %p1, 0fFF800000;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+48], %r1;\n"
      "\tcopysign.f32 %f1, 0fBF800000, 0f40000000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+52], %r1;\n"
      "\tabs.f32 %f1, 0fC0000000;\n\tneg.f32 %f2, %f1;\n\tmov.b32 %r1, %f2;\n\tst.global.u32 [%rd0+56], %r1;\n"
      "\tsetp.gt.u32 %p1, -1, 1;\n\tsetp.gt.s32 %p2, -1, 1;\n\tselp.u32 %r1, 1, 0, %p1;\n\tselp.u32 %r2, 2, 0, %p2;\n"
      "\tor.b32 %r1, %r1, %r2;\n\tst.global.u32 [%rd0+60], %r1;\n"
      // The .and combination and the p|q form: p = cmp && c, q = !cmp && c.
      "\tsetp.ne.s32 %p3, 1, 0;\n\tsetp.lt.and.s32 %p4|%p5, 5, 3, %p3;\n"
      "\tselp.u32 %r1, 1, 0, %p4;\n\tselp.u32 %r2, 2, 0, %p5;\n\tor.b32 %r1, %r1, %r2;\n\tst.global.u32 [%rd0+64], %r1;\n",
      17);
  CHECK(out == std::vector<uint32_t>{0x3f800000, 0x3f800000, 0x7fffffff, 0x80000000, 0x00000000, 0, 1, 1, 1, 1, 1, 1,
                                     1, 0xc0000000, 0xc0000000, 1, 2});
}

TEST_CASE("cvt between integers and floats rounds and saturates", "[emulator][cvt]") {
  std::vector<uint32_t> out = results32(
      "\tcvt.rni.s32.f32 %r1, 0f40200000;\n\tst.global.u32 [%rd0+0], %r1;\n"   // 2.5 -> 2
      "\tcvt.rni.s32.f32 %r1, 0f40600000;\n\tst.global.u32 [%rd0+4], %r1;\n"   // 3.5 -> 4
      "\tcvt.rni.s32.f32 %r1, 0fC0200000;\n\tst.global.u32 [%rd0+8], %r1;\n"   // -2.5 -> -2
      "\tcvt.rzi.s32.f32 %r1, 0fC02CCCCD;\n\tst.global.u32 [%rd0+12], %r1;\n"  // -2.7 -> -2
      "\tcvt.rmi.s32.f32 %r1, 0fC02CCCCD;\n\tst.global.u32 [%rd0+16], %r1;\n"  // -2.7 -> -3
      "\tcvt.rpi.s32.f32 %r1, 0f40066666;\n\tst.global.u32 [%rd0+20], %r1;\n"  // 2.1 -> 3
      "\tcvt.rzi.s32.f32 %r1, 0f501502F9;\n\tst.global.u32 [%rd0+24], %r1;\n"  // 1e10 -> INT_MAX
      "\tcvt.rzi.s32.f32 %r1, 0f7FC00000;\n\tst.global.u32 [%rd0+28], %r1;\n"  // NaN -> 0
      "\tcvt.rzi.u32.f32 %r1, 0fC0A00000;\n\tst.global.u32 [%rd0+32], %r1;\n"  // -5 -> 0
      "\tcvt.sat.s8.s32 %r1, 300;\n\tst.global.u32 [%rd0+36], %r1;\n"
      "\tcvt.s32.s8 %r1, 255;\n\tst.global.u32 [%rd0+40], %r1;\n"
      "\tcvt.u32.u8 %r1, -1;\n\tst.global.u32 [%rd0+44], %r1;\n"
      "\tcvt.rn.f32.s32 %f1, 16777217;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+48], %r1;\n"
      "\tcvt.rp.f32.s32 %f1, 16777217;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+52], %r1;\n"
      "\tcvt.rn.f32.u32 %f1, -1;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+56], %r1;\n"
      "\tcvt.rz.f32.u32 %f1, -1;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+60], %r1;\n"
      "\tcvt.sat.f32.f32 %f1, 0f3FC00000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+64], %r1;\n"
      "\tcvt.sat.f32.f32 %f1, 0fBF800000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+68], %r1;\n"
      "\tcvt.rni.f32.f32 %f1, 0f40200000;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+72], %r1;\n"
      // f64 <-> f32: 1/3 in double, to f32 in two modes, and back exactly.
      "\tdiv.rn.f64 %fd1, 0d3FF0000000000000, 0d4008000000000000;\n"
      "\tcvt.rn.f32.f64 %f1, %fd1;\n\tmov.b32 %r1, %f1;\n\tst.global.u32 [%rd0+76], %r1;\n"
      "\tcvt.rz.f32.f64 %f2, %fd1;\n\tmov.b32 %r1, %f2;\n\tst.global.u32 [%rd0+80], %r1;\n"
      "\tcvt.f64.f32 %fd2, %f1;\n\tcvt.rn.f32.f64 %f3, %fd2;\n\tmov.b32 %r1, %f3;\n\tst.global.u32 [%rd0+84], %r1;\n"
      "\tcvt.rzi.s64.f64 %rd1, 0dC3E0000000000001;\n\tcvt.u32.u64 %r1, %rd1;\n\tst.global.u32 [%rd0+88], %r1;\n"
      "\tshr.u64 %rd2, %rd1, 32;\n\tcvt.u32.u64 %r1, %rd2;\n\tst.global.u32 [%rd0+92], %r1;\n",
      24);
  CHECK(out == std::vector<uint32_t>{2, 4, static_cast<uint32_t>(-2), static_cast<uint32_t>(-2), static_cast<uint32_t>(-3),
                                     3, 0x7fffffff, 0, 0, 127, 0xffffffffu, 255, 0x4b800000, 0x4b800001, 0x4f800000,
                                     0x4f7fffff, 0x3f800000, 0, 0x40000000, 0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaab, 0,
                                     0x80000000});
}

TEST_CASE("a 64-bit integer converts to bf16 and f16 with one rounding", "[emulator][cvt]") {
  // 2^63 + 2^55 + 1 is just above the midpoint of bf16's 2^63 and 2^63 + 2^56: it rounds up.
  // Rounded to f64 first it would be the midpoint itself (2^63 + 2^55), and then go down to 2^63.
  std::vector<uint32_t> out = results32(
      "\tmov.b64 %rd1, 0x8080000000000001;\n"
      "\tcvt.rn.bf16.u64 %rs1, %rd1;\n\tcvt.u32.u16 %r1, %rs1;\n\tst.global.u32 [%rd0+0], %r1;\n"
      "\tneg.s64 %rd2, 0x7F80000000000001;\n"  // -(2^63 - 2^55 - 1): just below the midpoint, in magnitude
      "\tcvt.rn.bf16.s64 %rs2, %rd2;\n\tcvt.u32.u16 %r2, %rs2;\n\tst.global.u32 [%rd0+4], %r2;\n"
      "\tmov.b64 %rd3, 0x0010020000000001;\n"  // 2^52 + 2^41 + 1: above f16's range
      "\tcvt.rn.f16.u64 %rs3, %rd3;\n\tcvt.u32.u16 %r3, %rs3;\n\tst.global.u32 [%rd0+8], %r3;\n",
      3);
  CHECK(out[0] == 0x5F01);  // 2^63 + 2^56
  CHECK(out[1] == 0xDEFF);  // -(2^63 - 2^55): the nearer of bf16's neighbours
  CHECK(out[2] == 0x7C00);  // +inf
}

TEST_CASE("f32 to f16 and bf16 rounds to nearest even at every midpoint", "[emulator][cvt]") {
  // Every positive finite f16 h below the largest: the midpoint between h and h+1 is exact in f32
  // and must round to the even one of the two; a hair above it rounds up. The same for bf16,
  // on a sample of its range. Then f16 and bf16 back to f32, for every pattern.
  std::string ptx = kernel(".param .u64 k_in, .param .u64 k_out, .param .u32 k_n, .param .u32 k_bf",
                           "\tld.param.u64 %rd1, [k_in];\n\tld.param.u64 %rd2, [k_out];\n"
                           "\tld.param.u32 %r9, [k_n];\n\tld.param.u32 %r8, [k_bf];\n"
                           "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
                           "\tmad.lo.s32 %r4, %r2, %r3, %r1;\n\tsetp.ge.u32 %p1, %r4, %r9;\n\t@%p1 bra $L_done;\n"
                           "\tmul.wide.u32 %rd3, %r4, 4;\n\tadd.s64 %rd4, %rd1, %rd3;\n\tld.global.f32 %f1, [%rd4];\n"
                           "\tsetp.ne.s32 %p2, %r8, 0;\n"
                           "\t@%p2 cvt.rn.bf16.f32 %rs1, %f1;\n\t@!%p2 cvt.rn.f16.f32 %rs1, %f1;\n"
                           "\tmul.wide.u32 %rd5, %r4, 2;\n\tadd.s64 %rd6, %rd2, %rd5;\n\tst.global.b16 [%rd6], %rs1;\n"
                           "$L_done:\n");
  PtxModule m = PtxModule::parse(ptx);
  auto run = [&](std::vector<float> in, bool bf) {
    std::vector<uint16_t> out(in.size());
    uint32_t n = static_cast<uint32_t>(in.size());
    EmuResult r = emulate(m, "k", {(n + 255) / 256, 1, 1}, {256, 1, 1},
                          {EmuArg::buf(0), EmuArg::buf(1), EmuArg::scalar(n), EmuArg::scalar(bf)}, {bytesOf(in), bytesOf(out)});
    INFO(r.error);
    REQUIRE(r.ok());
    return out;
  };
  auto f16value = [](uint16_t h) {
    int e = (h >> 10) & 0x1f, f = h & 0x3ff;
    double v = e == 0 ? std::ldexp(f, -24) : std::ldexp(f + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
  };
  std::vector<float> in;
  std::vector<uint16_t> want;
  for (uint16_t h = 0; h < 0x7bff; ++h) {
    float mid = static_cast<float>((f16value(h) + f16value(h + 1)) / 2);
    in.push_back(mid);
    want.push_back(h % 2 == 0 ? h : h + 1);
    in.push_back(std::nextafter(mid, 1e9f));
    want.push_back(h + 1);
    in.push_back(-mid);
    want.push_back((h % 2 == 0 ? h : h + 1) | 0x8000);
  }
  for (auto [v, bits] : std::vector<std::pair<float, uint16_t>>{{65504.f, 0x7bff}, {65519.f, 0x7bff}, {65520.f, 0x7c00},
                                                               {1e9f, 0x7c00}, {-0.f, 0x8000}, {NAN, 0x7fff},
                                                               {INFINITY, 0x7c00}, {std::ldexp(1.f, -25), 0}}) {
    in.push_back(v);
    want.push_back(bits);
  }
  std::vector<uint16_t> got = run(in, false);
  size_t wrong = 0;
  for (size_t i = 0; i < in.size(); ++i)
    if (got[i] != want[i] && wrong++ < 5) FAIL_CHECK("f16 of " << in[i] << ": " << got[i] << " != " << want[i]);
  CHECK(wrong == 0);

  in.clear();
  want.clear();
  for (uint32_t h = 0; h < 0x7f7f; h += 7) {
    float lo = bitsf32(h << 16), hi = bitsf32((h + 1) << 16);
    float mid = static_cast<float>((static_cast<double>(lo) + hi) / 2);
    in.push_back(mid);
    want.push_back(static_cast<uint16_t>(h % 2 == 0 ? h : h + 1));
    in.push_back(std::nextafter(mid, 0.f));
    want.push_back(static_cast<uint16_t>(h));
  }
  for (auto [v, bits] : std::vector<std::pair<float, uint16_t>>{{std::numeric_limits<float>::max(), 0x7f80},
                                                               {1.0f, 0x3f80}, {NAN, 0x7fff}, {-2.5f, 0xc020}}) {
    in.push_back(v);
    want.push_back(bits);
  }
  got = run(in, true);
  wrong = 0;
  for (size_t i = 0; i < in.size(); ++i)
    if (got[i] != want[i] && wrong++ < 5) FAIL_CHECK("bf16 of " << in[i] << ": " << got[i] << " != " << want[i]);
  CHECK(wrong == 0);
}

TEST_CASE("f16 and bf16 widen to f32 exactly", "[emulator][cvt]") {
  std::string ptx = kernel(".param .u64 k_out",
                           "\tld.param.u64 %rd1, [k_out];\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n"
                           "\tshl.b32 %r3, %r2, 8;\n\tor.b32 %r4, %r3, %r1;\n\tcvt.u16.u32 %rs1, %r4;\n"
                           "\tcvt.f32.f16 %f1, %rs1;\n\tcvt.f32.bf16 %f2, %rs1;\n"
                           "\tmul.wide.u32 %rd2, %r4, 8;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
                           "\tst.global.v2.f32 [%rd3], {%f1, %f2};\n");
  PtxModule m = PtxModule::parse(ptx);
  std::vector<float> out(2 * 65536);
  EmuResult r = emulate(m, "k", {256, 1, 1}, {256, 1, 1}, {EmuArg::buf(0)}, {bytesOf(out)});
  INFO(r.error);
  REQUIRE(r.ok());
  size_t wrong = 0;
  for (uint32_t h = 0; h < 65536; ++h) {
    int e = (h >> 10) & 0x1f, f = h & 0x3ff;
    double v = e == 31 ? (f ? NAN : INFINITY) : e == 0 ? std::ldexp(f, -24) : std::ldexp(f + 1024, e - 25);
    if (h & 0x8000) v = -v;
    float bf = bitsf32(h << 16);
    bool okHalf = std::isnan(v) ? std::isnan(out[2 * h]) : f32bits(out[2 * h]) == f32bits(static_cast<float>(v));
    bool okBf = std::isnan(bf) ? std::isnan(out[2 * h + 1]) : f32bits(out[2 * h + 1]) == f32bits(bf);
    wrong += !okHalf + !okBf;
  }
  CHECK(wrong == 0);
}

//===--- Control flow -------------------------------------------------------===//

TEST_CASE("predicated instructions and a counted loop", "[emulator][control]") {
  // sum of 1..n for n = 10 per thread, skipping odd i with @!%p.
  std::vector<uint32_t> out = results32("\tmov.u32 %r1, 0;\n\tmov.u32 %r2, 1;\n"
                                        "$L_loop:\n"
                                        "\tand.b32 %r3, %r2, 1;\n\tsetp.eq.s32 %p1, %r3, 0;\n"
                                        "\t@%p1 add.s32 %r1, %r1, %r2;\n"
                                        "\t@!%p1 add.s32 %r1, %r1, 1000;\n"
                                        "\tadd.s32 %r2, %r2, 1;\n\tsetp.le.s32 %p2, %r2, 10;\n"
                                        "\t@%p2 bra.uni $L_loop;\n"
                                        "\tst.global.u32 [%rd0], %r1;\n",
                                        1);
  CHECK(out[0] == 2 + 4 + 6 + 8 + 10 + 5 * 1000);
}

TEST_CASE("a .func is called with parameters and returns a result", "[emulator][control]") {
  std::string ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                    ".func (.param .b32 sq_ret) sq(.param .b32 sq_a, .param .b32 sq_b)\n{\n"
                    "\t.reg .b32 %r<4>;\n\tld.param.b32 %r1, [sq_a];\n\tld.param.b32 %r2, [sq_b];\n"
                    "\tmad.lo.s32 %r3, %r1, %r1, %r2;\n\tst.param.b32 [sq_ret], %r3;\n\tret;\n}\n"
                    ".visible .entry k(.param .u64 k_out)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
                    "\tld.param.u64 %rd1, [k_out];\n\tmov.u32 %r1, %tid.x;\n"
                    "\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0], %r1;\n\t.param .b32 param1;\n"
                    "\tst.param.b32 [param1], 100;\n\t.param .b32 retval0;\n"
                    "\tcall.uni (retval0), sq, (param0, param1);\n\tld.param.b32 %r2, [retval0];\n\t}\n"
                    "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r2;\n\tret;\n}\n";
  PtxModule m = PtxModule::parse(ptx);
  std::vector<uint32_t> out(8);
  EmuResult r = emulate(m, "k", {}, {8, 1, 1}, {EmuArg::buf(0)}, {bytesOf(out)});
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(out == std::vector<uint32_t>{100, 101, 104, 109, 116, 125, 136, 149});
}

//===--- SIMT ---------------------------------------------------------------===//

TEST_CASE("shfl.sync.bfly sums a warp, and up, down and idx follow the c operand", "[emulator][simt]") {
  std::string ptx =
      kernel(".param .u64 k_out",
             "\tld.param.u64 %rd1, [k_out];\n\tmov.u32 %r1, %laneid;\n\tmul.lo.s32 %r2, %r1, 3;\n"
             // butterfly sum of 3 * lane over the warp
             "\tmov.u32 %r10, %r2;\n"
             "\tshfl.sync.bfly.b32 %r11, %r10, 16, 31, -1;\n\tadd.s32 %r10, %r10, %r11;\n"
             "\tshfl.sync.bfly.b32 %r11, %r10, 8, 31, -1;\n\tadd.s32 %r10, %r10, %r11;\n"
             "\tshfl.sync.bfly.b32 %r11, %r10, 4, 31, -1;\n\tadd.s32 %r10, %r10, %r11;\n"
             "\tshfl.sync.bfly.b32 %r11, %r10, 2, 31, -1;\n\tadd.s32 %r10, %r10, %r11;\n"
             "\tshfl.sync.bfly.b32 %r11, %r10, 1, 31, -1;\n\tadd.s32 %r10, %r10, %r11;\n"
             // __shfl_up_sync(v, 3, width 8): c = (32 - 8) << 8
             "\tshfl.sync.up.b32 %r12|%p1, %r2, 3, 0x1800, -1;\n\tselp.u32 %r13, 1, 0, %p1;\n"
             // __shfl_down_sync(v, 5, width 16): c = ((32 - 16) << 8) | 31
             "\tshfl.sync.down.b32 %r14|%p2, %r2, 5, 0x101f, -1;\n\tselp.u32 %r15, 1, 0, %p2;\n"
             // __shfl_sync(v, 6, width 8): c = ((32 - 8) << 8) | 31
             "\tshfl.sync.idx.b32 %r16, %r2, 6, 0x181f, -1;\n"
             "\tmul.wide.u32 %rd2, %r1, 24;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
             "\tst.global.u32 [%rd3], %r10;\n\tst.global.u32 [%rd3+4], %r12;\n\tst.global.u32 [%rd3+8], %r13;\n"
             "\tst.global.u32 [%rd3+12], %r14;\n\tst.global.u32 [%rd3+16], %r15;\n\tst.global.u32 [%rd3+20], %r16;\n");
  PtxModule m = PtxModule::parse(ptx);
  std::vector<uint32_t> out(32 * 6);
  EmuResult r = emulate(m, "k", {}, {32, 1, 1}, {EmuArg::buf(0)}, {bytesOf(out)});
  INFO(r.error);
  REQUIRE(r.ok());
  for (uint32_t l = 0; l < 32; ++l) {
    INFO("lane " << l);
    CHECK(out[6 * l] == 3 * (31 * 32 / 2));
    bool upOk = l % 8 >= 3;
    CHECK(out[6 * l + 1] == 3 * (upOk ? l - 3 : l));
    CHECK(out[6 * l + 2] == upOk);
    bool downOk = l % 16 + 5 < 16;
    CHECK(out[6 * l + 3] == 3 * (downOk ? l + 5 : l));
    CHECK(out[6 * l + 4] == downOk);
    CHECK(out[6 * l + 5] == 3 * (l / 8 * 8 + 6));
  }
}

TEST_CASE("vote.sync and redux.sync see the whole warp", "[emulator][simt]") {
  std::vector<uint32_t> out(3 * 64);
  std::string ptx = kernel(".param .u64 k_out",
                           "\tld.param.u64 %rd1, [k_out];\n\tmov.u32 %r1, %tid.x;\n"
                           "\tsetp.lt.u32 %p1, %r1, 40;\n\tvote.sync.ballot.b32 %r2, %p1, -1;\n"
                           "\tvote.sync.all.pred %p2, %p1, -1;\n\tselp.u32 %r3, 1, 0, %p2;\n"
                           "\tredux.sync.add.u32 %r4, %r1, -1;\n"
                           "\tmul.wide.u32 %rd2, %r1, 12;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
                           "\tst.global.u32 [%rd3], %r2;\n\tst.global.u32 [%rd3+4], %r3;\n\tst.global.u32 [%rd3+8], %r4;\n");
  EmuResult r = emulate(PtxModule::parse(ptx), "k", {}, {64, 1, 1}, {EmuArg::buf(0)}, {bytesOf(out)});
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(out[0] == 0xffffffffu);
  CHECK(out[1] == 1);
  CHECK(out[2] == 31 * 32 / 2);
  CHECK(out[3 * 32] == 0xffu);
  CHECK(out[3 * 32 + 1] == 0);
  CHECK(out[3 * 32 + 2] == (32 + 63) * 32 / 2);
}

TEST_CASE("bar.sync orders shared memory across warps, through shared and generic addresses", "[emulator][simt]") {
  // Each of 128 threads writes tid * 10 to smem[tid]; after the barrier it reads
  // smem[127 - tid] through a generic pointer (cvta) and a shared one.
  std::string ptx = kernel(".param .u64 k_out",
                           "\tld.param.u64 %rd1, [k_out];\n\tmov.u32 %r1, %tid.x;\n\tmul.lo.s32 %r2, %r1, 10;\n"
                           "\tmov.u64 %rd2, smem;\n\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
                           "\tst.shared.u32 [%rd4], %r2;\n\tbar.sync 0;\n"
                           "\tsub.s32 %r3, 127, %r1;\n\tmul.wide.u32 %rd5, %r3, 4;\n\tadd.s64 %rd6, %rd2, %rd5;\n"
                           "\tld.shared.u32 %r4, [%rd6];\n\tcvta.shared.u64 %rd7, %rd6;\n\tld.u32 %r5, [%rd7];\n"
                           "\tld.shared.u32 %r6, [smem+508];\n"
                           "\tadd.s32 %r7, %r4, %r5;\n\tadd.s32 %r7, %r7, %r6;\n"
                           "\tadd.s64 %rd8, %rd1, %rd3;\n\tst.global.u32 [%rd8], %r7;\n",
                           ".shared .align 16 .b8 smem[512];\n");
  std::vector<uint32_t> out(128);
  EmuResult r = emulate(PtxModule::parse(ptx), "k", {2, 1, 1}, {128, 1, 1}, {EmuArg::buf(0)}, {bytesOf(out)});
  INFO(r.error);
  REQUIRE(r.ok());
  for (uint32_t t = 0; t < 128; ++t) CHECK(out[t] == 2 * (127 - t) * 10 + 1270);
}

TEST_CASE("dynamic shared memory follows the static variables", "[emulator][simt]") {
  std::string ptx = kernel(".param .u64 k_out",
                           "\tld.param.u64 %rd1, [k_out];\n\tmov.u32 %r1, %tid.x;\n"
                           "\tmov.u64 %rd2, dyn;\n\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
                           "\tst.shared.u32 [%rd4], %r1;\n\tbar.sync 0;\n\tld.shared.u32 %r2, [dyn+4];\n"
                           "\tadd.s64 %rd5, %rd1, %rd3;\n\tst.global.u32 [%rd5], %r2;\n",
                           ".shared .align 4 .b8 fixed[12];\n.extern .shared .align 16 .b8 dyn[];\n");
  std::vector<uint32_t> out(64);
  EmuOptions opts;
  opts.dynamicSharedBytes = 256;
  EmuResult r = emulate(PtxModule::parse(ptx), "k", {}, {64, 1, 1}, {EmuArg::buf(0)}, {bytesOf(out)}, opts);
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(std::all_of(out.begin(), out.end(), [](uint32_t v) { return v == 1; }));
  // Without the dynamic bytes, the same kernel is out of bounds.
  std::string err = failure(ptx, {}, {64, 1, 1}, {EmuArg::buf(0)}, {bytesOf(out)});
  CHECK(err.rfind("out-of-bounds st.shared.u32 of 4 bytes", 0) == 0);
}

TEST_CASE("vector loads and stores move 2 and 4 elements", "[emulator][memory]") {
  std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<float> out(8, 0);
  std::string ptx = kernel(".param .u64 k_in, .param .u64 k_out",
                           "\tld.param.u64 %rd1, [k_in];\n\tld.param.u64 %rd2, [k_out];\n"
                           "\tld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n"
                           "\tld.global.v2.b64 {%rd3, %rd4}, [%rd1+16];\n"
                           "\tst.global.v4.f32 [%rd2+16], {%f4, %f3, %f2, %f1};\n"
                           "\tst.global.v2.b64 [%rd2], {%rd4, %rd3};\n");
  EmuResult r = emulate(PtxModule::parse(ptx), "k", {}, {}, {EmuArg::buf(0), EmuArg::buf(1)}, {bytesOf(in), bytesOf(out)});
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(out == std::vector<float>{7, 8, 5, 6, 4, 3, 2, 1});
}

TEST_CASE("atomics from every thread of several blocks add up", "[emulator][memory]") {
  std::string ptx = kernel(".param .u64 k_acc",
                           "\tld.param.u64 %rd1, [k_acc];\n"
                           "\tatom.global.add.f32 %f1, [%rd1], 0f3F800000;\n"
                           "\tatom.relaxed.gpu.global.add.u32 %r1, [%rd1+4], 1;\n"
                           "\tmov.u32 %r2, %tid.x;\n\tatom.global.max.s32 %r3, [%rd1+8], %r2;\n"
                           "\tred.global.add.u64 [%rd1+16], 3;\n"
                           "\tatom.global.add.f64 %fd1, [%rd1+24], 0d3FE0000000000000;\n"
                           "\tatom.global.cas.b32 %r4, [%rd1+32], 0, %r2;\n"
                           "\tatom.global.exch.b32 %r5, [%rd1+36], %r2;\n");
  std::vector<uint32_t> acc(10, 0);
  EmuResult r = emulate(PtxModule::parse(ptx), "k", {3, 1, 1}, {96, 1, 1}, {EmuArg::buf(0)}, {bytesOf(acc)});
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(bitsf32(acc[0]) == 288.0f);
  CHECK(acc[1] == 288);
  CHECK(acc[2] == 95);
  CHECK((acc[4] | uint64_t(acc[5]) << 32) == 3 * 288);
  CHECK(std::bit_cast<double>(acc[6] | uint64_t(acc[7]) << 32) == 144.0);
  CHECK(acc[8] == 1);  // threads run one at a time, in order: thread 0 swaps 0 for 0, thread 1 0 for 1
  CHECK(acc[9] == 95);
}

TEST_CASE("vprintf prints what CUDA's printf would, in a deterministic order", "[emulator][printf]") {
  // As llc-19 writes a printf: the arguments in a .local depot (a naturally aligned struct), the
  // format in .global data, the call in a { .param ... call.uni } sequence.
  std::string fmt = "t%d v=%g x=%lld %s %u [%6.3f] %c%%\n";
  std::string init;
  for (char c : fmt) init += std::to_string(static_cast<int>(c)) + ", ";
  std::string ptx =
      ".version 8.0\n.target sm_90a\n.address_size 64\n"
      ".extern .func  (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n"
      "\t.param .b64 vprintf_param_1\n)\n;\n"
      ".global .align 1 .b8 fmt[" + std::to_string(fmt.size() + 1) + "] = {" + init + "0};\n"
      ".global .align 1 .b8 s[4] = {97, 98, 99};\n"
      ".visible .entry k(\n\t.param .f32 k_param_1,\n\t.param .u64 k_param_2\n)\n{\n"
      "\t.local .align 8 .b8 \t__local_depot0[56];\n\t.reg .b64 \t%SP;\n\t.reg .b64 \t%SPL;\n"
      "\t.reg .b32 \t%r<4>;\n\t.reg .f32 \t%f<2>;\n\t.reg .b64 \t%rd<14>;\n\t.reg .f64 \t%fd<2>;\n\n"
      "\tmov.u64 \t%SPL, __local_depot0;\n\tcvta.local.u64 \t%SP, %SPL;\n\tmov.u32 \t%r1, %tid.x;\n"
      "\tld.param.f32 \t%f1, [k_param_1];\n\tld.param.u64 \t%rd1, [k_param_2];\n\tadd.u64 \t%rd2, %SP, 0;\n"
      "\tadd.u64 \t%rd3, %SPL, 0;\n\tcvt.f64.f32 \t%fd1, %f1;\n\tst.local.u32 \t[%rd3], %r1;\n"
      "\tst.local.f64 \t[%rd3+8], %fd1;\n\tst.local.u64 \t[%rd3+16], %rd1;\n\tmov.u64 \t%rd4, s;\n"
      "\tcvta.global.u64 \t%rd5, %rd4;\n\tst.local.u64 \t[%rd3+24], %rd5;\n"
      "\tst.local.u32 \t[%rd3+32], 7;\n\tst.local.f64 \t[%rd3+40], %fd1;\n\tst.local.u32 \t[%rd3+48], 65;\n"
      "\tmov.u64 \t%rd6, fmt;\n\tcvta.global.u64 \t%rd7, %rd6;\n"
      "\t{ // callseq 0, 0\n\t.param .b64 param0;\n\tst.param.b64 \t[param0+0], %rd7;\n\t.param .b64 param1;\n"
      "\tst.param.b64 \t[param1+0], %rd2;\n\t.param .b32 retval0;\n\tcall.uni (retval0), \n\tvprintf, \n\t(\n"
      "\tparam0, \n\tparam1\n\t);\n\tld.param.b32 \t%r2, [retval0+0];\n\t} // callseq 0\n\tret;\n}\n";
  EmuResult r = emulate(PtxModule::parse(ptx), "k", {2, 1, 1}, {2, 1, 1}, {EmuArg::f32(0.75f), EmuArg::scalar(-5)}, {});
  INFO(r.error);
  REQUIRE(r.ok());
  std::string line = " v=0.75 x=-5 abc 7 [ 0.750] A%\n";
  CHECK(r.printed == "t0" + line + "t1" + line + "t0" + line + "t1" + line);
  // With a 48-byte depot, vprintf's read of the %c argument at offset 48 is out of bounds.
  std::string small = ptx;
  small.replace(small.find("__local_depot0[56]"), 18, "__local_depot0[48]");
  std::string charStore = "\tst.local.u32 \t[%rd3+48], 65;\n";
  small.erase(small.find(charStore), charStore.size());
  std::string err = failure(small, {}, {}, {EmuArg::f32(0.75f), EmuArg::scalar(-5)}, {});
  CHECK(err == "out-of-bounds call.uni of 4 bytes at 0x2000030 (offset 48 in local memory of 48 bytes) (line " +
                   std::to_string(lineOf(small, "call.uni")) + ", block (0,0,0), thread 0)");
}

TEST_CASE("__assertfail stops the launch with the message", "[emulator][printf]") {
  std::string ptx =
      ".version 8.0\n.target sm_90a\n.address_size 64\n"
      ".extern .func __assertfail\n(\n\t.param .b64 a0,\n\t.param .b64 a1,\n\t.param .b32 a2,\n\t.param .b64 a3,\n"
      "\t.param .b64 a4\n)\n;\n"
      ".global .align 1 .b8 msg[8] = {102, 97, 105, 108, 101, 100, 33};\n"
      ".global .align 1 .b8 file[4] = {102, 46, 99};\n.global .align 1 .b8 fn[2] = {107};\n"
      ".visible .entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<14>;\n"
      "\tmov.u32 %r1, %tid.x;\n\tsetp.ne.s32 %p1, %r1, 5;\n\t@%p1 bra $L__BB0_2;\n"
      "\tmov.u64 %rd8, msg;\n\tcvta.global.u64 %rd9, %rd8;\n\tmov.u64 %rd10, file;\n\tcvta.global.u64 %rd11, %rd10;\n"
      "\tmov.u64 %rd12, fn;\n\tcvta.global.u64 %rd13, %rd12;\n"
      "\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0+0], %rd9;\n\t.param .b64 param1;\n"
      "\tst.param.b64 [param1+0], %rd11;\n\t.param .b32 param2;\n\tst.param.b32 [param2+0], 7;\n"
      "\t.param .b64 param3;\n\tst.param.b64 [param3+0], %rd13;\n\t.param .b64 param4;\n"
      "\tst.param.b64 [param4+0], 1;\n\tcall.uni \n\t__assertfail, \n\t(\n\tparam0, \n\tparam1, \n\tparam2, \n"
      "\tparam3, \n\tparam4\n\t);\n\t}\n$L__BB0_2:\n\tret;\n}\n";
  EmuResult r = emulate(PtxModule::parse(ptx), "k", {}, {32, 1, 1}, {}, {});
  CHECK(r.error.rfind("device assertion failed: failed! (f.c:7 in k; line " + std::to_string(lineOf(ptx, "call.uni")) +
                          ", block (0,0,0), thread 5)",
                      0) == 0);
}

//===--- Errors -------------------------------------------------------------===//

TEST_CASE("an out-of-bounds store names the instruction, line, address, block and thread", "[emulator][errors]") {
  std::string ptx = kernel(".param .u64 k_out",
                           "\tld.param.u64 %rd1, [k_out];\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n"
                           "\tmad.lo.s32 %r3, %r2, 32, %r1;\n\tmul.wide.u32 %rd2, %r3, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
                           "\tst.global.f32 [%rd3], 0f3F800000;\n");
  std::vector<float> out(32 + 3);
  std::string err = failure(ptx, {2, 1, 1}, {32, 1, 1}, {EmuArg::buf(0)}, {bytesOf(out)});
  CHECK(err == "out-of-bounds st.global.f32 of 4 bytes at 0x100000008c (offset 140 in buffer 0 of 140 bytes) (line " +
                   std::to_string(lineOf(ptx, "st.global.f32")) + ", block (1,0,0), thread 3)");
  // The blocks before the failing one ran: the buffer holds their writes.
  CHECK(out[34] == 1.0f);
}

TEST_CASE("a misaligned vector access is an error", "[emulator][errors]") {
  std::string ptx = kernel(".param .u64 k_in", "\tld.param.u64 %rd1, [k_in];\n\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+4];\n");
  std::vector<float> in(16);
  std::string err = failure(ptx, {}, {}, {EmuArg::buf(0)}, {bytesOf(in)});
  CHECK(err.rfind("misaligned ld.global.v4.f32 of 16 bytes at 0x1000000004", 0) == 0);
}

TEST_CASE("an access through the wrong state space, or a write to read-only memory, is an error", "[emulator][errors]") {
  std::string ptx = kernel(".param .u64 k_in", "\tld.param.u64 %rd1, [k_in];\n\tld.shared.f32 %f1, [%rd1];\n",
                           ".shared .align 4 .b8 smem[64];\n");
  std::vector<float> in(4);
  CHECK(failure(ptx, {}, {}, {EmuArg::buf(0)}, {bytesOf(in)}) ==
        "wrong-space (not shared memory) ld.shared.f32 of 4 bytes at 0x1000000000 (offset 0 in buffer 0 of 16 bytes) (line " +
            std::to_string(lineOf(ptx, "ld.shared")) + ", block (0,0,0), thread 0)");
  std::string constant = kernel("", "\tmov.u64 %rd1, table;\n\tld.const.f32 %f1, [table+4];\n\tst.f32 [%rd1], %f1;\n",
                                ".const .align 4 .f32 table[2] = {0f3F800000, 0f40000000};\n");
  CHECK(failure(constant, {}, {}, {}, {}).rfind("read-only (const memory) st.f32 of 4 bytes at 0x8000000 (offset 0 in "
                                                "module .const data of 8 bytes)",
                                                0) == 0);
}

TEST_CASE("a barrier not reached by every thread is a deadlock", "[emulator][errors]") {
  std::string ptx = kernel("", "\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 64;\n\t@%p1 bra $L_skip;\n"
                               "\tbar.sync 0;\n\tbar.sync 1;\n$L_skip:\n\tbar.sync 1;\n");
  std::string err = failure(ptx, {}, {128, 1, 1}, {}, {});
  int first = lineOf(ptx, "bar.sync 0;");
  CHECK(err == "deadlock at a barrier not reached by every thread in block (0,0,0): threads 64-127 wait at bar.sync "
               "(line " + std::to_string(first) + "); threads 0-63 wait at bar.sync (line " + std::to_string(first + 3) +
               "); barrier 0 has 64 of 128 threads; barrier 1 has 64 of 128 threads");
  // Threads that exit before a barrier are not waited for.
  std::string early = kernel(".param .u64 k_out", "\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 64;\n\t@%p1 ret;\n"
                                                  "\tbar.sync 0;\n");
  std::vector<uint8_t> none;
  CHECK(emulate(PtxModule::parse(early), "k", {}, {128, 1, 1}, {EmuArg::buf(0)}, {std::span<uint8_t>(none)}).ok());
}

TEST_CASE("a shfl whose warp does not converge is an error", "[emulator][errors]") {
  std::string ptx = kernel("", "\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 16;\n\t@%p1 bra $L_other;\n"
                               "\tshfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;\n\tret;\n"
                               "$L_other:\n\tbar.sync 0;\n");
  std::string err = failure(ptx, {}, {32, 1, 1}, {}, {});
  CHECK(err.rfind("deadlock (a warp-synchronous instruction whose warp does not converge) in block (0,0,0): "
                  "threads 16-31 wait at shfl.sync.bfly.b32",
                  0) == 0);
  // A lane that its own member mask leaves out.
  std::string mask = kernel("", "\tmov.u32 %r1, %tid.x;\n\tshfl.sync.bfly.b32 %r2, %r1, 1, 31, 0xffff;\n");
  CHECK(failure(mask, {}, {32, 1, 1}, {}, {}).rfind("shfl.sync.bfly.b32 in a lane (16) that its member mask 0xffff leaves out", 0) == 0);
}

TEST_CASE("an endless loop runs out of its instruction budget", "[emulator][errors]") {
  std::string ptx = kernel("", "$L_spin:\n\tadd.s32 %r1, %r1, 1;\n\tbra $L_spin;\n");
  EmuOptions opts;
  opts.maxInstructionsPerThread = 10000;
  std::string err = failure(ptx, {}, {4, 1, 1}, {}, {}, opts);
  CHECK(err.rfind("instruction budget of 10000 per thread exceeded at ", 0) == 0);
  CHECK(err.find("block (0,0,0), thread 0)") != std::string::npos);
}

TEST_CASE("launches that do not fit the kernel are refused", "[emulator][errors]") {
  std::string ptx = kernel(".param .u64 k_a, .param .u32 k_n", "");
  PtxModule m = PtxModule::parse(ptx);
  std::vector<float> buf(4);
  CHECK(emulate(m, "k", {}, {}, {EmuArg::buf(0)}, {bytesOf(buf)}).error == "kernel k takes 2 parameters, 1 arguments given");
  CHECK(emulate(m, "k", {}, {}, {EmuArg::buf(0), EmuArg::buf(0)}, {bytesOf(buf)}).error ==
        "argument 1 of k (k_n, 4 bytes) is a buffer; a pointer parameter has 8 bytes");
  CHECK(emulate(m, "k", {}, {}, {EmuArg::buf(3), EmuArg::scalar(1)}, {bytesOf(buf)}).error ==
        "argument 0 of k (k_a, 8 bytes) is buffer 3, but there are 1 buffers");
  CHECK(emulate(m, "nope", {}, {}, {}, {}).error == "no kernel 'nope' in the module (its kernels: k)");
  CHECK(emulate(m, "k", {}, {2048, 1, 1}, {EmuArg::buf(0), EmuArg::scalar(1)}, {bytesOf(buf)}).error ==
        "block (2048,1,1) has more than 1024 threads (or z > 64)");
  std::string limited = corpusPtx("softmax_f32_128.ptx");
  std::vector<float> x(4);
  CHECK(emulate(PtxModule::parse(limited), "softmax", {}, {256, 1, 1},
                {EmuArg::buf(0), EmuArg::buf(0), EmuArg::scalar(1), EmuArg::scalar(1)}, {bytesOf(x)})
            .error == "block (256,1,1) exceeds .maxntid 128,1,1 of softmax");
}

//===--- Corpus kernels -----------------------------------------------------===//

TEST_CASE("corpus: vector_add with a masked tail", "[emulator][corpus]") {
  // BLOCK = 1024 elements per program, 128 threads each loading two v4 vectors, masked by the
  // first element of each: the manifest specializes n as divisible by 16.
  PtxModule m = PtxModule::parse(corpusPtx("vector_add_1024_aligned.ptx"));
  const int n = 2 * 1024 + 784;
  std::vector<float> x(n), y(n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-100, 100);
  for (int i = 0; i < n; ++i) {
    x[i] = dist(rng);
    y[i] = dist(rng);
  }
  // The output has room for the whole last block: the mask must keep the kernel off the rest.
  std::vector<float> out(3 * 1024, -7.0f);
  EmuResult r = emulate(m, "vector_add", {3, 1, 1}, {128, 1, 1},
                        {EmuArg::buf(0), EmuArg::buf(1), EmuArg::buf(2), EmuArg::scalar(n)},
                        {bytesOf(x), bytesOf(y), bytesOf(out)});
  INFO(r.error);
  REQUIRE(r.ok());
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == x[i] + y[i]);
  for (size_t i = n; i < out.size(); ++i) REQUIRE(out[i] == -7.0f);
  // An n that breaks the divisibility the kernel was specialized for: the v4 access straddling
  // the end of x is caught.
  std::vector<float> x2(n - 3), y2(n - 3), out2(n - 3);
  r = emulate(m, "vector_add", {3, 1, 1}, {128, 1, 1},
              {EmuArg::buf(0), EmuArg::buf(1), EmuArg::buf(2), EmuArg::scalar(n - 3)},
              {bytesOf(x2), bytesOf(y2), bytesOf(out2)});
  CHECK(r.error.rfind("out-of-bounds ld.global.v4.b32 of 16 bytes at 0x1000002c30 (offset 11312 in buffer 0 of 11316 bytes)",
                      0) == 0);
}

TEST_CASE("corpus: softmax over rows", "[emulator][corpus]") {
  PtxModule m = PtxModule::parse(corpusPtx("softmax_f32_128.ptx"));
  const int rows = 48, stride = 130;
  for (int nCols : {128, 100, 1}) {
    std::vector<float> x(rows * stride), y(rows * stride, -1.0f);
    std::mt19937 rng(nCols);
    std::uniform_real_distribution<float> dist(-20, 20);
    for (float &v : x) v = dist(rng);
    EmuResult r = emulate(m, "softmax", {rows, 1, 1}, {128, 1, 1},
                          {EmuArg::buf(0), EmuArg::buf(1), EmuArg::scalar(nCols), EmuArg::scalar(stride)},
                          {bytesOf(x), bytesOf(y)});
    INFO(r.error);
    REQUIRE(r.ok());
    for (int row = 0; row < rows; ++row) {
      const float *in = &x[row * stride];
      double mx = *std::max_element(in, in + nCols), sum = 0;
      for (int c = 0; c < nCols; ++c) sum += std::exp(double(in[c]) - mx);
      for (int c = 0; c < stride; ++c) {
        float got = y[row * stride + c];
        if (c >= nCols) {
          REQUIRE(got == -1.0f);  // masked: untouched
          continue;
        }
        double want = std::exp(double(in[c]) - mx) / sum;
        REQUIRE(std::fabs(got - want) <= 1e-6 * want + 1e-9);
      }
    }
  }
}

TEST_CASE("corpus: argmax and max over rows, first index on ties", "[emulator][corpus]") {
  PtxModule m = PtxModule::parse(corpusPtx("row_argmax_128.ptx"));
  const int rows = 40, stride = 128;
  for (int nCols : {128, 77}) {
    std::vector<float> x(rows * stride);
    std::mt19937 rng(nCols);
    std::uniform_int_distribution<int> dist(-50, 50);
    for (float &v : x) v = static_cast<float>(dist(rng)) / 4;  // many ties
    x[3 * stride + 5] = -INFINITY;
    for (int c = 0; c < nCols; ++c) x[7 * stride + c] = 1.5f;  // all equal: index 0
    x[9 * stride + nCols - 1] = 1e6f;                           // the last column
    std::vector<int32_t> index(rows, -1);
    std::vector<float> value(rows, -1.0f);
    EmuResult r = emulate(m, "row_argmax", {rows, 1, 1}, {128, 1, 1},
                          {EmuArg::buf(0), EmuArg::buf(1), EmuArg::buf(2), EmuArg::scalar(nCols), EmuArg::scalar(stride)},
                          {bytesOf(x), bytesOf(index), bytesOf(value)});
    INFO(r.error);
    REQUIRE(r.ok());
    for (int row = 0; row < rows; ++row) {
      const float *in = &x[row * stride];
      int best = 0;
      for (int c = 1; c < nCols; ++c)
        if (in[c] > in[best]) best = c;
      INFO("row " << row);
      CHECK(index[row] == best);
      CHECK(value[row] == in[best]);
    }
  }
}
