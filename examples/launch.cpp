// examples/launch.cpp: compile kernels once and launch them from a C++
// program with twintile's launch API (launch/Launch.h), the analogue of
// Triton's `kernel[grid](args)`.
//
//   example_launch [--device emu|interp|cuda] [--n N]
//
// 1. vector_add from its source file, through the parsing front end: one
//    compile per specialization (Triton's rule: 16-byte-aligned buffers,
//    integers divisible by 16), reused by every launch that keeps it.
// 2. softmax traced in this process: the kernel file is compiled into this
//    program, and twintile::trace runs it on abstract values.
// Each result is checked against a loop on the host. Exit status 0 when all
// agree. With TWINTILE_DUMP_DIR=DIR, every stage of every variant compiled is
// written under DIR/KERNEL/VARIANT/.
#include "frontends/trace/Trace.h"
#include "launch/Devices.h"
#include "launch/Launch.h"

#include "experiments/kernels/softmax.cpp"  // defines the kernel template softmax<T, BLOCK>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#ifndef TWINTILE_KERNELS_DIR
#define TWINTILE_KERNELS_DIR "experiments/kernels"
#endif

namespace {

int failures = 0;

void expect(bool ok, const std::string &what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
  failures += !ok;
}

bool launched(const twintile::Launch &r, const char *what) {
  if (r.ok()) {
    std::printf("%s: variant '%s'%s\n", what, r.variant.c_str(), r.compiled ? " (compiled now)" : " (reused)");
    return true;
  }
  std::printf("FAILED: %s: %s\n", what, r.error.c_str());
  ++failures;
  return false;
}

} // namespace

int main(int argc, char **argv) {
  std::string deviceName = "emu";
  int n = 5000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--device")) deviceName = argv[i + 1];
    else if (!std::strcmp(argv[i], "--n") && std::atoi(argv[i + 1]) > 0) n = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: example_launch [--device emu|interp|cuda] [--n N]\n");
      return 2;
    }
  }
  std::string why;
  std::unique_ptr<twintile::runtime::Device> device = twintile::makeDevice(deviceName, why);
  if (!device) {
    std::fprintf(stderr, "example_launch: no %s device: %s\n", deviceName.c_str(), why.c_str());
    return 77;  // ctest's SKIP
  }
  std::printf("device: %s\n", device->describe().c_str());

  // 1. From a source file: the front end runs once, here.
  twintile::Kernel add = twintile::Kernel::fromFile(TWINTILE_KERNELS_DIR "/vector_add.cpp", "vector_add<256>");
  if (!add.ok()) {
    std::printf("FAILED: %s\n", add.error().c_str());
    return 1;
  }
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i) x[i] = 0.5f * i, y[i] = 1.0f - i;
  uint32_t blocks = static_cast<uint32_t>((n + 255) / 256);
  if (launched(add.launch(*device, {blocks}, x, y, out, n), "vector_add<256>")) {
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = ok && out[i] == x[i] + y[i];
    expect(ok, "out = x + y on " + std::to_string(n) + " elements");
  }
  // The same arguments again: the same variant, not compiled again.
  twintile::Launch again = add.launch(*device, {blocks}, x, y, out, n);
  expect(launched(again, "vector_add<256>, again") && !again.compiled, "a second launch reuses its variant");
  // A length divisible by 16 is another specialization (n:divisible).
  int m = 4096;
  std::vector<float> xm(m, 1.0f), ym(m, 2.0f), outm(m);
  twintile::Launch wide = add.launch(*device, {16}, xm, ym, outm, m);
  expect(launched(wide, "vector_add<256>, n = 4096") && wide.variant.find("n:divisible") != std::string::npos,
         "n = 4096 compiles the n:divisible variant");
  expect(std::all_of(outm.begin(), outm.end(), [](float v) { return v == 3.0f; }), "and it adds right");
  std::printf("vector_add<256>: %zu variants compiled\n", add.variants());

  // 2. Traced in this process.
  twintile::TraceResult traced = twintile::trace(&softmax<f32, 1024>, "softmax<f32, 1024>");
  twintile::Kernel soft = twintile::Kernel::fromIR(std::move(traced.func));
  int rows = 8, cols = 1000;
  std::vector<float> in(rows * cols), res(rows * cols);
  for (int i = 0; i < rows * cols; ++i) in[i] = std::sin(0.01f * i) * 3;
  if (launched(soft.launch(*device, {static_cast<uint32_t>(rows)}, in, res, cols, cols), "softmax<f32, 1024>")) {
    double worst = 0;
    for (int r = 0; r < rows; ++r) {
      double mx = -INFINITY, sum = 0;
      for (int c = 0; c < cols; ++c) mx = std::max(mx, double(in[r * cols + c]));
      for (int c = 0; c < cols; ++c) sum += std::exp(in[r * cols + c] - mx);
      for (int c = 0; c < cols; ++c)
        worst = std::max(worst, std::fabs(res[r * cols + c] - std::exp(in[r * cols + c] - mx) / sum));
    }
    char text[96];
    std::snprintf(text, sizeof text, "softmax rows match the host's (worst difference %.2g)", worst);
    expect(worst < 1e-6, text);
  }
  return failures ? 1 : 0;
}
