//===- SourceFuzz.cpp - fuzz target: kernel sources through a front end ---===//
//
// Built twice, as fuzz_parse and fuzz_trace (TWINTILE_FUZZ_FRONTEND). An
// input is a kernel file whose first line may name the specialization to
// compile ("// spec: softmax<f16, 128>"; else "kernel"). The file goes
// through the whole pipeline to PTX, caches off; the tracer runs the
// kernel's host code in its isolated child, so that the user's bugs are
// errors, not crashes. Any outcome but a compile or a user-facing error is a
// finding: an internal error, a crash, a hang.
//===----------------------------------------------------------------------===//
#include "Finding.h"

#include "pipeline/Pipeline.h"
#include "support/Environment.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#ifndef TWINTILE_FUZZ_FRONTEND
#error "TWINTILE_FUZZ_FRONTEND must be \"parse\" or \"trace\""
#endif

namespace fs = std::filesystem;
using twintile::fuzz::finding;

namespace {

fs::path kernelFile;  // where each input is written: the front ends read files
fs::path traceCache;  // the tracer's objects, emptied after each input

/// The most tokens any of the input's macros could expand to, counted
/// generously (every identifier in a body that names a macro is expanded,
/// whatever #if or argument it sits in), capped at `cap`.
double largestMacroExpansion(const std::string &text, double cap) {
  static const std::regex define(R"(^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)]*\))?(.*)$)");
  static const std::regex token(R"([A-Za-z_]\w*|\S)");
  std::map<std::string, std::vector<std::string>> bodies;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, define)) continue;
    std::string body = m[3];
    std::vector<std::string> &tokens = bodies[m[1]];
    for (auto t = std::sregex_iterator(body.begin(), body.end(), token); t != std::sregex_iterator(); ++t)
      tokens.push_back(t->str());
  }
  std::map<std::string, double> size;
  std::function<double(const std::string &, int)> expand = [&](const std::string &name, int depth) -> double {
    auto known = size.find(name);
    if (known != size.end()) return known->second;
    auto body = bodies.find(name);
    if (body == bodies.end() || depth > 200) return 1;
    size[name] = 1;  // a macro naming itself is not expanded again
    double n = 0;
    for (const std::string &t : body->second) n = std::min(cap, n + expand(t, depth + 1));
    return size[name] = n;
  };
  double most = 0;
  for (const auto &[name, body] : bodies) most = std::max(most, expand(name, 0));
  return most;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  char dir[] = "/tmp/twintile-fuzz-XXXXXX";
  if (!mkdtemp(dir)) finding("cannot create a directory under /tmp");
  kernelFile = fs::path(dir) / "kernel.cpp";
  static const fs::path scratch = dir;
  std::atexit([] {
    std::error_code ec;
    fs::remove_all(scratch, ec);
  });
  // A cache of our own (the precompiled header is kept; a million traced
  // mutants' objects are not).
  setenv("TWINTILE_CACHE_DIR", (fs::path(dir) / "cache").c_str(), 1);
  traceCache = fs::path(dir) / "cache" / "trace";
  // A hang in the tracer's child is the tracer's to report, well before
  // libFuzzer's own -timeout.
  setenv("TWINTILE_TRACE_TIMEOUT", "5", 0);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 32 * 1024) return -1;
  std::string text(reinterpret_cast<const char *>(data), size);
  std::string spec = "kernel";
  if (text.starts_with("// spec: ")) {
    size_t end = text.find('\n');
    spec = text.substr(9, end == std::string::npos ? std::string::npos : end - 9);
  }
  if (spec.empty() || spec.find('\0') != std::string::npos) return -1;
  // A macro that expands to billions of tokens keeps Clang busy for hours,
  // taking gigabytes: the driver stops it at its limits by ending the
  // process (lit driver/time_limit.cpp), which an in-process target cannot
  // do, and libFuzzer would report its time-out or memory as a finding.
  // Not an input for this target.
  if (largestMacroExpansion(text, 1e9) > 1e6) return -1;
  std::ofstream(kernelFile, std::ios::binary | std::ios::trunc) << text;
  twintile::pipeline::CompileRequest options;
  options.frontend = *twintile::pipeline::frontendNamed(TWINTILE_FUZZ_FRONTEND);
  options.useCache = false;
  options.jobs = 1;
  twintile::pipeline::Result r = twintile::pipeline::compileSource(kernelFile.string(), spec, options);
  std::error_code ec;
  fs::remove_all(traceCache, ec);
  // An input of at most a few kilobytes cannot need a 1 GiB stack: a
  // recursion without end, whichever front end's it was.
  if (r.internal() || r.exhaustedStack) finding(r.error);
  // A seed that must compile (a corpus kernel, an accepted feature case)
  // says so; the replay (not libFuzzer, whose mutants keep the line) checks.
  if (!r.ok() && twintile::support::envValue(twintile::support::Env::FuzzReplay) && text.find("\n// fuzz-expect: compiled\n") != std::string::npos)
    finding("a seed that must compile was refused:\n" + r.error);
  if (twintile::support::envValue(twintile::support::Env::FuzzShow))  // the replay's account of each input
    std::fprintf(stderr, "  %s: %s\n", spec.c_str(),
                 r.ok() ? "compiled" : ("refused: " + r.error.substr(0, r.error.find('\n'))).c_str());
  return 0;
}
