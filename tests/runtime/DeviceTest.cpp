// Devices (runtime/Device.h): checkLaunch's messages; the emulator as a
// device (one logical launch however often it times, printed output and
// profile of the last launch, errors as results); the CUDA device without a
// driver, with a library that is no driver, and on a stand-in driver
// (FakeCuda.cpp, running kernels in the emulator) that exercises its whole
// path: marshaling, copies, timing, module cache, JIT logs, injected
// failures, a sticky error, and cleanup. The real GPU: CudaGpuTest.cpp.
#include "runtime/Device.h"

#include "EmulatorHelpers.h"
#include "ScopedEnv.h"

#include <dlfcn.h>

#include <cstdlib>
#include <optional>
#include <random>

using namespace twintile::runtime;
using namespace twintile::test;

namespace {

KernelImage vectorAdd() {
  KernelImage k;
  k.ptx = corpusPtx("vector_add_1024_aligned.ptx");
  k.manifest.kernel = "vector_add";
  k.manifest.params = {{"x", "ptr<f32>", {true, false}},
                       {"y", "ptr<f32>", {true, false}},
                       {"out", "ptr<f32>", {true, false}},
                       {"n", "i32", {false, true}}};
  return k;
}

KernelImage accumulate() { return accumulateKernel(); }

/// Stores its scalar parameters of 1, 2, 4 and 8 bytes, and an f32, widened to 8 bytes each.
KernelImage widths() {
  KernelImage k;
  k.ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n"
          ".visible .entry w(.param .u64 w_out, .param .u8 w_a, .param .u16 w_b, .param .u32 w_c, .param .u64 w_d,"
          " .param .f32 w_e)\n{\n"
          "\t.reg .b16 %rs<4>;\n\t.reg .b32 %r<4>;\n\t.reg .f32 %f<2>;\n\t.reg .b64 %rd<8>;\n"
          "\tld.param.u64 %rd1, [w_out];\n"
          "\tld.param.u8 %rs1, [w_a];\n\tcvt.u64.u16 %rd2, %rs1;\n\tst.global.u64 [%rd1], %rd2;\n"
          "\tld.param.u16 %rs2, [w_b];\n\tcvt.u64.u16 %rd3, %rs2;\n\tst.global.u64 [%rd1+8], %rd3;\n"
          "\tld.param.u32 %r1, [w_c];\n\tcvt.u64.u32 %rd4, %r1;\n\tst.global.u64 [%rd1+16], %rd4;\n"
          "\tld.param.u64 %rd5, [w_d];\n\tst.global.u64 [%rd1+24], %rd5;\n"
          "\tld.param.f32 %f1, [w_e];\n\tmov.b32 %r2, %f1;\n\tcvt.u64.u32 %rd6, %r2;\n\tst.global.u64 [%rd1+32], %rd6;\n"
          "\tret;\n}\n";
  k.manifest.kernel = "w";
  k.manifest.threadsPerProgram = 1;
  k.manifest.params = {{"out", "ptr<i64>", {}}, {"a", "i8", {}},  {"b", "i16", {}},
                       {"c", "i32", {}},        {"d", "i64", {}}, {"e", "f32", {}}};
  return k;
}

std::vector<LaunchArg> widthArgs() {
  // Bits above each parameter's width must not reach the kernel.
  return {EmuArg::buf(0), EmuArg::scalar(0xffffffffffffff85ull), EmuArg::scalar(0x12345678abcdull),
          EmuArg::scalar(0xdead0000beefull), EmuArg::scalar(0x8000000000000001ull), EmuArg::f32(1.5f)};
}
const std::vector<uint64_t> kWidthsStored = {0x85, 0xabcd, 0xbeef, 0x8000000000000001ull, 0x3fc00000};

struct VectorAddData {
  std::vector<float> x, y, out;
  explicit VectorAddData(int n) : x(n), y(n), out(n, -7.0f) {
    std::mt19937 rng(n);
    std::uniform_real_distribution<float> dist(-100, 100);
    for (int i = 0; i < n; ++i) x[i] = dist(rng), y[i] = dist(rng);
  }
  std::vector<std::span<uint8_t>> buffers() { return {bytesOf(x), bytesOf(y), bytesOf(out)}; }
};

std::vector<LaunchArg> vectorAddArgs(int n) { return {EmuArg::buf(0), EmuArg::buf(1), EmuArg::buf(2), EmuArg::scalar(uint64_t(n))}; }

} // namespace

TEST_CASE("checkLaunch names the parameter that is wrong", "[device]") {
  Manifest m = vectorAdd().manifest;
  std::vector<float> a(32), b(32), c(33);
  std::vector<std::span<uint8_t>> buffers = {bytesOf(a), bytesOf(b), bytesOf(c)};
  CHECK(checkLaunch(m, vectorAddArgs(1024), buffers).empty());
  CHECK(checkLaunch(m, {EmuArg::buf(0), EmuArg::buf(1), EmuArg::buf(2)}, buffers) ==
        "kernel 'vector_add' takes 4 arguments, got 3");
  CHECK(checkLaunch(m, {EmuArg::scalar(0), EmuArg::buf(1), EmuArg::buf(2), EmuArg::scalar(16)}, buffers) ==
        "argument 'x' (ptr<f32>) must be a buffer, got a scalar");
  CHECK(checkLaunch(m, {EmuArg::buf(0), EmuArg::buf(1), EmuArg::buf(2), EmuArg::buf(1)}, buffers) ==
        "argument 'n' (i32) must be a scalar, got buffer 1");
  CHECK(checkLaunch(m, {EmuArg::buf(0), EmuArg::buf(3), EmuArg::buf(2), EmuArg::scalar(16)}, buffers) ==
        "argument 'y' is buffer 3, but the launch has 3 buffers");
  CHECK(checkLaunch(m, vectorAddArgs(1000), buffers) ==
        "argument 'n' = 1000 is not divisible by 16, which the kernel was compiled to assume");
  // The value as the parameter's type reads its bits: -32 as an i32 is divisible, -33 is not.
  CHECK(checkLaunch(m, vectorAddArgs(-32), buffers).empty());
  CHECK(checkLaunch(m, vectorAddArgs(-33), buffers) ==
        "argument 'n' = -33 is not divisible by 16, which the kernel was compiled to assume");
  CHECK(checkLaunch(m, {EmuArg::buf(0), EmuArg::buf(1), EmuArg::buf(2), EmuArg::scalar(0x700000010ull)}, buffers)
            .empty());  // bits above 32 are not part of an i32
  m.params[3].type = "i16";
  CHECK(checkLaunch(m, {EmuArg::buf(0), EmuArg::buf(1), EmuArg::buf(2), EmuArg::scalar(0xfff1)}, buffers) ==
        "argument 'n' = -15 is not divisible by 16, which the kernel was compiled to assume");
  m.params[3].type = "f32";  // only integers are checked for divisibility
  CHECK(checkLaunch(m, {EmuArg::buf(0), EmuArg::buf(1), EmuArg::buf(2), EmuArg::f32(1.5f)}, buffers).empty());
  m.params[3].type = "vec<4>";
  CHECK(checkLaunch(m, vectorAddArgs(16), buffers) == "argument 'n' has type 'vec<4>', which the runtime cannot pass");

  // A buffer compiled as 16-byte aligned must be; one that is not may be anywhere.
  m = vectorAdd().manifest;
  std::span<uint8_t> shifted = bytesOf(c).subspan(4);
  std::vector<std::span<uint8_t>> misaligned = {bytesOf(a), shifted, bytesOf(b)};
  std::string e = checkLaunch(m, vectorAddArgs(16), misaligned);
  CHECK(e.rfind("argument 'y' is at 0x", 0) == 0);
  CHECK(e.ends_with(", which is not a multiple of 16 bytes, as the kernel was compiled to assume"));
  m.params[1].assume.aligned16 = false;
  CHECK(checkLaunch(m, vectorAddArgs(16), misaligned).empty());
}

TEST_CASE("emu device: a launch, its timings and its errors", "[device]") {
  std::unique_ptr<Device> emu = makeEmuDevice();
  CHECK(emu->name() == "emu");
  CHECK(emu->describe() == "PTX emulator (CPU)");
  CHECK(emu->maxGrid().x == 2147483647u);
  CHECK(emu->maxGrid().z == 65535u);
  Capabilities can = emu->capabilities();
  CHECK_FALSE(can.reference);
  CHECK(can.onCpu);
  CHECK(can.profiles);
  CHECK(can.interleaves);
  CHECK(can.timer == "wall clock");

  const int n = 2 * 1024 + 784;
  VectorAddData d(n);
  LaunchOptions options{{3, 1, 1}, 1, 2, false};
  LaunchResult r = emu->launch(vectorAdd(), vectorAddArgs(n), d.buffers(), options);
  INFO(r.error);
  REQUIRE(r.ok());
  for (int i = 0; i < n; ++i) REQUIRE(d.out[i] == d.x[i] + d.y[i]);
  CHECK(r.seconds.size() == 2);
  CHECK(r.instructions > 0);
  CHECK(r.profile.warpInstructions.empty());

  options.profile = true;
  r = emu->launch(vectorAdd(), vectorAddArgs(n), d.buffers(), options);
  CHECK(r.profile.globalRequests > 0);

  // checkLaunch comes first; the emulator's own errors come back as they are.
  CHECK(emu->launch(vectorAdd(), vectorAddArgs(n - 3), d.buffers(), options).error ==
        "argument 'n' = 2829 is not divisible by 16, which the kernel was compiled to assume");
  std::vector<float> small(16);
  r = emu->launch(vectorAdd(), vectorAddArgs(n), {bytesOf(small), bytesOf(small), bytesOf(small)}, options);
  CHECK(r.error.rfind("out-of-bounds ld.global.v4.b32", 0) == 0);
  CHECK(r.seconds.empty());
  KernelImage bad = vectorAdd();
  bad.ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry vector_add()\n{\n\tfrobnicate;\n}\n";
  r = emu->launch(bad, vectorAddArgs(n), d.buffers(), options);
  CHECK(r.error.rfind("the PTX does not parse: line 6: ", 0) == 0);
  options.repeat = 0;
  CHECK(emu->launch(vectorAdd(), vectorAddArgs(n), d.buffers(), options).error ==
        "a launch needs warmup >= 0 and repeat >= 1, got warmup 1 and repeat 0");
}

TEST_CASE("emu device: the buffers hold one launch's result however often it runs", "[device]") {
  std::unique_ptr<Device> emu = makeEmuDevice();
  std::vector<int32_t> out = {1000};
  LaunchResult r = emu->launch(accumulate(), {EmuArg::buf(0), EmuArg::scalar(3)}, {bytesOf(out)}, {{4, 1, 1}, 2, 3, false});
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(out[0] == 1000 + 4 * 32 * 3);
  CHECK(r.seconds.size() == 3);

  // printed is the last launch's output, not every launch's.
  KernelImage hello;
  hello.ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n"
              ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 vprintf_param_0, .param .b64 "
              "vprintf_param_1);\n"
              ".global .align 1 .b8 fmt[4] = {104, 105, 10, 0};\n"
              ".visible .entry hello()\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<4>;\n"
              "\tmov.u64 %rd1, fmt;\n\tcvta.global.u64 %rd2, %rd1;\n\tmov.u64 %rd3, 0;\n"
              "\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0+0], %rd2;\n\t.param .b64 param1;\n"
              "\tst.param.b64 [param1+0], %rd3;\n\t.param .b32 retval0;\n"
              "\tcall.uni (retval0), vprintf, (param0, param1);\n\tld.param.b32 %r1, [retval0+0];\n\t}\n\tret;\n}\n";
  hello.manifest.kernel = "hello";
  hello.manifest.threadsPerProgram = 2;
  r = emu->launch(hello, {}, {}, {{1, 1, 1}, 1, 2, false});
  INFO(r.error);
  CHECK(r.printed == "hi\nhi\n");
}

TEST_CASE("cuda device: no driver, or a library that is none, is a reason", "[device][cuda]") {
  std::string why;
  {
    ScopedEnv lib("TWINTILE_LIBCUDA", "/nonexistent/libcuda.so.1");
    CHECK(makeCudaDevice(why) == nullptr);
    CHECK(why.rfind("no CUDA driver: dlopen(/nonexistent/libcuda.so.1) failed: ", 0) == 0);
    CHECK(why.find("No such file") != std::string::npos);
  }
  ScopedEnv lib("TWINTILE_LIBCUDA", "libm.so.6");
  CHECK(makeCudaDevice(why) == nullptr);
  CHECK(why == "the CUDA driver lacks cuInit (libm.so.6 is not a CUDA driver, or too old a one)");
}

namespace {

/// The stand-in driver, opened as CudaDevice opens it, and its counters.
struct FakeDriver {
  ScopedEnv lib{"TWINTILE_LIBCUDA", TWINTILE_FAKE_CUDA};
  void *handle = dlopen(TWINTILE_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
  long (*countOf)(const char *) = nullptr;
  FakeDriver() {
    REQUIRE(handle);
    countOf = reinterpret_cast<long (*)(const char *)>(dlsym(handle, "fakeCudaCount"));
    auto reset = reinterpret_cast<void (*)()>(dlsym(handle, "fakeCudaReset"));
    REQUIRE((countOf && reset));
    reset();
  }
  ~FakeDriver() { dlclose(handle); }
  /// Nothing allocated, loaded, created or retained is left.
  void checkNothingAlive() {
    for (const char *what : {"allocations", "modules", "events", "contexts"}) {
      INFO(what);
      CHECK(countOf(what) == 0);
    }
  }
};

std::unique_ptr<Device> cudaDevice() {
  std::string why;
  std::unique_ptr<Device> d = makeCudaDevice(why);
  INFO(why);
  REQUIRE(d);
  return d;
}

} // namespace

TEST_CASE("cuda device on a stand-in driver: results as the emulator's, timings, cache, cleanup", "[device][cuda]") {
  FakeDriver fake;
  {
    std::unique_ptr<Device> gpu = cudaDevice();
    CHECK(gpu->name() == "cuda");
    CHECK(gpu->describe() == "Fake GPU (sm_90, 4 SMs, driver 13.0)");
    CHECK(gpu->maxGrid().x == 2147483647u);
    CHECK(gpu->maxGrid().y == 65535u);
    CHECK_FALSE(gpu->capabilities().onCpu);
    CHECK_FALSE(gpu->capabilities().reference);
    CHECK_FALSE(gpu->capabilities().profiles);
    CHECK(gpu->capabilities().timer == "CUDA events");
    CHECK(fake.countOf("contexts") == 1);

    const int n = 2 * 1024 + 784;
    VectorAddData onGpu(n), onEmu(n);
    LaunchOptions options{{3, 1, 1}, 1, 3, false};
    LaunchResult r = gpu->launch(vectorAdd(), vectorAddArgs(n), onGpu.buffers(), options);
    INFO(r.error);
    REQUIRE(r.ok());
    REQUIRE(makeEmuDevice()->launch(vectorAdd(), vectorAddArgs(n), onEmu.buffers(), options).ok());
    CHECK(onGpu.out == onEmu.out);
    CHECK(r.seconds.size() == 3);
    for (double s : r.seconds) CHECK(s >= 0);
    // Buffers are freed after each launch; the module stays loaded for the next.
    CHECK(fake.countOf("allocations") == 0);
    CHECK(fake.countOf("events") == 0);
    REQUIRE(gpu->launch(vectorAdd(), vectorAddArgs(n), onGpu.buffers(), options).ok());
    CHECK(fake.countOf("loads") == 1);
    CHECK(fake.countOf("memsets") == 0);

    // An L2 flush before each timed launch, not before the warm-up ones; its buffer is freed too.
    VectorAddData flushed(n);
    LaunchOptions flushing = options;
    flushing.flushBytes = 1 << 16;
    r = gpu->launch(vectorAdd(), vectorAddArgs(n), flushed.buffers(), flushing);
    INFO(r.error);
    REQUIRE(r.ok());
    CHECK(flushed.out == onEmu.out);
    CHECK(r.seconds.size() == 3);
    CHECK(fake.countOf("memsets") == 3);
    CHECK(fake.countOf("allocations") == 0);
    CHECK(fake.countOf("modules") == 1);

    // One logical launch, however many ran.
    std::vector<int32_t> out = {1000};
    r = gpu->launch(accumulate(), {EmuArg::buf(0), EmuArg::scalar(3)}, {bytesOf(out)}, {{4, 1, 1}, 2, 3, false});
    REQUIRE(r.ok());
    CHECK(out[0] == 1000 + 4 * 32 * 3);

    // Each scalar is passed with its type's width.
    std::vector<uint64_t> stored(5, 0);
    r = gpu->launch(widths(), widthArgs(), {bytesOf(stored)}, {{1, 1, 1}, 0, 1, false});
    INFO(r.error);
    REQUIRE(r.ok());
    CHECK(stored == kWidthsStored);
    std::vector<uint64_t> emuStored(5, 0);
    REQUIRE(makeEmuDevice()->launch(widths(), widthArgs(), {bytesOf(emuStored)}, {{1, 1, 1}, 0, 1, false}).ok());
    CHECK(emuStored == kWidthsStored);
    CHECK(fake.countOf("modules") == 3);

    // Dynamic shared memory past 48 KiB: opted into, then passed at launch.
    std::vector<int32_t> far(64, -1), emuFar(64, -1), expected(64);
    for (int t = 0; t < 64; ++t) expected[t] = 63 - t;
    r = gpu->launch(farSharedKernel(), {EmuArg::buf(0)}, {bytesOf(far)}, {{1, 1, 1}, 0, 1, false});
    INFO(r.error);
    REQUIRE(r.ok());
    CHECK(far == expected);
    REQUIRE(makeEmuDevice()->launch(farSharedKernel(), {EmuArg::buf(0)}, {bytesOf(emuFar)}, {{1, 1, 1}, 0, 1, false}).ok());
    CHECK(emuFar == expected);
  }
  fake.checkNothingAlive();
}

TEST_CASE("cuda device on a stand-in driver: every failure is a message", "[device][cuda]") {
  FakeDriver fake;
  std::string why;
  {
    ScopedEnv fail("FAKE_CUDA_FAIL", "cuInit=100");
    CHECK(makeCudaDevice(why) == nullptr);
    CHECK(why == "cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)");
  }
  {
    ScopedEnv none("FAKE_CUDA_DEVICES", "0");
    CHECK(makeCudaDevice(why) == nullptr);
    CHECK(why == "the CUDA driver sees no GPU (cuDeviceGetCount gave 0)");
  }
  const int n = 1024;
  VectorAddData d(n);
  {
    std::unique_ptr<Device> gpu = cudaDevice();
    LaunchOptions options{{1, 1, 1}, 0, 1, false};
    CHECK(gpu->launch(vectorAdd(), vectorAddArgs(1000), d.buffers(), options).error ==
          "argument 'n' = 1000 is not divisible by 16, which the kernel was compiled to assume");
    {
      ScopedEnv fail("FAKE_CUDA_FAIL", "cuMemAlloc_v2=2@3");  // the third buffer
      CHECK(gpu->launch(vectorAdd(), vectorAddArgs(n), d.buffers(), options).error ==
            "cuMemAlloc of 4096 bytes failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
      CHECK(fake.countOf("allocations") == 0);  // the first two were freed
    }
    {
      ScopedEnv fail("FAKE_CUDA_FAIL", "cuMemsetD8Async=2");
      LaunchOptions flushing = options;
      flushing.flushBytes = 1 << 20;
      CHECK(gpu->launch(vectorAdd(), vectorAddArgs(n), d.buffers(), flushing).error ==
            "cuMemsetD8Async of the L2 flush buffer failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
      CHECK(fake.countOf("allocations") == 0);
    }
    {
      ScopedEnv fail("FAKE_CUDA_FAIL", "cuLaunchKernel=1");
      CHECK(gpu->launch(vectorAdd(), vectorAddArgs(n), d.buffers(), options).error ==
            "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE (invalid argument)");
    }
    KernelImage k = vectorAdd();
    k.manifest.kernel = "nope";
    CHECK(gpu->launch(k, vectorAddArgs(n), d.buffers(), options).error ==
          "cuModuleGetFunction('nope') failed: CUDA_ERROR_NOT_FOUND (named symbol not found)");
    k = vectorAdd();
    k.ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry vector_add()\n{\n\tfrobnicate;\n}\n";
    std::string e = gpu->launch(k, vectorAddArgs(n), d.buffers(), options).error;
    CHECK(e.rfind("cuModuleLoadDataEx (loading the PTX) failed: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation "
                  "failed):\nfake ptxas: line 6: ",
                  0) == 0);
    k.cubin = {0x7f, 'E', 'L', 'F', 2, 1};
    CHECK(gpu->launch(k, vectorAddArgs(n), d.buffers(), options).error ==
          "cuModuleLoadDataEx (loading the cubin) failed: CUDA_ERROR_INVALID_IMAGE (device kernel image is invalid)");
    options.grid = {0, 1, 1};
    CHECK(gpu->launch(vectorAdd(), vectorAddArgs(n), d.buffers(), options).error == "empty grid (0,1,1)");
    options.grid = {1, 70000, 1};
    CHECK(gpu->launch(vectorAdd(), vectorAddArgs(n), d.buffers(), options).error ==
          "grid (1,70000,1) exceeds the device's largest (2147483647,65535,65535)");
    options.grid = {1, 1, 1};
    CHECK(fake.countOf("allocations") == 0);
    CHECK(fake.countOf("events") == 0);

    // Dynamic shared memory: more than the GPU gives a block is refused before loading; a refused opt-in is named.
    std::vector<int32_t> far(64);
    k = farSharedKernel();
    k.manifest.sharedBytes = k.manifest.dynamicSharedBytes = 300000;
    long loads = fake.countOf("loads");
    CHECK(gpu->launch(k, {EmuArg::buf(0)}, {bytesOf(far)}, options).error ==
          "kernel 'far' needs 300000 bytes of shared memory; this GPU gives a block at most 232448 (compile it with "
          "fewer stages or smaller tiles)");
    CHECK(fake.countOf("loads") == loads);  // refused before loading
    {
      ScopedEnv fail("FAKE_CUDA_FAIL", "cuFuncSetAttribute=1");
      CHECK(gpu->launch(farSharedKernel(), {EmuArg::buf(0)}, {bytesOf(far)}, options).error ==
            "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, 65536) failed: CUDA_ERROR_INVALID_VALUE (invalid "
            "argument)");
    }
    // Without the manifest's dynamic bytes the kernel reaches outside shared memory: an error, not a wrong answer.
    k = farSharedKernel();
    k.manifest.dynamicSharedBytes = 0;
    CHECK(makeEmuDevice()->launch(k, {EmuArg::buf(0)}, {bytesOf(far)}, options).error.rfind(
              "out-of-bounds st.shared.u32", 0) == 0);

    // An illegal address loses the context: this launch says so, and every later one refuses.
    std::vector<float> small(16);
    e = gpu->launch(vectorAdd(), vectorAddArgs(n), {bytesOf(small), bytesOf(small), bytesOf(small)}, options).error;
    CHECK(e == "cuEventRecord failed: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered) "
               "after launching 'vector_add'; the CUDA context is unusable after this error: every later launch in "
               "this process fails (restart it)");
    e = gpu->launch(vectorAdd(), vectorAddArgs(n), d.buffers(), options).error;
    CHECK(e.rfind("the CUDA context was lost to an earlier error (cuEventRecord failed: "
                  "CUDA_ERROR_ILLEGAL_ADDRESS",
                  0) == 0);
    CHECK(e.ends_with("): restart the process"));
  }
  fake.checkNothingAlive();
}

namespace {

/// Each program (x, y) writes a word of its own into its global scratch,
/// after a 128-byte gap it also owns, reads it back, and stores it, the
/// scratch address modulo 128 and the distance from program 0's area in
/// out[3 * (x + 2 * y) ...]: the layout launchScratchBytes documents.
KernelImage scratchUser() {
  KernelImage k;
  k.ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n"
          ".visible .entry s(.param .u64 s_out, .param .u64 s_scratch)\n{\n"
          "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<12>;\n"
          "\tld.param.u64 %rd1, [s_out];\n\tld.param.u64 %rd2, [s_scratch];\n"
          "\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ctaid.y;\n\tmov.u32 %r3, %nctaid.x;\n"
          "\tmad.lo.u32 %r4, %r2, %r3, %r1;\n"                        // program = x + nx * y
          "\tmul.wide.u32 %rd3, %r4, 256;\n\tadd.u64 %rd4, %rd2, %rd3;\n"  // its area
          "\tadd.u32 %r5, %r4, 1000;\n\tst.global.u32 [%rd4+128], %r5;\n\tld.global.u32 %r6, [%rd4+128];\n"
          "\tmul.wide.u32 %rd5, %r4, 24;\n\tadd.u64 %rd6, %rd1, %rd5;\n"
          "\tcvt.u64.u32 %rd7, %r6;\n\tst.global.u64 [%rd6], %rd7;\n"
          "\trem.u64 %rd8, %rd2, 128;\n\tst.global.u64 [%rd6+8], %rd8;\n"
          "\tsub.u64 %rd9, %rd4, %rd2;\n\tst.global.u64 [%rd6+16], %rd9;\n"
          "\tret;\n}\n";
  k.manifest.kernel = "s";
  k.manifest.threadsPerProgram = 1;
  k.manifest.globalScratchBytes = 256;
  k.manifest.params = {{"out", "ptr<i64>", {}}};
  return k;
}

void checkScratch(Device &device) {
  INFO(device.name());
  std::vector<uint64_t> out(3 * 6, ~uint64_t(0));
  LaunchOptions options;
  options.grid = {2, 3, 1};
  options.repeat = 2;
  LaunchResult r = device.launch(scratchUser(), {EmuArg::buf(0)}, {bytesOf(out)}, options);
  INFO(r.error);
  REQUIRE(r.ok());
  for (uint64_t p = 0; p < 6; ++p) {
    INFO("program " << p);
    CHECK(out[3 * p] == 1000 + p);
    CHECK(out[3 * p + 1] == 0);
    CHECK(out[3 * p + 2] == 256 * p);
  }
}

} // namespace

TEST_CASE("global scratch: its size per launch, and every device passes it last", "[device]") {
  Manifest m;
  CHECK(launchScratchBytes(m, {7, 1, 1}) == 0);
  m.globalScratchBytes = 384;
  CHECK(launchScratchBytes(m, {2, 3, 4}) == 384 * 24);
  CHECK(launchScratchBytes(m, {2147483647u, 65535, 65535}) == UINT64_MAX);  // past 64 bits

  checkScratch(*makeEmuDevice());
  {
    FakeDriver fake;
    checkScratch(*cudaDevice());
    fake.checkNothingAlive();  // the scratch freed with the buffers
  }
  // A launch whose scratch the emulator cannot give is refused, not attempted.
  std::vector<uint64_t> out(4);
  LaunchOptions huge;
  huge.grid = {1u << 24, 1, 1};
  CHECK(makeEmuDevice()->launch(scratchUser(), {EmuArg::buf(0)}, {bytesOf(out)}, huge).error ==
        "kernel 's' needs 256 bytes of global scratch per program; over this grid that is more than the emulator "
        "gives (1024 MiB)");
}
