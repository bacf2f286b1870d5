// Tensor maps and the tensor memory accelerator's bulk copies in the emulator
// (EmuBulkCopy.cpp), against boxes computed here from the definition: a map
// built on the device as Triton's kernels build one (zeroed in shared memory,
// replaced field by field, copied to global memory with cp_fenceproxy), a
// box loaded by cp.async.bulk.tensor completing on an mbarrier (coordinates
// hanging over every edge read zeros, or NaN under fill mode 1; the 128-byte
// swizzle places 16-byte chunk c of row r at chunk c ^ (r % 8), as CUTLASS's
// layouts describe it), a box stored (only what lies inside the tensor is
// written), and what the emulator reports: reading a box before waiting on
// its barrier, a store reading shared bytes no fence.proxy.async made
// visible, a write to bytes a store still reads, a malformed map, and a
// barrier whose bytes never all arrive.
#include "EmulatorHelpers.h"

#include "runtime/Emulator.h"
#include "runtime/PtxModule.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace twintile::runtime;
using namespace twintile::test;

namespace {

/// A rows x cols tensor of u32 (elemtype 2) with a row pitch of `pitch` elements.
struct Tensor {
  uint32_t cols = 13, rows = 9, pitch = 16;
  std::vector<uint32_t> data;
  Tensor() { data.resize(size_t(rows) * pitch); for (size_t i = 0; i < data.size(); ++i) data[i] = 1000 + uint32_t(i); }
  bool inside(int64_t r, int64_t c) const { return r >= 0 && r < rows && c >= 0 && c < cols; }
  uint32_t at(int64_t r, int64_t c) const { return data[size_t(r) * pitch + size_t(c)]; }
};

struct Box {
  uint32_t cols = 8, rows = 4;  // cols u32: the box's inner 32 bytes
  int32_t c0 = 8, c1 = 7;       // coordinates: innermost (column) first
  uint32_t swizzle = 0;         // tensormap.replace's swizzle_mode value
  uint32_t fill = 0;
  uint32_t elemtype = 2;
  uint32_t expectBytes = 0;     // 0: the box's bytes
};

/// PTX that builds the tensor map for `t` (the address in %rd2) in shared
/// memory at `map`, then copies it to the global scratch at %rd4 (64-aligned).
std::string buildMap(const Tensor &t, const Box &b) {
  std::string s;
  for (int i = 0; i < 128; i += 16) s += "\tst.shared.v4.u32 [map+" + std::to_string(i) + "], {%r0, %r0, %r0, %r0};\n";
  auto rep = [&](const std::string &field, const std::string &args, bool wide = false) {
    s += "\ttensormap.replace.tile." + field + ".shared::cta.b1024." + (wide ? "b64" : "b32") + " [map], " + args + ";\n";
  };
  rep("global_address", "%rd2", true);
  rep("rank", "1");
  rep("box_dim", "0, " + std::to_string(b.cols));
  rep("box_dim", "1, " + std::to_string(b.rows));
  rep("global_dim", "0, " + std::to_string(t.cols));
  rep("global_dim", "1, " + std::to_string(t.rows));
  // The row stride in 16-byte units: the kernels say .version 8.0, and before
  // PTX ISA 8.6 ptxas reads it so (bytes from 8.6 on: the test below).
  s += "\tmov.u64 %rd9, " + std::to_string(t.pitch * 4 / 16) + ";\n";
  rep("global_stride", "0, %rd9", true);
  rep("element_stride", "0, 1");
  rep("element_stride", "1, 1");
  rep("elemtype", std::to_string(b.elemtype));
  rep("interleave_layout", "0");
  rep("swizzle_mode", std::to_string(b.swizzle));
  rep("fill_mode", std::to_string(b.fill));
  s += "\ttensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd4], [map], 128;\n"
       "\tfence.proxy.tensormap::generic.acquire.gpu [%rd4], 128;\n";
  return s;
}

const std::string kShared = "\t.shared .align 1024 .b8 box[4096];\n\t.shared .align 128 .b8 map[128];\n"
                            "\t.shared .align 8 .b64 bar;\n";

/// k(out, x, scratch): one thread loads the box into shared memory and
/// copies its `words` words out in shared-memory order.
std::string loadKernel(const Tensor &t, const Box &b, const std::string &beforeWait = "") {
  uint32_t bytes = b.expectBytes ? b.expectBytes : b.cols * b.rows * 4;
  std::string body = kShared +
                     "\tld.param.u64 %rd0, [k_out];\n\tld.param.u64 %rd2, [k_x];\n\tld.param.u64 %rd4, [k_scratch];\n"
                     "\tmov.u32 %r0, 0;\n" +
                     buildMap(t, b) +
                     "\tmbarrier.init.shared::cta.b64 [bar], 1;\n"
                     "\tmbarrier.arrive.expect_tx.shared::cta.b64 %rd5, [bar], " + std::to_string(bytes) + ";\n"
                     "\tmov.u32 %r1, " + std::to_string(b.c0) + ";\n\tmov.u32 %r2, " + std::to_string(b.c1) + ";\n"
                     "\tcp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [box], [%rd4, {%r1, %r2}], [bar];\n" +
                     beforeWait +
                     "$L_wait:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], 0;\n\t@!%p1 bra $L_wait;\n"
                     "\tmov.u32 %r3, 0;\n\tmov.u64 %rd6, box;\n"
                     "$L_copy:\n\tld.shared.u32 %r4, [%rd6];\n\tst.global.u32 [%rd0], %r4;\n"
                     "\tadd.u64 %rd6, %rd6, 4;\n\tadd.u64 %rd0, %rd0, 4;\n\tadd.u32 %r3, %r3, 1;\n"
                     "\tsetp.lt.u32 %p2, %r3, " + std::to_string(b.cols * b.rows) + ";\n\t@%p2 bra $L_copy;\n";
  return kernel(".param .u64 k_out, .param .u64 k_x, .param .u64 k_scratch", body);
}

EmuResult runLoad(const Tensor &t, const Box &b, std::vector<uint32_t> &out, const std::string &beforeWait = "") {
  PtxModule m = PtxModule::parse(loadKernel(t, b, beforeWait));
  std::vector<uint32_t> x = t.data, scratch(64, 0);
  out.assign(size_t(b.cols) * b.rows, 0xdeadbeef);
  return emulate(m, "k", {1, 1, 1}, {1, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1), EmuArg::buf(2)},
                 {bytesOf(out), bytesOf(x), bytesOf(scratch)});
}

} // namespace

TEST_CASE("cp.async.bulk.tensor loads a box through a tensor map built on the device", "[emulator][tma]") {
  Tensor t;
  for (auto [c0, c1] : {std::pair{8, 7}, std::pair{-3, -1}, std::pair{0, 0}, std::pair{13, 2}}) {
    Box b;
    b.c0 = c0, b.c1 = c1;
    INFO("coordinates " << c0 << ", " << c1);
    std::vector<uint32_t> out;
    EmuResult r = runLoad(t, b, out);
    INFO(r.error);
    REQUIRE(r.ok());
    for (uint32_t i = 0; i < b.rows; ++i)
      for (uint32_t j = 0; j < b.cols; ++j) {
        int64_t row = c1 + int64_t(i), col = c0 + int64_t(j);
        CHECK(out[i * b.cols + j] == (t.inside(row, col) ? t.at(row, col) : 0u));
      }
  }
}

TEST_CASE("a tensor map's stride is 16-byte units before PTX ISA 8.6 and bytes from it", "[emulator][tma]") {
  Tensor t;  // a row pitch of 64 bytes: 4 units
  Box b;
  b.c0 = 0, b.c1 = 1;
  auto run = [&](const std::string &version, int stride, std::vector<uint32_t> &out) {
    std::string ptx = loadKernel(t, b);
    auto swap = [&](const std::string &from, const std::string &to) {
      size_t at = ptx.find(from);
      REQUIRE(at != std::string::npos);
      ptx.replace(at, from.size(), to);
    };
    swap(".version 8.0", ".version " + version);
    swap("mov.u64 %rd9, 4;", "mov.u64 %rd9, " + std::to_string(stride) + ";");
    std::vector<uint32_t> x = t.data, scratch(64, 0);
    out.assign(size_t(b.cols) * b.rows, 0xdeadbeef);
    return emulate(PtxModule::parse(ptx), "k", {1, 1, 1}, {1, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1), EmuArg::buf(2)},
                   {bytesOf(out), bytesOf(x), bytesOf(scratch)})
        .error;
  };
  std::vector<uint32_t> units, bytes, misread;
  CHECK(run("8.3", 4, units) == "");
  CHECK(run("8.6", 64, bytes) == "");
  CHECK(units == bytes);
  for (uint32_t i = 0; i < b.rows; ++i)
    for (uint32_t j = 0; j < b.cols; ++j) CHECK(units[i * b.cols + j] == (t.inside(1 + i, j) ? t.at(1 + i, j) : 0u));
  // 4 read as bytes from 8.6 on: a stride no map may hold.
  CHECK_THAT(run("8.6", 4, misread), Catch::Contains("stride 0 (4 bytes) is not a multiple of 16 below 2^40"));
}

TEST_CASE("a bulk tensor load fills with NaN under fill mode 1 and swizzles 16-byte chunks", "[emulator][tma]") {
  Tensor t;
  t.cols = 40, t.rows = 9, t.pitch = 40;
  t.data.assign(size_t(t.rows) * t.pitch, 0);
  for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = std::bit_cast<uint32_t>(float(i));
  Box b;
  b.cols = 32, b.rows = 8, b.c0 = 16, b.c1 = 3, b.swizzle = 3, b.fill = 1, b.elemtype = 7;  // f32, 128-byte rows
  std::vector<uint32_t> out;
  EmuResult r = runLoad(t, b, out);
  INFO(r.error);
  REQUIRE(r.ok());
  for (uint32_t i = 0; i < b.rows; ++i)
    for (uint32_t j = 0; j < b.cols; ++j) {
      uint32_t chunk = j / 4, within = j % 4;
      size_t at = size_t(i) * 32 + ((chunk ^ (i % 8)) * 4) + within;  // row i's chunk c at chunk c ^ (i % 8)
      int64_t row = b.c1 + int64_t(i), col = b.c0 + int64_t(j);
      INFO("box element " << i << ", " << j);
      if (t.inside(row, col)) CHECK(out[at] == t.at(row, col));
      else CHECK(std::isnan(std::bit_cast<float>(out[at])));
    }
}

TEST_CASE("cp.async.bulk.tensor stores the part of a box inside the tensor", "[emulator][tma]") {
  Tensor t;
  Box b;
  b.c0 = 9, b.c1 = -2;
  std::string body = kShared +
                     "\tld.param.u64 %rd2, [k_x];\n\tld.param.u64 %rd4, [k_scratch];\n\tmov.u32 %r0, 0;\n" +
                     buildMap(t, b) +
                     "\tmov.u32 %r3, 0;\n\tmov.u64 %rd6, box;\n"
                     "$L_fill:\n\tadd.u32 %r4, %r3, 7;\n\tst.shared.u32 [%rd6], %r4;\n\tadd.u64 %rd6, %rd6, 4;\n"
                     "\tadd.u32 %r3, %r3, 1;\n\tsetp.lt.u32 %p2, %r3, 32;\n\t@%p2 bra $L_fill;\n"
                     "\tfence.proxy.async.shared::cta;\n"
                     "\tmov.u32 %r1, 9;\n\tmov.u32 %r2, -2;\n"
                     "\tcp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd4, {%r1, %r2}], [box];\n"
                     "\tcp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group.read 0;\n"
                     "\tst.shared.u32 [box], %r0;\n";  // after the wait: the box is free again
  PtxModule m = PtxModule::parse(kernel(".param .u64 k_x, .param .u64 k_scratch", body));
  std::vector<uint32_t> x = t.data, scratch(64, 0);
  EmuResult r = emulate(m, "k", {1, 1, 1}, {1, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1)}, {bytesOf(x), bytesOf(scratch)});
  INFO(r.error);
  REQUIRE(r.ok());
  for (uint32_t row = 0; row < t.rows; ++row)
    for (uint32_t col = 0; col < t.pitch; ++col) {
      int64_t i = int64_t(row) - b.c1, j = int64_t(col) - b.c0;
      bool written = col < t.cols && i >= 0 && i < b.rows && j >= 0 && j < b.cols;
      INFO("element " << row << ", " << col);
      CHECK(x[size_t(row) * t.pitch + col] == (written ? uint32_t(i * b.cols + j + 7) : t.at(row, col)));
    }
}

TEST_CASE("the emulator reports misuse of tensor maps and bulk copies", "[emulator][tma]") {
  Tensor t;
  std::vector<uint32_t> out;
  SECTION("a box read before any thread waits on its barrier") {
    EmuResult r = runLoad(t, Box{}, out, "\tld.shared.u32 %r9, [box+16];\n");
    CHECK_THAT(r.error, Catch::Contains("racing (a cp.async.bulk.tensor to byte"));
    CHECK_THAT(r.error, Catch::Contains("no thread has waited on the mbarrier it completes on"));
  }
  SECTION("fewer bytes expected than the box delivers: the phase never completes") {
    Box b;
    b.expectBytes = 64;
    EmuResult r = runLoad(t, b, out);
    CHECK_THAT(r.error, Catch::Contains("deadlock (an mbarrier phase that never completes)"));
    CHECK_THAT(r.error, Catch::Contains("64 transaction bytes more delivered than expected"));
  }
  SECTION("a malformed tensor map") {
    Box b;
    b.cols = 3;  // 12 bytes
    CHECK_THAT(runLoad(t, b, out).error, Catch::Contains("the box's inner dimension spans 12 bytes, not a multiple of 16"));
    b = Box{};
    b.elemtype = 13;
    CHECK_THAT(runLoad(t, b, out).error, Catch::Contains("element type 13 is not one the emulator copies"));
    b = Box{};
    b.swizzle = 1;  // 32 bytes: the 8-column box fits
    b.cols = 16;    // 64 bytes: it does not
    CHECK_THAT(runLoad(t, b, out).error, Catch::Contains("more than the 32-byte swizzle"));
    b = Box{};
    b.fill = 1;  // u32: NaN does not apply
    CHECK_THAT(runLoad(t, b, out).error, Catch::Contains("fill mode 1 does not apply"));
  }
  SECTION("a store of bytes written without fence.proxy.async, and a write under a store") {
    Box b;
    auto store = [&](const std::string &between, const std::string &after) {
      std::string body = kShared + "\tld.param.u64 %rd2, [k_x];\n\tld.param.u64 %rd4, [k_scratch];\n\tmov.u32 %r0, 0;\n" +
                         buildMap(t, b) + "\tst.shared.u32 [box+4], %r0;\n" + between + "\tmov.u32 %r1, 0;\n" +
                         "\tcp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd4, {%r1, %r1}], [box];\n"
                         "\tcp.async.bulk.commit_group;\n" +
                         after + "\tcp.async.bulk.wait_group.read 0;\n";
      std::vector<uint32_t> x = t.data, scratch(64, 0);
      return failure(kernel(".param .u64 k_x, .param .u64 k_scratch", body), {1, 1, 1}, {1, 1, 1},
                     {EmuArg::buf(0), EmuArg::buf(1)}, {bytesOf(x), bytesOf(scratch)});
    };
    CHECK_THAT(store("", ""), Catch::Contains("has not made visible to the async proxy since"));
    CHECK_THAT(store("\tfence.proxy.async.shared::cta;\n", "\tst.shared.u32 [box+8], %r0;\n"),
               Catch::Contains("racing (a cp.async.bulk.tensor store reads byte"));
  }
}

TEST_CASE("boxes and maps are checked where they land, not by their size's alignment", "[emulator][tma]") {
  Tensor t;
  auto run = [&](const std::string &shared, const std::string &dst, const std::string &scratchAt, uint32_t swizzle,
                 uint32_t cols, uint32_t rows, const std::string &after = "") {
    Box b;
    b.cols = cols, b.rows = rows, b.swizzle = swizzle, b.c0 = 0, b.c1 = 0;
    uint32_t bytes = cols * rows * 4;
    std::string body = "\t.shared .align 128 .b8 map[128];\n\t.shared .align 8 .b64 bar;\n" + shared +  // the box last
                       "\tld.param.u64 %rd2, [k_x];\n\tld.param.u64 %rd4, [k_scratch];\n" +
                       "\tadd.u64 %rd4, %rd4, " + scratchAt + ";\n\tmov.u32 %r0, 0;\n" + buildMap(t, b) +
                       "\tmbarrier.init.shared::cta.b64 [bar], 1;\n"
                       "\tmbarrier.arrive.expect_tx.shared::cta.b64 %rd5, [bar], " + std::to_string(bytes) + ";\n"
                       "\tmov.u32 %r1, 0;\n"
                       "\tcp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [" + dst +
                       "], [%rd4, {%r1, %r1}], [bar];\n" + after +
                       "$L_wait:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], 0;\n\t@!%p1 bra $L_wait;\n";
    PtxModule m = PtxModule::parse(kernel(".param .u64 k_x, .param .u64 k_scratch", body));
    std::vector<uint32_t> x = t.data, scratch(64, 0);
    return emulate(m, "k", {1, 1, 1}, {1, 1, 1}, {EmuArg::buf(0), EmuArg::buf(1)}, {bytesOf(x), bytesOf(scratch)});
  };
  // A 256-byte box at offset 128 and a map 64 bytes into the scratch: aligned as the ISA asks.
  EmuResult r = run("\t.shared .align 1024 .b8 box[1024];\n", "box+128", "64", 0, 8, 8);
  INFO(r.error);
  CHECK(r.ok());
  // A 16-byte box in the last row of shared memory (the box's array ends it), swizzled past its end.
  r = run("\t.shared .align 1024 .b8 box[912];\n", "box+896", "0", 3, 4, 1);
  CHECK_THAT(r.error, Catch::Contains("out-of-bounds box: its chunk 0 lands at shared address"));
  // A store from bytes a load has not delivered.
  r = run("\t.shared .align 1024 .b8 box[1024];\n", "box", "0", 0, 8, 4,
          "\tcp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd4, {%r1, %r1}], [box];\n");
  CHECK_THAT(r.error, Catch::Contains("racing (a cp.async.bulk.tensor load to shared byte"));
}

TEST_CASE("bulk copies outliving their thread or block are reported", "[emulator][tma]") {
  Tensor t;
  Box b;
  std::string prologue = kShared + "\tld.param.u64 %rd2, [k_x];\n\tld.param.u64 %rd4, [k_scratch];\n\tmov.u32 %r0, 0;\n" +
                         buildMap(t, b) + "\tmov.u32 %r1, 0;\n";
  auto fails = [&](const std::string &body) {
    std::vector<uint32_t> x = t.data, scratch(64, 0);
    return failure(kernel(".param .u64 k_x, .param .u64 k_scratch", prologue + body), {1, 1, 1}, {1, 1, 1},
                   {EmuArg::buf(0), EmuArg::buf(1)}, {bytesOf(x), bytesOf(scratch)});
  };
  CHECK_THAT(fails("\tmbarrier.init.shared::cta.b64 [bar], 1;\n"
                   "\tmbarrier.arrive.expect_tx.shared::cta.b64 %rd5, [bar], 128;\n"
                   "\tcp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [box], [%rd4, {%r1, %r1}], [bar];\n"),
             Catch::Contains("ended with cp.async.bulk.tensor loads no thread waited for"));
  CHECK_THAT(fails("\tfence.proxy.async.shared::cta;\n"
                   "\tcp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd4, {%r1, %r1}], [box];\n"
                   "\tcp.async.bulk.commit_group;\n"),
             Catch::Contains("exited with a cp.async.bulk.tensor store still reading shared memory"));
}

TEST_CASE("bulk copy forms the emulator does not run are refused when the PTX is read", "[emulator][tma]") {
  auto refused = [](const std::string &instr) {
    INFO(instr);
    CHECK_THROWS(PtxModule::parse(kernel("", kShared + instr)));
  };
  refused("\tcp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [box], "
          "[%rd4, {%r1, %r2}], [bar], %rs1;\n");
  refused("\tcp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [box], [%rd4, {%r1, %r2}], [bar];\n");
  refused("\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [box], [%rd4], 64, [bar];\n");
  refused("\ttensormap.replace.tile.swizzle_atomicity.shared::cta.b1024.b32 [map], 0;\n");
  refused("\ttensormap.replace.tile.elemtype.shared::cta.b1024.b32 [map], %r1;\n");  // an immediate only
  refused("\tld.shared.u32 %r1, [%rd4, {%r1}];\n");  // coordinates where an address belongs
}
