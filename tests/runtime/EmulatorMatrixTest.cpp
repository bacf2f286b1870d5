// ldmatrix, stmatrix and mma.sync in the emulator, against values computed here from
// the PTX ISA's fragment tables, written out case by case (not the
// emulator's formulas): a warp loads per-lane registers packed by the test,
// runs the instruction and stores its registers; the test unpacks them and
// compares with a plain matrix product (small integers: exact in every
// type) or, for ldmatrix, with the rows it wrote.
#include "EmulatorHelpers.h"

#include "runtime/Emulator.h"
#include "runtime/PtxFloat.h"
#include "runtime/PtxModule.h"

#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <string>
#include <vector>

using namespace twintile::runtime;
using namespace twintile::test;

namespace {

/// A 32-thread kernel k(out, in) whose lane l finds its input words at
/// in + l * `inWords` (%rd4) and its output words at out + l * `outWords` (%rd5).
std::string warpKernel(const std::string &body, int inWords, int outWords, const std::string &decl = "") {
  return kernel(".param .u64 k_out, .param .u64 k_in",
                decl + "\tld.param.u64 %rd0, [k_out];\n\tld.param.u64 %rd2, [k_in];\n\tmov.u32 %r60, %tid.x;\n"
                       "\tmul.wide.u32 %rd3, %r60, " + std::to_string(4 * inWords) + ";\n\tadd.s64 %rd4, %rd2, %rd3;\n"
                       "\tmul.wide.u32 %rd3, %r60, " + std::to_string(4 * outWords) + ";\n\tadd.s64 %rd5, %rd0, %rd3;\n" +
                    body);
}

std::vector<uint32_t> runWarp(const std::string &ptx, std::vector<uint32_t> in, size_t outWords, uint32_t threads = 32) {
  std::vector<uint32_t> out(outWords, 0xdeadbeef);
  EmuResult r = emulate(PtxModule::parse(ptx), "k", {}, {threads, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1)},
                        {bytesOf(out), bytesOf(in)});
  INFO(r.error);
  REQUIRE(r.ok());
  return out;
}

// --- ldmatrix --------------------------------------------------------------

/// Four 8x8 matrices of 16-bit values m * 64 + r * 8 + c, row after row.
std::vector<uint32_t> fourMatrices() {
  std::vector<uint32_t> words(128);
  for (uint32_t i = 0; i < 256; ++i) reinterpret_cast<uint16_t *>(words.data())[i] = static_cast<uint16_t>(i + 1000);
  return words;
}
uint16_t entry(uint32_t m, uint32_t r, uint32_t c) { return static_cast<uint16_t>(1000 + m * 64 + r * 8 + c); }

std::string ldmatrixKernel(const std::string &form, int count, const std::string &rowOf) {
  // Each lane copies its 16 bytes of the matrices into smem, then gives the
  // address of row `rowOf` (of lane l) and loads.
  std::string regs, stores;
  for (int m = 0; m < count; ++m) {
    regs += (m ? ", " : "") + std::string("%r") + std::to_string(m + 1);
    stores += "\tst.global.u32 [%rd5+" + std::to_string(4 * m) + "], %r" + std::to_string(m + 1) + ";\n";
  }
  return warpKernel("\tmov.u64 %rd6, smem;\n\tmul.wide.u32 %rd7, %r60, 16;\n\tadd.s64 %rd8, %rd6, %rd7;\n"
                    "\tld.global.v4.u32 {%r10, %r11, %r12, %r13}, [%rd4];\n"
                    "\tst.shared.v4.u32 [%rd8], {%r10, %r11, %r12, %r13};\n\tbar.sync 0;\n" +
                        rowOf + "\tmul.wide.u32 %rd9, %r20, 16;\n\tadd.s64 %rd10, %rd6, %rd9;\n"
                                "\tldmatrix.sync.aligned.m8n8." + form + ".shared.b16 {" + regs + "}, [%rd10];\n" + stores,
                    4, 4, "\t.shared .align 16 .b8 smem[512];\n");
}

} // namespace

TEST_CASE("ldmatrix .x4 gives lane l of matrix m row l/4, columns 2(l%4) and 2(l%4)+1; .trans the transpose",
          "[emulator][ldmatrix]") {
  // Lane l gives the address of row l % 8 of matrix l / 8: row l of the 32.
  std::string rowOf = "\tmov.u32 %r20, %r60;\n";
  for (bool trans : {false, true}) {
    INFO((trans ? "trans" : "plain"));
    std::vector<uint32_t> out = runWarp(ldmatrixKernel(trans ? "x4.trans" : "x4", 4, rowOf), fourMatrices(), 128);
    for (uint32_t l = 0; l < 32; ++l)
      for (uint32_t m = 0; m < 4; ++m) {
        uint32_t r = l / 4, c = 2 * (l % 4);
        uint32_t lo = trans ? entry(m, c, r) : entry(m, r, c), hi = trans ? entry(m, c + 1, r) : entry(m, r, c + 1);
        INFO("lane " << l << " matrix " << m);
        CHECK(out[4 * l + m] == (lo | hi << 16));
      }
  }
}

TEST_CASE("ldmatrix .x1 and .x2 read the rows at the addresses lanes 0-7 (and 8-15) give", "[emulator][ldmatrix]") {
  // Lane l gives row 7 - l % 8 of matrix l / 8 (rows upside down); lanes past the matrices give row 0.
  std::string rowOf = "\tand.b32 %r21, %r60, 7;\n\tsub.u32 %r22, 7, %r21;\n\tand.b32 %r23, %r60, 24;\n"
                      "\tadd.u32 %r20, %r22, %r23;\n";
  for (int count : {1, 2}) {
    INFO("x" << count);
    std::vector<uint32_t> out =
        runWarp(ldmatrixKernel("x" + std::to_string(count), count, rowOf), fourMatrices(), 128);
    for (uint32_t l = 0; l < 32; ++l)
      for (uint32_t m = 0; m < static_cast<uint32_t>(count); ++m) {
        uint32_t r = 7 - l / 4, c = 2 * (l % 4);
        CHECK(out[4 * l + m] == (entry(m, r, c) | uint32_t(entry(m, r, c + 1)) << 16));
      }
  }
}

// --- stmatrix -------------------------------------------------------------

TEST_CASE("stmatrix writes lane l's register m as row l/4, columns 2(l%4) and 2(l%4)+1 of matrix m; .trans the "
          "transpose; each row where its lane says",
          "[emulator][stmatrix]") {
  // Lane l holds, in register m, the two 16-bit values 4096m + 2l and +1;
  // it gives the address of row (l % 8) of matrix (l / 8) with the rows of
  // each matrix upside down (row 7 - r at slot r), then reads its slot back.
  for (const char *form : {"x1", "x2", "x4", "x4.trans"}) {
    INFO(form);
    int count = form[1] - '0';
    bool trans = std::string(form).find("trans") != std::string::npos;
    std::string regs, packs;
    for (int m = 0; m < count; ++m) {
      regs += (m ? ", " : "") + std::string("%r") + std::to_string(m + 1);
      packs += "\tmul.lo.u32 %r30, %r60, 2;\n\tadd.u32 %r31, %r30, " + std::to_string(4096 * m) +
               ";\n\tadd.u32 %r32, %r31, 1;\n\tshl.b32 %r33, %r32, 16;\n\tor.b32 %r" + std::to_string(m + 1) +
               ", %r31, %r33;\n";
    }
    std::string body = packs +
                       "\tmov.u64 %rd6, smem;\n\tand.b32 %r21, %r60, 7;\n\tsub.u32 %r22, 7, %r21;\n"
                       "\tand.b32 %r23, %r60, 24;\n\tadd.u32 %r20, %r22, %r23;\n\tmul.wide.u32 %rd9, %r20, 16;\n"
                       "\tadd.s64 %rd10, %rd6, %rd9;\n\tstmatrix.sync.aligned.m8n8." + std::string(form) +
                       ".shared.b16 [%rd10], {" + regs +
                       "};\n\tbar.sync 0;\n\tmul.wide.u32 %rd11, %r60, 16;\n\tadd.s64 %rd12, %rd6, %rd11;\n"
                       "\tld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%rd12];\n"
                       "\tst.global.v4.u32 [%rd5], {%r10, %r11, %r12, %r13};\n";
    std::vector<uint32_t> out =
        runWarp(warpKernel(body, 1, 4, "\t.shared .align 16 .b8 smem[512];\n"), std::vector<uint32_t>(32, 0), 128);
    // Element (row, col) of matrix m: lane 4 row + col / 2's (its transpose's, with .trans).
    auto value = [&](uint32_t m, uint32_t row, uint32_t col) -> uint16_t {
      uint32_t r = trans ? col : row, c = trans ? row : col;
      return static_cast<uint16_t>(4096 * m + 2 * (4 * r + c / 2) + c % 2);
    };
    for (uint32_t slot = 0; slot < 8u * static_cast<uint32_t>(count); ++slot) {
      uint32_t m = slot / 8, row = 7 - slot % 8;  // slot 8m + r holds row 7 - r
      uint16_t got[8];
      std::memcpy(got, &out[4 * slot], 16);
      for (uint32_t c = 0; c < 8; ++c) {
        INFO("matrix " << m << " row " << row << " col " << c);
        CHECK(got[c] == value(m, row, c));
      }
    }
  }
}

// --- mma.sync -----------------------------------------------------------------

namespace {

enum class In { F16, BF16, TF32, S8, U8 };

/// The bits of `v` as an element of type `t`.
uint32_t bitsOf(double v, In t) {
  switch (t) {
  case In::F16: return twintile::runtime::ptx::toF16(v);
  case In::BF16: return twintile::runtime::ptx::toBF16(v);
  case In::TF32: return std::bit_cast<uint32_t>(static_cast<float>(v));
  case In::S8: return static_cast<uint8_t>(static_cast<int8_t>(v));
  case In::U8: return static_cast<uint8_t>(v);
  }
  return 0;
}
unsigned widthOf(In t) { return t == In::TF32 ? 32 : (t == In::S8 || t == In::U8) ? 8 : 16; }

struct Pos {
  int row, col;
};

/// The ISA's tables: where element i of lane (g, t) of A (16 x K) and of B
/// (K x 8) is, for each supported shape, written out.
Pos aPos(int i, int g, int t, int k, In type) {
  if (type == In::TF32) {  // m16n8k8 .tf32: a0 (g, t) a1 (g+8, t) a2 (g, t+4) a3 (g+8, t+4)
    const Pos table[4] = {{g, t}, {g + 8, t}, {g, t + 4}, {g + 8, t + 4}};
    return table[i];
  }
  if (widthOf(type) == 8) {  // m16n8k32 .s8/.u8: a0..a3 (g, 4t..4t+3), a4..a7 (g+8, ..), a8..a11 (g, 16+..), a12..a15 (g+8, 16+..)
    int quad = i / 4;
    return {g + (quad % 2 ? 8 : 0), 4 * t + i % 4 + (quad >= 2 ? 16 : 0)};
  }
  // .f16/.bf16: a0,a1 (g, 2t..2t+1) a2,a3 (g+8, 2t..) and, at k16, a4,a5 (g, 2t+8..) a6,a7 (g+8, 2t+8..)
  int pair = i / 2;
  (void)k;
  return {g + (pair % 2 ? 8 : 0), 2 * t + i % 2 + (pair >= 2 ? 8 : 0)};
}
Pos bPos(int i, int g, int t, In type) {
  if (type == In::TF32) return {i == 0 ? t : t + 4, g};              // b0 (t, g) b1 (t+4, g)
  if (widthOf(type) == 8) return {4 * t + i % 4 + (i >= 4 ? 16 : 0), g};  // b0..b3 (4t.., g) b4..b7 (16+4t.., g)
  return {2 * t + i % 2 + (i >= 2 ? 8 : 0), g};                       // b0,b1 (2t.., g) b2,b3 (2t+8.., g)
}

/// Runs mma `form` (e.g. "m16n8k16.row.col.f32.f16.f16.f32") on A, B, C and
/// returns D (16 x 8, row-major) as the lanes' registers say.
std::vector<double> mma(const std::string &form, int k, In ta, In tb, const std::vector<double> &a,
                        const std::vector<double> &b, const std::vector<double> &c, bool integer,
                        bool f16acc = false) {
  int aRegs = static_cast<int>(16 * k / 32 * widthOf(ta) / 32), bRegs = static_cast<int>(8 * k / 32 * widthOf(tb) / 32);
  int accRegs = f16acc ? 2 : 4;  // f16: c0,c1 in the first register (low half c0), c2,c3 in the second
  int words = aRegs + bRegs + accRegs;
  std::vector<uint32_t> in(32 * words, 0);
  for (int l = 0; l < 32; ++l) {
    int g = l / 4, t = l % 4;
    uint32_t *lane = &in[l * words];
    for (int i = 0; i < aRegs * 32 / static_cast<int>(widthOf(ta)); ++i) {
      Pos p = aPos(i, g, t, k, ta);
      unsigned w = widthOf(ta), per = 32 / w;
      lane[i / per] |= bitsOf(a[p.row * k + p.col], ta) << (w * (i % per) % 32);
    }
    for (int i = 0; i < bRegs * 32 / static_cast<int>(widthOf(tb)); ++i) {
      Pos p = bPos(i, g, t, tb);
      unsigned w = widthOf(tb), per = 32 / w;
      lane[aRegs + i / per] |= bitsOf(b[p.row * 8 + p.col], tb) << (w * (i % per) % 32);
    }
    for (int i = 0; i < 4; ++i) {  // c0,c1 (g, 2t..2t+1) c2,c3 (g+8, 2t..)
      double v = c[(g + (i >= 2 ? 8 : 0)) * 8 + 2 * t + i % 2];
      if (f16acc) lane[aRegs + bRegs + i / 2] |= uint32_t(twintile::runtime::ptx::toF16(v)) << (16 * (i % 2));
      else lane[aRegs + bRegs + i] = integer ? static_cast<uint32_t>(static_cast<int32_t>(v))
                                             : std::bit_cast<uint32_t>(static_cast<float>(v));
    }
  }
  auto list = [](int first, int n) {
    std::string s = "{";
    for (int i = 0; i < n; ++i) s += (i ? ", %r" : "%r") + std::to_string(first + i);
    return s + "}";
  };
  std::string loads;
  for (int i = 0; i < words; ++i)
    loads += "\tld.global.u32 %r" + std::to_string(10 + i) + ", [%rd4+" + std::to_string(4 * i) + "];\n";
  std::string body = loads + "\tmma.sync.aligned." + form + " " + list(1, accRegs) + ", " + list(10, aRegs) + ", " +
                     list(10 + aRegs, bRegs) + ", " + list(10 + aRegs + bRegs, accRegs) + ";\n" +
                     "\tst.global.v4.u32 [%rd5], {%r1, %r2, %r3, %r4};\n";
  std::vector<uint32_t> out = runWarp(warpKernel(body, words, 4), in, 128);
  std::vector<double> d(16 * 8);
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < 4; ++i) {
      uint32_t w = f16acc ? (out[4 * l + i / 2] >> (16 * (i % 2))) & 0xffff : out[4 * l + i];
      d[(l / 4 + (i >= 2 ? 8 : 0)) * 8 + 2 * (l % 4) + i % 2] =
          f16acc    ? twintile::runtime::ptx::fromF16(static_cast<uint16_t>(w))
          : integer ? static_cast<double>(static_cast<int32_t>(w))
                    : static_cast<double>(std::bit_cast<float>(w));
    }
  return d;
}

std::vector<double> product(int k, const std::vector<double> &a, const std::vector<double> &b,
                            const std::vector<double> &c) {
  std::vector<double> d(c);
  for (int r = 0; r < 16; ++r)
    for (int n = 0; n < 8; ++n)
      for (int kk = 0; kk < k; ++kk) d[r * 8 + n] += a[r * k + kk] * b[kk * 8 + n];
  return d;
}

/// Small integers (exact in f16, bf16, tf32 and 8 bits), different everywhere.
std::vector<double> values(int n, int seed, int lo, int hi) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = lo + (i * 7 + seed * 13 + i / 5) % (hi - lo + 1);
  return v;
}

} // namespace

TEST_CASE("mma.sync on f16, bf16 and tf32 fragments: D = A*B + C with f32 accumulators", "[emulator][mma]") {
  struct Case {
    const char *form;
    int k;
    In type;
  };
  for (Case cs : {Case{"m16n8k16.row.col.f32.f16.f16.f32", 16, In::F16}, Case{"m16n8k16.row.col.f32.bf16.bf16.f32", 16, In::BF16},
                  Case{"m16n8k8.row.col.f32.f16.f16.f32", 8, In::F16}, Case{"m16n8k8.row.col.f32.bf16.bf16.f32", 8, In::BF16},
                  Case{"m16n8k8.row.col.f32.tf32.tf32.f32", 8, In::TF32}}) {
    INFO(cs.form);
    std::vector<double> a = values(16 * cs.k, 1, -4, 5), b = values(cs.k * 8, 2, -3, 6), c = values(128, 3, -50, 50);
    CHECK(mma(cs.form, cs.k, cs.type, cs.type, a, b, c, false) == product(cs.k, a, b, c));
  }
}

TEST_CASE("mma.sync on f16 with f16 accumulators: C and D in two f16x2 registers per lane", "[emulator][mma]") {
  for (int k : {8, 16}) {
    INFO("k" << k);
    std::vector<double> a = values(16 * k, 8, -4, 5), b = values(k * 8, 9, -3, 6), c = values(128, 10, -50, 50);
    std::string form = "m16n8k" + std::to_string(k) + ".row.col.f16.f16.f16.f16";
    CHECK(mma(form, k, In::F16, In::F16, a, b, c, false, true) == product(k, a, b, c));
  }
}

TEST_CASE("mma.sync reads tf32 operands as their upper 19 bits", "[emulator][mma]") {
  // 1 + 2^-12 is not a tf32 (10 fraction bits): the tensor core reads 1.
  std::vector<double> a(16 * 8, 0), b(8 * 8, 0), c(128, 0);
  a[0] = 1.0 + 1.0 / 4096;
  b[0] = 3.0;
  std::vector<double> d = mma("m16n8k8.row.col.f32.tf32.tf32.f32", 8, In::TF32, In::TF32, a, b, c, false);
  CHECK(d[0] == 3.0);
}

TEST_CASE("mma.sync on 8-bit integers accumulates exactly into s32", "[emulator][mma]") {
  std::vector<double> a = values(16 * 32, 4, -128, 127), b = values(32 * 8, 5, -128, 127), c = values(128, 6, -1000, 1000);
  CHECK(mma("m16n8k32.row.col.s32.s8.s8.s32", 32, In::S8, In::S8, a, b, c, true) == product(32, a, b, c));
  std::vector<double> ua = values(16 * 32, 7, 0, 255);
  CHECK(mma("m16n8k32.row.col.s32.u8.s8.s32", 32, In::U8, In::S8, ua, b, c, true) == product(32, ua, b, c));
}

TEST_CASE("ldmatrix and mma.sync need the whole warp, converged, and the forms the emulator runs",
          "[emulator][mma][ldmatrix]") {
  std::string body = "\tmov.u32 %r1, 0;\n\tmma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%r2, %r3, %r4, %r5}, "
                     "{%r1, %r1}, {%r1}, {%r1, %r1, %r1, %r1};\n";
  std::vector<uint32_t> out(128), in(128);
  CHECK_THAT(failure(warpKernel(body, 1, 1), {}, {16, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1)}, {bytesOf(out), bytesOf(in)}),
             Catch::Contains("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 in a warp of 16 threads (it needs all 32)"));
  std::string early = "\tsetp.eq.u32 %p1, %r60, 5;\n\t@%p1 ret;\n" + body;
  CHECK_THAT(failure(warpKernel(early, 1, 1), {}, {32, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1)}, {bytesOf(out), bytesOf(in)}),
             Catch::Contains("after lane 5 of its warp exited (it needs all 32)"));
  auto refused = [](const std::string &stmt, const std::string &message) {
    std::string ptx = kernel("", "\t" + stmt + "\n");
    INFO(stmt);
    try {
      PtxModule::parse(ptx);
      FAIL("parsed");
    } catch (const PtxError &e) {
      CHECK(e.line == lineOf(ptx, stmt));
      CHECK(e.message == message);
    }
  };
  refused("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16 {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, "
          "{%r1, %r2}, {%r1, %r2};",
          "'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16' is not supported (f16 or bf16 at k8/k16, tf32 at k8, "
          "s8/u8 at k32; f32 or s32 accumulators, or f16 for f16)");
  refused("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%r1, %r2}, {%r1, %r2}, {%r1, %r2}, {%r1, %r2};",
          "'mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32': only the m16n8k8, m16n8k16 and m16n8k32 shapes are "
          "supported");
  refused("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r1, %r2}, "
          "{%r1, %r2, %r3, %r4};",
          "'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' needs {4 registers} for A");
  refused("mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, "
          "{%r1, %r2}, {%r1, %r2, %r3, %r4};",
          "'mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32' needs .row.col (A row-major, B column-major)");
  refused("mma.sync.aligned.m16n8k8.row.col.tf32.tf32.tf32.tf32 {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, "
          "{%r1, %r2}, {%r1, %r2, %r3, %r4};",
          "'mma.sync.aligned.m16n8k8.row.col.tf32.tf32.tf32.tf32' is not supported (f16 or bf16 at k8/k16, tf32 at "
          "k8, s8/u8 at k32; f32 or s32 accumulators, or f16 for f16)");
  refused("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, "
          "{%r1, %r2}, {%r1, %r2, %r3, %r4};",
          "'mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32': .satfinite is not supported");
  refused("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r1, _}, {%r1}, {0, 0, 0, 0};",
          "'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32' takes registers for A, B and C");
  refused("mma.m16n8k16.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, {%r1, %r2}, "
          "{%r1, %r2, %r3, %r4};",
          "'mma.m16n8k16.row.col.f32.f16.f16.f32' needs .sync.aligned");
  refused("ldmatrix.sync.aligned.m8n8.shared.b16 {%r1}, [%rd1];",
          "'ldmatrix.sync.aligned.m8n8.shared.b16' needs .x1, .x2 or .x4");
  refused("ldmatrix.sync.aligned.m8n8.x1.shared.b32 {%r1}, [%rd1];",
          "'ldmatrix.sync.aligned.m8n8.x1.shared.b32' needs .b16");
  refused("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r1}, [%rd1];",
          "'ldmatrix.sync.aligned.m8n8.x2.shared.b16' needs 2 destination registers");
  refused("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r1}, [%rd1];",
          "'ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8': only the m8n8 shape (16-bit elements) is supported");
}
