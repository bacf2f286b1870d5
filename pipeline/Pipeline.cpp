//===- Pipeline.cpp - the compile, top to bottom -------------------------===//
#include "pipeline/Pipeline.h"

#include "pipeline/FrontEnd.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"
#include "support/Stack.h"

#include <algorithm>
#include <atomic>
#include <sstream>
#include <thread>

namespace twintile::pipeline {

bool isBackendStage(Stage s) { return static_cast<int>(s) > static_cast<int>(Stage::TileOpt); }

Result failure(Result r, ir::Diagnostic d) {
  r.error = ir::render(d);
  r.diag = std::move(d);
  return r;
}

namespace {

std::string irText(const ir::Func &f, const CompileRequest &o) { return ir::toString(f, {.locations = o.locations}); }

/// sass-info: ptxas's verdict and report, then the SASS.
std::string sassInfo(const backend::CompileResult &c) {
  std::ostringstream os;
  const backend::PtxasReport &p = c.ptxas;
  if (!p.ran) return "// ptxas skipped: " + p.skipped + "\n";
  os << "// ptxas: " << p.registers << " registers, " << p.spillStoreBytes << " bytes spill stores, "
     << p.spillLoadBytes << " bytes spill loads, " << p.stackBytes << " bytes stack, " << p.sharedBytes
     << " bytes shared memory";
  if (int dynamic = c.manifest.dynamicSharedBytes) os << " + " << dynamic << " bytes dynamic shared memory";
  os << "\n";
  std::istringstream log(p.log);
  for (std::string line; std::getline(log, line);) os << "// " << line << "\n";
  std::string why;
  if (std::optional<std::string> sass = backend::disassemble(p.cubin, why)) os << "\n" << *sass;
  else os << "// no SASS: " << why << "\n";
  return os.str();
}

Result compileFuncHere(std::unique_ptr<ir::Func> func, const CompileRequest &options, const Observer &observer) {
  Result r;
  r.func = std::move(func);
  ir::Func &f = *r.func;
  if (std::string why = problem(options); !why.empty()) return failure(std::move(r), ir::Diagnostic{{}, why});
  resolveOn(options, f);
  observer.offer(Stage::Tile, [&] { return irText(f, options); });
  if (options.last == Stage::Tile) return r;

  // tile-opt: the cleanup every later stage assumes.
  ir::PassManager pm;
  pm.addDefaultPipeline();
  try {
    pm.run(f);
  } catch (const ir::InternalError &e) {
    return failure(std::move(r), e.diag());
  }
  for (const ir::PassTiming &t : pm.timings()) r.phases.push_back({t.pass, t.seconds});
  r.phases.push_back({"verify-ir", pm.verifySeconds()});  // after each pass: a bug in one is caught at it
  observer.offer(Stage::TileOpt, [&] { return irText(f, options); });
  if (options.last == Stage::TileOpt) return r;

  // axes, layouts, pipelines, shared, barriers, llvm-raw, llvm, ptx, sass-info: the backend.
  backend::CompileOptions bo;
  if (auto d = backendOptions(options, f, bo)) return failure(std::move(r), *d);
  bo.observe = observer;  // axes, layouts, pipelines, shared, barriers, llvm-raw, llvm: the backend's own stages
  try {
    r.backend = backend::compile(f, bo);
  } catch (const backend::BackendError &e) {
    return failure(std::move(r), e.diag);
  } catch (const ir::InternalError &e) {
    return failure(std::move(r), e.diag());
  }
  for (const std::string &n : r.backend.notes) r.notes.push_back(n);
  for (const backend::PhaseTime &p : r.backend.phases) r.phases.push_back({p.name, p.seconds});
  observer.offer(Stage::Ptx, [&] { return r.backend.ptx; });
  if (options.last == Stage::SassInfo) observer.offer(Stage::SassInfo, [&] { return sassInfo(r.backend); });
  return r;
}

} // namespace

namespace {

/// The error of a compile whose large stack ran out or could not be had.
Result stackFailure(const std::string &who, ir::Location at, const std::exception &e, bool exhausted, bool backend) {
  std::string setting = std::string(support::kStackVariable) + "=<MiB>";
  ir::Diagnostic d{std::move(at), who + " " + e.what()};
  if (!exhausted) {
    d.message += ": " + setting + " sets a smaller one";
  } else if (backend) {
    // The backend recurses over the IR the front end made on a stack as
    // large, so this is unlikely to be the kernel's doing.
    d.message += " (" + setting + " gives each compile a larger one)";
    d.internal = true;
  } else {
    d.message += ": the kernel nests too deeply (expressions, statements or template argument lists nested many "
                 "thousands deep); " + setting + " gives each compile a larger stack";
  }
  Result r = failure(Result{}, std::move(d));
  r.exhaustedStack = exhausted;
  return r;
}

} // namespace

// The compile recurses once per level of a kernel's nesting (Clang, the
// walker, LLVM): it runs on a large stack (support/Stack.h).
Result compileFunc(std::unique_ptr<ir::Func> func, const CompileRequest &options, const Observer &observer) {
  Result r;
  ir::Location at = func ? func->loc : ir::Location{};
  std::string name = func ? "compiling '" + func->name + "'" : "the compile";
  try {
    support::runOnLargeStack([&] { r = compileFuncHere(std::move(func), options, observer); });
  } catch (const support::StackExhausted &e) {
    r = stackFailure(name, at, e, /*exhausted=*/true, /*backend=*/true);
  } catch (const support::StackUnavailable &e) {
    r = stackFailure(name, at, e, /*exhausted=*/false, /*backend=*/true);
  }
  return r;
}

std::string hostOutputNote(const std::string &output) {
  return "the kernel's host code printed, while traced:\n" + output + (output.ends_with("\n") ? "" : "\n");
}

namespace {

std::vector<Result> compileSourcesHere(const std::string &file, const std::vector<std::string> &kernels,
                                       const CompileRequest &options, const ObserverFor &observers);

Observer observerOf(const ObserverFor &observers, size_t i) { return observers ? observers(i) : Observer{}; }

/// compileSources for the entries of `kernels` that `keep` says, in place;
/// the others' results are left as they are.
void compileSome(const std::string &file, const std::vector<std::string> &kernels, const CompileRequest &options,
                 const ObserverFor &observers, const std::vector<bool> &keep, std::vector<Result> &results) {
  std::vector<std::string> some;
  std::vector<size_t> where;
  for (size_t i = 0; i < kernels.size(); ++i)
    if (keep[i]) some.push_back(kernels[i]), where.push_back(i);
  if (some.empty()) return;
  std::vector<Result> done =
      compileSourcesHere(file, some, options, [&](size_t k) { return observerOf(observers, where[k]); });
  for (size_t k = 0; k < some.size(); ++k) results[where[k]] = std::move(done[k]);
}

/// Cleanup and the backend for each specialization the front end gave IR,
/// in parallel (CompileRequest::jobs threads).
void compileEach(std::vector<Result> &results, std::vector<std::unique_ptr<ir::Func>> &funcs, const CompileRequest &options,
                 const ObserverFor &observers) {
  auto one = [&](size_t i) {
    Result &r = results[i];
    if (!r.ok()) return;
    if (options.last == Stage::Rewritten || options.last == Stage::Source) {
      r.func = std::move(funcs[i]);
      return;
    }
    Result done = compileFunc(std::move(funcs[i]), options, observerOf(observers, i));
    done.phases.insert(done.phases.begin(), r.phases.begin(), r.phases.end());
    done.notes.insert(done.notes.begin(), r.notes.begin(), r.notes.end());
    done.hostCompileCached = r.hostCompileCached;
    done.hostOutput = std::move(r.hostOutput);
    r = std::move(done);
  };
  size_t n = results.size();
  unsigned jobs = options.jobs > 0 ? static_cast<unsigned>(options.jobs) : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min<unsigned>(jobs, static_cast<unsigned>(n));
  if (jobs <= 1) {
    for (size_t i = 0; i < n; ++i) one(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < jobs; ++w)
    workers.emplace_back([&] {
      // Each worker is one large-stack thread for all its specializations,
      // so that what the backend keeps per thread (its target machine) serves them all.
      // A stack that ran out or could not be had in one(i) is that
      // specialization's error (compileFunc); outside it, in this loop, it
      // ends the worker and leaves the rest to the others.
      try {
        support::runOnLargeStack([&] {
          for (size_t i = next++; i < n; i = next++) one(i);
        });
      } catch (const support::StackExhausted &) {
      } catch (const support::StackUnavailable &) {
        for (size_t i = next++; i < n; i = next++) one(i);  // compileFunc reports it for each
      }
    });
  for (std::thread &t : workers) t.join();
}

std::vector<Result> compileSourcesHere(const std::string &file, const std::vector<std::string> &kernels,
                                       const CompileRequest &options, const ObserverFor &observers) {
  if (std::string overLimit = overLimits(file); !overLimit.empty()) {
    std::vector<Result> results(kernels.size());
    for (Result &r : results) r.error = overLimit;
    return results;
  }
  // A malformed --kernel is refused alone; the others compile.
  if (std::vector<std::string> unknown = malformedKernels(kernels); !unknown.empty()) {
    std::vector<Result> results(kernels.size());
    std::vector<bool> known(kernels.size());
    for (size_t i = 0; i < kernels.size(); ++i) results[i].error = unknown[i], known[i] = unknown[i].empty();
    compileSome(file, kernels, options, observers, known, results);
    return results;
  }
  // The front end, once for the file: one parse, or one host compile.
  auto observer = [&](size_t i) { return observerOf(observers, i); };
  if (options.last == Stage::Rewritten && options.frontend != Frontend::Hybrid) {
    std::vector<Result> results(kernels.size());
    for (Result &r : results)
      r.error = "twintile: error: the rewritten stage is the hybrid front end's (--frontend=hybrid); the " +
                std::string(name(options.frontend)) + " front end rewrites nothing\n";
    return results;
  }
  FrontEndOutput front = options.frontend == Frontend::Parse  ? parseFile(file, kernels, options, observer)
                         : options.frontend == Frontend::Trace ? traceFile(file, kernels, options, observer)
                                                               : hybridFile(file, kernels, options, observer);
  // One specialization the host compiler (or Clang) rejects fails the whole
  // file's compile; it must not take the others down: then each alone.
  if (front.eachAlone) {
    std::vector<Result> results(kernels.size());
    // A spec that names no kernel of the file (as Clang read it) is refused;
    // the others compile together again, each alone only if that fails too.
    std::vector<bool> named(kernels.size());
    for (size_t i = 0; i < kernels.size(); ++i) {
      named[i] = front.kernels.empty() || declaresKernelNamed(front.kernels, kernels[i]);
      if (!named[i]) results[i].error = notASpecialization(kernels[i], file, front.kernels);
    }
    if (std::find(named.begin(), named.end(), false) != named.end()) {
      compileSome(file, kernels, options, observers, named, results);
      // Unless none of those compiled: then the file's own errors may have
      // hidden the kernels the others name from Clang, and each alone says
      // which (the file's errors, and whether the spec names a kernel).
      bool compiled = false;
      for (size_t i = 0; i < kernels.size(); ++i) compiled = compiled || (named[i] && results[i].ok());
      if (!compiled)
        for (size_t i = 0; i < kernels.size(); ++i)
          if (!named[i])
            results[i] = std::move(compileSourcesHere(file, {kernels[i]}, options, [&](size_t) { return observer(i); }).front());
      return results;
    }
    results.clear();
    for (size_t i = 0; i < kernels.size(); ++i)
      results.push_back(std::move(compileSourcesHere(file, {kernels[i]}, options, [&](size_t) { return observer(i); }).front()));
    return results;
  }
  compileEach(front.results, front.funcs, options, observers);
  return std::move(front.results);
}

} // namespace

std::vector<Result> compileSources(const std::string &file, const std::vector<std::string> &kernels,
                                   const CompileRequest &options, const ObserverFor &observers) {
  std::vector<Result> results;
  try {
    support::runOnLargeStack([&] { results = compileSourcesHere(file, kernels, options, observers); });
  } catch (const support::StackExhausted &e) {
    // In the front end (a worker's backend says its own): every specialization's error.
    results.clear();
    for (size_t i = 0; i < kernels.size(); ++i)
      results.push_back(stackFailure("reading the kernel file", ir::Location(file, 0, 0), e, true, false));
  } catch (const support::StackUnavailable &e) {
    results.clear();
    for (size_t i = 0; i < kernels.size(); ++i)
      results.push_back(stackFailure("the compile", ir::Location(file, 0, 0), e, false, false));
  }
  return results;
}

Result compileSource(const std::string &file, const std::string &kernel, const CompileRequest &options,
                     const Observer &observer) {
  return std::move(compileSources(file, {kernel}, options, [&](size_t) { return observer; }).front());
}

BothResults compileBoth(const std::string &file, const std::string &kernel, const CompileRequest &options,
                        const Observer &parseObserver, const Observer &traceObserver) {
  CompileRequest parse = options, trace = options;
  parse.frontend = Frontend::Parse;
  trace.frontend = Frontend::Trace;
  auto apart = [&] {
    return BothResults{compileSource(file, kernel, parse, parseObserver), compileSource(file, kernel, trace, traceObserver)};
  };
  // What compileSources refuses before a front end runs, it says for each.
  if (!overLimits(file).empty() || !malformedKernels({kernel}).empty()) return apart();
  BothResults out;
  bool traced = false;
  SharedParse shared;  // out here, to say after an abandoned compile whether a walk was under way
  try {
    support::runOnLargeStack([&] {
      shared.observer = [&](size_t) { return parseObserver; };
      ObserverFor traceObservers = [&](size_t) { return traceObserver; };
      FrontEndOutput front = traceFile(file, {kernel}, trace, traceObservers, &shared);
      compileEach(front.results, front.funcs, trace, traceObservers);
      out.trace = std::move(front.results.front());
      traced = true;
      if (!shared.done) {
        out.parse = std::move(compileSourcesHere(file, {kernel}, parse, shared.observer).front());
        return;
      }
      compileEach(shared.out.results, shared.out.funcs, parse, shared.observer);
      out.parse = std::move(shared.out.results.front());
    });
  } catch (const support::StackExhausted &e) {
    // In Clang or a walk (a backend says its own): the file's error, for
    // each front end not done. Not compiled again apart: the abandoned
    // frames may hold locks (support/Stack.h), and the file nests as deeply
    // for either.
    auto nested = [&] { return stackFailure("reading the kernel file", ir::Location(file, 0, 0), e, true, false); };
    if (shared.walking) {
      // In the parse front end's walk of the host compile's AST: that
      // compile, the trace's, is abandoned with it.
      out.trace = failure(Result{}, ir::Diagnostic{ir::Location(file, 0, 0),
                                                  "the trace front end's compile of this file, which the parse front "
                                                  "end's walk shared, was abandoned when the walk used up its stack; "
                                                  "compile with --frontend=trace alone for the trace front end's own "
                                                  "result"});
    } else if (!traced) {
      out.trace = nested();
    }
    out.parse = nested();
  } catch (const support::StackUnavailable &e) {
    out.trace = stackFailure("the compile", ir::Location(file, 0, 0), e, false, false);
    out.parse = stackFailure("the compile", ir::Location(file, 0, 0), e, false, false);
  }
  return out;
}

} // namespace twintile::pipeline
