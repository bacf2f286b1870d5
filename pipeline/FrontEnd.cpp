//===- FrontEnd.cpp - a kernel file through one front end ----------------===//
#include "pipeline/FrontEnd.h"

#include "frontends/common/Spec.h"
#include "frontends/parse/ParseFrontend.h"
#include "frontends/trace/SourceTracer.h"
#include "support/CachePrune.h"
#include "support/Stack.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <regex>

namespace twintile::pipeline {

using twintile::kernelName;

namespace {

/// "ns::softmax" of "::ns::softmax<f16, 1024>".
std::string qualifiedName(const std::string &spec) {
  std::string name = spec.substr(0, spec.find('<'));
  std::erase_if(name, [](unsigned char c) { return std::isspace(c); });
  return name.starts_with("::") ? name.substr(2) : name;
}

} // namespace

bool declaresKernelNamed(const std::vector<twintile::DeclaredKernel> &kernels, const std::string &spec) {
  std::string name = kernelName(spec);
  return std::any_of(kernels.begin(), kernels.end(), [&](const twintile::DeclaredKernel &k) { return k.name == name; });
}

std::string notASpecialization(const std::string &spec, const std::string &file,
                               const std::vector<twintile::DeclaredKernel> &kernels) {
  std::string qualified = qualifiedName(spec), name = kernelName(spec);
  std::vector<const twintile::DeclaredKernel *> exact, named;
  for (const twintile::DeclaredKernel &k : kernels) {
    if (k.qualifiedName == qualified) exact.push_back(&k);
    if (k.name == name) named.push_back(&k);
  }
  auto list = [](const std::vector<const twintile::DeclaredKernel *> &ks) {
    std::string out;
    for (const twintile::DeclaredKernel *k : ks)
      if (out.find("'" + k->qualifiedName + "'") == std::string::npos)
        out += (out.empty() ? "'" : ", '") + k->qualifiedName + "'";
    return out;
  };
  std::string head = "twintile: error: --kernel '" + spec + "'";
  if (exact.empty()) {
    std::vector<const twintile::DeclaredKernel *> all;
    for (const twintile::DeclaredKernel &k : kernels) all.push_back(&k);
    std::string why = !named.empty() ? "did you mean " + list(named) + "?"
                      : all.empty()  ? "it marks no function TT_KERNEL"
                                     : "its kernels: " + list(all);
    return head + ": " + file + " defines no kernel '" + qualified + "' (" + why + ")\n";
  }
  // (Clang's own words are about the code generated around the spec.)
  std::string why;
  if (exact.size() > 1)
    why = "'" + qualified + "' names " + std::to_string(exact.size()) + " kernels, overloads a specialization cannot "
          "tell apart";
  else if (!exact[0]->isTemplate) why = "'" + qualified + "' is not a template: write --kernel '" + qualified + "'";
  else why = "its template arguments do not fit the kernel's template parameters " + exact[0]->templateParams;
  return head + " is not a specialization of a kernel in " + file + ": " + why + "\n";
}

namespace {

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

} // namespace

namespace {

/// A front-end limit's setting: its value, the default when unset, nullopt
/// when set to what is not a number from 0 to `most`.
std::optional<double> limitSetting(const char *variable, double fallback, double most) {
  const char *setting = std::getenv(variable);
  if (!setting || !*setting) return fallback;
  double value = 0;
  auto [end, ec] = std::from_chars(setting, setting + std::strlen(setting), value);
  if (ec != std::errc() || *end || !(value >= 0 && value <= most)) return std::nullopt;
  return value;
}

constexpr double kDefaultSeconds = 60, kMostSeconds = 86400;
constexpr double kDefaultMiB = 4096, kMostMiB = 1 << 24;

std::optional<double> secondsSetting() { return limitSetting(kFrontEndSecondsVariable, kDefaultSeconds, kMostSeconds); }
std::optional<double> memorySetting() { return limitSetting(kFrontEndMemoryVariable, kDefaultMiB, kMostMiB); }

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", v);
  return text;
}

} // namespace

std::unique_ptr<support::Watchdog> watchClang(const std::string &file, const CompileRequest &options) {
  if (!options.endProcessOnLimits) return nullptr;
  double seconds = secondsSetting().value_or(kDefaultSeconds), mib = memorySetting().value_or(kDefaultMiB);
  std::string overTime = file + ": error: Clang spent " + number(seconds) + " s reading this kernel file, the " +
                         "front end's limit, and is stopped (it cannot be interrupted: twintile ends); " +
                         kFrontEndSecondsVariable + "=<s> raises the limit, 0 removes it\n";
  std::string overMemory = file + ": error: Clang took more than " + number(mib) + " MiB of memory reading this " +
                           "kernel file, the front end's limit, and is stopped (twintile ends); " +
                           kFrontEndMemoryVariable + "=<MiB> raises the limit, 0 removes it\n";
  auto watch = std::make_unique<support::Watchdog>(seconds, static_cast<size_t>(mib * double(1 << 20)), overTime,
                                                  overMemory);
  if (options.reportOnLimit) watch->printOnEnd(options.reportOnLimit(overTime), options.reportOnLimit(overMemory));
  return watch;
}

std::string overLimits(const std::string &file) {
  if (std::string problem = support::stackSettingProblem(); !problem.empty()) return "twintile: error: " + problem + "\n";
  if (std::string problem = support::cacheSettingProblem(); !problem.empty()) return "twintile: error: " + problem + "\n";
  if (!secondsSetting())
    return "twintile: error: " + std::string(kFrontEndSecondsVariable) + " is '" + std::getenv(kFrontEndSecondsVariable) +
           "': it is the most seconds a front end spends on a kernel file (0 for no limit, up to " +
           number(kMostSeconds) + ")\n";
  if (!memorySetting())
    return "twintile: error: " + std::string(kFrontEndMemoryVariable) + " is '" + std::getenv(kFrontEndMemoryVariable) +
           "': it is the most memory a front end takes reading a kernel file, in MiB (0 for no limit, up to " +
           number(kMostMiB) + ")\n";
  size_t limitMiB = 4;
  const char *setting = std::getenv(kMaxSourceVariable);
  if (setting && *setting) {
    size_t n = 0;
    auto [end, ec] = std::from_chars(setting, setting + std::strlen(setting), n);
    if (ec != std::errc() || *end || n == 0 || n > (size_t(1) << 20))
      return "twintile: error: " + std::string(kMaxSourceVariable) + " is '" + setting +
             "': it is the largest kernel file a front end reads, in MiB (1 to 1048576)\n";
    limitMiB = n;
  }
  std::error_code ec;
  uintmax_t bytes = std::filesystem::file_size(file, ec);
  if (ec || bytes <= (uintmax_t(limitMiB) << 20)) return {};  // a file that cannot be read is the front end's to say
  char size[32];
  std::snprintf(size, sizeof size, "%.1f", double(bytes) / double(1 << 20));
  return file + ": error: the kernel file is " + size + " MiB, larger than the " + std::to_string(limitMiB) +
         " MiB a front end reads; " + kMaxSourceVariable + "=<MiB> raises the limit\n";
}

std::vector<std::string> malformedKernels(const std::vector<std::string> &kernels) {
  std::vector<std::string> malformed(kernels.size());
  bool any = false;
  for (size_t i = 0; i < kernels.size(); ++i)
    if (std::string why = twintile::specProblem(kernels[i]); !why.empty()) {
      malformed[i] = "twintile: error: --kernel '" + kernels[i] + "' is not a specialization: " + why + "\n";
      any = true;
    }
  return any ? malformed : std::vector<std::string>{};
}

namespace {

/// `error`, the file's own, and a note where the spec names none of the
/// kernels Clang read in the file despite the errors: a misspelt spec is
/// then said at once, and a kernel the errors hid is not denied.
std::string withSpecProblem(std::string error, const std::string &spec, const std::string &file,
                            const std::vector<twintile::DeclaredKernel> &kernels) {
  if (kernels.empty() || declaresKernelNamed(kernels, spec)) return error;
  std::string read;
  for (const twintile::DeclaredKernel &k : kernels)
    if (read.find("'" + k.qualifiedName + "'") == std::string::npos)
      read += (read.empty() ? "'" : ", '") + k.qualifiedName + "'";
  return error + "twintile: note: --kernel '" + spec + "' names none of the kernels Clang could read in " + file +
         " despite the errors (" + read + "); if '" + qualifiedName(spec) + "' is one of them, the errors above hide it\n";
}

} // namespace

FrontEndOutput parseFile(const std::string &file, const std::vector<std::string> &kernels, const CompileRequest &options,
                         const ObserverFor &observer) {
  FrontEndOutput out;
  out.results.resize(kernels.size());
  out.funcs.resize(kernels.size());
  std::unique_ptr<support::Watchdog> watch = watchClang(file, options);
  std::unique_ptr<twintile::ParsedFile> parsed = twintile::ParsedFile::parse(file, kernels);
  watch.reset();
  if (!parsed->ok() && kernels.size() > 1) {
    out.eachAlone = true;
    out.kernels = parsed->kernels();
    return out;
  }
  // Clang's complaints only about the line that takes the specialization's
  // address (appended to the file): its template arguments are wrong.
  if (!parsed->ok() && errorsOnlyAppended(parsed->error(), file)) {
    out.results[0].error = notASpecialization(kernels[0], file, parsed->kernels());
    return out;
  }
  for (size_t i = 0; i < kernels.size(); ++i) {
    Result &r = out.results[i];
    if (i == 0) r.phases.push_back({"parse", parsed->parseSeconds()});  // shared: counted once
    if (i == 0) r.notes = parsed->notes();
    if (!parsed->ok()) {
      r.error = withSpecProblem(parsed->error(), kernels[i], file, parsed->kernels());
      continue;
    }
    observer(i).offer(Stage::Source, [&] { return parsed->instantiatedSource(kernels[i]); });
    twintile::FrontendResult walked = parsed->walk(kernels[i]);
    r.phases.push_back({"walk", walked.seconds});
    if (!walked.ok()) r = failure(std::move(r), *walked.error);
    else out.funcs[i] = std::move(walked.func);
  }
  return out;
}

namespace {

/// The parse front end's walks of the kernels the tracing front end's host
/// compile instantiated (`instantiated`, by spec), into `shared`; left
/// undone where a spec names no kernel or the walker throws, for the parse
/// front end's own parse to say.
void walkShared(const std::vector<const clang::FunctionDecl *> &instantiated, const std::vector<std::string> &specs,
                SharedParse &shared) {
  if (instantiated.size() != specs.size() || std::count(instantiated.begin(), instantiated.end(), nullptr)) return;
  FrontEndOutput out;
  out.results.resize(specs.size());
  out.funcs.resize(specs.size());
  shared.walking = true;
  try {
    for (size_t i = 0; i < specs.size(); ++i) {
      Result &r = out.results[i];
      if (i == 0)
        r.notes.push_back("Clang read the file once for both front ends: the parse is the trace front end's "
                          "host-compile");
      shared.observer(i).offer(Stage::Source, [&] { return twintile::instantiatedSource(*instantiated[i], specs[i]); });
      twintile::FrontendResult walked = twintile::walkInstantiated(*instantiated[i]);
      r.phases.push_back({"walk", walked.seconds});
      if (!walked.ok()) r = failure(std::move(r), *walked.error);
      else out.funcs[i] = std::move(walked.func);
    }
  } catch (...) {
    shared.walking = false;
    return;  // (thrown inside Clang's consumer: the parse front end's own parse throws it where it is caught)
  }
  shared.walking = false;
  shared.out = std::move(out);
  shared.done = true;
}

} // namespace

FrontEndOutput traceFile(const std::string &file, const std::vector<std::string> &kernels, const CompileRequest &options,
                         const ObserverFor &observer, SharedParse *shared, const std::vector<std::string> &includeDirs) {
  FrontEndOutput out;
  out.results.resize(kernels.size());
  out.funcs.resize(kernels.size());
  twintile::SourceTraceOptions to;
  to.useCache = options.useCache;
  to.host = options.traceHost;
  to.includeDirs = includeDirs;
  if (options.endProcessOnLimits) to.watchHostCompile = [&] { return watchClang(file, options); };
  if (shared)
    to.instantiated = [&](const std::vector<const clang::FunctionDecl *> &instantiated) {
      walkShared(instantiated, kernels, *shared);
    };
  std::vector<twintile::SourceTraceResult> traced = twintile::traceSourceFile(file, kernels, to);
  if (kernels.size() > 1 && !traced[0].trace.ok() && traced[0].hostCompileFailed) {
    out.eachAlone = true;
    out.kernels = traced[0].kernels;
    return out;
  }
  for (size_t i = 0; i < kernels.size(); ++i) {
    Result &r = out.results[i];
    twintile::SourceTraceResult &t = traced[i];
    observer(i).offer(Stage::Source, [&] { return t.entrySource; });
    r.hostCompileCached = t.cacheHit;
    // Shared by the specializations: counted once. In process, Clang's part
    // and the code generator's apart.
    if (!t.cacheHit && i == 0) r.phases.push_back({"host-compile", t.compileSeconds - t.codegenSeconds});
    if (!t.cacheHit && i == 0 && t.codegenSeconds > 0) r.phases.push_back({"host-codegen", t.codegenSeconds});
    if (i == 0 && t.loadSeconds > 0) r.phases.push_back({"host-load", t.loadSeconds});
    r.notes = t.notes;
    r.hostOutput = t.output;
    r.phases.push_back({"trace", t.trace.seconds});
    if (t.trace.ok()) {
      out.funcs[i] = std::move(t.trace.func);
      continue;
    }
    r = failure(std::move(r), *t.trace.error);
    // The host compiler's own diagnostics on the user's file, as the parse
    // front end shows Clang's, not wrapped in an unlocated error.
    if (!t.compilerOutput.empty()) r.error = withSpecProblem(t.compilerOutput, kernels[i], file, t.kernels);
    else if (t.hostCompileFailed) r.error = notASpecialization(kernels[i], file, t.kernels);
    // What the kernel printed before it failed belongs with the error.
    if (!r.hostOutput.empty()) r.error += "note: " + hostOutputNote(r.hostOutput);
  }
  return out;
}

} // namespace twintile::pipeline
