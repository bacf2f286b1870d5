//===- Autotune.cpp - compile the candidates, time them, keep the best ----===//
#include "launch/Autotune.h"

#include "backend/Backend.h"
#include "ir/IR.h"
#include "support/Cache.h"
#include "support/CachePrune.h"
#include "support/Environment.h"
#include "support/Files.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <thread>

#include <unistd.h>

namespace twintile {

namespace fs = std::filesystem;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool printing() {
  std::optional<std::string> p = support::envValue(support::Env::PrintAutotuning);
  return p && *p != "0";
}

} // namespace

int64_t TuneConfig::value(const std::string &name) const {
  for (const auto &[n, v] : meta)
    if (n == name) return v;
  throw std::out_of_range("the configuration " + this->name() + " has no meta-parameter '" + name + "'");
}

std::string TuneConfig::name() const {
  std::string out;
  for (const auto &[n, v] : meta) out += (out.empty() ? "" : " ") + n + "=" + std::to_string(v);
  if (numWarps) out += (out.empty() ? "" : " ") + std::string("num_warps=") + std::to_string(numWarps);
  if (numStages) out += (out.empty() ? "" : " ") + std::string("num_stages=") + std::to_string(numStages);
  return out.empty() ? "default" : out;
}

std::string Autotuner::specFor(const TuneConfig &c) const {
  std::string out;
  for (size_t i = 0; i < template_.size(); ++i) {
    if (template_[i] != '{') {
      out += template_[i];
      continue;
    }
    size_t close = template_.find('}', i);
    out += std::to_string(c.value(template_.substr(i + 1, close - i - 1)));  // fromFile checked both
    i = close;
  }
  return out;
}

Autotuner Autotuner::fromFile(const std::string &file, const std::string &specTemplate, std::vector<TuneConfig> configs,
                              TuneOptions options, const CompileRequest &request) {
  Autotuner t;
  t.file_ = file;
  t.template_ = specTemplate;
  t.configs_ = std::move(configs);
  t.options_ = std::move(options);
  t.request_ = request;
  if (t.configs_.empty()) t.error_ = "an Autotuner needs at least one configuration";
  for (size_t i = 0; t.error_.empty() && i < t.configs_.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (t.configs_[i].name() == t.configs_[j].name()) {
        t.error_ = "the configuration " + t.configs_[i].name() + " is given twice";
        break;
      }
  // Every name in braces has a value in every configuration.
  for (size_t i = 0; t.error_.empty() && i < specTemplate.size(); ++i) {
    if (specTemplate[i] == '}') t.error_ = "'" + specTemplate + "' has a '}' with no '{' before it";
    if (specTemplate[i] != '{') continue;
    size_t close = specTemplate.find('}', i);
    if (close == std::string::npos) {
      t.error_ = "'" + specTemplate + "' has a '{' with no '}' after it";
      break;
    }
    std::string name = specTemplate.substr(i + 1, close - i - 1);
    for (const TuneConfig &c : t.configs_)
      if (std::none_of(c.meta.begin(), c.meta.end(), [&](const auto &m) { return m.first == name; })) {
        t.error_ = "the configuration " + c.name() + " gives '{" + name + "}' in '" + specTemplate + "' no value";
        break;
      }
    i = close;
  }
  if (t.options_.warmupMs < 0 || t.options_.repMs <= 0 || !std::isfinite(t.options_.warmupMs + t.options_.repMs))
    t.error_ = "an Autotuner's warmupMs must be >= 0 and its repMs > 0";
  return t;
}

std::string Autotuner::keyOf(const std::vector<Arg> &args, std::string &error) {
  const std::vector<std::string> &names = kernels_.begin()->second.paramNames();
  if (args.size() != names.size()) {
    error = "the kernel takes " + std::to_string(names.size()) + " arguments, got " + std::to_string(args.size());
    return {};
  }
  std::string key;
  for (const std::string &k : options_.key) {
    auto it = std::find(names.begin(), names.end(), k);
    if (it == names.end()) {
      error = "the autotuning key names '" + k + "', which is not one of the kernel's parameters";
      return {};
    }
    const Arg &a = args[size_t(it - names.begin())];
    char value[40];
    if (a.kind == Arg::Kind::Buffer)
      std::snprintf(value, sizeof value, "%zu", a.bytes.size() / std::max<size_t>(1, a.elementBytes));
    else if (a.kind == Arg::Kind::Float) std::snprintf(value, sizeof value, "%.17g", a.f);
    else std::snprintf(value, sizeof value, "%lld", static_cast<long long>(a.i));
    key += (key.empty() ? "" : " ") + k + "=" + value;
  }
  return key;
}

std::string Autotuner::diskKey(const runtime::Device &device, const std::string &key) const {
  support::ContentHash h;
  h.add("twintile-autotune-2");
  h.add(device.describe());  // its name, architecture and driver
  h.add(backend::compilerVersion());
  for (size_t i = 0; i < configs_.size(); ++i) {
    h.add(configs_[i].name());
    auto k = kernels_.find(i);
    h.add(k == kernels_.end() ? std::string("unmade") : k->second.tileIR());  // the file and what it includes
  }
  h.add(std::string(pipeline::name(request_.frontend)) + " " + std::string(pipeline::name(request_.target)) + " " +
        std::string(pipeline::name(request_.math)) + " " + std::to_string(request_.numWarps) + " " +
        std::to_string(request_.numStages));
  h.add(key);
  return h.hex();
}

TunedLaunch Autotuner::launchArgs(runtime::Device &device, const TuneGrid &grid, const std::vector<Arg> &args,
                                  const runtime::LaunchOptions &options) {
  TunedLaunch result;
  if (std::string why = load(); !why.empty()) {
    result.error = why;
    return result;
  }
  std::string error;
  std::string key = keyOf(args, error);
  if (!error.empty()) {
    result.error = error;
    return result;
  }
  auto found = best_.find(key);
  size_t winner = 0;
  if (found != best_.end()) {
    winner = found->second;
  } else {
    TunedLaunch tuned = tune(device, grid, args, winner);
    if (!tuned.ok()) return tuned;
    result = std::move(tuned);
    best_[key] = winner;
  }
  const TuneConfig &c = configs_[winner];
  runtime::Dim3 g;
  try {
    g = grid(c);
  } catch (const std::exception &e) {
    result.error = "the grid of " + c.name() + ": " + e.what();
    return result;
  }
  Launch run = kernels_.at(winner).launchArgs(device, g, args, options);
  static_cast<Launch &>(result) = std::move(run);
  result.config = c.name();
  return result;
}

std::vector<std::pair<std::string, std::string>> Autotuner::parameters() const {
  std::vector<std::pair<std::string, std::string>> out;
  if (kernels_.empty()) return out;
  const Kernel &k = kernels_.begin()->second;
  for (size_t i = 0; i < k.paramNames().size(); ++i) out.emplace_back(k.paramNames()[i], k.paramTypes()[i]);
  return out;
}

std::string Autotuner::load() {
  if (!ok()) return error_;
  if (!kernels_.empty()) return {};
  // Every configuration's front end at once: one parse (or host compile) of
  // the file for all their specializations.
  std::vector<std::string> specs;
  for (const TuneConfig &c : configs_)
    if (std::find(specs.begin(), specs.end(), specFor(c)) == specs.end()) specs.push_back(specFor(c));
  CompileRequest front = request_;
  front.last = support::Stage::TileOpt;
  std::vector<pipeline::Result> made = pipeline::compileSources(file_, specs, front);
  unmade_.clear();
  for (size_t i = 0; i < configs_.size(); ++i) {
    const pipeline::Result &m = made[size_t(std::find(specs.begin(), specs.end(), specFor(configs_[i])) - specs.begin())];
    CompileRequest r = request_;
    if (configs_[i].numWarps) r.numWarps = configs_[i].numWarps;
    if (configs_[i].numStages) r.numStages = configs_[i].numStages;
    if (!m.ok()) {
      unmade_[i] = m.error;
      continue;
    }
    Kernel k = Kernel::fromIR(ir::clone(*m.func), r);
    if (!k.ok()) {
      unmade_[i] = k.error();
      continue;
    }
    std::string dump = specFor(configs_[i]) + " " + configs_[i].name();
    for (char &ch : dump)
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '=' && ch != '-') ch = '_';
    k.dumpAs(dump);
    kernels_.emplace(i, std::move(k));
  }
  if (kernels_.empty()) return unmade_.begin()->second;
  return {};
}

std::optional<size_t> Autotuner::readWinner(const fs::path &file) const {
  std::optional<std::string> text = support::readFile(file);
  if (!text) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("config") || !j["config"].is_string()) return std::nullopt;  // retuned, rewritten
  for (size_t i = 0; i < configs_.size(); ++i)
    if (configs_[i].name() == j["config"].get<std::string>() && kernels_.count(i)) {
      support::touchCacheEntry(file);  // the last the cache's limit removes
      return i;
    }
  return std::nullopt;
}

void Autotuner::writeWinner(const fs::path &file, const std::string &key, const runtime::Device &device, size_t winner,
                            double seconds) const {
  nlohmann::json j = {{"template", template_}, {"key", key},          {"device", device.describe()},
                      {"config", configs_[winner].name()},           {"seconds", seconds}};
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  // Written aside, then renamed: a concurrent reader sees all of it or none.
  std::random_device rd;
  fs::path tmp = file.parent_path() / (".tmp-" + std::to_string(getpid()) + "-" + std::to_string(rd()));
  if (support::writeFile(tmp, j.dump(2) + "\n")) fs::rename(tmp, file, ec);
  if (ec) fs::remove(tmp, ec);
  else support::pruneAfterStore(file.parent_path(), file.stem().string());
}

Trial Autotuner::bench(size_t config, runtime::Device &device, const TuneGrid &grid, const std::vector<Arg> &args,
                       const std::vector<std::vector<uint8_t>> &saved) {
  const TuneConfig &c = configs_[config];
  Trial trial{c.name(), 0, {}};
  // Every launch from the caller's buffers, not the last launch's results.
  auto restore = [&] {
    size_t b = 0;
    for (const Arg &a : args)
      if (a.kind == Arg::Kind::Buffer) std::copy(saved[b].begin(), saved[b].end(), a.bytes.begin()), ++b;
  };
  try {
    runtime::Dim3 g = grid(c);
    Kernel &k = kernels_.at(config);
    // do_bench: what one launch costs, from five, then counts from the budgets.
    runtime::LaunchOptions o;
    o.repeat = 5;
    o.flushBytes = options_.flushBytes;
    restore();
    auto start = std::chrono::steady_clock::now();
    Launch estimate = k.launchArgs(device, g, args, o);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / 5;
    if (!estimate.ok()) throw std::runtime_error(estimate.error);
    ms = std::max({ms, 1e-6, median(estimate.seconds) * 1e3});
    o.warmup = std::max(1, int(std::min(1e6, options_.warmupMs / ms)));
    o.repeat = std::max(1, int(std::min(1e6, options_.repMs / ms)));
    restore();
    Launch timed = k.launchArgs(device, g, args, o);
    if (!timed.ok()) throw std::runtime_error(timed.error);
    trial.seconds = median(timed.seconds);
  } catch (const std::exception &e) {
    trial.error = std::string("failed: ") + e.what();
  }
  return trial;
}

TunedLaunch Autotuner::tune(runtime::Device &device, const TuneGrid &grid, const std::vector<Arg> &args,
                            size_t &winner) {
  TunedLaunch result;
  const runtime::Capabilities can = device.capabilities();
  if (can.timer != "CUDA events") {
    result.error = "autotuning times each candidate on the device, and the " + device.name() + " device's timer (" +
                   can.timer + ") measures " + (can.onCpu ? "the host's simulation of it" : "more than the kernel") +
                   ": tune on a GPU (cuda)";
    return result;
  }
  std::string key = keyOf(args, result.error);
  const bool disk = options_.diskCache && request_.useCache;
  const fs::path cacheFile = support::cacheDirectory("autotune") / (diskKey(device, key) + ".json");
  if (std::optional<size_t> cached = disk ? readWinner(cacheFile) : std::nullopt) {
    winner = *cached;
    result.fromDisk = true;
    return result;
  }

  // The candidates: what prune keeps of the configurations.
  std::vector<TuneConfig> kept;
  try {
    kept = options_.prune ? options_.prune(configs_, args) : configs_;
  } catch (const std::exception &e) {
    result.error = std::string("the autotuner's prune threw: ") + e.what();
    return result;
  }
  std::vector<size_t> candidates;
  for (size_t i = 0; i < configs_.size(); ++i)
    if (std::any_of(kept.begin(), kept.end(), [&](const TuneConfig &c) { return c.name() == configs_[i].name(); }))
      candidates.push_back(i);
  if (candidates.empty()) {
    result.error = "the autotuner's prune kept none of its " + std::to_string(configs_.size()) + " configurations";
    return result;
  }
  // Compiled on several threads, each Kernel on one.
  std::vector<Launch> prepared(candidates.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t j; (j = next++) < candidates.size();) {
      if (unmade_.count(candidates[j])) {
        prepared[j].error = unmade_.at(candidates[j]);
        continue;
      }
      try {
        prepared[j] = kernels_.at(candidates[j]).prepare(args);
      } catch (const std::exception &e) {
        prepared[j].error = std::string("internal error: ") + e.what();
      }
    }
  };
  std::vector<std::thread> pool;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned t = 1; t < std::min<size_t>(threads, candidates.size()); ++t) pool.emplace_back(work);
  work();
  for (std::thread &t : pool) t.join();

  // Timed one at a time; the buffers given back after.
  std::vector<std::vector<uint8_t>> saved;
  for (const Arg &a : args)
    if (a.kind == Arg::Kind::Buffer) saved.emplace_back(a.bytes.begin(), a.bytes.end());
  double bestSeconds = INFINITY;
  for (size_t j = 0; j < candidates.size(); ++j) {
    Trial trial = prepared[j].ok() ? bench(candidates[j], device, grid, args, saved)
                                   : Trial{configs_[candidates[j]].name(), 0, "did not compile: " + prepared[j].error};
    if (trial.error.empty() && trial.seconds < bestSeconds) {
      bestSeconds = trial.seconds;
      winner = candidates[j];
    }
    result.trials.push_back(std::move(trial));
  }
  size_t b = 0;
  for (const Arg &a : args)
    if (a.kind == Arg::Kind::Buffer) std::copy(saved[b].begin(), saved[b].end(), a.bytes.begin()), ++b;
  if (!std::isfinite(bestSeconds)) {
    result.error = "no configuration ran:";
    for (const Trial &t : result.trials) result.error += "\n  " + t.config + ": " + t.error;
    return result;
  }
  result.tuned = true;
  if (printing()) {
    std::fprintf(stderr, "twintile: autotuning %s (%s) on %s:\n", template_.c_str(), key.c_str(), device.describe().c_str());
    for (const Trial &t : result.trials)
      std::fprintf(stderr, "  %s %s: %s\n", t.config == configs_[winner].name() ? "*" : " ", t.config.c_str(),
                   t.error.empty() ? (std::to_string(t.seconds * 1e3) + " ms").c_str() : t.error.c_str());
  }
  if (disk) writeWinner(cacheFile, key, device, winner, bestSeconds);
  return result;
}

} // namespace twintile
