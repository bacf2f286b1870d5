// The autotuner (launch/Autotune.h) on the stand-in CUDA driver
// (tests/runtime/FakeCuda.cpp) with FAKE_CUDA_TIME=instructions, whose
// events time the emulator's work (a nanosecond per thread-level
// instruction): what its timings favour is known, so the choice can be
// checked against it. Also: the emulator refused, the key, pruning, the
// disk cache, buffers given back after the trials, bad templates.
#include "launch/Autotune.h"
#include "launch/Devices.h"

#include "ScopedEnv.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

namespace fs = std::filesystem;
using twintile::Autotuner;
using twintile::TuneConfig;
using twintile::TunedLaunch;
using twintile::TuneOptions;
using twintile::test::ScopedEnv;
namespace rt = twintile::runtime;

namespace {

/// A directory of the test's own, removed at its end.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "twintile-autotune-XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};


std::vector<TuneConfig> rowsumConfigs() {
  return {{{{"BLOCK", 1024}}, 8, 0}, {{{"BLOCK", 128}}, 1, 0}, {{{"BLOCK", 128}}, 4, 0}, {{{"BLOCK", 256}}, 2, 0}};
}

struct Fixture {
  TempDir dir;
  ScopedEnv lib{"TWINTILE_LIBCUDA", TWINTILE_FAKE_CUDA};
  ScopedEnv time{"FAKE_CUDA_TIME", "instructions"};
  std::string file = (dir.path / "tuned.cpp").string();  // a copy, whose text keys the disk cache
  std::unique_ptr<rt::Device> cuda;
  Fixture() {
    fs::copy_file(TWINTILE_TUNED_KERNELS, file);
    std::string why;
    cuda = twintile::makeDevice("cuda", why);
    REQUIRE(cuda);
  }
};

TuneOptions quick() {
  TuneOptions o;
  o.key = {"n"};
  o.warmupMs = 1e-4;  // a launch here takes microseconds of the fake's time
  o.repMs = 3e-4;
  o.flushBytes = 4096;
  o.diskCache = false;
  return o;
}

auto rowGrid(int rows) {
  return [rows](const TuneConfig &) { return rt::Dim3{uint32_t(rows)}; };
}

} // namespace

TEST_CASE("the autotuner picks the configuration the device's timings favour, once per key") {
  Fixture f;
  const int rows = 4, n = 100;
  std::vector<float> x(rows * n), out(rows);
  for (int i = 0; i < rows * n; ++i) x[i] = float(i % 7);

  // What each configuration takes on the stand-in driver, measured apart.
  std::vector<TuneConfig> configs = rowsumConfigs();
  Autotuner tuner = Autotuner::fromFile(f.file, "rowsum<{BLOCK}>", configs, quick());
  REQUIRE(tuner.ok());
  std::vector<double> taken;
  for (const TuneConfig &c : configs) {
    twintile::CompileRequest r = twintile::launchDefaults();
    r.numWarps = c.numWarps;
    twintile::Kernel k = twintile::Kernel::fromFile(f.file, tuner.specFor(c), r);
    twintile::Launch one = k.launch(*f.cuda, {rows}, x, out, n);
    REQUIRE(one.ok());
    taken.push_back(one.seconds.at(0));
  }
  size_t fastest = size_t(std::min_element(taken.begin(), taken.end()) - taken.begin());
  REQUIRE(*std::max_element(taken.begin(), taken.end()) > 1.5 * taken[fastest]);  // a choice that matters

  TunedLaunch first = tuner.launch(*f.cuda, rowGrid(rows), x, out, n);
  REQUIRE(first.ok());
  CHECK(first.tuned);
  CHECK(first.config == configs[fastest].name());
  CHECK(first.trials.size() == configs.size());
  for (int r = 0; r < rows; ++r) {
    float want = 0;
    for (int c = 0; c < n; ++c) want += x[r * n + c];
    CHECK(out[r] == want);
  }
  // The same key: the winner, not tuned again. Another n: tuned again.
  TunedLaunch again = tuner.launch(*f.cuda, rowGrid(rows), x, out, n);
  CHECK((again.ok() && !again.tuned && again.config == first.config));
  TunedLaunch other = tuner.launch(*f.cuda, rowGrid(rows), x, out, n - 4);
  CHECK((other.ok() && other.tuned));
}

TEST_CASE("autotuning on a device that does not time the kernel is refused") {
  Fixture f;
  std::string why;
  auto emu = twintile::makeDevice("emu", why);
  Autotuner tuner = Autotuner::fromFile(f.file, "rowsum<{BLOCK}>", rowsumConfigs(), quick());
  std::vector<float> x(100), out(1);
  TunedLaunch r = tuner.launch(*emu, rowGrid(1), x, out, 100);
  CHECK_FALSE(r.ok());
  CHECK(r.error == "autotuning times each candidate on the device, and the emu device's timer (wall clock) measures "
                   "the host's simulation of it: tune on a GPU (cuda)");
}

TEST_CASE("a winner is kept on disk, by device, file, template, configurations and key") {
  Fixture f;
  TempDir cache;
  ScopedEnv where{"TWINTILE_CACHE_DIR", cache.path.string()};
  TuneOptions o = quick();
  o.diskCache = true;
  std::vector<float> x(300, 1.0f), out(3);
  TunedLaunch first = Autotuner::fromFile(f.file, "rowsum<{BLOCK}>", rowsumConfigs(), o).launch(*f.cuda, rowGrid(3), x, out, 100);
  REQUIRE(first.ok());
  CHECK((first.tuned && !first.fromDisk));
  // A new Autotuner (another process, as far as it knows) reads it.
  TunedLaunch second = Autotuner::fromFile(f.file, "rowsum<{BLOCK}>", rowsumConfigs(), o).launch(*f.cuda, rowGrid(3), x, out, 100);
  REQUIRE(second.ok());
  CHECK((second.fromDisk && !second.tuned && second.config == first.config));
  // Another request (its warps) is another entry.
  twintile::CompileRequest eight = twintile::launchDefaults();
  eight.numWarps = 8;
  std::vector<TuneConfig> unwarped = {{{{"BLOCK", 128}}, 0, 0}, {{{"BLOCK", 256}}, 0, 0}};
  TunedLaunch a = Autotuner::fromFile(f.file, "rowsum<{BLOCK}>", unwarped, o).launch(*f.cuda, rowGrid(3), x, out, 100);
  TunedLaunch b = Autotuner::fromFile(f.file, "rowsum<{BLOCK}>", unwarped, o, eight).launch(*f.cuda, rowGrid(3), x, out, 100);
  CHECK((a.ok() && a.tuned && b.ok() && b.tuned && !b.fromDisk));
  // Other configurations are another entry.
  std::vector<TuneConfig> fewer = rowsumConfigs();
  fewer.pop_back();
  TunedLaunch third = Autotuner::fromFile(f.file, "rowsum<{BLOCK}>", fewer, o).launch(*f.cuda, rowGrid(3), x, out, 100);
  CHECK((third.ok() && third.tuned));
}

TEST_CASE("every launch of a tuning starts from the caller's buffers; the winner's updates them once") {
  Fixture f;
  std::vector<TuneConfig> configs = {{{{"BLOCK", 64}}, 2, 0}, {{{"BLOCK", 256}}, 4, 0}, {{{"BLOCK", 128}}, 1, 0}};
  Autotuner tuner = Autotuner::fromFile(f.file, "advance<{BLOCK}>", configs, quick());
  const int n = 500;
  std::vector<int32_t> idx(n);
  std::vector<float> y(n), out(n);
  for (int i = 0; i < n; ++i) idx[i] = (i * 7) % n, y[i] = float(i);
  auto grid = [](const TuneConfig &c) { return rt::Dim3{uint32_t((n + c.value("BLOCK") - 1) / c.value("BLOCK"))}; };
  TunedLaunch r = tuner.launch(*f.cuda, grid, idx, y, out, n);
  REQUIRE(r.ok());
  CHECK(r.tuned);
  for (const twintile::Trial &t : r.trials) CHECK(t.error.empty());  // none read past y
  bool once = true;
  for (int i = 0; i < n; ++i) once = once && idx[i] == (i * 7) % n + n && out[i] == float((i * 7) % n);
  CHECK(once);
}

TEST_CASE("a configuration that does not compile is a failed trial, not the tuner's end") {
  Fixture f;
  // arange(0, 0) is refused by the front end.
  std::vector<TuneConfig> configs = {{{{"BLOCK", 0}}, 1, 0}, {{{"BLOCK", 128}}, 1, 0}};
  std::vector<float> x(100), out(1);
  TunedLaunch r = Autotuner::fromFile(f.file, "rowsum<{BLOCK}>", configs, quick()).launch(*f.cuda, rowGrid(1), x, out, 100);
  REQUIRE(r.ok());
  CHECK(r.config == "BLOCK=128 num_warps=1");
  REQUIRE(r.trials.size() == 2);
  CHECK(r.trials[0].error.starts_with("did not compile: "));
  CHECK(Autotuner::fromFile(f.file, "rowsum<{BLOCK}>", {configs[1], configs[1]}, quick()).error() ==
        "the configuration BLOCK=128 num_warps=1 is given twice");
}

TEST_CASE("pruning, and configurations that do not fit the template or do not run, are said") {
  Fixture f;
  TuneOptions o = quick();
  o.prune = [](const std::vector<TuneConfig> &all, const std::vector<twintile::Arg> &) {
    return std::vector<TuneConfig>{all.back()};
  };
  std::vector<float> x(100), out(1);
  TunedLaunch pruned = Autotuner::fromFile(f.file, "rowsum<{BLOCK}>", rowsumConfigs(), o).launch(*f.cuda, rowGrid(1), x, out, 100);
  REQUIRE(pruned.ok());
  CHECK(pruned.config == rowsumConfigs().back().name());
  CHECK(pruned.trials.size() == 1);

  CHECK(Autotuner::fromFile(f.file, "rowsum<{BLOCK>", rowsumConfigs(), quick()).error() ==
        "'rowsum<{BLOCK>' has a '{' with no '}' after it");
  CHECK(Autotuner::fromFile(f.file, "rowsum<{WIDTH}>", rowsumConfigs(), quick()).error() ==
        "the configuration BLOCK=1024 num_warps=8 gives '{WIDTH}' in 'rowsum<{WIDTH}>' no value");
  TuneOptions badKey = quick();
  badKey.key = {"m"};
  TunedLaunch r = Autotuner::fromFile(f.file, "rowsum<{BLOCK}>", rowsumConfigs(), badKey).launch(*f.cuda, rowGrid(1), x, out, 100);
  CHECK(r.error == "the autotuning key names 'm', which is not one of the kernel's parameters");
  // A grid that names what no configuration has: every trial fails, said.
  auto throwing = [](const TuneConfig &c) -> rt::Dim3 { return {uint32_t(c.value("ROWS"))}; };
  TunedLaunch none = Autotuner::fromFile(f.file, "rowsum<{BLOCK}>", rowsumConfigs(), quick()).launch(*f.cuda, throwing, x, out, 100);
  CHECK_FALSE(none.ok());
  CHECK(none.error.starts_with("no configuration ran:\n  BLOCK=1024 num_warps=8: failed: the configuration "
                               "BLOCK=1024 num_warps=8 has no meta-parameter 'ROWS'"));
}
