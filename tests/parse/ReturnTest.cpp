// Returns under device conditions (tests/parse/early_returns.cpp): each
// kernel is parsed, run in the interpreter, and its output compared with
// values worked out by hand from the C++ semantics. The feature cases
// (experiments/features/early_return_*.cpp) and the PTX differential check
// the same lowering on other shapes.
#include "frontends/parse/ParseFrontend.h"
#include "ir/Interpreter.h"
#include "ir/Printer.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <vector>

namespace ir = twintile::ir;

namespace {

constexpr int kBlock = 64;

/// Runs `name<64>` from the returns file on x, and compares y with
/// want(i, x[i]).
void check(const std::string &name, const std::vector<double> &x, const std::function<double(int, double)> &want,
           const std::string &args = "64") {
  INFO(name);
  twintile::FrontendResult r =
      twintile::parseKernel(TWINTILE_TESTS_DIR "/parse/early_returns.cpp", name + "<" + args + ">");
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r.ok());
  int n = static_cast<int>(x.size());
  std::vector<ir::Buffer> bufs{ir::Buffer::fromValues(ir::ScalarKind::F32, x, "x"), ir::Buffer(ir::ScalarKind::F32, n, "y")};
  ir::RunResult run = ir::interpret(*r.func, {(n + kBlock - 1) / kBlock},
                                    {ir::KernelArg::buf(0), ir::KernelArg::buf(1), ir::KernelArg::integer(n)}, bufs);
  INFO((run.error ? run.error->str() : std::string()) << ir::toString(*r.func, {.locations = false}));
  REQUIRE(run.ok());
  std::vector<double> got = bufs[1].values();
  for (int i = 0; i < n; ++i) {
    INFO("element " << i);
    CHECK(got[i] == Approx(want(i, x[i])));
  }
}

std::vector<double> ramp(int n) {
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i % 9) * 0.25 - 1;
  return x;
}

} // namespace

TEST_CASE("a return in an unrolled host loop skips the later iterations", "[parse][returns]") {
  check("host_loop_return", ramp(100), [](int, double v) { return v + 3; });
}

TEST_CASE("a return in nested device loops ends both and the kernel", "[parse][returns]") {
  check("nested_loop_return", ramp(100), [](int, double v) { return v + 224; });
}

TEST_CASE("a helper's return ends the helper, not the caller's loop", "[parse][returns]") {
  check("helper_return_in_loop", ramp(100), [](int, double v) { return 2 * v + 9; });
}

TEST_CASE("a helper with several nested returns gives each its value", "[parse][returns]") {
  // Four programs whose sums take each path: 32, 16, -32, 0.64.
  const double per[] = {0.5, 0.25, -0.5, 0.01};
  std::vector<double> x(4 * kBlock);
  for (int i = 0; i < 4 * kBlock; ++i) x[i] = per[i / kBlock];
  check("nested_returns", x, [&](int i, double v) {
    switch (i / kBlock) {
    case 0: return 3 * v;
    case 1: return 2 * v;
    case 2: return v - 1;
    default: return v;
    }
  });
}

TEST_CASE("a return on a host condition inside a device branch ends the walk there", "[parse][returns]") {
  std::vector<double> x = ramp(100);
  // countdown(v, n) per program of 64, as C++ runs it.
  std::function<std::vector<double>(std::vector<double>, int)> countdown = [&](std::vector<double> v, int n) {
    double s = 0;
    for (double e : v) s += e;
    if (s > 0) {
      if (n == 0) return v;
      for (double &e : v) e -= 1;
      return countdown(v, n - 1);
    }
    for (double &e : v) e = -e;
    return v;
  };
  std::vector<double> want;
  for (int start = 0; start < 100; start += kBlock) {
    std::vector<double> block(kBlock, 0.0);  // masked-off lanes load 0
    for (int i = start; i < std::min(100, start + kBlock); ++i) block[static_cast<size_t>(i - start)] = x[static_cast<size_t>(i)];
    std::vector<double> r = countdown(block, 3);
    for (int i = start; i < std::min(100, start + kBlock); ++i) want.push_back(r[static_cast<size_t>(i - start)]);
  }
  check("host_return_in_device_branch", x, [&](int i, double) { return want[static_cast<size_t>(i)]; });
}

TEST_CASE("a host return after a device one ends the kernel before what C++ never reaches", "[parse][returns]") {
  check("host_return_after_device", ramp(100), [](int, double) { return 0.0; }, "64, 0");
  check("host_return_after_device", ramp(100), [](int, double v) { return 32 * v; }, "64, 2");
}

TEST_CASE("an assignment through a reference after a return happens only where it did not return", "[parse][returns]") {
  check("reference_after_return", ramp(100), [](int i, double v) { return i < kBlock ? v : 0.0; });
}

TEST_CASE("locals assigned after a return keep the values of the path that did not return", "[parse][returns]") {
  check("locals_after_return", ramp(100), [](int, double v) { return v + 4; });
}
