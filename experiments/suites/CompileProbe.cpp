//===- CompileProbe.cpp - every compile phase, timed, in one process -----===//
//
//   compile_probe --frontend parse|trace FILE SPEC... [--reps N]
//                 [--target sm_90a|sm_80] [--ptxas] [--no-backend] [--warmup]
//                 [--math precise|fast] [--num-warps N] [--assume-aligned NAME]... [--assume-divisible NAME]...
//
// The compile suite's instrument (experiments/suites/compile.py). For each
// repetition it takes every SPEC of FILE from source to PTX, as one program
// that compiles them together would: the parse front end parses FILE once
// for all specs and walks each; the trace front end compiles FILE as a
// shared object (a fresh cache directory each repetition, so the compile is
// cold), then traces, and also times the cached path (the same trace again
// from the warm cache). Then the IR cleanup and the backend, uncached, with
// the backend's own phases. Nothing is cached across repetitions. --warmup
// runs everything once first, untimed, so that one-time costs of the process
// (Clang's and LLVM's first use) stay out of the samples.
//
// Prints one JSON object per repetition per line:
//   {"rep": 0, "frontend": "parse", "file": ..., "parse_s": 0.012,
//    "specs": [{"spec": ..., "walk_s": ..., "cleanup_s": ..., "lower_s": ...,
//               "libdevice_s": ..., "optimize_s": ..., "nvptx_s": ...,
//               "ptxas_s": ..., "backend_s": ..., "ops": 41, "ptx_bytes": 9120}]}
// Trace specs have host_compile_s (cold), host_cached_s (lookup and load of
// the cached object) and trace_s instead of walk_s. A front end's or the
// backend's refusal is printed as the spec's "error" and the exit status is 1.
// TWINTILE_NO_PCH=1 makes the parse front end parse without the precompiled
// language header.
//===----------------------------------------------------------------------===//
#include "backend/Backend.h"
#include "frontends/parse/ParseFrontend.h"
#include "frontends/trace/SourceTracer.h"
#include "ir/PassManager.h"
#include "pipeline/Pipeline.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Options {
  std::string frontend, file, target = "sm_90a";
  std::vector<std::string> specs;
  int reps = 1;
  bool ptxas = false, backend = true, warmup = false;
  twintile::pipeline::Options promises;  // --math, --num-warps and --assume-*, as the driver takes them
};

size_t countOps(const twintile::ir::Block &b) {
  size_t n = 0;
  for (const auto &op : b.ops) {
    ++n;
    for (const auto &region : op->regions) n += countOps(*region);
  }
  return n;
}

/// Cleanup and backend for one front end's result; fills `row`. False on a refusal.
bool finish(twintile::FrontendResult r, const Options &o, json &row) {
  if (!r.ok()) {
    row["error"] = r.error ? r.error->str() : "the front end failed";
    return false;
  }
  auto start = std::chrono::steady_clock::now();
  twintile::ir::PassManager pm;
  pm.addDefaultPipeline();
  pm.run(*r.func);
  row["cleanup_s"] = since(start);
  row["ops"] = countOps(r.func->body);
  if (!o.backend) return true;
  twintile::backend::CompileOptions co;
  co.arch = o.target;
  co.useCache = false;
  co.runPtxas = o.ptxas;
  co.fastMath = o.promises.fastMath;
  co.numWarps = o.promises.numWarps;
  if (auto d = twintile::pipeline::assumptions(*r.func, o.promises, co.assume)) {
    row["error"] = d->str();
    return false;
  }
  try {
    twintile::backend::CompileResult c = twintile::backend::compile(*r.func, co);
    for (const twintile::backend::PhaseTime &p : c.phases) row[p.name + "_s"] = p.seconds;
    row["backend_s"] = c.seconds;
    row["ptx_bytes"] = c.ptx.size();
  } catch (const twintile::backend::BackendError &e) {
    row["error"] = e.diag.str();
    return false;
  } catch (const twintile::ir::InternalError &e) {
    row["error"] = e.diag().str();
    row["internal"] = true;
    return false;
  }
  return true;
}

bool parseRep(const Options &o, json &out) {
  auto start = std::chrono::steady_clock::now();
  auto parsed = twintile::ParsedFile::parse(o.file, o.specs);
  out["parse_s"] = since(start);
  if (!parsed->ok()) {
    out["error"] = parsed->error();
    return false;
  }
  bool ok = true;
  for (const std::string &spec : o.specs) {
    json row = {{"spec", spec}};
    twintile::FrontendResult r = parsed->walk(spec);
    row["walk_s"] = r.seconds;
    ok &= finish(std::move(r), o, row);
    out["specs"].push_back(row);
  }
  return ok;
}

bool traceRep(const Options &o, int rep, json &out) {
  // A fresh cache per repetition: the first trace of each spec compiles cold.
  fs::path cache = fs::temp_directory_path() / ("twintile-probe-" + std::to_string(getpid()) + "-" + std::to_string(rep));
  fs::remove_all(cache);
  bool ok = true;
  for (const std::string &spec : o.specs) {
    json row = {{"spec", spec}};
    twintile::SourceTraceOptions so;
    so.cacheDir = cache.string();
    twintile::SourceTraceResult cold = twintile::traceSourceFile(o.file, spec, so);
    row["host_compile_s"] = cold.compileSeconds;
    auto start = std::chrono::steady_clock::now();
    twintile::SourceTraceResult warm = twintile::traceSourceFile(o.file, spec, so);
    double wall = since(start);
    if (warm.cacheHit) row["host_cached_s"] = wall - warm.trace.seconds;
    row["trace_s"] = warm.trace.seconds;
    ok &= finish(std::move(warm.trace), o, row);
    out["specs"].push_back(row);
  }
  fs::remove_all(cache);
  return ok;
}

int usage(const char *why) {
  std::cerr << "compile_probe: " << why << "\n"
            << "usage: compile_probe --frontend parse|trace FILE SPEC... [--reps N] [--target T] [--ptxas] "
            << "[--math precise|fast] [--num-warps N] [--assume-aligned NAME]... [--assume-divisible NAME]... "
               "[--no-backend] [--warmup]\n";
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--frontend") o.frontend = value();
    else if (a == "--target") o.target = value();
    else if (a == "--reps") {
      std::string v = value();
      char *end = nullptr;
      long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || n < 1 || n > 1000) return usage("--reps takes a count from 1 to 1000");
      o.reps = int(n);
    } else if (a == "--ptxas") o.ptxas = true;
    else if (a == "--no-backend") o.backend = false;
    else if (a == "--warmup") o.warmup = true;
    else if (a == "--math") {
      std::string m = value();
      if (m != "precise" && m != "fast") return usage("--math takes precise or fast");
      o.promises.fastMath = m == "fast";
    } else if (a == "--num-warps") {
      std::string v = value();
      char *end = nullptr;
      long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || n < 1 || n > 32 || (n & (n - 1))) return usage("--num-warps takes 1, 2, 4, 8, 16 or 32");
      o.promises.numWarps = int(n);
    } else if (a == "--assume-aligned" || a == "--assume-divisible") {
      std::string name = value();
      if (name.empty()) return usage((a + " takes a parameter's name").c_str());
      (a == "--assume-aligned" ? o.promises.alignedNames : o.promises.divisibleNames).push_back(name);
    }
    else if (a.starts_with("--")) return usage(("unknown option " + a).c_str());
    else positional.push_back(a);
  }
  if (o.frontend != "parse" && o.frontend != "trace") return usage("--frontend must be parse or trace");
  if (positional.size() < 2) return usage("give a file and at least one specialization");
  if (!twintile::backend::isSupportedArch(o.target)) return usage("--target must be sm_90a or sm_80");
  o.file = positional[0];
  o.specs.assign(positional.begin() + 1, positional.end());
  if (!fs::exists(o.file)) return usage(("no such file: " + o.file).c_str());

  if (o.warmup) {
    json ignored = {{"specs", json::array()}};
    if (o.frontend == "parse") parseRep(o, ignored);
    else traceRep(o, -1, ignored);
  }
  bool ok = true;
  for (int rep = 0; rep < o.reps; ++rep) {
    json out = {{"rep", rep}, {"frontend", o.frontend}, {"file", o.file}, {"target", o.target}, {"specs", json::array()}};
    ok &= o.frontend == "parse" ? parseRep(o, out) : traceRep(o, rep, out);
    std::cout << out.dump() << std::endl;
  }
  return ok ? 0 : 1;
}
