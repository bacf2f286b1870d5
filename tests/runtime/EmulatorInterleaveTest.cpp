// Programs that wait for each other (runtime/EmuInterleave.cpp): with
// EmuOptions::interleave the grid's blocks run at the same time, switching
// at global atomics and volatile loads, so a spin lock taken by several
// programs contends and a decoupled look-back waits for its predecessor;
// programs that wait for each other forever are a deadlock named with each
// program's position, never a hang. Hand-written PTX, one thread a block.
#include "runtime/Emulator.h"

#include "EmulatorHelpers.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

using namespace twintile::runtime;
using namespace twintile::test;

namespace {

// Every program takes the lock with atom.cas, counts its failed attempts,
// and increments the counter inside the critical section by a load, an add
// and a store, with a volatile load between them where another program may
// run: without the lock, increments would be lost.
const std::string kSpinLock = kernel(
    ".param .u64 k_lock, .param .u64 k_count, .param .u64 k_failed",
    "\tld.param.u64 %rd1, [k_lock];\n\tld.param.u64 %rd2, [k_count];\n\tld.param.u64 %rd3, [k_failed];\n"
    "$L_spin:\n"
    "\tatom.global.cas.b32 %r1, [%rd1], 0, 1;\n"
    "\tsetp.eq.u32 %p1, %r1, 0;\n"
    "\t@%p1 bra $L_got;\n"
    "\tatom.global.add.u32 %r2, [%rd3], 1;\n"
    "\tbra $L_spin;\n"
    "$L_got:\n"
    "\tld.global.u32 %r3, [%rd2];\n"
    "\tld.volatile.global.u32 %r5, [%rd3];\n"
    "\tadd.u32 %r3, %r3, 1;\n"
    "\tst.global.u32 [%rd2], %r3;\n"
    "\tatom.global.exch.b32 %r4, [%rd1], 0;\n");

struct LockRun {
  EmuResult result;
  uint32_t lock = 0, count = 0, failed = 0;
};

LockRun runLock(uint32_t programs, EmuOptions options) {
  std::vector<uint32_t> lock(1, 0), count(1, 0), failed(1, 0);
  LockRun r;
  r.result = emulate(PtxModule::parse(kSpinLock), "k", {programs, 1, 1}, {1, 1, 1},
                     {EmuArg::buf(0), EmuArg::buf(1), EmuArg::buf(2)}, {bytesOf(lock), bytesOf(count), bytesOf(failed)},
                     options);
  r.lock = lock[0];
  r.count = count[0];
  r.failed = failed[0];
  return r;
}

// Program i waits until flag[i - 1] is set (a volatile load in a loop), then
// writes out[i] = out[i - 1] + 1 and sets flag[i]: a chain, as a decoupled
// look-back's, where a program that runs before its predecessor must wait.
const std::string kChain = kernel(
    ".param .u64 k_flag, .param .u64 k_out",
    "\tld.param.u64 %rd1, [k_flag];\n\tld.param.u64 %rd2, [k_out];\n"
    "\tmov.u32 %r1, %ctaid.x;\n"
    "\tmul.wide.u32 %rd3, %r1, 4;\n"
    "\tadd.s64 %rd4, %rd1, %rd3;\n"  // &flag[i]
    "\tadd.s64 %rd5, %rd2, %rd3;\n"  // &out[i]
    "\tmov.u32 %r3, 1;\n"
    "\tsetp.eq.u32 %p1, %r1, 0;\n"
    "\t@%p1 bra $L_write;\n"
    "$L_wait:\n"
    "\tld.volatile.global.u32 %r2, [%rd4+-4];\n"
    "\tsetp.eq.u32 %p2, %r2, 0;\n"
    "\t@%p2 bra $L_wait;\n"
    "\tld.global.u32 %r3, [%rd5+-4];\n"
    "\tadd.u32 %r3, %r3, 1;\n"
    "$L_write:\n"
    "\tst.global.u32 [%rd5], %r3;\n"
    "\tst.global.u32 [%rd4], 1;\n");

// Programs 0 and 1 each wait for the other's flag before setting their own.
const std::string kCrossWait = kernel(
    ".param .u64 k_flag",
    "\tld.param.u64 %rd1, [k_flag];\n"
    "\tmov.u32 %r1, %ctaid.x;\n"
    "\txor.b32 %r2, %r1, 1;\n"
    "\tmul.wide.u32 %rd2, %r2, 4;\n"
    "\tadd.s64 %rd3, %rd1, %rd2;\n"
    "$L_wait:\n"
    "\tld.volatile.global.u32 %r3, [%rd3];\n"
    "\tsetp.eq.u32 %p1, %r3, 0;\n"
    "\t@%p1 bra $L_wait;\n"
    "\tmul.wide.u32 %rd4, %r1, 4;\n"
    "\tadd.s64 %rd5, %rd1, %rd4;\n"
    "\tst.global.u32 [%rd5], 1;\n");

} // namespace

TEST_CASE("a spin lock taken by several programs contends, and holds", "[emulator][interleave]") {
  // One after another, no program ever finds the lock taken.
  LockRun serial = runLock(8, {});
  REQUIRE(serial.result.ok());
  CHECK(serial.count == 8);
  CHECK(serial.failed == 0);
  uint32_t contended = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    EmuOptions o;
    o.interleave = 4;
    o.seed = seed;
    LockRun r = runLock(8, o);
    INFO("seed " << seed << ": " << r.result.error);
    REQUIRE(r.result.ok());
    CHECK(r.count == 8);  // no increment lost: the lock excludes
    CHECK(r.lock == 0);   // and every program released it
    contended += r.failed;
  }
  CHECK(contended > 0);  // programs really found it taken
}

TEST_CASE("the same seed runs programs in the same order", "[emulator][interleave]") {
  EmuOptions o;
  o.interleave = 3;
  o.seed = 42;
  LockRun a = runLock(6, o), b = runLock(6, o);
  REQUIRE(a.result.ok());
  REQUIRE(b.result.ok());
  CHECK(a.failed == b.failed);
  CHECK(a.result.instructions == b.result.instructions);
}

TEST_CASE("a program that waits for its predecessor waits while the predecessor runs", "[emulator][interleave]") {
  for (uint32_t window : {2u, 4u, 16u})
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      std::vector<uint32_t> flag(16, 0), out(16, 0);
      EmuOptions o;
      o.interleave = window;
      o.seed = seed;
      EmuResult r = emulate(PtxModule::parse(kChain), "k", {16, 1, 1}, {1, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1)},
                            {bytesOf(flag), bytesOf(out)}, o);
      INFO("window " << window << ", seed " << seed << ": " << r.error);
      REQUIRE(r.ok());
      std::vector<uint32_t> want(16);
      std::iota(want.begin(), want.end(), 1u);
      CHECK(out == want);
    }
}

TEST_CASE("programs that wait for each other are a deadlock, with where each waits", "[emulator][interleave]") {
  std::vector<uint32_t> flag(2, 0);
  EmuOptions o;
  o.interleave = 2;
  o.seed = 7;
  std::string err = failure(kCrossWait, {2, 1, 1}, {1, 1, 1}, {EmuArg::buf(0)}, {bytesOf(flag)}, o);
  int line = lineOf(kCrossWait, "ld.volatile");
  CHECK(err.rfind("deadlock: the 2 resident programs (of 2, at most 2 at once) wait for memory that no program changes:",
                  0) == 0);
  CHECK(err.find("program (0,0,0) thread 0 repeats line " + std::to_string(line) + " (ld.volatile.global.u32)") !=
        std::string::npos);
  CHECK(err.find("program (1,0,0) thread 0 repeats line " + std::to_string(line)) != std::string::npos);
}

TEST_CASE("a program that waits for one not yet resident is a deadlock too", "[emulator][interleave]") {
  // One slot: program 1 waits for program 0, which runs first and ends, so
  // the chain completes; program 0 of the cross wait holds the only slot.
  std::vector<uint32_t> flag(4, 0), out(4, 0);
  EmuOptions o;
  o.interleave = 1;
  EmuResult chain = emulate(PtxModule::parse(kChain), "k", {4, 1, 1}, {1, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1)},
                            {bytesOf(flag), bytesOf(out)}, o);
  INFO(chain.error);
  CHECK(chain.ok());
  std::vector<uint32_t> cross(2, 0);
  std::string err = failure(kCrossWait, {2, 1, 1}, {1, 1, 1}, {EmuArg::buf(0)}, {bytesOf(cross)}, o);
  CHECK(err.rfind("deadlock: the 1 resident program (of 2, at most 1 at once) wait for memory that no program changes: "
                  "program (0,0,0)",
                  0) == 0);
}
