//===- Autotune.h - a kernel's best configuration, measured on the device ===//
//
// Triton's @triton.autotune for the launch API:
//
//   twintile::Autotuner mm = twintile::Autotuner::fromFile(
//       "matmul.cpp", "matmul<f16, {BM}, {BN}, {BK}>",
//       {{{{"BM", 128}, {"BN", 128}, {"BK", 64}}, 8, 3}, {{{"BM", 64}, {"BN", 128}, {"BK", 32}}, 4, 4}},
//       {.key = {"M", "N", "K"}});
//   auto grid = [&](const twintile::TuneConfig &c) {
//     return twintile::runtime::Dim3{uint32_t(cdiv(M, c.value("BM")) * cdiv(N, c.value("BN")))};
//   };
//   twintile::TunedLaunch r = mm.launch(*cuda, grid, a, b, c, M, N, K);
//
// The first launch with new values of the key's arguments tunes: the
// candidates (the configurations `prune` keeps) are compiled in parallel
// (one front end for all of them, their backends on several threads), then
// timed one at a time as triton.testing.do_bench times: five launches
// estimate what one costs (the device's copies of the buffers and the L2
// flush included, by the host's clock, so that the budgets bound the time
// tuning takes); warmupMs and repMs of that become counts of untimed and
// timed launches; before each timed one the L2 is flushed by writing a
// buffer larger than it (LaunchOptions::flushBytes); the median of the
// kernel's own times (CUDA events) wins. Every launch starts from the
// caller's buffers (the device copies them in at each repetition, and they
// are put back before every launch of a trial and before the winner's), so
// a kernel that updates its arguments in place needs no reset_to_zero or
// restore_value. The winner is kept for the Autotuner's
// life and in the disk cache (unless the request says useCache = false),
// keyed by the device (its name, architecture and driver), every
// configuration's tile IR (so an edited kernel file, or a header it
// includes, is a new key), the configurations, the request's target, math,
// warps and stages, the compiler's version and the key's values.
// $TWINTILE_PRINT_AUTOTUNING=1 prints each tuning's timings to standard
// error.
//
// Only a device that times the kernel itself tunes (cuda: CUDA events);
// on the emulator and the interpreter a launch that would tune is an error.
//===----------------------------------------------------------------------===//
#pragma once

#include "launch/Launch.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace twintile {

/// One configuration: values of the template's meta-parameters, and warps
/// and stages (0: the kernel's own).
struct TuneConfig {
  std::vector<std::pair<std::string, int64_t>> meta;
  int numWarps = 0;
  int numStages = 0;
  /// The meta-parameter `name`'s value; throws std::out_of_range naming it.
  int64_t value(const std::string &name) const;
  /// "BM=128 BN=128 BK=64 num_warps=8 num_stages=3".
  std::string name() const;
};

struct TuneOptions {
  /// Parameters whose values key the choice (a buffer by its element count):
  /// a launch with new values tunes again.
  std::vector<std::string> key;
  /// The configurations worth timing for these arguments (Triton's
  /// early_config_prune); unset: all.
  std::function<std::vector<TuneConfig>(const std::vector<TuneConfig> &, const std::vector<Arg> &)> prune;
  double warmupMs = 25;   // do_bench's defaults
  double repMs = 100;
  size_t flushBytes = size_t(256) << 20;  // larger than any GPU's L2 so far
  bool diskCache = true;
};

/// One candidate's trial: its median time, or why it did not run.
struct Trial {
  std::string config;  // TuneConfig::name()
  double seconds = 0;
  std::string error;   // empty when it ran
};

/// A launch through an Autotuner: the winner's, and how it was chosen.
struct TunedLaunch : Launch {
  std::string config;     // the winner's TuneConfig::name(), when there is one
  bool tuned = false;     // this launch measured the candidates
  bool fromDisk = false;  // this launch found the winner in the disk cache
  std::vector<Trial> trials;  // when tuned: the candidates', in the configurations' order
};

using TuneGrid = std::function<runtime::Dim3(const TuneConfig &)>;

class Autotuner {
public:
  /// `specTemplate` names the specialization with each meta-parameter in
  /// braces ("softmax<f32, {BLOCK}>"); every configuration must give each
  /// one a value, and no two may be alike. A configuration's warps and
  /// stages, where given, replace the request's. Nothing is compiled before
  /// the first launch.
  static Autotuner fromFile(const std::string &file, const std::string &specTemplate, std::vector<TuneConfig> configs,
                            TuneOptions options = {}, const CompileRequest &request = launchDefaults());

  const std::string &error() const { return error_; }
  bool ok() const { return error_.empty(); }

  template <class... A> TunedLaunch launch(runtime::Device &device, const TuneGrid &grid, A &&...args) {
    return launchArgs(device, grid, std::vector<Arg>{Arg(std::forward<A>(args))...}, {});
  }
  /// The same with the arguments in a list; `options` are the winner's
  /// launch's (warmup, repeat), not the trials'.
  TunedLaunch launchArgs(runtime::Device &device, const TuneGrid &grid, const std::vector<Arg> &args,
                         const runtime::LaunchOptions &options);

  /// The specialization a configuration gives ("softmax<f32, 1024>").
  std::string specFor(const TuneConfig &c) const;

  /// Runs every configuration's front end (the first launch does, if this
  /// has not). A configuration whose front end fails is a failed trial; an
  /// error only where none compiles (the first one's: Clang's text, which
  /// ends in a newline, or a message, which does not). Then parameters()
  /// names the kernel's parameters and their IR types.
  std::string load();
  std::vector<std::pair<std::string, std::string>> parameters() const;

private:
  std::string file_, template_, error_;
  std::vector<TuneConfig> configs_;
  TuneOptions options_;
  CompileRequest request_;
  std::map<size_t, Kernel> kernels_;    // by configuration, made when first needed
  std::map<std::string, size_t> best_;  // by the key's values

  std::map<size_t, std::string> unmade_;  // configurations whose front end failed, why

  std::string keyOf(const std::vector<Arg> &args, std::string &error);
  std::string diskKey(const runtime::Device &device, const std::string &key) const;
  std::optional<size_t> readWinner(const std::filesystem::path &file) const;
  void writeWinner(const std::filesystem::path &file, const std::string &key, const runtime::Device &device,
                   size_t winner, double seconds) const;
  TunedLaunch tune(runtime::Device &device, const TuneGrid &grid, const std::vector<Arg> &args, size_t &winner);
  Trial bench(size_t config, runtime::Device &device, const TuneGrid &grid, const std::vector<Arg> &args,
              const std::vector<std::vector<uint8_t>> &saved);
};

} // namespace twintile
