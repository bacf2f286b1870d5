// wgmma in the emulator, against products computed here. The test lays the
// operands out in shared memory as Triton's and CUTLASS's Hopper kernels do
// (rows of the swizzle's width, 16-byte chunk c of row r stored at chunk
// c ^ ((r / perPhase) % maxPhase); an MN-major operand in panels of that
// width), written out here row by row, not by the emulator's address
// formula; 128 threads copy that image into shared memory with ordinary
// stores, fence the async proxy, build the descriptors and run one
// warpgroup's wgmma; each thread stores its accumulator registers, which the
// test places by the PTX ISA's table for the m64nNk16 accumulator.
#include "EmulatorHelpers.h"

#include "runtime/Emulator.h"
#include "runtime/PtxFloat.h"
#include "runtime/PtxModule.h"

#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace twintile::runtime;
using namespace twintile::test;

namespace {

/// A swizzled shared-memory image, as bytes.
struct Image {
  std::vector<uint8_t> bytes;
  void put(size_t at, double v) {
    uint16_t h = twintile::runtime::ptx::toF16(v);
    if (bytes.size() < at + 2) bytes.resize(at + 2, 0);
    std::memcpy(&bytes[at], &h, 2);
  }
};

/// The byte of element `col` (two bytes each) of row `row` in rows of `width` bytes, swizzled.
size_t swizzled(size_t row, size_t col, int width) {
  int perPhase = 128 / width, maxPhase = width / 16;
  size_t chunk = col * 2 / 16, within = col * 2 % 16;
  return row * static_cast<size_t>(width) + ((chunk ^ ((row / perPhase) % maxPhase)) * 16) + within;
}

/// Small integers, exact in f16 and in every sum here.
double valueAt(int i, int seed) { return static_cast<double>((i * 7 + seed * 13 + i / 5) % 9 - 4); }

struct Case {
  int n = 64;              // N of m64nNk16
  int swizzleA = 128, swizzleB = 128;
  int kOffset = 0;         // A's and B's (K-major) first k within the swizzle row
  bool transB = false;     // B MN-major
  bool fenceProxy = true;  // fence.proxy.async after the stores
  bool fenceWgmma = true;  // wgmma.fence before the mma
  bool chain = false;      // a second mma (scale-d 1) on the same registers before the wait
  std::string beforeWait;  // PTX between commit_group and wait_group
};

uint64_t modeOf(int swizzle) { return swizzle == 128 ? 1 : swizzle == 64 ? 2 : 3; }

struct Built {
  std::string ptx;
  std::vector<uint32_t> image;              // A's image, then B's, in words
  std::vector<double> a, b;                 // A 64 x Ka (row-major), B Kb x n
  int ka = 0, kb = 0;
};

Built build(const Case &c) {
  Built out;
  // A: 64 rows of swizzleA bytes (K-major), E = swizzleA / 2 elements per row.
  out.ka = c.swizzleA / 2;
  out.a.resize(64 * static_cast<size_t>(out.ka));
  Image ia;
  for (int m = 0; m < 64; ++m)
    for (int k = 0; k < out.ka; ++k) {
      double v = valueAt(m * out.ka + k, 1);
      out.a[static_cast<size_t>(m * out.ka + k)] = v;
      ia.put(swizzled(m, k, c.swizzleA), v);
    }
  // B: K-major, n rows of swizzleB bytes; or MN-major, 16 rows (k) per panel of swizzleB bytes of n.
  Image ib;
  int e = c.swizzleB / 2;
  out.kb = c.transB ? 16 : e;
  out.b.resize(static_cast<size_t>(out.kb * c.n));
  for (int k = 0; k < out.kb; ++k)
    for (int n = 0; n < c.n; ++n) {
      double v = valueAt(k * c.n + n, 2);
      out.b[static_cast<size_t>(k * c.n + n)] = v;
      if (c.transB) ib.put(static_cast<size_t>(n / e) * 16 * c.swizzleB + swizzled(k, n % e, c.swizzleB), v);
      else ib.put(swizzled(n, k, c.swizzleB), v);
    }
  size_t aBytes = (ia.bytes.size() + 1023) / 1024 * 1024, total = aBytes + ib.bytes.size();
  total = (total + 3) / 4 * 4;
  std::vector<uint8_t> all(total, 0);
  std::memcpy(all.data(), ia.bytes.data(), ia.bytes.size());
  std::memcpy(all.data() + aBytes, ib.bytes.data(), ib.bytes.size());
  out.image.resize(total / 4);
  std::memcpy(out.image.data(), all.data(), total);

  auto desc = [](const std::string &reg, uint64_t offset, uint64_t lbo, uint64_t sbo, int swizzle) {
    uint64_t constant = (lbo >> 4) << 16 | (sbo >> 4) << 32 | modeOf(swizzle) << 62;
    return "\tadd.s64 " + reg + ", %rd10, " + std::to_string(offset) + ";\n\tshr.u64 " + reg + ", " + reg +
           ", 4;\n\tand.b64 " + reg + ", " + reg + ", 16383;\n\tor.b64 " + reg + ", " + reg + ", " +
           std::to_string(constant) + ";\n";
  };
  uint64_t kBytes = static_cast<uint64_t>(c.kOffset) * 2;
  std::string descs = desc("%rd11", kBytes, 64 * c.swizzleA, 8 * c.swizzleA, c.swizzleA);
  descs += c.transB ? desc("%rd12", aBytes, 16 * c.swizzleB, 8 * c.swizzleB, c.swizzleB)
                    : desc("%rd12", aBytes + kBytes, c.n * c.swizzleB, 8 * c.swizzleB, c.swizzleB);
  std::string d = "{";
  for (int i = 0; i < c.n / 2; ++i) d += (i ? ", %acc" : "%acc") + std::to_string(i);
  d += "}";
  std::string mma = "\twgmma.mma_async.sync.aligned.m64n" + std::to_string(c.n) + "k16.f32.f16.f16 " + d +
                    ", %rd11, %rd12, %p2, 1, 1, 0, " + (c.transB ? "1" : "0") + ";\n";
  std::string stores;
  for (int i = 0; i < c.n / 2; ++i)
    stores += "\tst.global.f32 [%rd5+" + std::to_string(4 * i) + "], %acc" + std::to_string(i) + ";\n";
  std::string body =
      "\t.reg .f32 %acc<130>;\n"
      "\tld.param.u64 %rd0, [k_out];\n\tld.param.u64 %rd2, [k_in];\n\tmov.u32 %r60, %tid.x;\n"
      "\tmul.wide.u32 %rd3, %r60, " + std::to_string(2 * c.n) + ";\n\tadd.s64 %rd5, %rd0, %rd3;\n"
      "\tmov.u64 %rd10, smem;\n"
      "\tmov.u32 %r1, %r60;\n"
      "$copy:\n"
      "\tsetp.ge.u32 %p1, %r1, " + std::to_string(out.image.size()) + ";\n"
      "\t@%p1 bra $copied;\n"
      "\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd6, %rd2, %rd3;\n\tld.global.u32 %r2, [%rd6];\n"
      "\tadd.s64 %rd7, %rd10, %rd3;\n\tst.shared.u32 [%rd7], %r2;\n"
      "\tadd.u32 %r1, %r1, 128;\n\tbra $copy;\n"
      "$copied:\n" +
      std::string(c.fenceProxy ? "\tfence.proxy.async.shared::cta;\n" : "") + "\tbar.sync 0;\n" + descs +
      "\tsetp.ne.u32 %p2, 0, 0;\n" + (c.fenceWgmma ? "\twgmma.fence.sync.aligned;\n" : "") + mma +
      (c.chain ? "\tsetp.eq.u32 %p2, 0, 0;\n" + mma : "") + "\twgmma.commit_group.sync.aligned;\n" + c.beforeWait +
      "\twgmma.wait_group.sync.aligned 0;\n" + stores;
  out.ptx = kernel(".param .u64 k_out, .param .u64 k_in", body,
                   ".shared .align 1024 .b8 smem[" + std::to_string(out.image.size() * 4) + "];\n");
  return out;
}

/// D as the threads' registers say (64 x n, row-major), by the ISA's accumulator table.
std::vector<double> place(const std::vector<uint32_t> &out, int n) {
  std::vector<double> d(64 * static_cast<size_t>(n));
  for (int th = 0; th < 128; ++th) {
    int w = th / 32, g = (th % 32) / 4, t = th % 4;
    for (int i = 0; i < n / 2; ++i) {
      int row = 16 * w + g + ((i / 2) % 2 ? 8 : 0), col = 8 * (i / 4) + 2 * t + i % 2;
      d[static_cast<size_t>(row * n + col)] = std::bit_cast<float>(out[static_cast<size_t>(th * (n / 2) + i)]);
    }
  }
  return d;
}

std::vector<double> expected(const Built &b, const Case &c) {
  std::vector<double> d(64 * static_cast<size_t>(c.n), 0);
  int bk = c.transB ? 0 : c.kOffset;
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < c.n; ++n)
      for (int k = 0; k < 16; ++k)
        d[static_cast<size_t>(m * c.n + n)] +=
            b.a[static_cast<size_t>(m * b.ka + c.kOffset + k)] * b.b[static_cast<size_t>((bk + k) * c.n + n)];
  if (c.chain)
    for (double &x : d) x *= 2;
  return d;
}

EmuResult run(const Built &b, int n, std::vector<uint32_t> &out, uint32_t threads = 128) {
  out.assign(128 * static_cast<size_t>(n / 2), 0xdeadbeef);
  std::vector<uint32_t> in = b.image;
  return emulate(PtxModule::parse(b.ptx), "k", {}, {threads, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1)},
                 {bytesOf(out), bytesOf(in)});
}

std::vector<double> product(const Case &c) {
  Built b = build(c);
  std::vector<uint32_t> out;
  EmuResult r = run(b, c.n, out);
  INFO(r.error);
  REQUIRE(r.ok());
  return place(out, c.n);
}

std::string failureOf(const Case &c, uint32_t threads = 128) {
  Built b = build(c);
  std::vector<uint32_t> out;
  EmuResult r = run(b, c.n, out, threads);
  REQUIRE_FALSE(r.ok());
  return r.error;
}

} // namespace

TEST_CASE("wgmma m64nNk16 on K-major operands in each swizzle, at each k offset of the row", "[emulator][wgmma]") {
  for (int swizzle : {128, 64, 32})
    for (int k = 0; k < swizzle / 2; k += 16) {
      Case c;
      c.swizzleA = c.swizzleB = swizzle;
      c.kOffset = k;
      INFO("swizzle " << swizzle << " k " << k);
      CHECK(product(c) == expected(build(c), c));
    }
}

TEST_CASE("wgmma with B MN-major (imm-trans-b 1) in panels of the swizzle's width", "[emulator][wgmma]") {
  for (int swizzle : {128, 64, 32})
    for (int n : {64, 128}) {
      Case c;
      c.n = n;
      c.swizzleB = swizzle;
      c.transB = true;
      INFO("swizzle " << swizzle << " n " << n);
      CHECK(product(c) == expected(build(c), c));
    }
}

TEST_CASE("wgmma's N from 8 to 256, and two mma_async chained on the same registers before one wait",
          "[emulator][wgmma]") {
  for (int n : {8, 24, 256}) {
    Case c;
    c.n = n;
    c.swizzleB = 32;  // rows of 16 elements: a K-major B of any n
    INFO("n " << n);
    CHECK(product(c) == expected(build(c), c));
  }
  Case c;
  c.chain = true;
  CHECK(product(c) == expected(build(c), c));
}

TEST_CASE("wgmma misuse is reported: results read before the wait, no fences, a race, a partial warpgroup",
          "[emulator][wgmma]") {
  Case early;
  early.beforeWait = "\tadd.f32 %f1, %acc3, %acc3;\n";
  CHECK_THAT(failureOf(early), Catch::Contains("uses %acc3 while a wgmma.mma_async that writes it is in flight"));
  Case noProxy;
  noProxy.fenceProxy = false;
  CHECK_THAT(failureOf(noProxy), Catch::Contains("no fence.proxy.async after the write"));
  Case noFence;
  noFence.fenceWgmma = false;
  CHECK_THAT(failureOf(noFence), Catch::Contains("without a wgmma.fence.sync.aligned"));
  Case race;
  race.beforeWait = "\tst.shared.u32 [%rd10], %r60;\n";
  CHECK_THAT(failureOf(race), Catch::Contains("racing (a wgmma.mma_async reading byte"));
  CHECK_THAT(failureOf(Case{}, 96), Catch::Contains("in a warpgroup of 96 threads (it needs 128"));
  Case uneven;  // a descriptor that differs between threads
  uneven.beforeWait = "";
  Built b = build(uneven);
  std::string ptx = b.ptx;
  size_t at = ptx.find("\twgmma.fence");
  ptx.insert(at, "\tcvt.u64.u32 %rd13, %r60;\n\tadd.s64 %rd11, %rd11, %rd13;\n");
  std::vector<uint32_t> out(128 * 32), in = b.image;
  EmuResult r = emulate(PtxModule::parse(ptx), "k", {}, {128, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1)},
                        {bytesOf(out), bytesOf(in)});
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error, Catch::Contains("its a-desc differs between threads 0 and 1"));
}

namespace {

/// Runs `b`'s kernel with `edit` applied to its PTX; the error, or "" when it ran.
std::string runEdited(const Built &b, const std::function<void(std::string &)> &edit, int n = 64) {
  std::string ptx = b.ptx;
  edit(ptx);
  std::vector<uint32_t> out(128 * static_cast<size_t>(n / 2)), in = b.image;
  EmuResult r = emulate(PtxModule::parse(ptx), "k", {}, {128, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1)},
                        {bytesOf(out), bytesOf(in)});
  return r.ok() ? std::string() : r.error;
}

void insertBefore(std::string &ptx, const std::string &at, const std::string &text) {
  size_t p = ptx.find(at);
  REQUIRE(p != std::string::npos);
  ptx.insert(p, text);
}

} // namespace

TEST_CASE("wgmma's fence rule: a register another instruction wrote after the fence, and the ISA's exception",
          "[emulator][wgmma]") {
  Built b = build(Case{});
  // Written after the fence: undefined by the ISA, reported.
  CHECK_THAT(runEdited(b, [](std::string &ptx) { insertBefore(ptx, "\twgmma.mma_async", "\tmov.f32 %acc5, 0f3F800000;\n"); }),
             Catch::Contains("accumulates into %acc5, which another instruction wrote after the warpgroup's last "
                             "wgmma.fence"));
  // Written before it: fine.
  CHECK(runEdited(b, [](std::string &ptx) { insertBefore(ptx, "\twgmma.fence", "\tmov.f32 %acc5, 0f3F800000;\n"); }) ==
        "");
  // mma, commit, wait, then mma again on the same registers, nothing else
  // touching them: the ISA allows it without another fence.
  CHECK(runEdited(b, [](std::string &ptx) {
          size_t mma = ptx.find("\twgmma.mma_async"), end = ptx.find('\n', mma);
          std::string again = ptx.substr(mma, end - mma + 1);
          insertBefore(ptx, "\tst.global.f32", "\tsetp.eq.u32 %p2, 0, 0;\n" + again +
                                                   "\twgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;\n");
        }) == "");
}

TEST_CASE("wgmma misuse the emulator reports rather than crashing on", "[emulator][wgmma]") {
  // fence, commit and wait with no mma_async at all run (they crashed it once).
  std::string ptx = kernel("", "\twgmma.fence.sync.aligned;\n\twgmma.commit_group.sync.aligned;\n"
                               "\twgmma.wait_group.sync.aligned 0;\n");
  EmuResult r = emulate(PtxModule::parse(ptx), "k", {}, {128, 1, 1}, {}, {});
  INFO(r.error);
  CHECK(r.ok());
  // An in-flight result passed to a call.
  Built b = build(Case{});
  std::string withCall = b.ptx;
  withCall.insert(withCall.find(".visible .entry"), ".func use(.param .b32 x)\n{\n\tret;\n}\n");
  insertBefore(withCall, "\twgmma.wait_group", "\t{\n\t.param .b32 arg;\n\tst.param.b32 [arg], %acc1;\n\t"
                                              "call use, (arg);\n\t}\n");
  std::vector<uint32_t> out(128 * 32), in = b.image;
  EmuResult rc = emulate(PtxModule::parse(withCall), "k", {}, {128, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1)},
                         {bytesOf(out), bytesOf(in)});
  CHECK_THAT(rc.error, Catch::Contains("uses %acc1 while a wgmma.mma_async that writes it is in flight"));
  // mma_async in a loop with no wait: stopped at the emulator's limit, not out of memory.
  CHECK_THAT(runEdited(b, [](std::string &ptx) {
               size_t mma = ptx.find("\twgmma.mma_async");
               ptx.insert(ptx.find('\n', mma) + 1, "\tbra $again;\n");
               ptx.insert(mma, "$again:\n");
             }),
             Catch::Contains("more than 1024 wgmma.mma_async in flight"));
}
TEST_CASE("wgmma forms the emulator does not run are refused when the PTX is read", "[emulator][wgmma]") {
  auto refused = [](const std::string &line) {
    std::string ptx = kernel("", "\t.reg .f32 %acc<8>;\n" + line + "\n");
    try {
      PtxModule::parse(ptx);
    } catch (const std::exception &e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(refused("\twgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%acc0, %acc1}, %rd1, %rd2, %p1, 1, 1, 0, 0;"),
             Catch::Contains("f16 or bf16 operands into f32 accumulators"));
  CHECK_THAT(refused("\twgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16 {%acc0}, %rd1, %rd2, %p1, 1, 1, 0, 0;"),
             Catch::Contains("m64nNk16"));
  CHECK_THAT(refused("\twgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%acc0, %acc1, %acc2, %acc3}, %rd1, %rd2, "
                     "%p1, 2, 1, 0, 0;"),
             Catch::Contains("1 or -1"));
  CHECK_THAT(refused("\twgmma.wait_group.sync.aligned %r1;"), Catch::Contains("integer constant"));
  CHECK_THAT(refused("\twgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%rd1, %rd2, %rd3, %rd4}, %rd5, %rd6, %p1, "
                     "1, 1, 0, 0;"),
             Catch::Contains(".f32 (or .b32) registers"));
  CHECK_THAT(refused("\twgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%acc0, %acc1, %acc2, %acc3}, %r1, %rd6, %p1, "
                     "1, 1, 0, 0;"),
             Catch::Contains("64-bit descriptors"));
  // Other proxy fences are no-ops here, as before.
  CHECK(refused("\tfence.proxy.alias;\n\tfence.proxy.tensormap::generic.release.gpu;") == "accepted");
}
