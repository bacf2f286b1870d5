//===- Library.cpp - twintile library: kernels compiled for a C++ build ---===//
//
//   twintile library FILE --name NAME --kernel [FUNCTION=]SPEC... -o DIR
//                    [--target T]... [--depfile FILE] [target options]
//
// Compiles each specialization's front end once, then its variants (each
// target, and under each the promises Triton's JIT specializes on: every
// pointer 16-byte aligned and every integer divisible by 16; every pointer
// aligned; nothing beyond the promises given) in parallel, and writes
// DIR/NAME.h and DIR/NAME.cpp (LibrarySource.h). With --depfile, also the
// files the kernel file includes, so the build compiles again when one
// changes. Nothing is written when anything fails.
//===----------------------------------------------------------------------===//
#include "tools/driver/Driver.h"
#include "tools/driver/LibrarySource.h"
#include "tools/driver/TunedTable.h"

#include "backend/Ptxas.h"
#include "frontends/parse/ParseFrontend.h"
#include "ir/Diagnostic.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "runtime/GridExpression.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <thread>
#include <tuple>

namespace twintile::driver {

namespace {

namespace fs = std::filesystem;

/// The variants of one specialization: promise sets, most specialized first,
/// each at most once (a kernel without integers has no divisible variant).
std::vector<std::vector<backend::ParamAssumption>> variantPromises(const ir::Func &f,
                                                                   const std::vector<backend::ParamAssumption> &given) {
  std::vector<std::vector<backend::ParamAssumption>> out;
  for (int level : {2, 1, 0}) {
    std::vector<backend::ParamAssumption> set = given;
    for (size_t i = 0; i < f.numParams(); ++i) {
      const ir::Type &t = f.param(i)->type;
      if (level >= 1 && t.isPtr()) set[i].aligned16 = true;
      if (level >= 2 && t.isInt() && t.elem != ir::ScalarKind::I1) set[i].divisible16 = true;
    }
    if (std::find(out.begin(), out.end(), set) == out.end()) out.push_back(set);
  }
  return out;
}

std::string assumesName(const ir::Func &f, const std::vector<backend::ParamAssumption> &set) {
  std::string out;
  for (size_t i = 0; i < set.size(); ++i) {
    if (set[i].aligned16) out += (out.empty() ? "" : " ") + f.param(i)->name + ":aligned";
    if (set[i].divisible16) out += (out.empty() ? "" : " ") + f.param(i)->name + ":divisible";
  }
  return out.empty() ? "plain" : out;
}

/// A path in a Makefile rule: spaces, '#' and '$' escaped as GCC's -MD does.
std::string makeEscaped(const std::string &path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

/// The C++ namespace NAME gives: its characters that cannot be in one as '_'.
std::string namespaceOf(const std::string &name) {
  std::string ns;
  for (char c : name) ns += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (ns.empty() || std::isdigit(static_cast<unsigned char>(ns[0]))) ns = "_" + ns;
  return ns;
}

/// Each --tuned table as a function whose rows' configurations are added
/// to `specs` and `functions` (as FUNCTION_configN) and `shapes` (their
/// warps and stages); an error message, or empty.
std::string tunedFunctions(const LibraryFlags &f, std::vector<std::string> &specs, std::vector<std::string> &functions,
                           std::vector<std::pair<int, int>> &shapes, std::vector<LibraryTuned> &tuned) {
  for (const std::string &entry : f.tuned) {
    size_t eq = entry.find('=');  // FUNCTION=TABLE where what comes before '=' could name a function
    if (eq != std::string::npos && (eq == 0 || !std::all_of(entry.begin(), entry.begin() + eq, [](char c) {
                                      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                                    })))
      eq = std::string::npos;
    std::string path = eq == std::string::npos ? entry : entry.substr(eq + 1), error;
    std::optional<TunedTableFile> table = readTunedTable(path, error);
    if (!table) return error;
    std::string function = eq == std::string::npos ? table->kernel.substr(0, table->kernel.find('<')) : entry.substr(0, eq);
    while (!function.empty() && std::isspace(static_cast<unsigned char>(function.back()))) function.pop_back();
    if (!isCxxName(function) || function == "kernels")
      return "--tuned '" + entry + "' makes the function name '" + function + "'; name it: --tuned NAME=" + path;
    if (std::find(functions.begin(), functions.end(), function) != functions.end() ||
        std::any_of(tuned.begin(), tuned.end(), [&](const LibraryTuned &t) { return t.function == function; }))
      return "--tuned '" + entry + "' makes the function '" + function + "', which another makes; name one: "
             "--tuned NAME=" + path;
    std::vector<TuneConfig> configs;
    for (const TunedTableRow &r : table->rows)
      if (std::none_of(configs.begin(), configs.end(), [&](const TuneConfig &c) { return c.name() == r.config.name(); }))
        configs.push_back(r.config);
    Autotuner checked = Autotuner::fromFile(f.k.file, table->kernel, configs);  // compiles nothing
    if (!checked.ok()) return "the tuned table '" + path + "': " + checked.error();
    LibraryTuned t{function, table->kernel, table->grid, table->key, {}};
    for (const TunedTableRow &r : table->rows) {
      size_t c = size_t(std::find_if(configs.begin(), configs.end(),
                                     [&](const TuneConfig &x) { return x.name() == r.config.name(); }) - configs.begin());
      t.rows.push_back({r.key, specs.size() + c, r.config.name(), r.config.meta});
    }
    for (size_t c = 0; c < configs.size(); ++c) {
      std::string name = function + "_config" + std::to_string(c);
      if (std::find(functions.begin(), functions.end(), name) != functions.end())
        return "--tuned '" + entry + "' names its configurations " + name + "..., which a --kernel's function has; "
               "name the table's function: --tuned NAME=" + path;
      specs.push_back(checked.specFor(configs[c]));
      functions.push_back(name);
      shapes.emplace_back(configs[c].numWarps, configs[c].numStages);
    }
    tuned.push_back(std::move(t));
  }
  return {};
}

/// A tuned function's configurations all have the same parameters, its key
/// names integers or buffers among them, and its grid has one to three
/// sizes; an error message, or empty.
std::string checkTuned(const LibraryTuned &t, const std::vector<LibraryKernel> &kernels) {
  const LibraryKernel &first = kernels[t.rows.front().kernel];
  for (const LibraryTuned::Row &r : t.rows) {
    const LibraryKernel &k = kernels[r.kernel];
    bool same = k.params.size() == first.params.size();
    for (size_t i = 0; same && i < k.params.size(); ++i)
      same = k.params[i].name == first.params[i].name && k.params[i].type == first.params[i].type;
    if (!same) return "the tuned '" + t.kernel + "': " + k.spec + " and " + first.spec + " take different parameters";
  }
  if (size_t n = runtime::splitGrid(t.grid).size(); n > 3)
    return "the tuned '" + t.kernel + "': its grid '" + t.grid + "' has " + std::to_string(n) + " sizes, not one to three";
  for (const std::string &key : t.key) {
    auto p = std::find_if(first.params.begin(), first.params.end(), [&](const auto &q) { return q.name == key; });
    if (p == first.params.end()) return "the tuned '" + t.kernel + "': its key '" + key + "' is not a parameter";
    if (p->type.starts_with("f") || p->type == "bf16")
      return "the tuned '" + t.kernel + "': its key '" + key + "' is a " + p->type + ", not an integer or a buffer";
  }
  return {};
}

struct Job {
  size_t kernel;
  pipeline::Target target;
  std::vector<backend::ParamAssumption> promises;
  bool tuned = false;
  int numWarps = 0, numStages = 0;
  pipeline::Result result;
};

/// Each --kernel's spec and function name (FUNCTION=SPEC, or the spec's
/// stem); an error message for a name C++ cannot have or one given twice.
std::string namesOf(const std::vector<std::string> &kernels, std::vector<std::string> &specs,
                    std::vector<std::string> &functions) {
  for (const std::string &k : kernels) {
    size_t eq = k.find('=');
    bool named = eq != std::string::npos && eq > 0 && std::all_of(k.begin(), k.begin() + eq, [](char c) {
                   return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                 });
    std::string spec = named ? k.substr(eq + 1) : k, function = named ? k.substr(0, eq) : stemOf(k);
    if (!isCxxName(function) || function == "kernels")  // NAME::kernels holds their variants
      return "--kernel '" + k + "' makes the function name '" + function + "', which " +
             (function == "kernels" ? "the library's variants have" : "C++ cannot have") + "; name it: --kernel NAME=" + spec;
    if (std::find(functions.begin(), functions.end(), function) != functions.end())
      return "two --kernel make the function '" + function + "'; name one: --kernel OTHER=" + spec;
    specs.push_back(spec);
    functions.push_back(function);
  }
  return {};
}

/// Compiles every job's variant from its kernel's tile IR, on `threads` threads.
void compileVariants(std::vector<Job> &jobs, const std::vector<std::string> &tileIR,
                     const std::vector<std::string> &specs, const pipeline::CompileRequest &request, bool ptxas,
                     unsigned threads) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t j; (j = next++) < jobs.size();) {
      Job &job = jobs[j];
      ir::ParseResult parsed = ir::parseModule(tileIR[job.kernel], specs[job.kernel] + ".tir");
      if (!parsed.module) {
        job.result.diag = ir::Diagnostic::internalError("the kernel's own IR does not parse back: " + parsed.error->str());
        job.result.error = ir::render(*job.result.diag);
        continue;
      }
      pipeline::CompileRequest o = request;
      if (job.tuned) {  // as it was timed: the table's warps and stages, or the kernel's own
        o.numWarps = job.numWarps;
        o.numStages = job.numStages;
      }
      o.alignedNames.clear();
      o.divisibleNames.clear();
      o.assume = job.promises;
      o.target = job.target;
      o.last = support::Stage::Ptx;
      o.ptxas = ptxas;
      job.result = pipeline::compileFunc(std::move(parsed.module->funcs.front()), o);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::min<size_t>(threads, jobs.size()); ++t) pool.emplace_back(work);
  work();
  for (std::thread &t : pool) t.join();
}

/// The Makefile rule that makes `target` depend on the files `file` reads,
/// from a parse of it (whichever front end compiled it, cached or not).
std::optional<std::string> dependencyRule(const std::string &file, const fs::path &target, std::string &error) {
  std::unique_ptr<ParsedFile> parsed = ParsedFile::parse(file, {});
  if (!parsed->ok()) {
    error = "the kernel file's includes could not be listed:\n" + parsed->error();
    return std::nullopt;
  }
  std::string rule = makeEscaped(fs::absolute(target).string()) + ":";
  for (const std::string &read : parsed->inputFiles()) rule += " \\\n  " + makeEscaped(read);
  return rule + "\n";
}

} // namespace

int libraryCommand(const LibraryFlags &f) {
  const std::string ns = namespaceOf(f.name);
  bool fileName = !f.name.empty() && f.name[0] != '.' && std::all_of(f.name.begin(), f.name.end(), [](char c) {
                    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
                  });
  if (!fileName) return fail("--name '" + f.name + "' must be a file name of letters, digits, '_', '-' and '.'");
  if (!isCxxName(ns)) return fail("--name '" + f.name + "' does not make a C++ namespace name ('" + ns + "')");
  std::vector<pipeline::Target> targets;
  for (const std::string &t : f.targets.empty() ? std::vector<std::string>{"sm_90a", "sm_80"} : f.targets) {
    pipeline::Target target = *pipeline::targetNamed(t);  // the command line checked it
    if (std::find(targets.begin(), targets.end(), target) == targets.end()) targets.push_back(target);
  }
  std::vector<std::string> specs, functions;
  if (std::string error = namesOf(f.kernels, specs, functions); !error.empty()) return fail(error);
  std::vector<std::pair<int, int>> shapes(specs.size());  // warps and stages: 0, the library's
  std::vector<LibraryTuned> tuned;
  if (std::string error = tunedFunctions(f, specs, functions, shapes, tuned); !error.empty()) return fail(error);
  if (specs.empty()) return fail("no --kernel and no --tuned: the library would have no function");

  // The front end, once for all specializations.
  pipeline::CompileRequest front = f.k.options;
  front.last = support::Stage::TileOpt;
  front.jobs = f.jobs;
  std::vector<pipeline::Result> cleaned = pipeline::compileSources(f.k.file, specs, front);
  int status = 0;
  for (size_t i = 0; i < specs.size(); ++i)
    if (!cleaned[i].ok()) {
      std::cerr << cleaned[i].error;
      status = std::max(status, failureStatus(cleaned[i]));
    }
  if (status) return status;

  // Every variant's backend, in parallel.
  std::optional<std::string> ptxas = backend::findPtxas();
  std::vector<std::string> tileIR(specs.size());
  std::vector<LibraryKernel> kernels(specs.size());
  std::vector<Job> jobs;
  for (size_t i = 0; i < specs.size(); ++i) {
    const ir::Func &func = *cleaned[i].func;
    std::vector<backend::ParamAssumption> given;
    if (std::optional<ir::Diagnostic> d = pipeline::assumptions(func, f.k.options, given))
      return fail(specs[i] + ": " + d->message);
    kernels[i].function = functions[i];
    kernels[i].spec = specs[i];
    kernels[i].typed = i < f.kernels.size();
    std::tie(kernels[i].numWarps, kernels[i].numStages) = shapes[i];
    for (size_t p = 0; p < func.numParams(); ++p) {
      std::string type = ir::toString(func.param(p)->type);
      if (!cxxParamType(type))
        return fail(specs[i] + ": parameter '" + func.param(p)->name + "' has type " + type +
                    ", which a library's function cannot take");
      kernels[i].params.push_back({func.param(p)->name, type});
    }
    tileIR[i] = ir::toString(func);
    for (pipeline::Target t : targets)
      for (auto &promises : variantPromises(func, given)) jobs.push_back({i, t, promises, !kernels[i].typed, shapes[i].first, shapes[i].second, {}});
  }
  for (const LibraryTuned &t : tuned)
    if (std::string error = checkTuned(t, kernels); !error.empty()) return fail(error);
  compileVariants(jobs, tileIR, specs, f.k.options, ptxas.has_value(),
                  f.jobs > 0 ? unsigned(f.jobs) : std::max(1u, std::thread::hardware_concurrency()));
  for (Job &job : jobs) {
    const pipeline::Result &r = job.result;
    std::string assumes = assumesName(*cleaned[job.kernel].func, job.promises);
    std::string what = specs[job.kernel] + " (" + std::string(pipeline::name(job.target)) + ", " + assumes + ")";
    if (!r.ok()) {
      std::cerr << what << ": " << r.error;
      status = std::max(status, failureStatus(r));
      continue;
    }
    const backend::PtxasReport &p = r.backend.ptxas;
    if (p.ran && !p.ok) {
      std::cerr << ir::render(ir::Diagnostic::internalError(what + ": ptxas rejected the PTX twintile made:\n" + p.log));
      status = kExitInternal;
      continue;
    }
    kernels[job.kernel].variants.push_back({assumes, std::string(pipeline::name(job.target)),
                                            r.backend.manifest.toJson(), r.backend.ptx, p.ran ? p.cubin : "",
                                            tileIR[job.kernel]});
  }
  if (status) return status;

  // Everything made before anything is written.
  fs::path header = fs::path(f.output) / (f.name + ".h"), source = fs::path(f.output) / (f.name + ".cpp");
  std::string error;
  std::optional<std::string> rule;
  if (!f.depfile.empty() && !(rule = dependencyRule(f.k.file, header, error))) return fail(error);
  LibraryText text = libraryText(ns, f.name + ".h", f.k.file, kernels, tuned);
  std::error_code ec;
  fs::create_directories(f.output, ec);
  if (!fs::is_directory(f.output, ec)) return fail("-o '" + f.output + "' is not a directory and cannot be made one");
  if (!writeText(header.string(), text.header, error) || !writeText(source.string(), text.source, error) ||
      (rule && !writeText(f.depfile, *rule, error)))
    return fail(error);
  if (!ptxas)
    std::cerr << "twintile: note: ptxas not found: the library carries PTX alone, which the CUDA driver compiles "
                 "at its first launch\n";
  return 0;
}

} // namespace twintile::driver
