// The CUDA device on a real GPU: corpus kernels (tests/runtime/ptx/) and a
// kernel with 64 KiB of dynamic shared memory give what the emulator gives,
// a launch times and still holds one launch's
// result, and a PTX the JIT refuses comes back with its log, leaving the
// device usable. Its own executable: without a GPU (makeCudaDevice gives
// null) it prints "SKIP: <why>" and exits 77, which ctest reports as
// skipped. ctest also runs it on the stand-in driver (FakeCuda.cpp), so
// this test is known to work before a GPU ever runs it.
#define CATCH_CONFIG_RUNNER
#include "runtime/Device.h"

#include "EmulatorHelpers.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

using namespace twintile::runtime;
using namespace twintile::test;

namespace {

Device *gpu = nullptr;

KernelImage corpusKernel(const std::string &file, const std::string &name, std::vector<Manifest::Param> params) {
  KernelImage k;
  k.ptx = corpusPtx(file);
  k.manifest.kernel = name;
  k.manifest.params = std::move(params);
  return k;
}

/// Runs `k` on the GPU and on the emulator, each on its own copy of `inputs`; returns both.
template <typename T>
std::pair<std::vector<std::vector<T>>, std::vector<std::vector<T>>>
both(const KernelImage &k, const std::vector<LaunchArg> &args, const std::vector<std::vector<T>> &inputs, Dim3 grid) {
  auto onGpu = inputs, onEmu = inputs;
  auto spans = [](std::vector<std::vector<T>> &bs) {
    std::vector<std::span<uint8_t>> out;
    for (auto &b : bs) out.push_back(bytesOf(b));
    return out;
  };
  LaunchResult r = gpu->launch(k, args, spans(onGpu), {grid, 1, 2, false});
  INFO("gpu: " << r.error);
  REQUIRE(r.ok());
  CHECK(r.seconds.size() == 2);
  r = makeEmuDevice()->launch(k, args, spans(onEmu), {grid, 0, 1, false});
  INFO("emu: " << r.error);
  REQUIRE(r.ok());
  return {onGpu, onEmu};
}

} // namespace

TEST_CASE("gpu: vector_add as the emulator computes it", "[gpu]") {
  KernelImage k = corpusKernel("vector_add_1024_aligned.ptx", "vector_add",
                               {{"x", "ptr<f32>", {true, false}},
                                {"y", "ptr<f32>", {true, false}},
                                {"out", "ptr<f32>", {true, false}},
                                {"n", "i32", {false, true}}});
  const int n = 5 * 1024 + 272;
  std::vector<float> x(n), y(n), out(n, -7.0f);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-100, 100);
  for (int i = 0; i < n; ++i) x[i] = dist(rng), y[i] = dist(rng);
  auto [g, e] = both<float>(k, {EmuArg::buf(0), EmuArg::buf(1), EmuArg::buf(2), EmuArg::scalar(n)}, {x, y, out},
                            {6, 1, 1});
  CHECK(g[2] == e[2]);
  CHECK(g[2][n - 1] == x[n - 1] + y[n - 1]);
}

TEST_CASE("gpu: softmax and row argmax as the emulator computes them", "[gpu]") {
  const int rows = 48, stride = 130, nCols = 100;
  std::vector<float> x(rows * stride), y(rows * stride, -1.0f);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(-20, 20);
  for (float &v : x) v = dist(rng);
  KernelImage softmax = corpusKernel("softmax_f32_128.ptx", "softmax",
                                     {{"x", "ptr<f32>", {}}, {"y", "ptr<f32>", {}}, {"n", "i32", {}}, {"s", "i32", {}}});
  auto [g, e] = both<float>(softmax, {EmuArg::buf(0), EmuArg::buf(1), EmuArg::scalar(nCols), EmuArg::scalar(stride)},
                            {x, y}, {rows, 1, 1});
  for (size_t i = 0; i < g[1].size(); ++i) REQUIRE(std::fabs(g[1][i] - e[1][i]) <= 1e-5f * std::fabs(e[1][i]) + 1e-9f);

  KernelImage argmax = corpusKernel("row_argmax_128.ptx", "row_argmax",
                                    {{"x", "ptr<f32>", {}}, {"index", "ptr<i32>", {}}, {"value", "ptr<f32>", {}},
                                     {"n", "i32", {}}, {"s", "i32", {}}});
  std::vector<float> index(rows, -1.0f), value(rows, -1.0f);  // index holds i32 bits; compared as bytes
  auto [ga, ea] = both<float>(argmax, {EmuArg::buf(0), EmuArg::buf(1), EmuArg::buf(2), EmuArg::scalar(77),
                                       EmuArg::scalar(stride)},
                              {x, index, value}, {rows, 1, 1});
  CHECK(std::memcmp(ga[1].data(), ea[1].data(), rows * 4) == 0);
  CHECK(ga[2] == ea[2]);
}

TEST_CASE("gpu: dynamic shared memory past 48 KiB, opted into", "[gpu]") {
  std::vector<int32_t> out(64, -1);
  auto [g, e] = both<int32_t>(farSharedKernel(), {EmuArg::buf(0)}, {out}, {2, 1, 1});
  CHECK(g[0] == e[0]);
  for (int t = 0; t < 64; ++t) CHECK(g[0][t] == 63 - t);
}

TEST_CASE("gpu: timed launches leave one launch's result", "[gpu]") {
  KernelImage k = accumulateKernel();
  std::vector<int32_t> out = {1000};
  LaunchResult r = gpu->launch(k, {EmuArg::buf(0), EmuArg::scalar(3)}, {bytesOf(out)}, {{64, 1, 1}, 2, 5, false});
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(out[0] == 1000 + 64 * 32 * 3);
  REQUIRE(r.seconds.size() == 5);
  for (double s : r.seconds) CHECK((s >= 0 && s < 1));
}

TEST_CASE("gpu: a PTX the JIT refuses comes back with its log", "[gpu]") {
  KernelImage k;
  k.ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n\tfrobnicate;\n}\n";
  k.manifest.kernel = "k";
  LaunchResult r = gpu->launch(k, {}, {}, {{1, 1, 1}, 0, 1, false});
  INFO(r.error);
  CHECK(r.error.rfind("cuModuleLoadDataEx (loading the PTX) failed: CUDA_ERROR_INVALID_PTX", 0) == 0);
  CHECK(r.error.find(":\n") != std::string::npos);  // the JIT's log follows
  // The device is still usable.
  k.ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n";
  r = gpu->launch(k, {}, {}, {{1, 1, 1}, 0, 1, false});
  INFO(r.error);
  CHECK(r.ok());
}

int main(int argc, char **argv) {
  std::string why;
  std::unique_ptr<Device> device = makeCudaDevice(why);
  if (!device) {
    std::printf("SKIP: no CUDA device: %s\n", why.c_str());
    return 77;
  }
  std::printf("running on %s\n", device->describe().c_str());
  gpu = device.get();
  int failed = Catch::Session().run(argc, argv);
  return failed ? 1 : 0;  // never 77 by accident
}
