// The emulator's dynamic counts (EmuOptions::profile, runtime/EmuProfile.cpp):
// hand-written kernels whose warp-level instruction issues, global sectors and
// shared-memory wavefronts are worked out here from the access pattern.
#include "runtime/Emulator.h"

#include "EmulatorHelpers.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using namespace twintile::runtime;
using namespace twintile::test;

namespace {

/// Each thread loads out[tid * STRIDE] (f32) and stores it back: one global load and one store per warp.
EmuProfile globalPattern(uint32_t threads, uint32_t strideElems, std::vector<float> &buf) {
  std::string body = "\tld.param.u64 %rd0, [k_out];\n\tmov.u32 %r1, %tid.x;\n"
                     "\tmul.lo.u32 %r2, %r1, " + std::to_string(strideElems * 4) + ";\n"
                     "\tcvt.u64.u32 %rd1, %r2;\n\tadd.s64 %rd2, %rd0, %rd1;\n"
                     "\tld.global.f32 %f1, [%rd2];\n\tadd.f32 %f1, %f1, 0f3F800000;\n\tst.global.f32 [%rd2], %f1;\n";
  PtxModule m = PtxModule::parse(kernel(".param .u64 k_out", body));
  EmuOptions o;
  o.profile = true;
  EmuResult r = emulate(m, "k", {1, 1, 1}, {threads, 1, 1}, {EmuArg::buf(0)}, {bytesOf(buf)}, o);
  INFO(r.error);
  REQUIRE(r.ok());
  return r.profile;
}

/// Each thread stores to shared word tid * STRIDE_WORDS (u32), then loads word LOAD(tid).
EmuProfile sharedPattern(uint32_t strideWords, const std::string &loadIndex) {
  std::string body = "\tmov.u32 %r1, %tid.x;\n\tmul.lo.u32 %r2, %r1, " + std::to_string(strideWords * 4) + ";\n"
                     "\tmov.u32 %r3, smem;\n\tadd.s32 %r4, %r3, %r2;\n\tst.shared.u32 [%r4], %r1;\n"
                     "\tbar.sync 0;\n" + loadIndex + "\tld.shared.u32 %r6, [%r5];\n";
  PtxModule m = PtxModule::parse(kernel("", body, ".shared .align 4 .b8 smem[32768];\n"));
  EmuOptions o;
  o.profile = true;
  EmuResult r = emulate(m, "k", {1, 1, 1}, {32, 1, 1}, {}, {}, o);
  INFO(r.error);
  REQUIRE(r.ok());
  return r.profile;
}

} // namespace

TEST_CASE("warp-level issues count each instruction once per warp", "[emulator][profile]") {
  std::vector<float> buf(64 * 32, 1.0f);
  EmuProfile p = globalPattern(64, 1, buf);
  // Two warps, every lane runs the same straight-line code once.
  CHECK(p.warpInstructions.at("ld.global.f32") == 2);
  CHECK(p.warpInstructions.at("st.global.f32") == 2);
  CHECK(p.warpInstructions.at("add.f32") == 2);
  CHECK(p.warpInstructions.at("ret") == 2);
  CHECK(buf[0] == 2.0f);
}

TEST_CASE("coalesced f32 accesses touch 4 sectors per warp, strided ones 32", "[emulator][profile]") {
  std::vector<float> buf(32 * 32, 1.0f);
  EmuProfile dense = globalPattern(32, 1, buf);
  CHECK(dense.globalRequests == 2);    // one load, one store
  CHECK(dense.globalSectors == 2 * 4); // 32 lanes x 4 bytes = 128 bytes = 4 sectors
  CHECK(dense.globalBytes == 2 * 128);
  EmuProfile strided = globalPattern(32, 8, buf);  // 32 bytes apart: a sector per lane
  CHECK(strided.globalRequests == 2);
  CHECK(strided.globalSectors == 2 * 32);
}

TEST_CASE("shared accesses: consecutive words take one wavefront, one bank 32, one word broadcasts", "[emulator][profile]") {
  const std::string same = "\tmov.u32 %r5, smem;\n";  // every lane loads word 0
  const std::string own = "\tmov.u32 %r5, %r4;\n";    // every lane loads what it stored
  EmuProfile consecutive = sharedPattern(1, own);
  CHECK(consecutive.sharedRequests == 2);
  CHECK(consecutive.sharedWavefronts == 2);
  CHECK(consecutive.sharedIdealWavefronts == 2);
  EmuProfile oneBank = sharedPattern(32, own);  // word tid*32: all in bank 0, all different
  CHECK(oneBank.sharedWavefronts == 2 * 32);
  CHECK(oneBank.sharedIdealWavefronts == 2);
  EmuProfile broadcast = sharedPattern(32, same);  // the store conflicts, the load broadcasts
  CHECK(broadcast.sharedWavefronts == 32 + 1);
}

TEST_CASE("without profiling nothing is counted", "[emulator][profile]") {
  std::string body = "\tld.param.u64 %rd0, [k_out];\n\tst.global.u32 [%rd0], 7;\n";
  PtxModule m = PtxModule::parse(kernel(".param .u64 k_out", body));
  std::vector<uint32_t> out(1);
  EmuResult r = emulate(m, "k", {}, {}, {EmuArg::buf(0)}, {bytesOf(out)});
  REQUIRE(r.ok());
  CHECK(r.profile.warpInstructions.empty());
  CHECK(r.profile.globalRequests == 0);
}
