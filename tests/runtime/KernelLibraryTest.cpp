// A kernel library's calls (runtime/KernelLibrary.h): which variant runs,
// on which target, with which image, and every way a call fails as a
// returned message. A recording device stands in for a real one; the whole
// path, from `twintile library` to a program on the emulator, is
// tests/package/check_package.sh's.
#include "runtime/KernelLibrary.h"

#include <catch2/catch.hpp>

#include <memory>

using namespace twintile::runtime;

namespace {

/// Runs nothing; remembers what it was given.
class Recorder final : public Device {
public:
  Capabilities can;
  KernelImage last;  // a copy: the caller's goes with the call
  std::string name() const override { return "recorder"; }
  Capabilities capabilities() const override { return can; }
  std::string describe() const override { return "a recording device"; }
  Dim3 maxGrid() const override { return {1u << 20, 1, 1}; }
  LaunchResult launch(const KernelImage &kernel, const std::vector<LaunchArg> &args,
                      std::vector<std::span<uint8_t>> buffers, const LaunchOptions &) override {
    last = kernel;
    LaunchResult r;
    r.error = checkLaunch(kernel.manifest, args, buffers);
    return r;
  }
};

std::string manifest(const std::string &arch, bool aligned, bool divisible) {
  Manifest m;
  m.kernel = "k";
  m.arch = arch;
  m.params = {{"x", "ptr<f32>", {aligned, false}}, {"n", "i32", {false, divisible}}};
  return m.toJson();
}

const unsigned char kCubin[] = {1, 2, 3};

struct Library {
  std::vector<std::string> manifests;
  std::vector<CompiledVariant> variants;
  CompiledKernel kernel{};
  Library() {
    // By target (sm_90a, then sm_80), most specialized first.
    for (const char *arch : {"sm_90a", "sm_80"}) {
      manifests.push_back(manifest(arch, true, true));
      manifests.push_back(manifest(arch, true, false));
      manifests.push_back(manifest(arch, false, false));
    }
    const char *names[] = {"x:aligned n:divisible", "x:aligned", "plain"};
    for (size_t i = 0; i < manifests.size(); ++i)
      variants.push_back({names[i % 3], manifests[i].c_str(), "// ptx", 6, kCubin, sizeof kCubin, "func @k()"});
    kernel = {"k<f32>", "k.cpp", variants.data(), variants.size()};
  }
};

} // namespace

TEST_CASE("a call runs the most specialized variant its arguments keep, for the device's preferred target") {
  Library lib;
  Recorder device;
  device.can.targets = {"sm_90a", "sm_80"};
  alignas(16) float storage[20] = {};
  std::span<float> aligned(storage, 16), unaligned(storage + 1, 16);

  Call c = callCompiled(lib.kernel, device, {1}, {}, {LaunchArg::buf(0), scalarArg(int32_t(32))}, {bufferBytes(aligned)});
  REQUIRE(c.ok());
  CHECK(c.variant == "x:aligned n:divisible");
  CHECK(c.target == "sm_90a");
  c = callCompiled(lib.kernel, device, {1}, {}, {LaunchArg::buf(0), scalarArg(int32_t(33))}, {bufferBytes(aligned)});
  CHECK(c.variant == "x:aligned");
  c = callCompiled(lib.kernel, device, {1}, {}, {LaunchArg::buf(0), scalarArg(int32_t(32))}, {bufferBytes(unaligned)});
  CHECK(c.variant == "plain");

  // A device that runs sm_80 alone gets sm_80's variants.
  device.can.targets = {"sm_80"};
  c = callCompiled(lib.kernel, device, {1}, {}, {LaunchArg::buf(0), scalarArg(int32_t(32))}, {bufferBytes(aligned)});
  CHECK(c.target == "sm_80");
  CHECK(c.variant == "x:aligned n:divisible");
}

TEST_CASE("a library's cubin goes to a device that loads that target's cubins, and to no other") {
  Library lib;
  Recorder device;
  alignas(16) float storage[16] = {};
  std::vector<LaunchArg> args{LaunchArg::buf(0), scalarArg(int32_t(16))};
  device.can.targets = {"sm_90a", "sm_80"};
  device.can.cubinTarget = "sm_90a";
  REQUIRE(callCompiled(lib.kernel, device, {1}, {}, args, {bufferBytes(std::span<float>(storage))}).ok());
  CHECK(device.last.cubin.size() == 3);
  device.can.cubinTarget = "";
  REQUIRE(callCompiled(lib.kernel, device, {1}, {}, args, {bufferBytes(std::span<float>(storage))}).ok());
  CHECK(device.last.cubin.empty());
  CHECK(device.last.ptx == "// ptx");
  CHECK(device.last.tileIR == "func @k()");
}

TEST_CASE("a call no variant can take is an error returned, naming why") {
  Library lib;
  Recorder device;
  alignas(16) float storage[16] = {};
  device.can.targets = {"sm_100"};
  Call c = callCompiled(lib.kernel, device, {1}, {}, {LaunchArg::buf(0), scalarArg(int32_t(16))},
                        {bufferBytes(std::span<float>(storage))});
  CHECK_FALSE(c.ok());
  CHECK(c.error == "'k<f32>' was compiled for sm_90a and sm_80, and the device (a recording device) runs sm_100");
  CHECK(c.variant.empty());

  // Arguments that even the plain variant refuses: its own message.
  device.can.targets = {"sm_90a"};
  c = callCompiled(lib.kernel, device, {1}, {}, {LaunchArg::buf(0)}, {bufferBytes(std::span<float>(storage))});
  CHECK(c.error == "'k<f32>': kernel 'k' takes 2 arguments, got 1");

  // A library whose manifest does not read is twintile's fault, said so.
  std::string broken = "{";
  lib.variants[0].manifest = broken.c_str();
  c = callCompiled(lib.kernel, device, {1}, {}, {LaunchArg::buf(0), scalarArg(int32_t(16))},
                   {bufferBytes(std::span<float>(storage))});
  CHECK(c.error.starts_with("internal error: the kernel library's manifest of 'k<f32>' (x:aligned n:divisible) does not read"));
}

TEST_CASE("a tuned call runs the configuration of its key's row, or of the nearest row, over the table's grid") {
  Library small, wide;  // two configurations' compiled kernels
  small.kernel.spec = "k<32>";
  wide.kernel.spec = "k<256>";
  const TunedMeta smallMeta[] = {{"BLOCK", 32}}, wideMeta[] = {{"BLOCK", 256}};
  const int64_t keys[] = {100, 4096};
  const TunedRow rows[] = {{keys, &small.kernel, "BLOCK=32", smallMeta, 1},
                           {keys + 1, &wide.kernel, "BLOCK=256 num_warps=4", wideMeta, 1}};
  TunedTable table{"k<{BLOCK}>", "cdiv(n, BLOCK), 2", 1, rows, 2};
  Recorder device;
  device.can.targets = {"sm_90a"};
  alignas(16) float storage[16] = {};
  auto call = [&](int64_t n) {
    return callTuned(table, device, {}, {LaunchArg::buf(0), scalarArg(int32_t(n))},
                     {bufferBytes(std::span<float>(storage))}, {n}, {{"n", n}});
  };
  Call c = call(100);
  REQUIRE(c.ok());
  CHECK((c.config == "BLOCK=32" && !c.nearest));
  c = call(3000);  // log2 distance: 4096's 0.45 against 100's 4.9
  CHECK((c.config == "BLOCK=256 num_warps=4" && c.nearest));
  c = call(150);
  CHECK((c.config == "BLOCK=32" && c.nearest));
  c = call(-5);  // a negative key is far from every positive one: the first row of equals, whose grid is 0
  CHECK((c.config == "BLOCK=32" && c.nearest));
  CHECK(c.error == "the grid of 'k<{BLOCK}>' for BLOCK=32: 'cdiv(n, BLOCK)' is 0, not a size");

  // 0 and 1 are apart: a flag's row is its own.
  const int64_t flags[] = {0, 1};
  const TunedRow flagRows[] = {{flags, &small.kernel, "BLOCK=32", smallMeta, 1},
                               {flags + 1, &wide.kernel, "BLOCK=256 num_warps=4", wideMeta, 1}};
  TunedTable flagTable{"k<{BLOCK}>", "1", 1, flagRows, 2};
  c = callTuned(flagTable, device, {}, {LaunchArg::buf(0), scalarArg(int32_t(1))},
                {bufferBytes(std::span<float>(storage))}, {1}, {});
  CHECK((c.config == "BLOCK=256 num_warps=4" && !c.nearest));
  c = callTuned(flagTable, device, {}, {LaunchArg::buf(0), scalarArg(int32_t(1))},
                {bufferBytes(std::span<float>(storage))}, {2}, {});
  CHECK((c.config == "BLOCK=256 num_warps=4" && c.nearest));

  // The grid's expression is the table's, with the row's meta-parameters.
  table.grid = "n / (BLOCK - 32)";
  c = call(100);
  CHECK(c.error == "the grid of 'k<{BLOCK}>' for BLOCK=32: 'n / (BLOCK - 32)': column 17: division by zero");
  table.grid = "n - 1000";
  c = call(100);
  CHECK(c.error == "the grid of 'k<{BLOCK}>' for BLOCK=32: 'n - 1000' is -900, not a size");
  // A key of another length is the library's fault.
  table.grid = "1";
  c = callTuned(table, device, {}, {LaunchArg::buf(0), scalarArg(int32_t(1))}, {bufferBytes(std::span<float>(storage))},
                {1, 2}, {});
  CHECK(c.error.starts_with("internal error:"));
}

TEST_CASE("the targets a GPU runs follow its compute capability") {
  CHECK(targetsForComputeCapability(9, 0) == std::vector<std::string>{"sm_90a", "sm_80"});
  CHECK(targetsForComputeCapability(8, 6) == std::vector<std::string>{"sm_80"});
  CHECK(targetsForComputeCapability(10, 0) == std::vector<std::string>{"sm_80"});
  CHECK(targetsForComputeCapability(7, 5).empty());
  CHECK(cubinTargetForComputeCapability(9, 0) == "sm_90a");
  CHECK(cubinTargetForComputeCapability(8, 9) == "sm_80");
  CHECK(cubinTargetForComputeCapability(12, 0).empty());
}

TEST_CASE("f16 and bf16 hold a value's bits, rounded to nearest even") {
  CHECK(f16::of(1.0f).bits == 0x3c00);
  CHECK(f16::of(-2.5f).value() == -2.5f);
  CHECK(f16::of(65520.0f).bits == 0x7c00);  // past the largest finite: infinity
  CHECK(f16::of(1.0f + 1.0f / 2048).bits == 0x3c00);  // a tie: to even
  CHECK(bf16::of(1.0f).bits == 0x3f80);
  CHECK(bf16::of(3.0f).value() == 3.0f);
  CHECK(scalarArg(f16::of(1.0f)).bits == 0x3c00);
  CHECK(scalarArg(int32_t(-1)).bits == ~uint64_t(0));
  CHECK(scalarArg(1.0f).bits == 0x3f800000);
}
