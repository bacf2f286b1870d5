//===- Autotune.cpp - compile the candidates, time them, keep the best ----===//
#include "launch/Autotune.h"

#include "ir/IR.h"
#include "support/Cache.h"
#include "support/Files.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace twintile {

namespace fs = std::filesystem;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool printing() {
  const char *p = std::getenv("TWINTILE_PRINT_AUTOTUNING");
  return p && *p && std::string(p) != "0";
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
  std::string key;
  for (const std::string &k : options_.key) {
    auto it = std::find(names.begin(), names.end(), k);
    if (it == names.end() || size_t(it - names.begin()) >= args.size()) {
      error = "the autotuning key names '" + k + "', which is not one of the kernel's parameters";
      return {};
    }
    const Arg &a = args[size_t(it - names.begin())];
    std::string value = a.kind == Arg::Kind::Buffer  ? std::to_string(a.bytes.size() / std::max<size_t>(1, a.elementBytes))
                        : a.kind == Arg::Kind::Float ? std::to_string(a.f)
                                                      : std::to_string(a.i);
    key += (key.empty() ? "" : " ") + k + "=" + value;
  }
  return key;
}

std::string Autotuner::diskKey(const runtime::Device &device, const std::string &key) const {
  support::ContentHash h;
  h.add("twintile-autotune-1");
  h.add(device.describe());  // its name, architecture and driver
  h.add(support::readFile(file_).value_or(""));
  h.add(template_);
  for (const TuneConfig &c : configs_) h.add(c.name());
  h.add(std::string(pipeline::name(request_.frontend)) + " " + std::string(pipeline::name(request_.target)) + " " +
        std::string(pipeline::name(request_.math)));
  h.add(key);
  return h.hex();
}

TunedLaunch Autotuner::launchArgs(runtime::Device &device, const TuneGrid &grid, const std::vector<Arg> &args,
                                  const runtime::LaunchOptions &options) {
  TunedLaunch result;
  if (!ok()) {
    result.error = error_;
    return result;
  }
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
  if (kernels_.empty()) {
    // Every configuration's front end at once: one parse (or host compile)
    // of the file for all their specializations.
    std::vector<std::string> specs;
    for (const TuneConfig &c : configs_)
      if (std::find(specs.begin(), specs.end(), specFor(c)) == specs.end()) specs.push_back(specFor(c));
    CompileRequest front = request_;
    front.last = support::Stage::TileOpt;
    std::vector<pipeline::Result> made = pipeline::compileSources(file_, specs, front);
    for (size_t i = 0; i < configs_.size(); ++i) {
      size_t s = size_t(std::find(specs.begin(), specs.end(), specFor(configs_[i])) - specs.begin());
      CompileRequest r = request_;
      r.numWarps = configs_[i].numWarps;
      r.numStages = configs_[i].numStages;
      if (!made[s].ok()) {
        error_ = made[s].error;  // the file, not one configuration: every launch says it
        kernels_.clear();
        return error_;
      }
      Kernel k = Kernel::fromIR(ir::clone(*made[s].func), r);
      if (!k.ok()) {
        error_ = configs_[i].name() + ": " + k.error();
        kernels_.clear();
        return error_;
      }
      kernels_.emplace(i, std::move(k));
    }
  }
  return {};
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
  const fs::path cacheFile = support::cacheDirectory("autotune") / (diskKey(device, key) + ".json");
  if (options_.diskCache)
    if (std::optional<std::string> text = support::readFile(cacheFile)) {
      nlohmann::json j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
      if (j.is_object() && j.contains("config") && j["config"].is_string())
        for (size_t i = 0; i < configs_.size(); ++i)
          if (configs_[i].name() == j["config"].get<std::string>()) {
            winner = i;
            result.fromDisk = true;
            return result;
          }
    }

  // The candidates, compiled on several threads, each Kernel on one.
  std::vector<size_t> candidates;
  std::vector<TuneConfig> kept = options_.prune ? options_.prune(configs_, args) : configs_;
  for (size_t i = 0; i < configs_.size(); ++i)
    if (std::any_of(kept.begin(), kept.end(), [&](const TuneConfig &c) { return c.name() == configs_[i].name(); }))
      candidates.push_back(i);
  if (candidates.empty()) {
    result.error = "the autotuner's prune kept none of its " + std::to_string(configs_.size()) + " configurations";
    return result;
  }
  std::vector<Launch> prepared(candidates.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t j; (j = next++) < candidates.size();) prepared[j] = kernels_.at(candidates[j]).prepare(args);
  };
  std::vector<std::thread> pool;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned t = 1; t < std::min<size_t>(threads, candidates.size()); ++t) pool.emplace_back(work);
  work();
  for (std::thread &t : pool) t.join();

  // The buffers as the caller gave them, to be given back after the trials.
  std::vector<std::vector<uint8_t>> saved;
  for (const Arg &a : args)
    if (a.kind == Arg::Kind::Buffer) saved.emplace_back(a.bytes.begin(), a.bytes.end());
  double bestSeconds = INFINITY;
  for (size_t j = 0; j < candidates.size(); ++j) {
    const TuneConfig &c = configs_[candidates[j]];
    Trial trial{c.name(), 0, {}};
    double seconds = INFINITY;
    if (!prepared[j].ok()) {
      trial.error = "did not compile: " + prepared[j].error;
    } else {
      try {
        runtime::Dim3 g = grid(c);
        Kernel &k = kernels_.at(candidates[j]);
        // do_bench: an estimate from a few launches, then counts from the budgets.
        runtime::LaunchOptions o;
        o.repeat = 5;
        o.flushBytes = options_.flushBytes;
        Launch estimate = k.launchArgs(device, g, args, o);
        if (!estimate.ok()) throw std::runtime_error(estimate.error);
        double ms = std::max(1e-6, median(estimate.seconds) * 1e3);
        o.warmup = std::max(1, int(std::min(1e6, options_.warmupMs / ms)));
        o.repeat = std::max(1, int(std::min(1e6, options_.repMs / ms)));
        Launch timed = k.launchArgs(device, g, args, o);
        if (!timed.ok()) throw std::runtime_error(timed.error);
        seconds = trial.seconds = median(timed.seconds);
      } catch (const std::exception &e) {
        trial.error = std::string("failed: ") + e.what();
      }
    }
    result.trials.push_back(trial);
    if (seconds < bestSeconds) {
      bestSeconds = seconds;
      winner = candidates[j];
    }
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
  if (options_.diskCache) {
    nlohmann::json j = {{"template", template_}, {"key", key}, {"device", device.describe()},
                        {"config", configs_[winner].name()}, {"seconds", bestSeconds}};
    std::error_code ec;
    fs::create_directories(cacheFile.parent_path(), ec);
    fs::path tmp = cacheFile;
    tmp += ".tmp" + std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
    if (std::ofstream(tmp) << j.dump(2) << "\n") fs::rename(tmp, cacheFile, ec);
    if (ec) fs::remove(tmp, ec);
  }
  return result;
}

} // namespace twintile
