//===- Environment.h - every TWINTILE_* environment variable, once -------===//
//
// The programs read their environment through this table alone (envValue),
// and the scripts' variables are in it too, so that one list says what each
// does: docs/driver.md prints it, and tests/support/EnvironmentTest.cpp
// checks that the docs, the code and the scripts name nothing else. A
// variable that changes what a compile makes (`keysCompiles`) is part of the
// key of every cache entry it can change. Header-only, so that the runtime,
// which links nothing of ours, reads its variables through it too.
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <span>
#include <string>

namespace twintile::support {

enum class Env {
  CacheDir, CacheMB, StackMB, MaxSourceMB, FrontendSeconds, FrontendMB,
  TraceHost, HostCxx, TraceInProcess, TraceTimeout, NoPch,
  Ptxas, Libdevice, Nvdisasm, Cuobjdump,
  LibCuda, DumpDir, PrintAutotuning,
  // Read by scripts/, the experiment's harness and the fuzz targets, not by the programs.
  BuildDir, Nvcc, SkipCuda, SkipBaselines, GpuPython, FuzzReplay, FuzzShow, Chromium,
  Count,  // not a variable: how many there are
};

struct EnvVariable {
  Env id;
  const char *name;    // "TWINTILE_CACHE_DIR"
  const char *reader;  // "twintile" (the programs and libraries) or the script that reads it
  const char *what;    // what it does, for docs/driver.md
  bool keysCompiles;   // it changes what a compile makes: cache keys hold what it chose
};

/// Every variable, in the docs' order.
inline constexpr EnvVariable kVariables[] = {
    {Env::CacheDir, "TWINTILE_CACHE_DIR", "twintile",
     "the cache directory (default $XDG_CACHE_HOME/twintile, else ~/.cache/twintile, else the temporary directory's twintile-cache)", false},
    {Env::CacheMB, "TWINTILE_CACHE_MB", "twintile", "each cache directory's size limit in MiB (default 2048)", false},
    {Env::StackMB, "TWINTILE_STACK_MB", "twintile", "the stack of each compile in MiB (16 to 65536)", false},
    {Env::MaxSourceMB, "TWINTILE_MAX_SOURCE_MB", "twintile", "the largest kernel file read, in MiB", false},
    {Env::FrontendSeconds, "TWINTILE_FRONTEND_SECONDS", "twintile",
     "the driver's limit on Clang's work on a kernel file, in seconds", false},
    {Env::FrontendMB, "TWINTILE_FRONTEND_MB", "twintile",
     "the driver's limit on the memory of Clang's work on a kernel file, in MiB", false},
    {Env::TraceHost, "TWINTILE_TRACE_HOST", "twintile",
     "how the tracing front end compiles a kernel file: jit (default) or clang++ (--trace-host)", true},
    {Env::HostCxx, "TWINTILE_HOST_CXX", "twintile", "the compiler of --trace-host clang++ (default clang++-19)", true},
    {Env::TraceInProcess, "TWINTILE_TRACE_IN_PROCESS", "twintile",
     "1: a kernel's host code runs in the compiling process, not a child (to measure what isolation costs)", false},
    {Env::TraceTimeout, "TWINTILE_TRACE_TIMEOUT", "twintile", "the limit on a kernel's host code, in seconds", false},
    {Env::NoPch, "TWINTILE_NO_PCH", "twintile", "set: Clang reads the language's header, not its precompiled form",
     false},
    {Env::Ptxas, "TWINTILE_PTXAS", "twintile", "the ptxas to run (default: the configured one, else PATH's)", true},
    {Env::Libdevice, "TWINTILE_LIBDEVICE", "twintile",
     "the libdevice bitcode precise math links (default: the configured one, else the toolkit's)", true},
    {Env::Nvdisasm, "TWINTILE_NVDISASM", "twintile", "the nvdisasm of --emit sass-info", false},
    {Env::Cuobjdump, "TWINTILE_CUOBJDUMP", "twintile", "the cuobjdump of --emit sass-info, without nvdisasm", false},
    {Env::LibCuda, "TWINTILE_LIBCUDA", "twintile",
     "the CUDA driver library the cuda device opens (default libcuda.so.1; the tests' stand-in)", false},
    {Env::DumpDir, "TWINTILE_DUMP_DIR", "twintile", "the launch API writes every stage of every variant under it",
     false},
    {Env::PrintAutotuning, "TWINTILE_PRINT_AUTOTUNING", "twintile",
     "set (not 0): the autotuner prints each tuning's timings to standard error", false},
    {Env::BuildDir, "TWINTILE_BUILD_DIR", "scripts/run, experiments/harness",
     "the build the experiment's suites run (default build/)", false},
    {Env::Nvcc, "TWINTILE_NVCC", "experiments/baselines", "the nvcc the CUDA baselines compile with", false},
    {Env::SkipCuda, "TWINTILE_SKIP_CUDA", "scripts/setup", "1: do not install CUDA's compiler tools", false},
    {Env::SkipBaselines, "TWINTILE_SKIP_BASELINES", "scripts/setup",
     "1: do not install the experiment's baselines (Triton, JAX, CuTe DSL, NumPy, matplotlib)", false},
    {Env::GpuPython, "TWINTILE_GPU_PYTHON", "scripts/gpu-bench", "the Python the GPU bench's baselines run with",
     false},
    {Env::FuzzReplay, "TWINTILE_FUZZ_REPLAY", "tests/fuzz", "set: the fuzz targets check each kept finding's expectation",
     false},
    {Env::FuzzShow, "TWINTILE_FUZZ_SHOW", "tests/fuzz", "set: the fuzz targets print what became of each input", false},
    {Env::Chromium, "TWINTILE_CHROMIUM", "tests/driver", "the browser the diff page's test opens the page in", false},
};

inline std::span<const EnvVariable> environmentVariables() { return kVariables; }

constexpr const char *envName(Env e) {
  for (const EnvVariable &v : kVariables)
    if (v.id == e) return v.name;
  return "TWINTILE_?";  // every Env is in the table (below, and EnvironmentTest)
}
static_assert(std::size(kVariables) == size_t(Env::Count), "every Env has one row in kVariables");

/// The variable's value, when it is set and not empty.
inline std::optional<std::string> envValue(Env e) {
  const char *v = std::getenv(envName(e));
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

} // namespace twintile::support
