//===- CompileProbe.cpp - every compile phase, timed, in one process -----===//
//
//   compile_probe --frontend parse|trace|hybrid FILE SPEC... [--reps N] [--trace-host jit|clang++] [--cold-only]
//                 [--target sm_90a|sm_80] [--ptxas] [--no-backend] [--warmup]
//                 [--math precise|fast] [--num-warps N] [--assume-aligned NAME]... [--assume-divisible NAME]...
//
// The compile suite's instrument (experiments/suites/compile.py). For each
// repetition it takes every SPEC of FILE from source to PTX through the
// pipeline (pipeline/Pipeline.h, the driver's compile) and reads the phases
// it reports: the parse front end parses FILE once for all specs and walks
// each; the trace front end compiles FILE for the host once for all specs
// (past the cache, so the compile is cold; --trace-host jit or clang++ as
// the driver takes it), then traces each, and also times the cached path
// (the same front end again, from the warm cache; --cold-only leaves that
// out, so that the process does what a compile of the specs does, once). Then the IR cleanup and the backend, uncached, with the
// backend's own phases. Nothing is cached across repetitions. --warmup
// runs everything once first, untimed, so that one-time costs of the process
// (Clang's and LLVM's first use) stay out of the samples.
//
// Prints one JSON object per repetition per line:
//   {"rep": 0, "frontend": "parse", "file": ..., "parse_s": 0.012,
//    "specs": [{"spec": ..., "walk_s": ..., "cleanup_s": ..., "lower_s": ...,
//               "libdevice_s": ..., "optimize_s": ..., "nvptx_s": ...,
//               "ptxas_s": ..., "backend_s": ..., "ops": 41, "ptx_bytes": 9120}]}
// Trace specs have host_compile_s (cold: Clang, in process, or the clang++
// process), host_codegen_s (cold, in process: the host's code generator),
// host_load_s (loading the compiled file where it runs: the JIT linker or
// dlopen), host_cached_s (lookup and load of the cached object) - these in
// the first spec's row, shared by all - and trace_s instead of walk_s. Hybrid
// specs have the trace front end's phases (of the rewritten file), with the
// parse front end's parse_s beside them and rewrite_s (planning and editing
// the source, each spec). A front end's or the backend's refusal is printed as the spec's "error" and the exit status is 1.
// TWINTILE_NO_PCH=1 makes the parse front end parse without the precompiled
// language header.
//===----------------------------------------------------------------------===//
#include "pipeline/Pipeline.h"
#include "support/Stack.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Options {
  std::string file;
  std::vector<std::string> specs;
  int reps = 1;
  bool ptxas = false, backend = true, warmup = false;
  bool coldOnly = false;  // trace: no second, cached run of the front end
  /// --frontend, --target, --math, --num-warps and --assume-*, as the driver takes them.
  twintile::pipeline::CompileRequest request;
};

namespace pl = twintile::pipeline;

size_t countOps(const twintile::ir::Block &b) {
  size_t n = 0;
  for (const auto &op : b.ops) {
    ++n;
    for (const auto &region : op->regions) n += countOps(*region);
  }
  return n;
}

/// The seconds of the phases named `name` in `r` (0: none).
double phase(const pl::Result &r, const std::string &name) {
  double s = 0;
  for (const pl::Phase &p : r.phases)
    if (p.name == name) s += p.seconds;
  return s;
}

/// The error of a failed compile into `row`.
void refused(const pl::Result &r, json &row) {
  row["error"] = r.error;
  if (r.internal()) row["internal"] = true;
}

/// The front end's IR through the rest of the pipeline (its cleanup, and
/// the backend uncached unless --no-backend); fills `row`. False on a refusal.
bool finish(std::unique_ptr<twintile::ir::Func> func, const Options &o, json &row) {
  pl::CompileRequest request = o.request;
  request.useCache = false;
  request.ptxas = o.ptxas;
  request.last = o.backend ? twintile::support::Stage::Ptx : twintile::support::Stage::TileOpt;
  pl::Result r = pl::compileFunc(std::move(func), request);
  if (!r.ok()) {
    refused(r, row);
    return false;
  }
  double backend = 0;
  for (const twintile::backend::PhaseTime &p : r.backend.phases) backend += p.seconds;
  double cleanup = 0;  // every phase the backend did not report is a cleanup pass
  for (const pl::Phase &p : r.phases) cleanup += p.seconds;
  row["cleanup_s"] = cleanup - backend;
  row["ops"] = countOps(r.func->body);
  if (!o.backend) return true;
  for (const twintile::backend::PhaseTime &p : r.backend.phases) row[p.name + "_s"] = p.seconds;
  row["backend_s"] = r.backend.seconds;
  row["ptx_bytes"] = r.backend.ptx.size();
  return true;
}

/// The pipeline up to the front end's IR (the `tile` stage).
pl::CompileRequest frontEndOnly(const Options &o) {
  pl::CompileRequest request = o.request;
  request.last = twintile::support::Stage::Tile;
  return request;
}

bool parseRep(const Options &o, json &out) {
  std::vector<pl::Result> front = pl::compileSources(o.file, o.specs, frontEndOnly(o));
  out["parse_s"] = phase(front[0], "parse");  // shared by the specializations: in the first result only
  bool ok = true;
  for (size_t i = 0; i < o.specs.size(); ++i) {
    json row = {{"spec", o.specs[i]}};
    row["walk_s"] = phase(front[i], "walk");
    if (!front[i].ok()) refused(front[i], row), ok = false;
    else ok &= finish(std::move(front[i].func), o, row);
    out["specs"].push_back(row);
  }
  return ok;
}

/// The trace front end, and the hybrid, which traces the file it rewrote.
bool traceRep(const Options &o, json &out) {
  // The specs compile cold first, past the cache (the precompiled language
  // header is kept, as the parse front end keeps it): one host compile of
  // the file for all of them, as the driver compiles several. Then again
  // from what that left in the cache. What they share is in the first
  // spec's row, as the parse front end's parse is in the first result.
  pl::CompileRequest uncached = frontEndOnly(o);
  uncached.useCache = false;
  std::vector<pl::Result> cold = pl::compileSources(o.file, o.specs, uncached), again;
  double wall = 0;
  if (!o.coldOnly) {
    auto start = std::chrono::steady_clock::now();
    again = pl::compileSources(o.file, o.specs, frontEndOnly(o));
    wall = since(start);
  }
  std::vector<pl::Result> &warm = o.coldOnly ? cold : again;  // --cold-only: the cold run goes on to PTX

  bool ok = true;
  for (size_t i = 0; i < o.specs.size(); ++i) {
    json row = {{"spec", o.specs[i]}};
    row["host_compile_s"] = phase(cold[i], "host-compile");
    row["host_codegen_s"] = phase(cold[i], "host-codegen");
    row["host_load_s"] = phase(cold[i], "host-load");
    row["trace_s"] = phase(warm[i], "trace");
    if (o.request.frontend == pl::Frontend::Hybrid) {
      if (i == 0) out["parse_s"] = phase(cold[0], "parse");  // shared, as the parse front end's
      row["rewrite_s"] = phase(cold[i], "rewrite");
    }
    if (i == 0 && !o.coldOnly && warm[0].hostCompileCached) {
      double traced = 0;
      for (const pl::Result &w : warm) traced += phase(w, "trace");
      row["host_cached_s"] = wall - traced;
    }
    if (!warm[i].ok()) refused(warm[i], row), ok = false;
    else ok &= finish(std::move(warm[i].func), o, row);
    out["specs"].push_back(row);
  }
  return ok;
}

int usage(const char *why) {
  std::cerr << "compile_probe: " << why << "\n"
            << "usage: compile_probe --frontend parse|trace|hybrid FILE SPEC... [--reps N] [--trace-host jit|clang++] "
               "[--cold-only] [--target T] [--ptxas] "
            << "[--math precise|fast] [--num-warps N] [--assume-aligned NAME]... [--assume-divisible NAME]... "
               "[--no-backend] [--warmup]\n";
  return 2;
}

} // namespace

int probe(int argc, char **argv) {
  Options o;
  bool frontendGiven = false;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--frontend") {
      std::optional<twintile::pipeline::Frontend> f = twintile::pipeline::frontendNamed(value());
      if (!f) return usage("--frontend must be parse, trace or hybrid");
      o.request.frontend = *f;
      frontendGiven = true;
    } else if (a == "--trace-host") {
      std::optional<twintile::TraceHost> h = twintile::traceHostNamed(value());
      if (!h) return usage("--trace-host must be jit or clang++");
      o.request.traceHost = *h;
    } else if (a == "--target") {
      std::optional<twintile::pipeline::Target> t = twintile::pipeline::targetNamed(value());
      if (!t) return usage("--target must be sm_90a or sm_80");
      o.request.target = *t;
    }
    else if (a == "--reps") {
      std::string v = value();
      char *end = nullptr;
      long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || n < 1 || n > 1000) return usage("--reps takes a count from 1 to 1000");
      o.reps = int(n);
    } else if (a == "--ptxas") o.ptxas = true;
    else if (a == "--no-backend") o.backend = false;
    else if (a == "--warmup") o.warmup = true;
    else if (a == "--cold-only") o.coldOnly = true;
    else if (a == "--math") {
      std::optional<twintile::pipeline::MathMode> m = twintile::pipeline::mathNamed(value());
      if (!m) return usage("--math takes precise or fast");
      o.request.math = *m;
    } else if (a == "--num-warps") {
      std::string v = value();
      char *end = nullptr;
      long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || n < 1 || n > 32 || (n & (n - 1))) return usage("--num-warps takes 1, 2, 4, 8, 16 or 32");
      o.request.numWarps = int(n);
    } else if (a == "--assume-aligned" || a == "--assume-divisible") {
      std::string name = value();
      if (name.empty()) return usage((a + " takes a parameter's name").c_str());
      (a == "--assume-aligned" ? o.request.alignedNames : o.request.divisibleNames).push_back(name);
    }
    else if (a.starts_with("--")) return usage(("unknown option " + a).c_str());
    else positional.push_back(a);
  }
  if (!frontendGiven) return usage("--frontend must be parse, trace or hybrid");
  if (positional.size() < 2) return usage("give a file and at least one specialization");
  o.file = positional[0];
  o.specs.assign(positional.begin() + 1, positional.end());
  if (!fs::exists(o.file)) return usage(("no such file: " + o.file).c_str());

  if (o.warmup) {
    json ignored = {{"specs", json::array()}};
    if (o.request.frontend == twintile::pipeline::Frontend::Parse) parseRep(o, ignored);
    else traceRep(o, ignored);
  }
  bool ok = true;
  for (int rep = 0; rep < o.reps; ++rep) {
    json out = {{"rep", rep}, {"frontend", twintile::pipeline::name(o.request.frontend)}, {"file", o.file},
                {"target", twintile::pipeline::name(o.request.target)}, {"specs", json::array()}};
    ok &= o.request.frontend == twintile::pipeline::Frontend::Parse ? parseRep(o, out) : traceRep(o, out);
    std::cout << out.dump() << std::endl;
  }
  return ok ? 0 : 1;
}

// Every compile on one thread, with the stack the pipeline gives its compiles
// (support/Stack.h), so that the pipeline runs each in place: the per-thread
// state LLVM sets up once (the target machine) is made by the warmup, as in
// any program that compiles several kernels, not again for every sample.
int main(int argc, char **argv) {
  int status = 2;
  try {
    twintile::support::runOnLargeStack([&] { status = probe(argc, argv); });
  } catch (const std::runtime_error &e) {  // the stack ran out outside a compile, or could not be had
    std::fprintf(stderr, "compile_probe: error: %s\n", e.what());
    return 2;
  }
  return status;
}
