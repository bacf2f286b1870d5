// The launch API (launch/Launch.h) on the emulator and the interpreter: a
// kernel from a file runs and is right; launches specialize on their
// arguments as Triton's JIT does and reuse their variant; wrong arguments are
// refused with a message naming the parameter; a broken kernel file's error
// reaches every launch; $TWINTILE_DUMP_DIR gets every stage. The same through
// the cuda device is in example_launch's test, skipped without a GPU.
#include "launch/Devices.h"
#include "launch/Launch.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <vector>

namespace {

const std::string kVectorAdd = std::string(TWINTILE_CORPUS_DIR) + "/vector_add.cpp";

std::unique_ptr<twintile::runtime::Device> device(const std::string &name) {
  std::string why;
  auto d = twintile::makeDevice(name, why);
  INFO(why);
  REQUIRE(d);
  return d;
}

} // namespace

TEST_CASE("a kernel from a file runs on the emulator and the interpreter", "[launch]") {
  for (twintile::Frontend frontend : {twintile::Frontend::Parse, twintile::Frontend::Trace, twintile::Frontend::Hybrid})
    for (const char *dev : {"emu", "interp"}) {
      INFO(twintile::pipeline::name(frontend) << " on " << dev);
      twintile::CompileRequest request;
      request.frontend = frontend;
      twintile::Kernel k = twintile::Kernel::fromFile(kVectorAdd, "vector_add<128>", request);
      REQUIRE(k.ok());
      CHECK(k.name() == "vector_add");
      int n = 1000;
      std::vector<float> x(n), y(n), out(n, -7.0f);
      for (int i = 0; i < n; ++i) x[i] = i * 0.25f, y[i] = 3.0f - i;
      auto d = device(dev);
      twintile::Launch r = k.launch(*d, {8}, x, y, out, n);
      INFO(r.error);
      REQUIRE(r.ok());
      for (int i = 0; i < n; ++i) REQUIRE(out[i] == x[i] + y[i]);
    }
}

TEST_CASE("devices by name, and what each can do", "[launch]") {
  twintile::runtime::Capabilities interp = device("interp")->capabilities();
  CHECK(interp.reference);
  CHECK(interp.onCpu);
  CHECK_FALSE(interp.profiles);
  CHECK_FALSE(interp.interleaves);
  CHECK(device("emu")->capabilities().profiles);
  std::string why;
  CHECK_FALSE(twintile::makeDevice("tpu", why));
  CHECK(why == "unknown device 'tpu' (expected emu, interp or cuda)");
}

TEST_CASE("launches specialize on alignment and divisibility, and reuse variants", "[launch]") {
  twintile::Kernel k = twintile::Kernel::fromFile(kVectorAdd, "vector_add<128>");
  auto emu = device("emu");
  std::vector<float> x(1025), y(1025), out(1025);
  twintile::Launch first = k.launch(*emu, {8}, x, y, out, 1000);
  REQUIRE(first.ok());
  CHECK(first.compiled);
  CHECK(first.variant == "x:aligned y:aligned out:aligned");
  twintile::Launch second = k.launch(*emu, {8}, x, y, out, 1000);
  CHECK(!second.compiled);
  CHECK(k.variants() == 1);
  twintile::Launch divisible = k.launch(*emu, {8}, x, y, out, 1024);
  CHECK(divisible.compiled);
  CHECK(divisible.variant == "x:aligned y:aligned out:aligned n:divisible");
  // A view one float in is 4 bytes off: not aligned, another variant.
  std::span<float> shifted(x.data() + 1, 1024);
  twintile::Launch misaligned = k.launch(*emu, {8}, shifted, y, out, 1000);
  REQUIRE(misaligned.ok());
  CHECK(misaligned.variant == "y:aligned out:aligned");
  CHECK(k.variants() == 3);
}

TEST_CASE("wrong launch arguments are refused, naming the parameter", "[launch]") {
  twintile::Kernel k = twintile::Kernel::fromFile(kVectorAdd, "vector_add<128>");
  auto emu = device("emu");
  std::vector<float> x(128), y(128), out(128);
  std::vector<double> wide(128);
  CHECK(k.launch(*emu, {1}, x, y, out).error == "kernel 'vector_add' takes 4 arguments, got 3");
  CHECK(k.launch(*emu, {1}, x, y, 5, 128).error ==
        "argument 'out' (ptr<f32>) must be a buffer (a std::vector or std::span)");
  CHECK(k.launch(*emu, {1}, x, y, out, out).error == "argument 'n' (i32) must be a scalar, not a buffer");
  CHECK(k.launch(*emu, {1}, wide, y, out, 128).error ==
        "argument 'x' (ptr<f32>) takes 4-byte elements, got a buffer of 8-byte elements");
  CHECK(k.launch(*emu, {1}, x, y, out, 1.5).error == "argument 'n' (i32) is an integer, got a floating-point value");
  CHECK(k.launch(*emu, {1}, x, y, out, int64_t(1) << 40).error == "argument 'n' (i32) = 1099511627776 does not fit in i32");
  CHECK(k.launch(*emu, {1}, x, y, out, uint64_t(1) << 63).error ==
        "argument 'n' (i32) = 9223372036854775808 does not fit in i32");  // a uint64_t keeps its value
  std::vector<int32_t> ints(128);
  CHECK(k.launch(*emu, {1}, ints, y, out, 128).error ==
        "argument 'x' (ptr<f32>) takes floating-point elements, got a buffer of integer elements");
  // Too small a buffer: the device reports the access, never a crash.
  twintile::Launch r = k.launch(*emu, {8}, x, y, out, 1000);
  REQUIRE(!r.ok());
  CHECK(r.error.find("out-of-bounds") != std::string::npos);
}

TEST_CASE("a kernel file that does not compile gives its error to every launch", "[launch]") {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "twintile-launch-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "broken.cpp") << "#include <twintile.h>\nusing namespace tt;\n"
                                        "TT_KERNEL void broken(Ptr<f32> x) { store(x, nope); }\n";
  twintile::Kernel k = twintile::Kernel::fromFile((dir / "broken.cpp").string(), "broken");
  CHECK(!k.ok());
  CHECK(k.error().find("broken.cpp:3:") != std::string::npos);
  CHECK(k.error().find("nope") != std::string::npos);
  std::vector<float> x(4);
  auto emu = device("emu");
  CHECK(k.launch(*emu, {1}, x).error == k.error());
}

TEST_CASE("TWINTILE_DUMP_DIR receives every stage of every variant", "[launch]") {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "twintile-launch-dump";
  std::filesystem::remove_all(dir);
  ::setenv("TWINTILE_DUMP_DIR", dir.c_str(), 1);
  twintile::CompileRequest request = twintile::launchDefaults();
  request.useCache = false;
  twintile::Kernel k = twintile::Kernel::fromFile(kVectorAdd, "vector_add<256>", request);
  std::vector<float> x(256), y(256), out(256);
  auto emu = device("emu");
  REQUIRE(k.launch(*emu, {1}, x, y, out, 256).ok());
  ::unsetenv("TWINTILE_DUMP_DIR");
  std::filesystem::path variant = dir / "vector_add" / "x-aligned_y-aligned_out-aligned_n-divisible";
  for (const char *stage : {"tile.tir", "tile-opt.tir", "axes.tir", "layouts.tir", "pipelines.tir", "shared.txt", "barriers.txt", "llvm-raw.ll", "llvm.ll", "ptx.ptx"}) {
    INFO(stage);
    CHECK(std::filesystem::file_size(variant / stage) > 0);
  }
  std::ifstream ptx(variant / "ptx.ptx");
  std::string text((std::istreambuf_iterator<char>(ptx)), {});
  CHECK(text.find(".entry vector_add") != std::string::npos);
}

TEST_CASE("a Kernel refuses a request out of range or naming promises, at once", "[launch]") {
  std::vector<float> x(256), y(256), out(256);
  auto emu = device("emu");
  for (auto [warps, stages, message] : {std::tuple{0, 9, "num_stages must be from 1 to 8, got 9"},
                                        {0, -1, "num_stages must be from 1 to 8, got -1"},
                                        {3, 0, "num_warps must be a power of two from 1 to 32, got 3"},
                                        {-4, 0, "num_warps must be a power of two from 1 to 32, got -4"}}) {
    twintile::CompileRequest request = twintile::launchDefaults();
    request.numWarps = warps;
    request.numStages = stages;
    twintile::Kernel k = twintile::Kernel::fromFile(kVectorAdd, "vector_add<256>", request);
    INFO(message);
    CHECK_FALSE(k.ok());
    CHECK(k.error() == message);
    CHECK(k.launch(*emu, {1}, x, y, out, 256).error == k.error());
  }

  twintile::CompileRequest promised = twintile::launchDefaults();
  promised.alignedNames = {"x"};
  twintile::Kernel p = twintile::Kernel::fromFile(kVectorAdd, "vector_add<256>", promised);
  CHECK_FALSE(p.ok());
  CHECK_THAT(p.error(), Catch::Matchers::Contains("takes its promises from each launch's arguments"));
  CHECK(p.launch(*emu, {1}, x, y, out, 256).error == p.error());
}
