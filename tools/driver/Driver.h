//===- Driver.h - the twintile driver's commands ---------------------------===//
//
// One file per command (Compile.cpp, Run.cpp, Diff.cpp, Dump.cpp, Library.cpp,
// Tune.cpp); main in
// tools/twintile.cpp only declares the command line and dispatches. Each
// command returns the process's exit status: 0 on success, 1 on any error
// (diff: 1 when the front ends differ), with the error on standard error or,
// with --json, in the report; 70 when the error is an internal one, a bug in
// twintile.
//===----------------------------------------------------------------------===//
#pragma once

#include "pipeline/Pipeline.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace twintile::driver {

/// The exit status of a command that failed on a bug in twintile (an internal
/// error), apart from 1, the input's errors (sysexits.h's EX_SOFTWARE).
constexpr int kExitInternal = 70;
inline int failureStatus(const pipeline::Result &r) { return r.internal() ? kExitInternal : 1; }

/// What every command that compiles takes.
struct KernelFlags {
  std::string file, kernel;
  pipeline::CompileRequest options;  // front end, target, warps, stages, math, promises, cache
};

struct CompileFlags {
  KernelFlags k;                     // k.kernel unused: kernels lists them
  std::vector<std::string> kernels;  // one or more specializations of k.file
  int jobs = 0;                      // threads for several: 0, one per core
  std::string emit = "tile";
  std::string output = "-";
  bool printAfterAll = false;
  bool time = false;
  bool resources = false;
  bool json = false;
};
int compileCommand(const CompileFlags &flags);

struct RunFlags {
  KernelFlags k;
  std::string device = "emu";
  std::vector<int64_t> grid{1};
  std::vector<std::string> args;     // NAME=VALUE
  std::vector<std::string> inputs;   // NAME=FILE.npy
  std::string saveDir;
  uint64_t seed = 1;  // the command line takes 0 .. 2^63 - 1
  bool check = true;
  bool time = false;
  int repeat = 20;
  bool repeatGiven = false;
  bool profile = false;
  uint32_t interleave = 0;  // emu: programs at once (0: one after another)
  bool json = false;
};
int runCommand(const RunFlags &flags);

struct DiffFlags {
  std::string file, kernel;
  pipeline::CompileRequest options;  // its front end unused: diff runs `frontends`
  /// The front ends compared (two or three), each with the first.
  std::vector<pipeline::Frontend> frontends{pipeline::Frontend::Parse, pipeline::Frontend::Trace};
  bool show = false;
  std::string html;  // write the page here
  bool json = false;
};
int diffCommand(const DiffFlags &flags);

struct DumpFlags {
  std::string file, kernel, dir;
  pipeline::CompileRequest options;  // its front end unused: dump runs `frontends`
  std::vector<pipeline::Frontend> frontends{pipeline::Frontend::Parse, pipeline::Frontend::Trace};
  bool json = false;
};
int dumpCommand(const DumpFlags &flags);

struct LibraryFlags {
  KernelFlags k;                     // k.kernel unused: kernels lists them; k.options.target unused: targets
  std::vector<std::string> kernels;  // SPEC or FUNCTION=SPEC
  std::vector<std::string> tuned;    // TABLE or FUNCTION=TABLE (TunedTable.h)
  std::vector<std::string> targets;  // in the order a device prefers them; default sm_90a, sm_80
  std::string name;                  // NAME.h, NAME.cpp; the C++ namespace
  std::string output;                // the directory they are written to
  std::string depfile;               // a Makefile-syntax list of the files read, for the build
  int jobs = 0;
};
int libraryCommand(const LibraryFlags &flags);

struct TuneFlags {
  KernelFlags k;                     // k.kernel: the template, "rowsum<{BLOCK}>"
  std::vector<std::string> configs;  // "BLOCK=128,num_warps=4,num_stages=2"
  std::string grid;                  // one to three expressions, comma-separated
  std::vector<std::string> args;     // NAME=VALUE: a buffer's element count, a scalar's value
  std::vector<std::string> key;      // parameters whose values key the choice
  std::string table;                 // a tuned table the winner is added to (TunedTable.h)
  std::string device = "cuda";
  double warmupMs = 25, repMs = 100;
  uint64_t seed = 1;
  bool json = false;
};
int tuneCommand(const TuneFlags &flags);

/// "softmax<f16,1024>" -> "softmax_f16_1024": a name per specialization.
std::string stemOf(const std::string &spec);

/// "twintile: error: <message>" on standard error; returns 1.
int fail(const std::string &message);

/// Runs `command`, and what it lets escape (out of memory, an internal
/// error, any exception: nothing a command calls throws on purpose) becomes
/// `stop(text, status)`: the error's text, and 1 or kExitInternal.
int guarded(const std::function<int()> &command, const std::function<int(const std::string &, int)> &stop);

/// A report's JSON text, indented, with a final newline. Bytes that are not
/// UTF-8 (a file's name, a kernel's output) are replaced, not an error.
std::string jsonText(const nlohmann::ordered_json &j);

/// Writes `text` to `path`; an error message when it cannot.
bool writeText(const std::string &path, const std::string &text, std::string &error);

} // namespace twintile::driver
