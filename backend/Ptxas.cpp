//===- Ptxas.cpp - running NVIDIA's ptxas, reading its resource report ----===//
//
// ptxas runs without a shell: posix_spawn with an argument vector, its stdout
// and stderr both sent to one log file in a private temporary directory that
// also holds the PTX and the cubin, and that is removed afterwards. The log
// names the PTX as plain "kernel.ptx", whatever the directory was.
//===----------------------------------------------------------------------===//
#include "backend/Ptxas.h"

#include "support/Environment.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef TWINTILE_DEFAULT_PTXAS
#define TWINTILE_DEFAULT_PTXAS ""
#endif
#ifndef TWINTILE_DEFAULT_LIBDEVICE
#define TWINTILE_DEFAULT_LIBDEVICE ""
#endif

extern char **environ;

namespace fs = std::filesystem;

namespace twintile::backend {

namespace {

bool isExecutableFile(const std::string &path) {
  std::error_code ec;
  return !path.empty() && fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

bool isReadableFile(const std::string &path) {
  std::error_code ec;
  return !path.empty() && fs::is_regular_file(path, ec) && ::access(path.c_str(), R_OK) == 0;
}

std::string envOrEmpty(const char *name) {
  const char *v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

/// `name` in one of the directories of $PATH, if executable there.
std::optional<std::string> searchPath(const std::string &name) {
  std::string path = envOrEmpty("PATH");
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    std::string candidate = (fs::path(dir) / name).string();
    if (isExecutableFile(candidate)) return candidate;
  }
  return std::nullopt;
}

bool readFile(const fs::path &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return !in.bad();
}

bool writeFile(const fs::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  return !out.fail();
}

/// A new, empty directory of our own under the system's temporary directory.
std::optional<fs::path> makeTempDir() {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) return std::nullopt;
  std::random_device rd;
  for (int attempt = 0; attempt < 16; ++attempt) {
    unsigned long long r = (static_cast<unsigned long long>(rd()) << 32) ^ rd();
    fs::path dir = base / ("twintile-ptxas-" + std::to_string(::getpid()) + "-" + std::to_string(r));
    if (fs::create_directory(dir, ec)) return dir;
  }
  return std::nullopt;
}

/// Runs `argv` (argv[0] a path) with stdin from /dev/null and stdout and
/// stderr into `logPath`. Returns the wait status, or nullopt with `error`.
std::optional<int> spawnAndWait(const std::vector<std::string> &argv, const fs::path &logPath,
                                std::string &error) {
  std::vector<char *> args;
  for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  if (int rc = posix_spawn_file_actions_init(&actions)) {
    error = std::strerror(rc);
    return std::nullopt;
  }
  std::string log = logPath.string();
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);

  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    error = std::strerror(rc);
    return std::nullopt;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      error = std::string("waitpid: ") + std::strerror(errno);
      return std::nullopt;
    }
  }
  return status;
}

int toInt(const std::string &digits) {
  try {
    unsigned long long v = std::stoull(digits);
    return v > 0x7fffffffull ? 0x7fffffff : static_cast<int>(v);
  } catch (const std::exception &) {
    return -1;
  }
}

} // namespace

std::optional<std::string> findPtxas() {
  if (std::string env = support::envValue(support::Env::Ptxas).value_or(""); isExecutableFile(env)) return env;
  if (std::string configured = TWINTILE_DEFAULT_PTXAS; isExecutableFile(configured)) return configured;
  return searchPath("ptxas");
}

std::optional<std::string> findLibdevice() {
  if (std::string env = support::envValue(support::Env::Libdevice).value_or(""); isReadableFile(env)) return env;
  if (std::string configured = TWINTILE_DEFAULT_LIBDEVICE; isReadableFile(configured)) return configured;
  // A toolkit's: beside the ptxas found (bin/ptxas, nvvm/libdevice/), or
  // CUDA's default prefix.
  const char *inToolkit = "nvvm/libdevice/libdevice.10.bc";
  if (std::optional<std::string> ptxas = findPtxas()) {
    std::error_code ec;
    std::filesystem::path real = std::filesystem::canonical(*ptxas, ec);
    std::string beside = ec ? std::string() : (real.parent_path().parent_path() / inToolkit).string();
    if (!beside.empty() && isReadableFile(beside)) return beside;
  }
  if (std::string toolkit = std::string("/usr/local/cuda/") + inToolkit; isReadableFile(toolkit)) return toolkit;
  return std::nullopt;
}

// The report of one entry, as ptxas -v prints it (CUDA 13):
//
//   ptxas info    : Compiling entry function 'k' for 'sm_90a'
//   ptxas info    : Function properties for k
//       112 bytes stack frame, 108 bytes spill stores, 108 bytes spill loads
//   ptxas info    : Used 24 registers, used 0 barriers, 112 bytes cumulative stack size, 2048 bytes smem
//   ptxas info    : Function properties for helper
//       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//
// Older versions omit the barriers, and print "N bytes cmem[0]" after the
// smem. Non-entry functions get a properties block of their own (after the
// entry's); only the first entry's numbers are read.
bool parsePtxasLog(const std::string &log, PtxasReport &report) {
  static const std::regex entryRe(R"(Compiling entry function '([^']+)')");
  static const std::regex propsRe(R"(Function properties for (\S+))");
  static const std::regex frameRe(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex usedRe(R"(Used (\d+) registers)");
  static const std::regex smemRe(R"((\d+) bytes smem)");

  std::string firstEntry, currentEntry, currentProps;
  bool sawUsed = false, sawFrame = false;
  std::istringstream lines(log);
  std::string line;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, m, entryRe)) {
      currentEntry = m[1];
      if (firstEntry.empty()) firstEntry = currentEntry;
    }
    if (std::regex_search(line, m, propsRe)) currentProps = m[1];
    bool ofFirstEntry = firstEntry.empty() || currentEntry == firstEntry;
    if (!sawFrame && std::regex_search(line, m, frameRe) &&
        (firstEntry.empty() || currentProps.empty() || currentProps == firstEntry)) {
      report.stackBytes = toInt(m[1]);
      report.spillStoreBytes = toInt(m[2]);
      report.spillLoadBytes = toInt(m[3]);
      sawFrame = true;
    }
    if (!sawUsed && ofFirstEntry && std::regex_search(line, m, usedRe)) {
      report.registers = toInt(m[1]);
      report.sharedBytes = std::regex_search(line, m, smemRe) ? toInt(m[1]) : 0;
      sawUsed = true;
    }
  }
  return sawUsed;
}

PtxasReport runPtxas(const std::string &ptx, const std::string &arch) {
  PtxasReport report;
  std::optional<std::string> ptxas = findPtxas();
  if (!ptxas) {
    report.skipped = "ptxas not found (set TWINTILE_PTXAS or put ptxas on PATH)";
    return report;
  }
  std::optional<fs::path> dir = makeTempDir();
  if (!dir) {
    report.skipped = "cannot create a temporary directory for ptxas";
    return report;
  }
  fs::path in = *dir / "kernel.ptx", out = *dir / "kernel.cubin", logPath = *dir / "ptxas.log";
  auto cleanup = [&] {
    std::error_code ec;
    fs::remove_all(*dir, ec);
  };
  if (!writeFile(in, ptx)) {
    report.skipped = "cannot write " + in.string();
    cleanup();
    return report;
  }

  std::string error;
  std::optional<int> status =
      spawnAndWait({*ptxas, "-v", "-arch=" + arch, in.string(), "-o", out.string()}, logPath, error);
  if (!status) {
    report.skipped = "cannot run " + *ptxas + ": " + error;
    report.log = report.skipped;
    cleanup();
    return report;
  }
  report.ran = true;
  readFile(logPath, report.log);
  // "ptxas /tmp/twintile-ptxas-1-2/kernel.ptx, line 8; error ..." reads as
  // "ptxas kernel.ptx, line 8; ...": the same for every run of the same PTX.
  std::string dirPrefix = dir->string() + "/";
  for (size_t at = report.log.find(dirPrefix); at != std::string::npos; at = report.log.find(dirPrefix, at))
    report.log.erase(at, dirPrefix.size());
  parsePtxasLog(report.log, report);
  if (WIFEXITED(*status) && WEXITSTATUS(*status) == 0) {
    report.ok = readFile(out, report.cubin) && !report.cubin.empty();
    if (!report.ok) report.log += "twintile: ptxas succeeded but wrote no cubin\n";
  } else if (WIFSIGNALED(*status)) {
    report.log += "twintile: ptxas killed by signal " + std::to_string(WTERMSIG(*status)) + "\n";
  } else if (WIFEXITED(*status)) {
    report.log += "twintile: ptxas exited with status " + std::to_string(WEXITSTATUS(*status)) + "\n";
  }
  if (!report.ok) report.cubin.clear();
  cleanup();
  return report;
}

namespace {

/// `name` from $env, beside ptxas, or on PATH.
std::optional<std::string> findCudaTool(support::Env env, const std::string &name) {
  if (std::string e = support::envValue(env).value_or(""); !e.empty()) return isExecutableFile(e) ? std::optional(e) : std::nullopt;
  if (std::optional<std::string> ptxas = findPtxas())
    if (std::string beside = (fs::path(*ptxas).parent_path() / name).string(); isExecutableFile(beside)) return beside;
  return searchPath(name);
}

} // namespace

std::optional<std::string> disassemble(const std::string &cubin, std::string &why) {
  std::vector<std::string> argv;
  if (std::optional<std::string> nvdisasm = findCudaTool(support::Env::Nvdisasm, "nvdisasm"))
    argv = {*nvdisasm, "-c", "-hex"};
  else if (std::optional<std::string> cuobjdump = findCudaTool(support::Env::Cuobjdump, "cuobjdump"))
    argv = {*cuobjdump, "-sass"};
  else {
    why = "neither nvdisasm nor cuobjdump found (scripts/setup installs nvdisasm into .venv)";
    return std::nullopt;
  }
  std::optional<fs::path> dir = makeTempDir();
  if (!dir) {
    why = "cannot create a temporary directory";
    return std::nullopt;
  }
  fs::path in = *dir / "kernel.cubin", logPath = *dir / "sass.txt";
  std::string error, text;
  std::optional<int> status;
  if (writeFile(in, cubin)) {
    argv.push_back(in.string());
    status = spawnAndWait(argv, logPath, error);
    readFile(logPath, text);
  } else {
    error = "cannot write " + in.string();
  }
  std::error_code ec;
  fs::remove_all(*dir, ec);
  if (!status || !WIFEXITED(*status) || WEXITSTATUS(*status) != 0) {
    why = fs::path(argv[0]).filename().string() + " failed" + (error.empty() ? ": " + text : ": " + error);
    return std::nullopt;
  }
  return text;
}

} // namespace twintile::backend
