// cp.async in the emulator: the copy is read when issued and written to
// shared memory only when a wait completes its group; until then any access
// to its bytes, by any thread, is reported as a race; the zero-filling form (src-size below cp-size); commit_group,
// wait_group N (all but the N newest groups) and wait_all (which commits the
// open group too); the rules it checks (alignment, sizes, spaces) and the
// forms it refuses, each at its line.
#include "EmulatorHelpers.h"

#include "runtime/Emulator.h"
#include "runtime/PtxModule.h"

#include <catch2/catch.hpp>

#include <numeric>
#include <string>
#include <vector>

using namespace twintile::runtime;
using namespace twintile::test;

namespace {

/// A one-thread kernel k(out, in) with 64 bytes of shared memory `smem`
/// (%rd1: its address, %rd0: out, %rd2: in), filled with 0xff first.
std::string withShared(const std::string &body) {
  return kernel(".param .u64 k_out, .param .u64 k_in",
                "\t.shared .align 16 .b8 smem[64];\n"
                "\tld.param.u64 %rd0, [k_out];\n\tld.param.u64 %rd2, [k_in];\n\tmov.u64 %rd1, smem;\n"
                "\tmov.u32 %r63, -1;\n\tst.shared.v4.u32 [%rd1], {%r63, %r63, %r63, %r63};\n"
                "\tst.shared.v4.u32 [%rd1+16], {%r63, %r63, %r63, %r63};\n"
                "\tst.shared.v4.u32 [%rd1+32], {%r63, %r63, %r63, %r63};\n"
                "\tst.shared.v4.u32 [%rd1+48], {%r63, %r63, %r63, %r63};\n" +
                    body);
}

/// Runs withShared(body) on in = 1, 2, ..., 16; out holds 16 words.
std::vector<uint32_t> run(const std::string &body) {
  std::vector<uint32_t> in(16), out(16, 0xdeadbeef);
  std::iota(in.begin(), in.end(), 1u);
  EmuResult r = emulate(PtxModule::parse(withShared(body)), "k", {}, {}, {EmuArg::buf(0), EmuArg::buf(1)},
                        {bytesOf(out), bytesOf(in)});
  INFO(r.error);
  REQUIRE(r.ok());
  return out;
}

std::string runError(const std::string &body) {
  std::vector<uint32_t> in(16, 1), out(16, 0);
  return failure(withShared(body), {}, {}, {EmuArg::buf(0), EmuArg::buf(1)}, {bytesOf(out), bytesOf(in)});
}

std::pair<int, std::string> parseError(const std::string &ptx) {
  try {
    PtxModule::parse(ptx);
  } catch (const PtxError &e) {
    return {e.line, e.message};
  }
  return {0, "parsed"};
}

} // namespace

TEST_CASE("cp.async writes shared memory when a wait completes its group", "[emulator][cp.async]") {
  std::vector<uint32_t> out = run("\tcp.async.cg.shared.global [%rd1], [%rd2], 16;\n"
                                  "\tld.shared.u32 %r1, [%rd1+16];\n"  // beside the copy: not in flight
                                  "\tcp.async.commit_group;\n"
                                  "\tcp.async.wait_group 0;\n"
                                  "\tld.shared.v4.u32 {%r3, %r4, %r5, %r6}, [%rd1];\n"
                                  "\tst.global.u32 [%rd0], %r1;\n"
                                  "\tst.global.v4.u32 [%rd0+16], {%r3, %r4, %r5, %r6};\n");
  CHECK(out[0] == 0xffffffffu);
  CHECK(std::vector<uint32_t>(out.begin() + 4, out.begin() + 8) == std::vector<uint32_t>{1, 2, 3, 4});
}

TEST_CASE("cp.async.wait_group N leaves the N newest groups pending; wait_all commits and completes all",
          "[emulator][cp.async]") {
  std::vector<uint32_t> out = run("\tcp.async.ca.shared.global [%rd1], [%rd2], 4;\n"
                                  "\tcp.async.commit_group;\n"
                                  "\tcp.async.ca.shared.global [%rd1+8], [%rd2+8], 8;\n"
                                  "\tcp.async.commit_group;\n"
                                  "\tcp.async.ca.shared.global [%rd1+16], [%rd2+16], 16;\n"  // not committed
                                  "\tcp.async.wait_group 1;\n"  // the first group only: bytes 0-3 written
                                  "\tld.shared.v2.u32 {%r1, %r2}, [%rd1];\n"
                                  "\tcp.async.wait_all;\n"
                                  "\tld.shared.v4.u32 {%r6, %r7, %r8, %r9}, [%rd1];\n"
                                  "\tld.shared.u32 %r10, [%rd1+16];\n"
                                  "\tst.global.v2.u32 [%rd0], {%r1, %r2};\n"
                                  "\tst.global.v4.u32 [%rd0+16], {%r6, %r7, %r8, %r9};\n"
                                  "\tst.global.u32 [%rd0+32], %r10;\n");
  CHECK(std::vector<uint32_t>(out.begin(), out.begin() + 2) == std::vector<uint32_t>{1, 0xffffffffu});
  CHECK(std::vector<uint32_t>(out.begin() + 4, out.begin() + 9) == std::vector<uint32_t>{1, 0xffffffffu, 3, 4, 5});
}

TEST_CASE("any access to shared bytes a cp.async has in flight is a race, reported", "[emulator][cp.async]") {
  // Read before the wait, by the copying thread.
  CHECK_THAT(runError("\tcp.async.cg.shared.global [%rd1], [%rd2], 16;\n\tcp.async.commit_group;\n"
                      "\tld.shared.u32 %r1, [%rd1+12];\n"),
             Catch::Contains("racing (a cp.async to byte 0x100000c is in flight: no wait has completed it) "
                             "ld.shared.u32 of 4 bytes"));
  // Written before the wait; a second copy onto the first; a wait for the wrong group.
  CHECK_THAT(runError("\tcp.async.ca.shared.global [%rd1+8], [%rd2], 8;\n\tst.shared.u32 [%rd1+12], %r63;\n"),
             Catch::Contains("racing (a cp.async to byte 0x100000c is in flight"));
  CHECK_THAT(runError("\tcp.async.ca.shared.global [%rd1], [%rd2], 8;\n"
                      "\tcp.async.ca.shared.global [%rd1], [%rd2+8], 8;\n"),
             Catch::Contains("overlapping (a cp.async to byte 0x1000000 is in flight"));
  CHECK_THAT(runError("\tcp.async.ca.shared.global [%rd1], [%rd2], 8;\n\tcp.async.commit_group;\n"
                      "\tcp.async.ca.shared.global [%rd1+8], [%rd2+8], 8;\n\tcp.async.commit_group;\n"
                      "\tcp.async.wait_group 1;\n\tld.shared.u32 %r1, [%rd1+8];\n"),
             Catch::Contains("racing (a cp.async to byte 0x1000008 is in flight"));
  // Another thread's copy, read after a barrier that its thread reached without waiting.
  std::string ptx = kernel(".param .u64 k_out, .param .u64 k_in",
                           "\t.shared .align 16 .b8 smem[128];\n"
                           "\tld.param.u64 %rd0, [k_out];\n\tld.param.u64 %rd2, [k_in];\n\tmov.u64 %rd1, smem;\n"
                           "\tmov.u32 %r1, %tid.x;\n\tsetp.ne.u32 %p1, %r1, 0;\n"
                           "\t@%p1 bra $L_read;\n\tcp.async.ca.shared.global [%rd1], [%rd2], 4;\n"
                           "$L_read:\n\tbar.sync 0;\n\tld.shared.u32 %r2, [%rd1];\n");
  std::vector<uint32_t> in(32, 7), out(32, 0);
  CHECK_THAT(failure(ptx, {}, {32, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1)}, {bytesOf(out), bytesOf(in)}),
             Catch::Contains("racing (a cp.async to byte 0x1000000 is in flight"));
}

TEST_CASE("cp.async with a src-size below the cp-size fills the rest with zeros; src-size 0 reads nothing",
          "[emulator][cp.async]") {
  std::vector<uint32_t> out = run("\tmov.u32 %r9, 4;\n"
                                  "\tcp.async.cg.shared.global [%rd1], [%rd2], 16, %r9;\n"
                                  "\tmov.u64 %rd3, 0;\n"  // a null source: with src-size 0 it is not read
                                  "\tcp.async.ca.shared.global [%rd1+16], [%rd3], 8, 0;\n"
                                  "\tcp.async.wait_all;\n"
                                  "\tld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];\n"
                                  "\tld.shared.v4.u32 {%r5, %r6, %r7, %r8}, [%rd1+16];\n"
                                  "\tst.global.v4.u32 [%rd0], {%r1, %r2, %r3, %r4};\n"
                                  "\tst.global.v4.u32 [%rd0+16], {%r5, %r6, %r7, %r8};\n");
  CHECK(std::vector<uint32_t>(out.begin(), out.begin() + 8) ==
        std::vector<uint32_t>{1, 0, 0, 0, 0, 0, 0xffffffffu, 0xffffffffu});
}

TEST_CASE("cp.async's copies reach the other threads through a wait and a barrier", "[emulator][cp.async][simt]") {
  // 32 threads each copy one word of in into smem; after wait_all and bar.sync,
  // each reads its neighbour's word.
  std::string ptx = kernel(".param .u64 k_out, .param .u64 k_in",
                           "\t.shared .align 16 .b8 smem[128];\n"
                           "\tld.param.u64 %rd0, [k_out];\n\tld.param.u64 %rd2, [k_in];\n\tmov.u64 %rd1, smem;\n"
                           "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 4;\n"
                           "\tadd.s64 %rd4, %rd1, %rd3;\n\tadd.s64 %rd5, %rd2, %rd3;\n"
                           "\tcp.async.ca.shared.global [%rd4], [%rd5], 4;\n"
                           "\tcp.async.wait_all;\n\tbar.sync 0;\n"
                           "\tadd.s32 %r2, %r1, 1;\n\tand.b32 %r2, %r2, 31;\n\tmul.wide.u32 %rd6, %r2, 4;\n"
                           "\tadd.s64 %rd7, %rd1, %rd6;\n\tld.shared.u32 %r3, [%rd7];\n"
                           "\tadd.s64 %rd8, %rd0, %rd3;\n\tst.global.u32 [%rd8], %r3;\n");
  std::vector<uint32_t> in(32), out(32, 0);
  std::iota(in.begin(), in.end(), 100u);
  EmuResult r = emulate(PtxModule::parse(ptx), "k", {}, {32, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1)},
                        {bytesOf(out), bytesOf(in)});
  INFO(r.error);
  REQUIRE(r.ok());
  for (uint32_t i = 0; i < 32; ++i) CHECK(out[i] == 100 + (i + 1) % 32);
}

TEST_CASE("cp.async's rules are checked when it runs", "[emulator][cp.async]") {
  CHECK_THAT(runError("\tcp.async.ca.shared.global [%rd1], [%rd2+4], 8;\n"),
             Catch::Contains("misaligned cp.async.ca.shared.global source (8 bytes)"));
  CHECK_THAT(runError("\tcp.async.ca.shared.global [%rd1+4], [%rd2], 8;\n"),
             Catch::Contains("misaligned cp.async.ca.shared.global of 8 bytes"));
  CHECK_THAT(runError("\tmov.u32 %r1, 12;\n\tcp.async.ca.shared.global [%rd1], [%rd2], 8, %r1;\n"),
             Catch::Contains("src-size 12 larger than the cp-size 8 of cp.async.ca.shared.global"));
  CHECK_THAT(runError("\tcp.async.cg.shared.global [%rd1], [%rd2+64], 16;\n"),
             Catch::Contains("out-of-bounds cp.async.cg.shared.global of 16 bytes"));
  CHECK_THAT(runError("\tcp.async.cg.shared.global [%rd2], [%rd2], 16;\n"),
             Catch::Contains("wrong-space (not shared memory) cp.async.cg.shared.global"));
  CHECK_THAT(runError("\tcp.async.cg.shared.global [%rd1], [%rd1+16], 16;\n"),
             Catch::Contains("wrong-space (not global memory) cp.async.cg.shared.global"));
}

TEST_CASE("cp.async forms the emulator does not run are refused at their line", "[emulator][cp.async][parse]") {
  auto refused = [](const std::string &stmt, const std::string &message) {
    std::string ptx = withShared("\t" + stmt + "\n");
    INFO(stmt);
    CHECK(parseError(ptx) == std::make_pair(lineOf(ptx, stmt), message));
  };
  refused("cp.async.cg.shared.global [%rd1], [%rd2], 8;",
          "'cp.async.cg.shared.global' copies 16 bytes (.cg caches in L2 only, whole lines)");
  refused("cp.async.ca.shared.global [%rd1], [%rd2], 2;", "the cp-size of 'cp.async.ca.shared.global' is 4, 8 or 16");
  refused("cp.async.shared.global [%rd1], [%rd2], 16;", "'cp.async.shared.global' needs .ca or .cg");
  refused("cp.async.ca.global.global [%rd1], [%rd2], 16;", "'cp.async.ca.global.global' copies to .shared");
  refused("cp.async.bulk.shared::cluster.global [%rd1], [%rd2], 16;",
          "'cp.async.bulk.shared::cluster.global': only the tensor forms of the bulk copies are supported");
  refused("cp.async.ca.shared.global [%rd1], [%rd2], 16, %p1;",
          "'cp.async.ca.shared.global' with an ignore-src predicate is not supported");
  refused("cp.async.wait_group %r1;",
          "'cp.async.wait_group' takes the number of groups left pending, an integer constant");
}
