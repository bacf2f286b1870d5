//===- Run.cpp - twintile run: a kernel on a device, checked ---------------===//
//
// Compiles the kernel, makes its buffers (random, from a seed, or from .npy
// files), launches it on the device under test (emu by default), and checks
// every buffer against the IR interpreter's run on the same inputs. Buffers
// can be saved as .npy before and after; device_print's output is shown in
// order; --time gives the median of repeated launches.
//===----------------------------------------------------------------------===//
#include "launch/Devices.h"
#include "launch/InterpDevice.h"
#include "ir/Float16.h"
#include "ir/Interpreter.h"
#include "ir/Printer.h"
#include "runtime/Npy.h"
#include "runtime/BufferCompare.h"
#include "tools/driver/Arguments.h"
#include "tools/driver/Driver.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <set>

namespace fs = std::filesystem;

namespace twintile::driver {

namespace {

/// The most threads a launch on the emulator or the interpreter may have.
constexpr uint64_t kMaxCpuThreads = uint64_t(1) << 24;

/// The emulator's dynamic counts as one JSON line: `profile: {...}`.
void printProfile(std::ostream &os, const runtime::LaunchResult &run) {
  const runtime::EmuProfile &p = run.profile;
  os << "profile: {\"thread_instructions\": " << run.instructions << ", \"global_requests\": " << p.globalRequests
     << ", \"global_sectors\": " << p.globalSectors << ", \"global_bytes\": " << p.globalBytes
     << ", \"shared_requests\": " << p.sharedRequests << ", \"shared_wavefronts\": " << p.sharedWavefronts
     << ", \"shared_ideal_wavefronts\": " << p.sharedIdealWavefronts << ", \"warp_instructions\": {";
  const char *sep = "";
  for (const auto &[op, n] : p.warpInstructions) {  // opcodes are PTX words: no character needs escaping
    os << sep << "\"" << op << "\": " << n;
    sep = ", ";
  }
  os << "}}\n";
}

/// run --json's report of a command that ended before a verdict: `error`
/// is what would have gone to standard error.
std::string errorReport(const RunFlags &f, const std::string &error, bool internal) {
  nlohmann::ordered_json j{{"command", "run"}, {"kernel", f.k.kernel}, {"device", f.device}, {"verdict", "error"},
                           {"error", error}};
  if (internal) j["internal"] = true;
  return jsonText(j);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

using Stop = std::function<int(const std::string &text, int status)>;

int runWith(const RunFlags &f, const Stop &stop) {
  auto refuse = [&](const std::string &message) { return stop("twintile: error: " + message + "\n", 1); };
  if (f.repeatGiven && !f.time) return refuse("--repeat sets how many launches --time times: give --time too");
  std::string why;
  std::unique_ptr<runtime::Device> device = twintile::makeDevice(f.device, why);
  if (!device) return refuse("device '" + f.device + "' is not available: " + why);
  const runtime::Capabilities can = device->capabilities();
  if (f.profile && !can.profiles) return refuse("--profile counts what the emulator runs: it needs --device emu");
  if (f.interleave && !can.interleaves)
    return refuse("--interleave schedules the emulator's programs: it needs --device emu");

  // The grid: positive, within the device's limits.
  if (f.grid.empty() || f.grid.size() > 3) return refuse("--grid takes one to three sizes");
  runtime::Dim3 limit = device->maxGrid();
  const uint32_t limits[3] = {limit.x, limit.y, limit.z};
  uint32_t dims[3] = {1, 1, 1};
  for (size_t i = 0; i < f.grid.size(); ++i) {
    if (f.grid[i] <= 0) return refuse("--grid sizes must be positive, got " + std::to_string(f.grid[i]));
    if (f.grid[i] > limits[i])
      return refuse("--grid " + std::string("xyz").substr(i, 1) + " = " + std::to_string(f.grid[i]) + " is over the " +
                  f.device + " device's limit of " + std::to_string(limits[i]));
    dims[i] = static_cast<uint32_t>(f.grid[i]);
  }
  runtime::Dim3 grid{dims[0], dims[1], dims[2]};

  pipeline::CompileRequest o = f.k.options;
  o.last = support::Stage::Ptx;
  if (f.json) o.reportOnLimit = [&](const std::string &error) { return errorReport(f, error, false); };
  pipeline::Result compiled = pipeline::compileSource(f.k.file, f.k.kernel, o);
  if (!compiled.ok()) return stop(compiled.error, failureStatus(compiled));
  const ir::Func &func = *compiled.func;
  // The CPU devices run every thread one after another: a launch they would
  // take hours over is refused up front, not left to run.
  uint64_t threads = uint64_t(grid.x) * grid.y * grid.z * compiled.backend.manifest.threadsPerProgram;
  if ((can.onCpu || f.check) && threads > kMaxCpuThreads)
    return refuse("a grid of " + std::to_string(uint64_t(grid.x) * grid.y * grid.z) + " programs of " +
                std::to_string(compiled.backend.manifest.threadsPerProgram) + " threads is " + std::to_string(threads) +
                " threads, more than the " + f.device + " device (and the interpreter that checks it) runs in "
                "reasonable time (" + std::to_string(kMaxCpuThreads) + "); use a smaller grid, or --device cuda --no-check");
  runtime::KernelImage image{compiled.backend.ptx, compiled.backend.manifest, {}, ir::toString(func)};

  std::map<std::string, std::string> given, inputs;
  std::string error;
  if (!splitPairs(f.args, "--arg", given, error) || !splitPairs(f.inputs, "--input", inputs, error)) return refuse(error);
  std::set<std::string> names;
  std::vector<Param> params;
  for (const runtime::Manifest::Param &mp : image.manifest.params) {
    params.push_back({mp.name, mp.type, *runtime::parseParamType(mp.type)});
    names.insert(mp.name);
  }
  for (const auto &m : {given, inputs})
    for (const auto &[n, v] : m)
      if (!names.count(n)) return refuse("kernel '" + func.name + "' has no parameter '" + n + "'");

  // Arguments and the buffers' initial contents.
  std::mt19937_64 rng(f.seed);
  std::vector<runtime::LaunchArg> args;
  std::vector<std::vector<uint8_t>> initial;
  std::vector<std::string> bufferNames;
  std::vector<const Param *> bufferParams;
  std::vector<std::string> notes;
  for (const Param &p : params) {
    auto arg = given.find(p.name);
    auto input = inputs.find(p.name);
    if (!p.type.pointer) {
      if (input != inputs.end()) return refuse("--input " + p.name + ": '" + p.name + "' is a scalar (" + p.typeText + "), not a buffer");
      if (arg == given.end()) return refuse("no --arg for parameter '" + p.name + "' (" + p.typeText + ")");
      std::optional<uint64_t> bits = scalarBits(p, arg->second, error);
      if (!bits) return refuse(error);
      args.push_back(runtime::LaunchArg::scalar(*bits));
      continue;
    }
    std::vector<uint8_t> bytes;
    if (input != inputs.end()) {
      try {
        runtime::NpyArray a = runtime::readNpy(input->second);
        bytes = runtime::fromNpy(a, p.type.elem, p.name);
      } catch (const std::exception &e) {
        return refuse(e.what());
      }
      size_t count = bytes.size() / p.type.bytes;
      if (arg != given.end() && parseInt(arg->second) != std::optional<int64_t>(static_cast<int64_t>(count)))
        return refuse("--arg " + p.name + "=" + arg->second + " disagrees with --input " + input->second + ", which has " +
                    std::to_string(count) + " elements");
    } else {
      size_t count = kDefaultElements;
      if (arg != given.end()) {
        std::optional<int64_t> n = parseInt(arg->second);
        if (!n || *n <= 0)
          return refuse("--arg " + p.name + "=" + arg->second + " is not a positive count of elements");
        count = static_cast<size_t>(*n);
        if (count > kMaxBufferBytes / p.type.bytes)
          return refuse("--arg " + p.name + "=" + arg->second + " is too large: run makes buffers of at most " +
                      std::to_string(kMaxBufferBytes >> 30) + " GiB");
      } else {
        notes.push_back(p.name + " has no --arg or --input: " + std::to_string(kDefaultElements) + " random elements");
      }
      fillRandom(p, bytes, count, rng);
    }
    args.push_back(runtime::LaunchArg::buf(initial.size()));
    initial.push_back(std::move(bytes));
    bufferNames.push_back(p.name);
    bufferParams.push_back(&p);
  }

  auto spans = [](std::vector<std::vector<uint8_t>> &bufs) {
    std::vector<std::span<uint8_t>> out;
    for (auto &b : bufs) out.emplace_back(b);
    return out;
  };
  std::vector<std::vector<uint8_t>> got = initial;
  {
    std::vector<std::span<uint8_t>> s = spans(got);
    if (std::string bad = runtime::checkLaunch(image.manifest, args, s); !bad.empty()) return refuse(bad);
  }

  if (!f.json)
    for (const std::string &n : notes) std::cout << "note: " << n << "\n";

  // The reference first: the interpreter on the same inputs, whose errors
  // (an out-of-bounds load) point at the kernel's line.
  bool check = f.check && !can.reference;
  std::vector<std::vector<uint8_t>> want = initial;
  std::vector<size_t> stored;  // per buffer, as the interpreter counts the kernel's stores
  if (check) {
    runtime::LaunchOptions ro;
    ro.grid = grid;
    runtime::LaunchResult ref = twintile::makeInterpDevice()->launch(image, args, spans(want), ro);
    if (!ref.ok()) return stop(ref.error, 1);
    stored = ref.stored;
  }
  runtime::LaunchOptions lo;
  lo.grid = grid;
  lo.profile = f.profile;
  lo.interleave = f.interleave;
  lo.scheduleSeed = f.seed;
  if (f.time) {
    lo.warmup = 2;
    lo.repeat = std::max(f.repeat, 1);
  }
  runtime::LaunchResult run = device->launch(image, args, spans(got), lo);
  if (!run.ok()) return refuse("the kernel failed on " + f.device + ": " + run.error);
  if (can.reference) stored = run.stored;

  std::vector<runtime::BufferCheck> checks;
  bool agree = true;
  std::string checkNote;
  if (!check)
    checkNote = can.reference ? "the interpreter is the reference: nothing to check against"
                                     : "not checked (--no-check)";
  for (size_t b = 0; b < got.size(); ++b) {
    checks.push_back(runtime::compareBuffer(bufferNames[b], bufferParams[b]->type.elem, initial[b], check ? want[b] : got[b],
                                            got[b], image.manifest.math == "fast"));
    if (b < stored.size()) checks.back().written = static_cast<int64_t>(stored[b]);
    agree = agree && checks.back().mismatches == 0;
  }

  if (!f.saveDir.empty()) {
    std::error_code ec;
    fs::create_directories(f.saveDir, ec);
    try {
      for (size_t b = 0; b < got.size(); ++b) {
        const std::string &elem = bufferParams[b]->type.elem;
        size_t count = got[b].size() / bufferParams[b]->type.bytes;
        runtime::writeNpy((fs::path(f.saveDir) / (bufferNames[b] + ".in.npy")).string(), runtime::toNpy(elem, initial[b], count));
        runtime::writeNpy((fs::path(f.saveDir) / (bufferNames[b] + ".out.npy")).string(), runtime::toNpy(elem, got[b], count));
      }
    } catch (const std::exception &e) {
      return refuse(e.what());
    }
  }

  std::string verdict = !checkNote.empty() ? "ran" : agree ? "ok" : "different";
  if (f.json) {
    nlohmann::ordered_json j{{"command", "run"}, {"kernel", f.k.kernel}, {"device", device->describe()},
                             {"grid", {grid.x, grid.y, grid.z}}, {"threads", image.manifest.threadsPerProgram},
                             {"verdict", verdict}};
    if (!checkNote.empty()) j["note"] = checkNote;
    j["notes"] = notes;
    for (const runtime::BufferCheck &c : checks)
      j["buffers"].push_back({{"name", c.name}, {"elem", c.elem}, {"elements", c.elements}, {"written", c.written >= 0 ? nlohmann::ordered_json(c.written) : nlohmann::ordered_json()}, {"changed", c.changed},
                              {"mismatches", c.mismatches}, {"examples", c.examples}});
    j["printed"] = run.printed;
    if (f.time) j["seconds"] = run.seconds, j["median_seconds"] = median(run.seconds);
    if (f.profile) j["instructions"] = run.instructions;
    if (!f.saveDir.empty()) j["saved"] = f.saveDir;
    std::cout << jsonText(j);
    return agree ? 0 : 1;
  }
  if (!run.printed.empty()) std::cout << "device_print:\n" << run.printed << (run.printed.back() == '\n' ? "" : "\n");
  for (const runtime::BufferCheck &c : checks) runtime::printCheck(std::cout, c);
  std::cout << verdict << ": " << func.name << " on " << f.device << ", grid (" << grid.x << ", " << grid.y << ", "
            << grid.z << "), " << image.manifest.threadsPerProgram << " threads, " << pipeline::name(o.target) << ": ";
  size_t elements = 0, bad = 0;
  for (const runtime::BufferCheck &c : checks) elements += c.elements, bad += c.mismatches;
  if (!checkNote.empty()) std::cout << checkNote << "\n";
  else if (bad) std::cout << bad << " of " << elements << " elements differ from the interpreter\n";
  else std::cout << "matches the interpreter on " << elements << " elements of " << checks.size() << " buffers\n";
  if (f.time)
    std::cout << "time: median " << median(run.seconds) * 1e6 << " us of " << run.seconds.size() << " launches on "
              << device->describe() << " (" << can.timer << ")\n";
  if (f.profile) printProfile(std::cout, run);
  if (!f.saveDir.empty()) std::cout << "saved " << 2 * got.size() << " .npy files to " << f.saveDir << "\n";
  return agree ? 0 : 1;
}

} // namespace

int runCommand(const RunFlags &f) {
  // Every error ends the command with its text on standard error or, with
  // --json, as the report (run's own, its verdict "error").
  Stop stop = [&](const std::string &text, int status) {
    if (f.json) std::cout << errorReport(f, text, status == kExitInternal);
    else std::cerr << text << (text.ends_with("\n") ? "" : "\n");
    return status;
  };
  return guarded([&] { return runWith(f, stop); }, stop);
}

} // namespace twintile::driver
