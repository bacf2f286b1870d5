//===- Pipeline.cpp - the compile, top to bottom -------------------------===//
#include "pipeline/Pipeline.h"

#include "frontends/common/KernelSource.h"
#include "frontends/parse/ParseFrontend.h"
#include "frontends/trace/SourceTracer.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"
#include "support/Stack.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <atomic>
#include <chrono>
#include <thread>
#include <sstream>

namespace tt::pipeline {

bool isBackendStage(Stage s) { return static_cast<int>(s) > static_cast<int>(Stage::TileOpt); }

namespace {

std::string irText(const ir::Func &f, const Options &o) { return ir::toString(f, {.locations = o.locations}); }

Result failure(Result r, ir::Diagnostic d) {
  r.error = ir::render(d);
  r.diag = std::move(d);
  return r;
}

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

Result compileFuncHere(std::unique_ptr<ir::Func> func, const Options &options, const Observer &observer) {
  Result r;
  r.func = std::move(func);
  ir::Func &f = *r.func;
  if (options.numWarps > 0) f.numWarps = options.numWarps;  // the command line over the kernel's own
  if (options.numStages > 0) f.numStages = options.numStages;
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
  observer.offer(Stage::TileOpt, [&] { return irText(f, options); });
  if (options.last == Stage::TileOpt) return r;

  // axes, layouts, pipelines, llvm-raw, llvm, ptx, sass-info: the backend.
  backend::CompileOptions bo;
  bo.arch = options.target;
  bo.fastMath = options.fastMath;
  bo.numWarps = options.numWarps;
  bo.numStages = options.numStages;
  bo.useCache = options.useCache;
  bo.runPtxas = options.ptxas || options.last == Stage::SassInfo;
  if (auto d = assumptions(f, options, bo.assume)) return failure(std::move(r), *d);
  bo.observe = observer;  // axes, layouts, pipelines, llvm-raw, llvm: the backend's own stages
  try {
    r.backend = backend::compile(f, bo);
  } catch (const backend::BackendError &e) {
    return failure(std::move(r), e.diag);
  } catch (const ir::InternalError &e) {
    return failure(std::move(r), e.diag());
  }
  if (r.backend.cacheHit) r.notes.push_back("backend: cached");
  for (const std::string &n : r.backend.notes) r.notes.push_back(n);
  for (const backend::PhaseTime &p : r.backend.phases) r.phases.push_back({p.name, p.seconds});
  observer.offer(Stage::Ptx, [&] { return r.backend.ptx; });
  if (options.last == Stage::SassInfo) observer.offer(Stage::SassInfo, [&] { return sassInfo(r.backend); });
  return r;
}

} // namespace

std::optional<ir::Diagnostic> assumptions(const ir::Func &f, const Options &o,
                                          std::vector<backend::ParamAssumption> &out) {
  if (!o.assume.empty()) {
    out = o.assume;
    return std::nullopt;
  }
  out.assign(f.numParams(), {});
  for (bool aligned : {true, false})
    for (const std::string &n : aligned ? o.alignedNames : o.divisibleNames) {
      bool found = false;
      for (size_t i = 0; i < f.numParams(); ++i) {
        const ir::Type &t = f.param(i)->type;
        bool fits = aligned ? t.isPtr() : t.isInt() && t.elem != ir::ScalarKind::I1;
        if (n == "*" ? fits : f.param(i)->name == n) {
          (aligned ? out[i].aligned16 : out[i].divisible16) = true;
          found = true;
        }
      }
      if (!found && n != "*") return ir::Diagnostic{f.loc, "kernel '" + f.name + "' has no parameter '" + n + "'"};
    }
  return std::nullopt;
}


// The compile recurses once per level of a kernel's nesting (Clang, the
// walker, LLVM): it runs on a large stack (support/Stack.h).
Result compileFunc(std::unique_ptr<ir::Func> func, const Options &options, const Observer &observer) {
  Result r;
  support::runOnLargeStack([&] { r = compileFuncHere(std::move(func), options, observer); });
  return r;
}

using twintile::kernelName;
using twintile::kernelsIn;
using twintile::templateParameters;

std::string notASpecialization(const std::string &spec, const std::string &file) {
  std::string why = "its template arguments do not fit the kernel's template parameters";
  if (std::ifstream in(file); in) {
    std::string source((std::istreambuf_iterator<char>(in)), {});
    if (std::optional<std::string> params = templateParameters(source, kernelName(spec)))
      why = params->empty() ? "'" + kernelName(spec) + "' is not a template: write --kernel '" + kernelName(spec) + "'"
                            : "its template arguments do not fit the kernel's template parameters " + *params;
  }
  return "twintile: error: --kernel '" + spec + "' is not a specialization of a kernel in " + file + ": " + why + "\n";
}

/// Whether every error Clang reported is on a line past the file's end (the
/// lines the parse front end appends to instantiate the specializations).
bool errorsOnlyAppended(const std::string &errors, const std::string &file) {
  std::ifstream in(file);
  size_t lines = 0;
  for (std::string l; std::getline(in, l);) ++lines;
  std::error_code ec;
  std::string path = std::filesystem::absolute(file, ec).lexically_normal().string();
  static const std::regex at(R"((^|\n)([^\n]*):(\d+):\d+: error: )");
  bool any = false;
  for (std::sregex_iterator it(errors.begin(), errors.end(), at), end; it != end; ++it) {
    any = true;
    std::string where = std::filesystem::absolute((*it)[2].str(), ec).lexically_normal().string();
    if (where != path || std::stoul((*it)[3].str()) <= lines) return false;  // an error of the user's code, or a header's
  }
  return any;
}

namespace {

std::vector<Result> compileSourcesHere(const std::string &file, const std::vector<std::string> &kernels,
                                       const Options &options, const ObserverFor &observers) {
  std::vector<Result> results(kernels.size());
  // A --kernel naming no kernel of the file is the command line's mistake:
  // said in those words, before a compiler reports it inside generated code.
  if (std::ifstream in(file); in) {
    std::string source((std::istreambuf_iterator<char>(in)), {});
    std::vector<std::string> defined = kernelsIn(source);
    if (!defined.empty()) {
      bool allKnown = true;
      for (size_t i = 0; i < kernels.size(); ++i)
        if (std::find(defined.begin(), defined.end(), kernelName(kernels[i])) == defined.end()) {
          std::string list;
          for (const std::string &d : defined) list += (list.empty() ? "" : ", ") + d;
          results[i].error = "twintile: error: --kernel '" + kernels[i] + "': " + file + " defines no kernel '" +
                             kernelName(kernels[i]) + "' (its kernels: " + list + ")\n";
          allKnown = false;
        }
      if (!allKnown) {
        std::vector<std::string> known;
        std::vector<size_t> where;
        for (size_t i = 0; i < kernels.size(); ++i)
          if (results[i].ok()) known.push_back(kernels[i]), where.push_back(i);
        if (!known.empty()) {
          std::vector<Result> rest = compileSources(file, known, options, [&](size_t k) {
            return observers ? observers(where[k]) : Observer{};
          });
          for (size_t k = 0; k < known.size(); ++k) results[where[k]] = std::move(rest[k]);
        }
        return results;
      }
    }
  }
  auto observer = [&](size_t i) { return observers ? observers(i) : Observer{}; };
  // One specialization the host compiler (or Clang) rejects fails the whole
  // file's compile; it must not take the others down: then each alone.
  auto eachAlone = [&] {
    std::vector<Result> each;
    for (size_t i = 0; i < kernels.size(); ++i)
      each.push_back(std::move(compileSources(file, {kernels[i]}, options, [&](size_t) { return observer(i); }).front()));
    return each;
  };
  std::vector<twintile::FrontendResult> fronts(kernels.size());
  std::vector<std::string> compilerOutput(kernels.size());
  std::vector<bool> traceCompileFailed(kernels.size(), false);
  // The front end, once for the file: one parse, or one host compile.
  if (options.frontend == "parse") {
    twintile::ParseOptions po;
    po.numWarps = options.numWarps > 0 ? options.numWarps : 4;
    std::unique_ptr<twintile::ParsedFile> parsed = twintile::ParsedFile::parse(file, kernels, po);
    if (!parsed->ok() && kernels.size() > 1) return eachAlone();
    // Clang's complaints only about the line that takes the specialization's
    // address (appended to the file): its template arguments are wrong.
    if (!parsed->ok() && errorsOnlyAppended(parsed->error(), file)) {
      results[0].error = notASpecialization(kernels[0], file);
      return results;
    }
    for (size_t i = 0; i < kernels.size(); ++i) {
      if (i == 0) results[i].phases.push_back({"parse", parsed->parseSeconds()});  // shared: counted once
      if (i == 0) results[i].notes = parsed->notes();
      if (!parsed->ok()) {
        results[i].error = parsed->error();
        continue;
      }
      observer(i).offer(Stage::Source, [&] { return parsed->instantiatedSource(kernels[i]); });
      fronts[i] = parsed->walk(kernels[i]);
      results[i].phases.push_back({"walk", fronts[i].seconds});
    }
  } else {
    twintile::SourceTraceOptions to;
    to.useCache = options.useCache;
    to.numWarps = options.numWarps > 0 ? options.numWarps : 4;
    std::vector<twintile::SourceTraceResult> traced = twintile::traceSourceFile(file, kernels, to);
    if (kernels.size() > 1 && !traced[0].trace.ok() && traced[0].hostCompileFailed) return eachAlone();
    for (size_t i = 0; i < kernels.size(); ++i) {
      observer(i).offer(Stage::Source, [&] { return traced[i].entrySource; });
      if (traced[i].cacheHit) results[i].notes.push_back("host-compile: cached");
      else if (i == 0) results[i].phases.push_back({"host-compile", traced[i].compileSeconds});  // shared
      for (const std::string &n : traced[i].notes) results[i].notes.push_back(n);
      if (!traced[i].output.empty())
        results[i].notes.push_back("the kernel's host code printed, while traced:\n" + traced[i].output +
                                   (traced[i].output.ends_with("\n") ? "" : "\n"));
      results[i].phases.push_back({"trace", traced[i].trace.seconds});
      compilerOutput[i] = traced[i].compilerOutput;
      traceCompileFailed[i] = traced[i].hostCompileFailed;
      fronts[i] = std::move(traced[i].trace);
    }
  }
  for (size_t i = 0; i < kernels.size(); ++i)
    if (results[i].ok() && !fronts[i].ok()) {
      results[i] = failure(std::move(results[i]), *fronts[i].error);
      // The host compiler's own diagnostics on the user's file, as the parse
      // front end shows Clang's, not wrapped in an unlocated error.
      if (!compilerOutput[i].empty()) results[i].error = compilerOutput[i];
      else if (traceCompileFailed[i]) results[i].error = notASpecialization(kernels[i], file);
      // What the kernel printed before it failed belongs with the error.
      for (const std::string &n : results[i].notes)
        if (n.starts_with("the kernel's host code printed")) results[i].error += "note: " + n;
    }

  // Cleanup and the backend, each specialization on its own: in parallel.
  auto rest = [&](size_t i) {
    Result &r = results[i];
    if (!r.ok()) return;
    if (options.last == Stage::Source) {
      r.func = std::move(fronts[i].func);
      return;
    }
    Result done = compileFunc(std::move(fronts[i].func), options, observer(i));
    done.phases.insert(done.phases.begin(), r.phases.begin(), r.phases.end());
    done.notes.insert(done.notes.begin(), r.notes.begin(), r.notes.end());
    r = std::move(done);
  };
  unsigned jobs = options.jobs > 0 ? static_cast<unsigned>(options.jobs) : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min<unsigned>(jobs, static_cast<unsigned>(kernels.size()));
  if (jobs <= 1) {
    for (size_t i = 0; i < kernels.size(); ++i) rest(i);
    return results;
  }
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < jobs; ++w)
    workers.emplace_back([&] {
      // Each worker is one large-stack thread for all its specializations,
      // so that what the backend keeps per thread (its target machine) serves them all.
      support::runOnLargeStack([&] {
        for (size_t i = next++; i < kernels.size(); i = next++) rest(i);
      });
    });
  for (std::thread &t : workers) t.join();
  return results;
}

} // namespace

std::vector<Result> compileSources(const std::string &file, const std::vector<std::string> &kernels,
                                   const Options &options, const ObserverFor &observers) {
  std::vector<Result> results;
  support::runOnLargeStack([&] { results = compileSourcesHere(file, kernels, options, observers); });
  return results;
}

Result compileSource(const std::string &file, const std::string &kernel, const Options &options,
                     const Observer &observer) {
  return std::move(compileSources(file, {kernel}, options, [&](size_t) { return observer; }).front());
}

} // namespace tt::pipeline
