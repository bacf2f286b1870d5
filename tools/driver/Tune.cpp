//===- Tune.cpp - twintile tune: a kernel's configurations, timed ---------===//
//
//   twintile tune FILE --kernel 'rowsum<{BLOCK}>' --config BLOCK=128,num_warps=4 ...
//                 --grid 'cdiv(n, BLOCK)' --arg x=4096 --arg n=100 [--key n] [--device cuda]
//
// The launch API's autotuner (launch/Autotune.h) from the command line: the
// buffers random from a seed, as `twintile run` makes them; the grid an
// expression over each configuration (runtime/GridExpression.h). Prints each
// configuration's median time and the winner, which the autotuner keeps in
// the disk cache for the launch API to find.
//===----------------------------------------------------------------------===//
#include "launch/Autotune.h"
#include "launch/Devices.h"
#include "runtime/GridExpression.h"
#include "tools/driver/Arguments.h"
#include "tools/driver/Driver.h"
#include "tools/driver/TunedTable.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <stdexcept>

namespace twintile::driver {

namespace {

/// "BLOCK=128,num_warps=4,num_stages=2" as a configuration.
std::optional<TuneConfig> configOf(const std::string &text, std::string &error) {
  TuneConfig c;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t eq = item.find('=');
    std::optional<int64_t> v = eq == std::string::npos ? std::nullopt : parseInt(item.substr(eq + 1));
    std::string name = eq == std::string::npos ? item : item.substr(0, eq);
    if (!v || name.empty()) {
      error = "--config '" + text + "': '" + item + "' is not NAME=INTEGER";
      return std::nullopt;
    }
    if (name == "num_warps" || name == "num_stages") {
      if (*v < 1 || *v > 64) {  // the compile's own check names the values it takes
        error = "--config '" + text + "': " + name + "=" + std::to_string(*v) + " is out of range";
        return std::nullopt;
      }
      (name == "num_warps" ? c.numWarps : c.numStages) = int(*v);
    } else {
      for (const auto &m : c.meta)
        if (m.first == name) {
          error = "--config '" + text + "' gives '" + name + "' twice";
          return std::nullopt;
        }
      c.meta.emplace_back(name, *v);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return c;
}

/// The kernel's arguments from --arg: buffers of random contents from the
/// seed, as `run` makes them, scalars as given, and the integers among them
/// by name; an error message, or empty.
std::string makeArguments(const TuneFlags &f, const std::vector<std::pair<std::string, std::string>> &params,
                          std::vector<std::vector<uint8_t>> &buffers, std::vector<Arg> &args,
                          std::map<std::string, int64_t> &integers) {
  std::string error;
  std::map<std::string, std::string> given;
  if (!splitPairs(f.args, "--arg", given, error)) return error;
  for (const auto &[n, v] : given)
    if (std::none_of(params.begin(), params.end(), [&](const auto &p) { return p.first == n; }))
      return "the kernel has no parameter '" + n + "'";
  std::mt19937_64 rng(f.seed);
  buffers.reserve(params.size());  // the spans below stay where they point
  for (const auto &[name, typeText] : params) {
    Param p{name, typeText, *runtime::parseParamType(typeText)};
    auto arg = given.find(name);
    if (!p.type.pointer) {
      if (arg == given.end()) return "no --arg for parameter '" + name + "' (" + typeText + ")";
      if (!scalarBits(p, arg->second, error)) return error;
      if (p.type.isFloat) {
        args.emplace_back(*parseDouble(arg->second));
      } else {
        std::optional<int64_t> v = parseInt(arg->second);
        if (!v) return "--arg " + name + "=" + arg->second + ": tune takes integers up to 2^63 - 1";
        args.emplace_back(*v);
        integers[name] = *v;
      }
      continue;
    }
    std::optional<int64_t> count = arg == given.end() ? int64_t(kDefaultElements) : parseInt(arg->second);
    if (!count || *count <= 0 || size_t(*count) > kMaxBufferBytes / size_t(p.type.bytes))
      return "--arg " + name + "=" + arg->second + " is not a count of elements from 1 to " +
             std::to_string(kMaxBufferBytes / size_t(p.type.bytes));
    buffers.emplace_back();
    fillRandom(p, buffers.back(), size_t(*count), rng);
    Arg a(int64_t(0));
    a.kind = Arg::Kind::Buffer;
    a.bytes = buffers.back();
    a.elementBytes = size_t(p.type.bytes);
    a.elementIsFloat = p.type.isFloat;
    args.push_back(a);
  }
  return {};
}

/// The key's values for a tuned table's row (a buffer's element count, an
/// integer's value), known before the tuning; an error message, or empty.
std::string tableKey(const TuneFlags &f, const std::vector<std::pair<std::string, std::string>> &params,
                     const std::vector<Arg> &args, std::vector<int64_t> &key) {
  for (const std::string &k : f.key) {
    size_t i = 0;
    while (i < params.size() && params[i].first != k) ++i;
    if (i == params.size()) return "--key '" + k + "' is not a parameter of the kernel";
    const Arg &a = args[i];
    if (a.kind == Arg::Kind::Buffer) key.push_back(int64_t(a.bytes.size() / a.elementBytes));
    else if (a.kind == Arg::Kind::Int) key.push_back(a.i);
    else return "--table: the key's parameter '" + k + "' is a float: a table keys by integers and buffer sizes";
  }
  return {};
}

/// The winner as a table's row: its configuration as it was timed (the
/// request's warps and stages where the configuration gives none).
TunedTableRow tableRow(const TuneFlags &f, std::vector<int64_t> key, const std::vector<TuneConfig> &configs,
                       const TunedLaunch &r, const std::string &device) {
  TunedTableRow row;
  row.key = std::move(key);
  for (const TuneConfig &c : configs)
    if (c.name() == r.config) row.config = c;
  if (!row.config.numWarps) row.config.numWarps = f.k.options.numWarps;
  if (!row.config.numStages) row.config.numStages = f.k.options.numStages;
  for (const Trial &t : r.trials)
    if (t.config == r.config) row.seconds = t.seconds;
  row.device = device;
  return row;
}

} // namespace

int tuneCommand(const TuneFlags &f) {
  // Every error: a message, or with --json the report, its "ok" false.
  auto fail = [&](const std::string &message) {
    std::string text = message.ends_with("\n") ? message : "twintile: error: " + message + "\n";  // Clang's is rendered
    if (f.json)
      std::cout << jsonText({{"command", "tune"}, {"file", f.k.file}, {"kernel", f.k.kernel}, {"ok", false},
                             {"error", text}});
    else std::cerr << text;
    return 1;
  };
  std::vector<TuneConfig> configs;
  std::string error;
  for (const std::string &text : f.configs) {
    std::optional<TuneConfig> c = configOf(text, error);
    if (!c) return fail(error);
    configs.push_back(*c);
  }
  std::vector<std::string> grid = runtime::splitGrid(f.grid);
  if (grid.size() > 3) return fail("--grid takes one to three sizes, got " + std::to_string(grid.size()));
  std::string why;
  std::unique_ptr<runtime::Device> device = twintile::makeDevice(f.device, why);
  if (!device) return fail("device '" + f.device + "' is not available: " + why);

  TuneOptions options;
  options.key = f.key;
  options.warmupMs = f.warmupMs;
  options.repMs = f.repMs;
  Autotuner tuner = Autotuner::fromFile(f.k.file, f.k.kernel, configs, options, f.k.options);
  if (std::string bad = tuner.load(); !bad.empty()) return fail(bad);

  std::vector<std::vector<uint8_t>> buffers;
  std::vector<Arg> args;
  std::map<std::string, int64_t> integers;  // what --grid may name, besides the meta-parameters
  if (std::string bad = makeArguments(f, tuner.parameters(), buffers, args, integers); !bad.empty()) return fail(bad);
  auto sizes = [&](const TuneConfig &c, std::string &problem) -> std::optional<runtime::Dim3> {
    std::map<std::string, int64_t> names = integers;
    for (const auto &[n, v] : c.meta) names[n] = v;
    uint32_t dims[3] = {1, 1, 1};
    for (size_t i = 0; i < grid.size(); ++i) {
      std::optional<int64_t> v = runtime::evalGridExpression(grid[i], names, problem);
      if (!v) {
        problem = "--grid " + problem;
        return std::nullopt;
      }
      if (*v <= 0 || *v > int64_t(UINT32_MAX)) {
        problem = "--grid '" + grid[i] + "' is " + std::to_string(*v) + " for " + c.name() + ": not a size";
        return std::nullopt;
      }
      dims[i] = uint32_t(*v);
    }
    return runtime::Dim3{dims[0], dims[1], dims[2]};
  };
  for (const TuneConfig &c : configs)  // a malformed --grid is said once, not per trial
    if (!sizes(c, error)) return fail(error);
  TuneGrid gridOf = [&](const TuneConfig &c) {
    std::string problem;
    std::optional<runtime::Dim3> g = sizes(c, problem);
    if (!g) throw std::invalid_argument(problem);
    return *g;
  };

  std::vector<int64_t> key;
  if (!f.table.empty())
    if (std::string bad = tableKey(f, tuner.parameters(), args, key); !bad.empty()) return fail(bad);
  TunedLaunch r = tuner.launchArgs(*device, gridOf, args, {});
  if (!r.ok() && r.trials.empty()) return fail(r.error);
  if (r.ok() && !f.table.empty() &&
      !addTunedRow(f.table, {f.k.kernel, f.key, f.grid, {}}, tableRow(f, key, configs, r, device->describe()), error))
    return fail(error);
  if (f.json) {
    nlohmann::ordered_json j{{"command", "tune"},      {"file", f.k.file},      {"kernel", f.k.kernel},
                             {"device", device->describe()}, {"ok", r.ok()}};
    if (!r.ok()) j["error"] = r.error;
    j["best"] = r.config;
    j["from_disk_cache"] = r.fromDisk;
    j["trials"] = nlohmann::ordered_json::array();
    for (const Trial &t : r.trials)
      j["trials"].push_back(t.error.empty() ? nlohmann::ordered_json{{"config", t.config}, {"seconds", t.seconds}}
                                            : nlohmann::ordered_json{{"config", t.config}, {"error", t.error}});
    std::cout << jsonText(j);
    return r.ok() ? 0 : 1;
  }
  if (!r.ok()) return fail(r.error);
  std::cout << "tuned " << f.k.kernel << " on " << device->describe() << ":\n";
  for (const Trial &t : r.trials) {
    std::cout << (t.config == r.config ? "  * " : "    ") << t.config << ": ";
    if (t.error.empty()) std::printf("%.4f ms\n", t.seconds * 1e3), std::fflush(stdout);
    else std::cout << t.error << "\n";
  }
  if (r.fromDisk) std::cout << "  (the disk cache's winner, timed before)\n";
  std::cout << "best: " << r.config << "\n";
  return 0;
}

} // namespace twintile::driver
