#include "frontends/trace/SourceTracer.h"

#include "frontends/common/Spec.h"
#include "frontends/trace/HostCompile.h"
#include "frontends/trace/HostLoad.h"
#include "frontends/trace/HostObject.h"
#include "frontends/trace/Isolate.h"

#include "support/Environment.h"
#include "support/Files.h"

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

namespace fs = std::filesystem;

namespace twintile {

namespace {

using twintile::support::readFile;

TraceResult failure(std::string message, twintile::ir::Location loc = {}) {
  TraceResult r;
  r.error = twintile::ir::Diagnostic{std::move(loc), std::move(message)};
  return r;
}

} // namespace

std::string_view name(TraceHost h) { return h == TraceHost::Jit ? "jit" : "clang++"; }

std::optional<TraceHost> traceHostNamed(std::string_view s) {
  for (TraceHost h : {TraceHost::Jit, TraceHost::ClangProcess})
    if (s == name(h)) return h;
  return std::nullopt;
}

std::vector<SourceTraceResult> traceSourceFile(const std::string &file, const std::vector<std::string> &specs,
                                               const SourceTraceOptions &opts) {
  std::vector<SourceTraceResult> results(specs.size());
  // An error with no line of its own (a crash before any operation, an
  // object that does not load) is at least the file's.
  twintile::ir::Location inFile;
  inFile.pos.file = file;
  std::vector<std::string> notes;  // the caches' and the precompiled header's, for every result
  auto failAll = [&](const std::string &message) {
    for (SourceTraceResult &r : results) {
      r.trace = failure(message, inFile);
      r.notes = notes;
    }
    return std::move(results);
  };
  // Each spec is pasted into the generated entry points: one that could end
  // the code around it is refused, never compiled.
  for (const std::string &spec : specs)
    if (std::string why = specProblem(spec); !why.empty())
      return failAll("--kernel '" + spec + "' is not a specialization: " + why);
  std::error_code ec;
  fs::path kernelPath = fs::absolute(file, ec);
  std::optional<std::string> source = readFile(kernelPath);
  if (!source) return failAll("cannot read kernel file '" + file + "'");
  if (specs.empty()) return results;

  SourceTraceOptions resolved = opts;
  if (!resolved.host) {
    std::string named = support::envValue(support::Env::TraceHost).value_or("jit");
    resolved.host = traceHostNamed(named);
    if (!resolved.host)
      return failAll("TWINTILE_TRACE_HOST is '" + named + "': it names how a kernel file is compiled for tracing, "
                     "jit or clang++");
  }
  bool isolate = opts.isolate && support::envValue(support::Env::TraceInProcess) != "1";
  IsolationLimits limits = opts.limits;
  if (std::string t = support::envValue(support::Env::TraceTimeout).value_or(""); !t.empty() && std::atof(t.c_str()) > 0)
    limits.seconds = std::atof(t.c_str());

  std::vector<TraceOptions> traceOpts(specs.size());
  std::vector<std::vector<std::string>> paramNames(specs.size());
  std::vector<std::string> refused(specs.size());  // why spec i names no kernel (then nothing of it runs)
  HostObject host;
  double loadSeconds = 0;
  auto failInternal = [&](const std::string &message) {
    if (!host.scratch.empty()) fs::remove_all(host.scratch, ec);
    for (SourceTraceResult &r : results) {
      r.trace = failure(message, inFile);
      r.trace.error->internal = true;
      r.notes = notes;
    }
    return std::move(results);
  };
  // A cached object that does not load is rebuilt once.
  for (int attempt = 0; attempt < 2; ++attempt) {
    host = buildHostObject(kernelPath.string(), *source, specs, resolved, /*rebuild=*/attempt > 0);
    notes.insert(notes.end(), host.notes.begin(), host.notes.end());
    if (host.internal) return failInternal(host.error);
    if (!host.error.empty()) {
      for (SourceTraceResult &r : results) {
        r.hostCompileFailed = host.compileFailed;
        r.compilerOutput = host.compilerOutput;
        r.kernels = host.kernels;
      }
      return failAll(host.error);
    }
    for (TraceOptions &t : traceOpts) {
      t = TraceOptions();
      t.numWarps = opts.numWarps;
    }
    // The kernels' meta-parameters and parameter names, from Clang's AST,
    // which the object carries.
    std::string why;
    std::vector<EntrySignature> entries = entrySignatures(host.path, why);
    if (entries.size() != specs.size()) {
      if (why.empty()) why = "its entry points do not match";
      if (host.cacheHit && attempt == 0) {
        notes.push_back("the cached host object " + host.path + " does not say what it traces (" + why + "); rebuilt");
        continue;
      }
      return failInternal("the compiled kernel file does not say what it traces: " + why);
    }
    for (size_t i = 0; i < specs.size(); ++i) {
      if (!entries[i].notAKernel.empty())
        refused[i] = "--kernel '" + specs[i] + "' is not a specialization of a kernel in " + file + ": " +
                     entries[i].notAKernel;
      traceOpts[i].meta = std::move(entries[i].kernel.meta);
      paramNames[i] = std::move(entries[i].kernel.params);
    }
    // The specs that name kernels, by their entry points.
    std::vector<size_t> todo;
    std::vector<std::string> todoSpecs;
    std::vector<TraceOptions> todoOpts;
    for (size_t i = 0; i < specs.size(); ++i)
      if (refused[i].empty()) {
        todo.push_back(i);
        todoSpecs.push_back(specs[i]);
        todoOpts.push_back(traceOpts[i]);
      }
    LoadError loadError;
    if (todo.empty()) {
    } else if (isolate) {
      // The kernel's code is loaded and run in a child process (Isolate.h).
      std::vector<IsolatedTrace> traced =
          traceIsolated(host.path, host.relocatable, todoSpecs, todo, todoOpts, limits, loadError, loadSeconds);
      if (!loadError.any())
        for (size_t k = 0; k < todo.size(); ++k) {
          results[todo[k]].trace = std::move(traced[k].trace);
          results[todo[k]].output = std::move(traced[k].output);
        }
    } else {
      auto start = std::chrono::steady_clock::now();
      if (HostCode *code = HostCode::load(host.path, host.relocatable, loadError)) {
        loadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (size_t i : todo) {
          HostCode::Entry fn = code->entry(i);
          if (!fn) return failInternal("the compiled kernel has no entry point " + traceEntrySymbol(i));
          fn(&traceOpts[i], &results[i].trace);
        }
      }
    }
    if (!host.scratch.empty()) fs::remove_all(host.scratch, ec);  // loaded (or traced in a child) already
    if (!loadError.any()) break;
    // A load error of twintile's on a cached object may be the cache's:
    // rebuilt once. The file's own (a function nothing defines) is not.
    if (!loadError.ours || !host.cacheHit || attempt > 0) {
      std::string message = "cannot load the compiled kernel " + host.path + ": " + loadError.message;
      return loadError.ours ? failInternal(message) : failAll(message);
    }
    notes.push_back("the cached host object " + host.path + " did not load (" + loadError.message + "); rebuilt");
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    SourceTraceResult &result = results[i];
    if (!refused[i].empty()) result.trace = failure(refused[i], inFile);
    if (result.trace.error && !result.trace.error->loc.known() && result.trace.error->loc.pos.file.empty())
      result.trace.error->loc.pos.file = file;
    result.entrySource = host.entrySource;
    result.sharedObject = host.path;
    result.host = *resolved.host;
    result.cacheHit = host.cacheHit;
    result.loadSeconds = i == 0 ? loadSeconds : 0;
    result.compileSeconds = i == 0 ? host.compileSeconds : 0;  // one compile for all: counted once
    result.codegenSeconds = i == 0 ? host.codegenSeconds : 0;
    result.notes = notes;
  }
  // Parameter names from the source, when they line up one to one.
  for (size_t i = 0; i < specs.size(); ++i) {
    TraceResult &t = results[i].trace;
    if (t.ok() && paramNames[i].size() == t.func->numParams())
      for (size_t p = 0; p < paramNames[i].size(); ++p) t.func->param(p)->name = paramNames[i][p];
  }
  return results;
}

SourceTraceResult traceSourceFile(const std::string &file, const std::string &spec, const SourceTraceOptions &opts) {
  return std::move(traceSourceFile(file, std::vector<std::string>{spec}, opts).front());
}

} // namespace twintile
