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

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#ifndef TWINTILE_FUZZ_FRONTEND
#error "TWINTILE_FUZZ_FRONTEND must be \"parse\" or \"trace\""
#endif

namespace fs = std::filesystem;
using twintile::fuzz::finding;

namespace {

fs::path kernelFile;  // where each input is written: the front ends read files
fs::path traceCache;  // the tracer's objects, emptied after each input

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
  if (!r.ok() && std::getenv("TWINTILE_FUZZ_REPLAY") && text.find("\n// fuzz-expect: compiled\n") != std::string::npos)
    finding("a seed that must compile was refused:\n" + r.error);
  if (std::getenv("TWINTILE_FUZZ_SHOW"))  // the replay's account of each input
    std::fprintf(stderr, "  %s: %s\n", spec.c_str(),
                 r.ok() ? "compiled" : ("refused: " + r.error.substr(0, r.error.find('\n'))).c_str());
  return 0;
}
