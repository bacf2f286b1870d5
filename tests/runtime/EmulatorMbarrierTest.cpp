// mbarrier objects in the emulator (EmuMbarrier.cpp), as the PTX ISA defines
// them: phases that complete when every expected arrival and every expected
// transaction byte has come, try_wait and test_wait by parity (the current
// phase or the one before it) and by state, waiting threads released when
// another completes the phase, and what the emulator reports: a phase that
// can never complete (a deadlock, with each barrier's state), arrivals beyond
// what a phase expects, a barrier used before init or after inval, and any
// other access to its bytes.
#include "EmulatorHelpers.h"

#include "runtime/Emulator.h"
#include "runtime/PtxModule.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace twintile::runtime;
using namespace twintile::test;

namespace {

const std::string kBarrier = "\t.shared .align 8 .b64 bar;\n\t.shared .align 4 .b32 slot;\n";

/// A one-thread kernel on one barrier at `bar` (%rd1) that stores 32-bit results to out.
std::vector<uint32_t> oneThread(const std::string &body, size_t n) {
  return results32(kBarrier + "\tmov.u64 %rd1, bar;\n" + body, n);
}

std::string failureOf(const std::string &body, Dim3 block = {1, 1, 1}) {
  std::vector<uint32_t> out(64, 0);
  return failure(kernel(".param .u64 k_out", kBarrier + "\tld.param.u64 %rd0, [k_out];\n\tmov.u64 %rd1, bar;\n" + body),
                 {1, 1, 1}, block, {EmuArg::buf(0)}, {bytesOf(out)});
}

} // namespace

TEST_CASE("an mbarrier's phases complete on arrivals and transaction bytes", "[emulator][mbarrier]") {
  std::vector<uint32_t> out = oneThread(
      "\tmbarrier.init.shared::cta.b64 [%rd1], 2;\n"
      // Phase 0 is under way: parity 1 (the phase before it) reads as complete, parity 0 not.
      "\tmbarrier.test_wait.parity.shared::cta.b64 %p1, [%rd1], 1;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0], %r1;\n"
      "\tmbarrier.test_wait.parity.shared::cta.b64 %p1, [%rd1], 0;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+4], %r1;\n"
      "\tmbarrier.arrive.shared::cta.b64 %rd2, [%rd1];\n"
      "\tmbarrier.test_wait.parity.shared::cta.b64 %p1, [%rd1], 0;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+8], %r1;\n"
      "\tmbarrier.arrive.release.cta.shared::cta.b64 %rd3, [%rd1];\n"  // the second arrival: phase 0 completes
      "\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [%rd1], 0;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+12], %r1;\n"
      "\tcvt.u32.u64 %r2, %rd3;\n\tst.global.u32 [%rd0+16], %r2;\n"  // the state: the phase it arrived in
      // Phase 1: one arrival that expects 48 bytes, then 16 and 32 of them delivered.
      "\tmbarrier.arrive.expect_tx.shared::cta.b64 %rd4, [%rd1], 48;\n"
      "\tmbarrier.arrive.shared::cta.b64 %rd5, [%rd1];\n"
      "\tmbarrier.complete_tx.shared::cta.b64 [%rd1], 16;\n"
      "\tmbarrier.test_wait.shared::cta.b64 %p1, [%rd1], %rd4;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+20], %r1;\n"
      "\tmbarrier.complete_tx.shared::cta.b64 [%rd1], 32;\n"
      "\tmbarrier.test_wait.shared::cta.b64 %p1, [%rd1], %rd4;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+24], %r1;\n"
      "\tmbarrier.test_wait.parity.shared::cta.b64 %p1, [%rd1], 1;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+28], %r1;\n"
      // Bytes announced apart from an arrival (expect_tx), delivered before the arrival.
      "\tmbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%rd1], 8;\n"
      "\tmbarrier.complete_tx.shared::cta.b64 [%rd1], 8;\n"
      "\tmbarrier.arrive.shared::cta.b64 _, [%rd1], 2;\n"
      "\tmbarrier.test_wait.parity.shared::cta.b64 %p1, [%rd1], 0;\n\tselp.u32 %r1, 1, 0, %p1;\n\tst.global.u32 [%rd0+32], %r1;\n"
      "\tmbarrier.inval.shared::cta.b64 [%rd1];\n"
      "\tmov.u32 %r3, 7;\n\tst.shared.u32 [bar], %r3;\n\tld.shared.u32 %r4, [bar];\n\tst.global.u32 [%rd0+36], %r4;\n",
      10);
  CHECK(out == std::vector<uint32_t>{1, 0, 0, 1, 0, 0, 1, 1, 1, 7});
}

TEST_CASE("a thread waiting on an mbarrier runs on when others complete the phase", "[emulator][mbarrier]") {
  // Warp 1 waits for the value warp 0 writes; each of warp 0's 32 threads
  // arrives after the write; then the roles turn for a second phase, whose
  // parity (1) warp 0 waits on once it has seen phase 0 complete.
  std::string body = kBarrier +
                     "\tld.param.u64 %rd0, [k_out];\n\tmov.u64 %rd1, bar;\n\tmov.u32 %r1, %tid.x;\n"
                     "\tsetp.ne.u32 %p1, %r1, 0;\n"
                     "\t@%p1 bra $L_init;\n\tmbarrier.init.shared::cta.b64 [%rd1], 32;\n$L_init:\n\tbar.sync 0;\n"
                     "\tsetp.ge.u32 %p2, %r1, 32;\n\t@%p2 bra $L_consumer;\n"
                     "\tsetp.eq.u32 %p3, %r1, 0;\n\tmov.u32 %r2, 41;\n\t@%p3 st.shared.u32 [slot], %r2;\n"
                     "\tmbarrier.arrive.shared::cta.b64 %rd2, [%rd1];\n"
                     // Parity 1 alone would return at once while phase 0 is under way (the phase
                     // before it counts as complete): wait for phase 0 first, as a pipeline's
                     // consumer tracks its phase.
                     "$L_wait0p:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p4, [%rd1], 0;\n\t@!%p4 bra $L_wait0p;\n"
                     "$L_wait1:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p4, [%rd1], 1;\n\t@!%p4 bra $L_wait1;\n"
                     "\tld.shared.u32 %r3, [slot];\n\tbra $L_store;\n"
                     "$L_consumer:\n"
                     "$L_wait0:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p4, [%rd1], 0, 1000;\n\t@!%p4 bra $L_wait0;\n"
                     "\tld.shared.u32 %r3, [slot];\n\tadd.u32 %r3, %r3, 1;\n"
                     "\tbar.sync 1, 32;\n"  // warp 1 alone: every reader has read before one writes
                     "\tsetp.eq.u32 %p3, %r1, 32;\n\t@%p3 st.shared.u32 [slot], %r3;\n"
                     "\tmbarrier.arrive.shared::cta.b64 %rd2, [%rd1];\n"
                     "$L_store:\n\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.u64 %rd3, %rd0, %rd3;\n\tst.global.u32 [%rd3], %r3;\n";
  PtxModule m = PtxModule::parse(kernel(".param .u64 k_out", body));
  std::vector<uint32_t> out(64, 0);
  EmuResult r = emulate(m, "k", {1, 1, 1}, {64, 1, 1}, {EmuArg::buf(0)}, {bytesOf(out)});
  INFO(r.error);
  REQUIRE(r.ok());
  for (size_t i = 0; i < 64; ++i) CHECK(out[i] == 42u);  // warp 1 read 41 and wrote 42, which warp 0 read
}

TEST_CASE("a thread spinning on test_wait lets the others complete the phase", "[emulator][mbarrier]") {
  std::string body = kBarrier +
                     "\tld.param.u64 %rd0, [k_out];\n\tmov.u64 %rd1, bar;\n\tmov.u32 %r1, %tid.x;\n"
                     "\tsetp.ne.u32 %p1, %r1, 0;\n"
                     "\t@%p1 bra $L_init;\n\tmbarrier.init.shared::cta.b64 [%rd1], 1;\n$L_init:\n\tbar.sync 0;\n"
                     "\tsetp.eq.u32 %p2, %r1, 32;\n\t@%p2 bra $L_arrive;\n"
                     "$L_spin:\n\tmbarrier.test_wait.parity.shared::cta.b64 %p3, [%rd1], 0;\n\t@!%p3 bra $L_spin;\n"
                     "\tbra $L_done;\n"
                     "$L_arrive:\n\tmov.u32 %r2, 5;\n\tst.shared.u32 [slot], %r2;\n"
                     "\tmbarrier.arrive.shared::cta.b64 %rd2, [%rd1];\n"
                     "$L_done:\n\tld.shared.u32 %r3, [slot];\n\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.u64 %rd3, %rd0, %rd3;\n"
                     "\tst.global.u32 [%rd3], %r3;\n";
  PtxModule m = PtxModule::parse(kernel(".param .u64 k_out", body));
  std::vector<uint32_t> out(64, 0);
  EmuOptions o;
  o.maxInstructionsPerThread = 4096;  // a spin that never yielded would run out
  EmuResult r = emulate(m, "k", {1, 1, 1}, {64, 1, 1}, {EmuArg::buf(0)}, {bytesOf(out)}, o);
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(out[0] == 5u);
}

TEST_CASE("the emulator reports what the ISA leaves undefined on mbarriers", "[emulator][mbarrier]") {
  SECTION("a phase that never completes is a deadlock, with the barrier's state") {
    std::string e = failureOf("\tmbarrier.init.shared::cta.b64 [%rd1], 2;\n\tmbarrier.arrive.shared::cta.b64 %rd2, [%rd1];\n"
                              "$L:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [%rd1], 0;\n\t@!%p1 bra $L;\n");
    CHECK_THAT(e, Catch::Contains("deadlock (an mbarrier phase that never completes)"));
    CHECK_THAT(e, Catch::Contains("phase 0, 1 of 2 arrivals and 0 transaction bytes pending"));
  }
  SECTION("bytes expected and never delivered") {
    std::string e = failureOf("\tmbarrier.init.shared::cta.b64 [%rd1], 1;\n"
                              "\tmbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%rd1], 64;\n"
                              "$L:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [%rd1], 0;\n\t@!%p1 bra $L;\n");
    CHECK_THAT(e, Catch::Contains("0 of 1 arrivals and 64 transaction bytes pending"));
  }
  SECTION("more arrivals than the phase expects") {
    std::string e = failureOf("\tmbarrier.init.shared::cta.b64 [%rd1], 2;\n\tmbarrier.arrive.shared::cta.b64 %rd2, [%rd1], 3;\n");
    CHECK_THAT(e, Catch::Contains("3 arrivals where the phase expects 2 more"));
  }
  SECTION("a barrier used before init, or after inval") {
    CHECK_THAT(failureOf("\tmbarrier.arrive.shared::cta.b64 %rd2, [%rd1];\n"),
               Catch::Contains("used before mbarrier.init (or after mbarrier.inval)"));
    CHECK_THAT(failureOf("\tmbarrier.init.shared::cta.b64 [%rd1], 1;\n\tmbarrier.inval.shared::cta.b64 [%rd1];\n"
                         "\tmbarrier.test_wait.parity.shared::cta.b64 %p1, [%rd1], 0;\n"),
               Catch::Contains("used before mbarrier.init (or after mbarrier.inval)"));
  }
  SECTION("an ordinary access to an initialized barrier's bytes") {
    std::string e = failureOf("\tmbarrier.init.shared::cta.b64 [%rd1], 1;\n\tmov.u32 %r1, 0;\n\tst.shared.u32 [bar+4], %r1;\n");
    CHECK_THAT(e, Catch::Contains("racing (the bytes of an initialized mbarrier at shared offset"));
  }
  SECTION("a count outside 1 .. 2^20 - 1, a misaligned barrier (so no two overlap)") {
    CHECK_THAT(failureOf("\tmbarrier.init.shared::cta.b64 [%rd1], 0;\n"), Catch::Contains("a count of 0"));
    CHECK_THAT(failureOf("\tmbarrier.init.shared::cta.b64 [%rd1], 1048576;\n"), Catch::Contains("a count of 1048576"));

    CHECK_THAT(failureOf("\tmbarrier.init.shared::cta.b64 [%rd1+4], 1;\n"), Catch::Contains("misaligned"));
  }
}

TEST_CASE("mbarrier forms the emulator does not run are refused when the PTX is read", "[emulator][mbarrier]") {
  auto refused = [](const std::string &instr) {
    INFO(instr);
    CHECK_THROWS(PtxModule::parse(kernel("", kBarrier + "\tmov.u64 %rd1, bar;\n" + instr)));
  };
  refused("\tmbarrier.init.b64 [%rd1], 1;\n");  // a generic address
  refused("\tmbarrier.arrive.shared::cluster.b64 _, [%rd1];\n");
  refused("\tmbarrier.arrive_drop.shared::cta.b64 %rd2, [%rd1];\n");
  refused("\tmbarrier.try_wait.parity.shared::cta.b64 %r1, [%rd1], 0;\n");  // not a predicate
  refused("\tmbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%rd1];\n");   // no byte count
}
