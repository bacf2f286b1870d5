// The carry-chain instructions (add.cc, addc, sub.cc, subc, mad.cc, madc) and libdevice's sin/cos,
// whose Payne-Hanek argument reduction is built from them.
//
// The ISA's CC.CF is one flag per thread: the .cc forms write it, addc/subc/madc read it. add.cc and
// mad.cc write the carry out of their addition, sub.cc and subc.cc the borrow out (subc computes
// a - (b + CC.CF)). Signed and unsigned types give the same bits; mad.hi takes the high half of the
// signed product for .s32/.s64. Each snippet below starts by setting the flag itself, so none depends
// on the one before; "addc %r1, 0, 0" reads the flag.

#include "runtime/Emulator.h"

#include "EmulatorHelpers.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace twintile::runtime;
using namespace twintile::test;

namespace {

struct CarryCase {
  const char *ptx;  // leaves its result in %r1 (32-bit cases) or %rd1 (64-bit cases)
  uint64_t want;
};

void checkCarry32(const std::vector<CarryCase> &cases) {
  std::string body;
  for (size_t i = 0; i < cases.size(); ++i)
    body += std::string("\t") + cases[i].ptx + "\n\tst.global.u32 [%rd0+" + std::to_string(4 * i) + "], %r1;\n";
  std::vector<uint32_t> out = results32(body, cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO(cases[i].ptx);
    CHECK(out[i] == static_cast<uint32_t>(cases[i].want));
  }
}

void checkCarry64(const std::vector<CarryCase> &cases) {
  std::string body;
  for (size_t i = 0; i < cases.size(); ++i)
    body += std::string("\t") + cases[i].ptx + "\n\tst.global.u64 [%rd0+" + std::to_string(8 * i) + "], %rd1;\n";
  std::vector<uint64_t> out = results64(body, cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO(cases[i].ptx);
    CHECK(out[i] == cases[i].want);
  }
}

} // namespace

TEST_CASE("add.cc and addc carry out of 32 bits, and only the .cc forms write the flag", "[emulator][int][carry]") {
  checkCarry32({
      {"add.cc.u32 %r2, -1, 1; addc.u32 %r1, 0, 0;", 1},
      {"add.cc.u32 %r1, -1, 1;", 0},
      {"add.cc.u32 %r2, 2147483647, 1; addc.u32 %r1, 0, 0;", 0},  // a signed overflow is no carry
      {"add.cc.s32 %r2, -1, -1; addc.s32 %r1, 0, 0;", 1},         // .s32: the same bits as .u32
      {"add.cc.s32 %r1, -1, -1;", 0xfffffffe},
      {"add.cc.u32 %r2, -1, 1; addc.u32 %r1, 5, 7;", 13},
      {"add.cc.u32 %r2, 1, 1; addc.u32 %r1, 5, 7;", 12},
      // 0xffffffff + 0 + CF carries on through addc.cc.
      {"add.cc.u32 %r2, -1, 1; addc.cc.u32 %r2, -1, 0; addc.u32 %r1, 5, 0;", 6},
      {"add.cc.u32 %r2, -1, 1; addc.cc.u32 %r1, -1, -1;", 0xffffffff},
      {"add.cc.u32 %r2, -1, 1; addc.cc.u32 %r2, -1, -1; addc.u32 %r1, 0, 0;", 1},
      {"add.cc.u32 %r2, 1, 1; addc.cc.u32 %r2, -1, -1; addc.u32 %r1, 0, 0;", 1},
      {"add.cc.u32 %r2, 1, 1; addc.cc.u32 %r2, -1, 0; addc.u32 %r1, 0, 0;", 0},
      // addc without .cc, plain add/sub/mad/mul: the flag stays as it was.
      {"add.cc.u32 %r2, 1, 1; addc.u32 %r3, -1, 1; addc.u32 %r1, 0, 0;", 0},
      {"add.cc.u32 %r2, -1, 1; addc.u32 %r3, 0, 0; addc.u32 %r1, 0, 0;", 1},
      {"add.cc.u32 %r2, -1, 1; add.u32 %r3, 1, 1; sub.u32 %r3, 0, 1; addc.u32 %r1, 0, 0;", 1},
      {"add.cc.u32 %r2, 1, 1; add.u32 %r3, -1, 1; sub.u32 %r3, 0, 1; addc.u32 %r1, 0, 0;", 0},
      {"add.cc.u32 %r2, 1, 1; mad.lo.u32 %r3, -1, -1, -1; mul.hi.u32 %r3, -1, -1; addc.u32 %r1, 0, 0;", 0},
      // A predicated-off add.cc writes nothing.
      {"setp.eq.u32 %p1, 0, 1; add.cc.u32 %r2, 1, 1; @%p1 add.cc.u32 %r2, -1, 1; addc.u32 %r1, 0, 0;", 0},
      {"setp.eq.u32 %p1, 0, 0; add.cc.u32 %r2, 1, 1; @%p1 add.cc.u32 %r2, -1, 1; addc.u32 %r1, 0, 0;", 1},
  });
}

TEST_CASE("sub.cc and subc borrow: CC.CF holds the borrow and subc subtracts it", "[emulator][int][carry]") {
  checkCarry32({
      {"sub.cc.u32 %r2, 0, 1; addc.u32 %r1, 0, 0;", 1},
      {"sub.cc.u32 %r1, 0, 1;", 0xffffffff},
      {"sub.cc.u32 %r2, 5, 3; addc.u32 %r1, 0, 0;", 0},
      {"sub.cc.u32 %r2, 3, 3; addc.u32 %r1, 0, 0;", 0},                   // equal: no borrow
      {"sub.cc.s32 %r2, -2147483648, 1; addc.u32 %r1, 0, 0;", 0},         // a signed overflow is no borrow
      {"sub.cc.s32 %r2, 1, 2; addc.u32 %r1, 0, 0;", 1},
      {"sub.cc.u32 %r2, 0, 1; subc.u32 %r1, 10, 3;", 6},
      {"sub.cc.u32 %r2, 1, 0; subc.u32 %r1, 10, 3;", 7},
      // b + CF = 2^32: the difference is a itself, and it borrows.
      {"sub.cc.u32 %r2, 0, 1; subc.cc.u32 %r1, 5, -1;", 5},
      {"sub.cc.u32 %r2, 0, 1; subc.cc.u32 %r2, 5, -1; addc.u32 %r1, 0, 0;", 1},
      {"sub.cc.u32 %r2, 0, 1; subc.cc.u32 %r1, 7, 7;", 0xffffffff},
      {"sub.cc.u32 %r2, 0, 1; subc.cc.u32 %r2, 7, 7; addc.u32 %r1, 0, 0;", 1},
      {"sub.cc.u32 %r2, 1, 0; subc.cc.u32 %r2, 7, 7; addc.u32 %r1, 0, 0;", 0},
      {"sub.cc.u32 %r2, 0, 1; subc.cc.u32 %r2, 8, 7; addc.u32 %r1, 0, 0;", 0},
      {"sub.cc.s32 %r2, 0, 1; subc.s32 %r1, -5, -7;", 1},
      // subc without .cc leaves the flag.
      {"sub.cc.u32 %r2, 1, 0; subc.u32 %r3, 0, 1; addc.u32 %r1, 0, 0;", 0},
      // One flag: add.cc's carry is subc's borrow, sub.cc's borrow is addc's carry.
      {"add.cc.u32 %r2, -1, 1; subc.u32 %r1, 10, 3;", 6},
      {"sub.cc.u32 %r2, 0, 1; addc.u32 %r1, 10, 3;", 14},
      // 2^96 - 1 and 2^96 - 1 + 1 in 32-bit limbs (the top limbs).
      {"sub.cc.u32 %r2, 0, 1; subc.cc.u32 %r2, 0, 0; subc.cc.u32 %r3, 0, 0; subc.u32 %r1, 1, 0;", 0},
      {"add.cc.u32 %r2, -1, 1; addc.cc.u32 %r2, -1, 0; addc.cc.u32 %r3, -1, 0; addc.u32 %r1, 0, 0;", 1},
  });
}

TEST_CASE("mad.cc and madc add a half of the product, a carry in and carry out of the sum only",
          "[emulator][int][carry]") {
  checkCarry32({
      // The product's own overflow is discarded, and mad.cc does not read the flag.
      {"add.cc.u32 %r2, -1, 1; mad.lo.cc.u32 %r1, 65536, 65536, 5;", 5},
      {"add.cc.u32 %r2, -1, 1; mad.lo.cc.u32 %r2, 65536, 65536, 5; addc.u32 %r1, 0, 0;", 0},
      // 0xffffffff^2 = 0xfffffffe_00000001.
      {"mad.lo.cc.u32 %r1, -1, -1, -1;", 0},
      {"mad.lo.cc.u32 %r2, -1, -1, -1; addc.u32 %r1, 0, 0;", 1},
      {"mad.lo.cc.u32 %r2, -1, -1, -3; addc.u32 %r1, 0, 0;", 0},
      {"mad.hi.cc.u32 %r1, -1, -1, 1;", 0xffffffff},
      {"mad.hi.cc.u32 %r2, -1, -1, 1; addc.u32 %r1, 0, 0;", 0},
      {"mad.hi.cc.u32 %r2, -1, -1, 2; addc.u32 %r1, 0, 0;", 1},
      // .s32: the high half of the signed product (-1 * 1 = 0xffffffff_ffffffff; unsigned: 0).
      {"mad.hi.cc.s32 %r2, -1, 1, 1; addc.u32 %r1, 0, 0;", 1},
      {"mad.hi.cc.u32 %r2, -1, 1, 1; addc.u32 %r1, 0, 0;", 0},
      {"mad.hi.cc.s32 %r1, -3, 5, 7;", 6},
      {"mad.lo.cc.s32 %r1, -3, 5, 7;", static_cast<uint32_t>(-8)},
      {"add.cc.u32 %r2, -1, 1; madc.lo.u32 %r1, 3, 4, 5;", 18},
      {"add.cc.u32 %r2, 1, 1; madc.lo.u32 %r1, 3, 4, 5;", 17},
      {"add.cc.u32 %r2, -1, 1; madc.hi.cc.u32 %r1, -1, -1, 1;", 0},
      {"add.cc.u32 %r2, -1, 1; madc.hi.cc.u32 %r2, -1, -1, 1; addc.u32 %r1, 0, 0;", 1},
      {"add.cc.u32 %r2, 1, 1; madc.hi.cc.u32 %r2, -1, -1, 1; addc.u32 %r1, 0, 0;", 0},
      {"add.cc.u32 %r2, -1, 1; madc.lo.cc.u32 %r2, -1, -1, -2; addc.u32 %r1, 0, 0;", 1},
      {"add.cc.u32 %r2, 1, 1; madc.lo.cc.u32 %r2, -1, -1, -2; addc.u32 %r1, 0, 0;", 0},
      // madc without .cc leaves the flag, whether or not its own sum wraps.
      {"add.cc.u32 %r2, -1, 1; madc.hi.u32 %r2, -1, -1, 0; addc.u32 %r1, 0, 0;", 1},
      {"add.cc.u32 %r2, 1, 1; madc.hi.u32 %r2, -1, -1, 2; addc.u32 %r1, 0, 0;", 0},
      {"add.cc.u32 %r2, -1, 1; madc.hi.s32 %r1, -3, 5, 7;", 7},
  });
}

TEST_CASE("64-bit carries, and one flag for both widths", "[emulator][int][carry]") {
  const uint64_t ones = ~uint64_t(0);
  checkCarry64({
      {"add.cc.u64 %rd2, -1, 1; addc.u64 %rd1, 0, 0;", 1},
      {"add.cc.u64 %rd1, -1, 1;", 0},
      {"add.cc.s64 %rd2, 9223372036854775807, 1; addc.s64 %rd1, 0, 0;", 0},
      {"add.cc.u64 %rd2, -1, 1; addc.cc.u64 %rd1, 1, 2;", 4},
      {"add.cc.u64 %rd2, -1, 1; addc.cc.u64 %rd2, -1, 0; addc.u64 %rd1, 0, 0;", 1},
      // (2^64 + 5) - 7.
      {"sub.cc.u64 %rd1, 5, 7;", ones - 1},
      {"sub.cc.u64 %rd2, 5, 7; subc.u64 %rd1, 1, 0;", 0},
      {"sub.cc.s64 %rd2, 5, 7; subc.cc.s64 %rd2, 0, 0; addc.u64 %rd1, 0, 0;", 1},
      {"sub.cc.s64 %rd2, 7, 5; subc.cc.s64 %rd1, 0, 0;", 0},
      // 0xffff..ff^2 = 0xffff..fe_0000..01.
      {"mad.lo.cc.u64 %rd1, -1, -1, -1;", 0},
      {"mad.lo.cc.u64 %rd2, -1, -1, -1; madc.hi.u64 %rd1, -1, -1, 0;", ones},
      {"mad.lo.cc.u64 %rd2, -1, -1, 1; madc.hi.u64 %rd1, -1, -1, 0;", ones - 1},
      {"mad.hi.cc.s64 %rd2, -1, 1, 1; addc.u64 %rd1, 0, 0;", 1},
      {"mad.hi.cc.u64 %rd2, -1, 1, 1; addc.u64 %rd1, 0, 0;", 0},
      {"mad.hi.cc.s64 %rd1, -3, 5, 7;", 6},
      {"add.cc.u64 %rd2, -1, 1; madc.lo.cc.s64 %rd1, -3, 5, 20;", 6},
      {"add.cc.u64 %rd2, -1, 1; madc.lo.cc.s64 %rd2, -3, 5, 20; addc.u64 %rd1, 0, 0;", 1},
      {"add.cc.u64 %rd2, -1, 1; madc.hi.s64 %rd1, -3, 5, 7;", 7},
      {"add.cc.u32 %r2, -1, 1; addc.u64 %rd1, 0, 0;", 1},
      {"add.cc.u64 %rd2, -1, 1; addc.u32 %r2, 0, 0; cvt.u64.u32 %rd1, %r2;", 1},
      {"sub.cc.u32 %r2, 0, 1; subc.u64 %rd1, 0, 0;", ones},
  });
}

TEST_CASE("extended precision: 64x64-bit products and 128-bit sums in 32-bit limbs", "[emulator][int][carry]") {
  // Each thread reads a, b, c; writes a * b (the ISA's madc example, 4 limbs), a + b + c and a - b - c
  // in 128 bits (4 limbs each), and the signed and unsigned a * b + c through mad.lo.cc.u64/madc.hi.
  std::string ptx = kernel(
      ".param .u64 k_in, .param .u64 k_out",
      "\tld.param.u64 %rd1, [k_in];\n\tld.param.u64 %rd2, [k_out];\n\tmov.u32 %r40, %tid.x;\n"
      "\tmul.wide.u32 %rd3, %r40, 24;\n\tadd.s64 %rd3, %rd1, %rd3;\n"
      "\tld.global.u64 %rd4, [%rd3];\n\tld.global.u64 %rd5, [%rd3+8];\n\tld.global.u64 %rd6, [%rd3+16];\n"
      "\tmul.wide.u32 %rd7, %r40, 160;\n\tadd.s64 %rd7, %rd2, %rd7;\n"
      "\tmov.b64 {%r4, %r5}, %rd4;\n\tmov.b64 {%r6, %r7}, %rd5;\n\tmov.b64 {%r8, %r9}, %rd6;\n"
      // [r3, r2, r1, r0] = [r5, r4] * [r7, r6]
      "\tmul.lo.u32 %r0, %r4, %r6;\n\tmul.hi.u32 %r1, %r4, %r6;\n"
      "\tmad.lo.cc.u32 %r1, %r5, %r6, %r1;\n\tmadc.hi.u32 %r2, %r5, %r6, 0;\n"
      "\tmad.lo.cc.u32 %r1, %r4, %r7, %r1;\n\tmadc.hi.cc.u32 %r2, %r4, %r7, %r2;\n\taddc.u32 %r3, 0, 0;\n"
      "\tmad.lo.cc.u32 %r2, %r5, %r7, %r2;\n\tmadc.hi.u32 %r3, %r5, %r7, %r3;\n"
      "\tst.global.v4.u32 [%rd7], {%r0, %r1, %r2, %r3};\n"
      // a + b + c
      "\tadd.cc.u32 %r10, %r4, %r6;\n\taddc.cc.u32 %r11, %r5, %r7;\n\taddc.cc.u32 %r12, 0, 0;\n\taddc.u32 %r13, 0, 0;\n"
      "\tadd.cc.u32 %r10, %r10, %r8;\n\taddc.cc.u32 %r11, %r11, %r9;\n\taddc.cc.u32 %r12, %r12, 0;\n"
      "\taddc.u32 %r13, %r13, 0;\n\tst.global.v4.u32 [%rd7+16], {%r10, %r11, %r12, %r13};\n"
      // a - b - c
      "\tsub.cc.u32 %r10, %r4, %r6;\n\tsubc.cc.u32 %r11, %r5, %r7;\n\tsubc.cc.u32 %r12, 0, 0;\n\tsubc.u32 %r13, 0, 0;\n"
      "\tsub.cc.u32 %r10, %r10, %r8;\n\tsubc.cc.u32 %r11, %r11, %r9;\n\tsubc.cc.u32 %r12, %r12, 0;\n"
      "\tsubc.u32 %r13, %r13, 0;\n\tst.global.v4.u32 [%rd7+32], {%r10, %r11, %r12, %r13};\n"
      // a * b + c, unsigned and signed, in 64-bit limbs
      "\tmad.lo.cc.u64 %rd8, %rd4, %rd5, %rd6;\n\tmadc.hi.u64 %rd9, %rd4, %rd5, 0;\n"
      "\tst.global.v2.u64 [%rd7+48], {%rd8, %rd9};\n"
      "\tmad.lo.cc.s64 %rd8, %rd4, %rd5, %rd6;\n\tmadc.hi.s64 %rd9, %rd4, %rd5, 0;\n"
      "\tst.global.v2.u64 [%rd7+64], {%rd8, %rd9};\n");
  using u128 = unsigned __int128;
  std::vector<uint64_t> special = {0, 1, 2, 0xffffffffull, 0x100000000ull, 0x7fffffffffffffffull,
                                   0x8000000000000000ull, ~uint64_t(0), ~uint64_t(0) - 1};
  std::vector<uint64_t> in;
  std::mt19937_64 rng(42);
  for (uint64_t a : special)
    for (uint64_t b : special) in.insert(in.end(), {a, b, special[(a + b) % special.size()]});
  while (in.size() < 3 * 128) in.insert(in.end(), {rng(), rng(), rng() >> (rng() % 64)});
  size_t n = in.size() / 3;
  std::vector<uint64_t> out(n * 20, 0);
  EmuResult r = emulate(PtxModule::parse(ptx), "k", {}, {static_cast<uint32_t>(n), 1, 1},
                        {EmuArg::buf(0), EmuArg::buf(1)}, {bytesOf(in), bytesOf(out)});
  INFO(r.error);
  REQUIRE(r.ok());
  auto u128At = [&](size_t i) { return static_cast<u128>(out[i]) | static_cast<u128>(out[i + 1]) << 64; };
  for (size_t t = 0; t < n; ++t) {
    uint64_t a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
    INFO("a " << a << " b " << b << " c " << c);
    CHECK(u128At(20 * t) == static_cast<u128>(a) * b);
    CHECK(u128At(20 * t + 2) == static_cast<u128>(a) + b + c);
    CHECK(u128At(20 * t + 4) == static_cast<u128>(a) - b - c);
    CHECK(u128At(20 * t + 6) == static_cast<u128>(a) * b + c);
    u128 signedProduct = static_cast<u128>(static_cast<__int128>(static_cast<int64_t>(a)) * static_cast<int64_t>(b));
    CHECK(u128At(20 * t + 8) == signedProduct + c);
  }
}

TEST_CASE("the carry flag belongs to each thread", "[emulator][int][carry][simt]") {
  // Odd threads set it, even threads clear it, all meet at a barrier, then read it.
  std::string ptx = kernel(".param .u64 k_out",
                           "\tld.param.u64 %rd1, [k_out];\n\tmov.u32 %r1, %tid.x;\n\tand.b32 %r2, %r1, 1;\n"
                           "\tneg.s32 %r3, %r2;\n\tadd.cc.u32 %r4, %r3, 1;\n\tbar.sync 0;\n"
                           "\taddc.u32 %r5, 0, 0;\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
                           "\tst.global.u32 [%rd3], %r5;\n");
  std::vector<uint32_t> out(96, 7);
  EmuResult r = emulate(PtxModule::parse(ptx), "k", {}, {96, 1, 1}, {EmuArg::buf(0)}, {bytesOf(out)});
  INFO(r.error);
  REQUIRE(r.ok());
  for (uint32_t t = 0; t < 96; ++t) CHECK(out[t] == (t & 1));
}

TEST_CASE("the carry forms take .u32 .s32 .u64 .s64, .lo or .hi, and no .sat", "[emulator][parse][carry]") {
  auto errorOf = [](const std::string &instr) -> std::string {
    try {
      PtxModule::parse(kernel("", "\t" + instr + "\n"));
    } catch (const PtxError &e) {
      return e.message;
    }
    return "parsed";
  };
  CHECK(errorOf("add.cc.f32 %f1, %f2, %f3;") == "'add.cc.f32' needs .u32, .s32, .u64 or .s64");
  CHECK(errorOf("addc.u16 %rs1, %rs2, %rs3;") == "'addc.u16' needs .u32, .s32, .u64 or .s64");
  CHECK(errorOf("subc.cc.b32 %r1, %r2, %r3;") == "'subc.cc.b32' needs .u32, .s32, .u64 or .s64");
  CHECK(errorOf("add.cc.sat.s32 %r1, %r2, %r3;") == "'add.cc.sat.s32' takes no .sat, .ftz or rounding");
  CHECK(errorOf("mad.wide.cc.u32 %rd1, %r2, %r3, %rd4;") == "'mad.wide.cc.u32' needs .lo or .hi");
  CHECK(errorOf("madc.u32 %r1, %r2, %r3, %r4;") == "'madc.u32' needs .lo or .hi");
  CHECK(errorOf("madc.hi.cc.u16 %rs1, %rs2, %rs3, %rs4;") == "'madc.hi.cc.u16' needs .u32, .s32, .u64 or .s64");
  CHECK(errorOf("mul.lo.cc.u32 %r1, %r2, %r3;") == "unsupported modifier '.cc' in 'mul.lo.cc.u32'");
  CHECK(errorOf("mad24.lo.cc.u32 %r1, %r2, %r3, %r4;") == "unsupported modifier '.cc' in 'mad24.lo.cc.u32'");
  CHECK(errorOf("madc.lo.cc.s64 %rd1, %rd2, %rd3, %rd4;") == "parsed");
  CHECK(errorOf("subc.s32 %r1, %r2, %r3;") == "parsed");
}

namespace {

/// |got - want| in units in the last place of F at `want`.
template <typename F>
double ulpError(F got, long double want) {
  constexpr int mant = std::numeric_limits<F>::digits - 1;
  constexpr int minExp = std::numeric_limits<F>::min_exponent - 1 - mant;  // of the smallest subnormal
  int e = 0;
  std::frexp(want, &e);
  long double ulp = std::ldexp(1.0L, want == 0 ? minExp : std::max(e - 1 - mant, minExp));
  return static_cast<double>(std::fabs(static_cast<long double>(got) - want) / ulp);
}

/// Arguments for sin and cos: specials, both reduction paths, every exponent.
template <typename F>
std::vector<F> trigArguments() {
  using L = std::numeric_limits<F>;
  std::vector<F> x = {F(0), F(-0.0), L::denorm_min(), -L::denorm_min(), L::min(), F(1e-30), F(0.5), F(1), F(-1),
                      F(1.5707963267948966), F(3.141592653589793), F(-3.141592653589793), F(1e4), F(-1e4),
                      F(105614), F(105615), F(-105616), F(1e6), F(1e10), F(-1e20), F(1e30), F(3e38), L::max(),
                      -L::max()};
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> small(-1e5, 1e5), exponent(std::log2(L::denorm_min()), std::log2(L::max()));
  for (int i = 0; i < 1500; ++i) x.push_back(F(small(rng)));
  for (int i = 0; i < 1500; ++i) x.push_back(F((i % 2 ? -1 : 1) * std::exp2(exponent(rng))));
  return x;
}

template <typename F>
void checkTrig(const PtxModule &m, const char *entry, long double (*ref)(long double)) {
  using L = std::numeric_limits<F>;
  std::vector<F> x = trigArguments<F>();
  std::vector<F> specials = {L::infinity(), -L::infinity(), L::quiet_NaN()};
  x.insert(x.end(), specials.begin(), specials.end());
  std::vector<F> y(x.size(), F(-7));
  uint32_t n = static_cast<uint32_t>(x.size());
  EmuResult r = emulate(m, entry, {(n + 127) / 128, 1, 1}, {128, 1, 1},
                        {EmuArg::buf(0), EmuArg::buf(1), EmuArg::scalar(n)}, {bytesOf(x), bytesOf(y)});
  INFO(entry << ": " << r.error);
  REQUIRE(r.ok());
  for (size_t i = 0; i < x.size(); ++i) {
    INFO(entry << "(" << x[i] << ") = " << y[i]);
    if (std::isinf(x[i]) || std::isnan(x[i])) {
      CHECK(std::isnan(y[i]));
      continue;
    }
    long double want = ref(static_cast<long double>(x[i]));
    if (want == 0) {
      CHECK((y[i] == 0 && std::signbit(y[i]) == std::signbit(want)));
      continue;
    }
    CHECK(ulpError(y[i], want) <= 2.0);  // libdevice: within 2 ulp; measured: at most 1.4
  }
}

} // namespace

TEST_CASE("corpus: libdevice sinf, cosf, sin and cos, through their carry-chain argument reduction",
          "[emulator][corpus][carry]") {
  PtxModule m = PtxModule::parse(corpusPtx("libdevice_sincos.ptx"));
  checkTrig<float>(m, "k_sinf", [](long double x) { return std::sin(x); });
  checkTrig<float>(m, "k_cosf", [](long double x) { return std::cos(x); });
  checkTrig<double>(m, "k_sin", [](long double x) { return std::sin(x); });
  checkTrig<double>(m, "k_cos", [](long double x) { return std::cos(x); });
}
