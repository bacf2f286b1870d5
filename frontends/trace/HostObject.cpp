//===- HostObject.cpp - a kernel file compiled for tracing, cached, verified ===//
#include "frontends/trace/HostObject.h"

#include "frontends/common/LanguageFiles.h"

#include "frontends/trace/HostCompile.h"
#include "frontends/trace/HostLoad.h"
#include "frontends/trace/SourceTracer.h"
#include "support/Cache.h"
#include "support/CachePrune.h"
#include "support/Environment.h"
#include "support/Files.h"
#include "support/Stack.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <sstream>

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace twintile {

namespace {

constexpr const char *kRecordFormat = "twintile-host-object-4";

using twintile::support::readFile;

/// Runs argv, capturing its standard output and error; returns the exit status.
int runCapture(const std::vector<std::string> &argv, std::string &output) {
  int pipefd[2];
  if (pipe(pipefd) != 0) return -1;
  const rlim_t want = twintile::support::compileStackBytes();
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    // Clang's code generation recurses once per nesting level of an
    // expression: give it the stack twintile's own compile threads have.
    struct rlimit stack{want, want};
    if (getrlimit(RLIMIT_STACK, &stack) == 0 && stack.rlim_cur != RLIM_INFINITY && stack.rlim_cur < want) {
      stack.rlim_cur = stack.rlim_max == RLIM_INFINITY ? want : std::min<rlim_t>(stack.rlim_max, want);
      setrlimit(RLIMIT_STACK, &stack);
    }
    dup2(pipefd[1], STDERR_FILENO);
    dup2(pipefd[1], STDOUT_FILENO);
    close(pipefd[0]);
    close(pipefd[1]);
    // Killed with twintile, should twintile end first (its limits on the
    // front end's work end the process: support/Watchdog.h).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    std::vector<char *> args;
    for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run '%s': %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(pipefd[1]);
  std::array<char, 4096> buf;
  ssize_t n;
  // A signal (a profiler's, libFuzzer's) interrupts neither.
  while ((n = read(pipefd[0], buf.data(), buf.size())) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) output.append(buf.data(), n);
  close(pipefd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// The compiler's diagnostics without what names the generated entry file:
/// "In file included from .../entry.cpp:1:", the diagnostics pointing into
/// it or into the tracer's Entry.h (with their source line and caret), and
/// the final count, so that they read as the parse front end's (Clang's own,
/// on the user's file). Empty when no error is left.
std::string withoutEntry(const std::string &output, const std::string &entry) {
  std::istringstream in(output);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string &l = lines[i];
    if (l.starts_with("In file included from " + entry)) continue;
    if (l.starts_with(entry + ":") || l.find(std::string(kEntryHeader) + ":") != std::string::npos) {
      // A note into the entry: skip it and the source excerpt under it.
      while (i + 1 < lines.size() && (lines[i + 1].starts_with(" ") || lines[i + 1].empty())) ++i;
      continue;
    }
    if (l.find("error generated.") != std::string::npos || l.find("errors generated.") != std::string::npos) continue;
    out += l + "\n";
  }
  // Nothing about the user's own file: the specialization itself is wrong.
  return out.find(": error: ") == std::string::npos ? std::string() : out;
}

/// A new directory of our own under the system's temporary directory.
std::optional<fs::path> privateDir() {
  std::error_code ec;
  std::random_device rd;
  for (int attempt = 0; attempt < 16; ++attempt) {
    fs::path d = fs::temp_directory_path(ec) / ("twintile-trace-" + std::to_string(getpid()) + "-" + std::to_string(rd()));
    if (fs::create_directory(d, ec)) return d;
  }
  return std::nullopt;
}

/// A file's content as a dependency record has it: its hash, or nothing
/// where it cannot be read.
std::string contentHash(const fs::path &p) {
  std::optional<std::string> bytes = readFile(p);
  if (!bytes) return {};
  twintile::support::ContentHash h;
  h.add(*bytes);
  return h.hex();
}

/// What a cached object was compiled from besides the kernel file's text
/// (which its key hashes): the files that file includes, each as "HASH
/// PATH" on a line, with the hash of the text Clang read (the language's
/// own and the generated entry file aside: the key has them). A reader compiles again when one of them
/// has changed, as a build would: the key cannot know them before Clang has
/// read the file.
std::string dependencyRecord(const std::vector<InputFile> &inputs, const std::string &entryPath) {
  std::vector<std::string> paths;
  for (const InputFile &f : inputs)
    if (f.path != entryPath) paths.push_back(f.path);  // generated, and hashed into the key
  std::vector<std::string> kept = userFiles(paths), lines;
  std::error_code ec;
  for (const InputFile &f : inputs) {
    std::string p = fs::weakly_canonical(fs::absolute(f.path, ec), ec).string();
    if (!ec && std::binary_search(kept.begin(), kept.end(), p)) lines.push_back(f.hash + " " + p + "\n");
  }
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  std::string text;
  for (const std::string &l : lines) text += l;
  return text;
}

/// Whether every file a dependency record names still has that content.
bool dependenciesUnchanged(const std::string &record) {
  std::istringstream in(record);
  for (std::string line; std::getline(in, line);)
    if (line.size() < 18 || line[16] != ' ' || contentHash(line.substr(17)) != line.substr(0, 16)) return false;
  return true;
}

/// The key a cached object's record is written under: the object's key and
/// its dependency record, so that an object is used only beside the record
/// of the files it was compiled from (writers race to the same key).
std::string recordKey(const std::string &key, const std::string &dependencies) {
  twintile::support::ContentHash h;
  h.add(key);
  h.add(dependencies);
  return h.hex();
}

/// Where a compiled object is, and where the cache keeps it.
struct ObjectPlaces {
  fs::path work, built;                 // the build's directory, the object in it
  fs::path dir;                         // the cache's directory
  std::string key;
  fs::path object, record, dependencies;  // the entry's files
};

/// Keeps the object `at.built` in the cache (its dependencies and record
/// first, so that a reader that finds the object finds them too, and uses it
/// only if the record was written with them), and says in `out` where it is
/// to be loaded from: the cache, or where it was built when the cache cannot
/// keep it or a file it read changed while it was compiled (clang++ reads
/// the files after the signatures were read).
void storeInCache(HostObject &out, const ObjectPlaces &at, const std::string &dependencies) {
  std::error_code ec;
  if (!dependenciesUnchanged(dependencies)) {
    out.path = at.built.string();
    out.scratch = at.work.string();  // used once, not kept
    return;
  }
  std::optional<std::string> bytes = readFile(at.built);
  fs::path recordTmp = at.work / "kernel.sum", depsTmp = at.work / "kernel.deps";
  if (bytes)
    std::ofstream(recordTmp, std::ios::binary)
        << twintile::support::cacheRecord(kRecordFormat, recordKey(at.key, dependencies), *bytes);
  if (bytes) std::ofstream(depsTmp, std::ios::binary) << dependencies;
  if (bytes) fs::rename(depsTmp, at.dependencies, ec);
  if (bytes && !ec) fs::rename(recordTmp, at.record, ec);
  if (bytes && !ec) fs::rename(at.built, at.object, ec);
  if (ec || !bytes) {
    out.notes.push_back("the trace cache " + at.dir.string() + " could not keep the compiled kernel (" +
                        (ec ? ec.message() : std::string("unreadable")) + ")");
    out.path = (fs::exists(at.built) ? at.built : at.object).string();
    return;
  }
  fs::remove_all(at.work, ec);
  twintile::support::pruneAfterStore(at.dir, at.key);
  out.path = at.object.string();
}

} // namespace

HostObject buildHostObject(const std::string &kernelPath, const std::string &source,
                           const std::vector<std::string> &specs, const SourceTraceOptions &opts, bool rebuild) {
  HostObject out;
  const LanguageRoot language = languageRoot();
  if (!language.error.empty()) {
    out.error = language.error;
    return out;
  }
  const fs::path &root = language.dir;
  const bool jit = opts.host == TraceHost::Jit;  // resolved by the caller
  out.relocatable = jit;

  // The entry points: the tracer (first, as its precompiled header has it,
  // so that no macro of the kernel file's reaches it), the kernel file, and
  // one C function per requested specialization, so that one host compile
  // serves them all.
  std::string entry = "#include \"" + (root / kEntryHeader).string() + "\"\n"
                      "#include \"" + kernelPath + "\"\n";
  // A macro of the kernel file's that the entry points' own names would
  // expand (`#define trace(...)`) is the file's business, not theirs.
  for (const char *name : {"twintile", "entry", "trace", "options", "result"}) entry += std::string("#undef ") + name + "\n";
  for (size_t i = 0; i < specs.size(); ++i) entry += "#undef " + traceEntrySymbol(i) + "\n";
  for (size_t i = 0; i < specs.size(); ++i) {
    std::string quoted;  // the spec as a C string literal
    for (char c : specs[i]) quoted += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    entry += "extern \"C\" void " + traceEntrySymbol(i) +
             "(const void *options, void *result) {\n"
             "  twintile::entry::trace(&" + specs[i] + ", options, \"" + quoted + "\", result);\n"
             "}\n";
  }
  out.entrySource = entry;
  // No directory of the tracer's own: Entry.h and the kernel file are
  // included by their paths, and the kernel's includes resolve as the parse
  // front end resolves them (the user's directories, the kernel's own for
  // quoted names), so that a file reads the same through both, and one
  // Clang parse can serve both (pipeline::compileBoth).
  const std::vector<std::string> tracerDirs;
  std::string compiler;
  std::vector<std::string> flags;
  if (jit) {
    compiler = hostCompilerIdentity(opts.includeDirs, tracerDirs);
  } else {
    compiler = !opts.hostCompiler.empty() ? opts.hostCompiler : twintile::support::envValue(twintile::support::Env::HostCxx).value_or("clang++-19");
    // Linked without the default libraries: the object's calls into the C++
    // runtime (and libgcc's helpers), like its calls into the tracer, resolve
    // against the twintile process that loads it, where all are loaded
    // already. Linking libstdc++ and libc took half of the host compile.
    flags = {"-std=c++20", "-O0", "-fPIC", "-shared", "-nodefaultlibs", "-w", "-I" + (root / "include").string()};
    for (const std::string &d : opts.includeDirs) flags.push_back("-I" + d);
    for (const std::string &d : tracerDirs) flags.push_back("-I" + d);
  }

  twintile::support::ContentHash keyHash;
  keyHash.add(kRecordFormat);  // an object of a format before carries no signatures (2), drops packs (3), or
                              // its record keeps no dependencies (4)
  keyHash.add(entry);
  keyHash.add(source);
  keyHash.add(compiler);
  for (const std::string &f : flags) keyHash.add(f);
  // The headers the entry compiles against (the tracer's among them): a
  // changed language or tracer is a new key.
  keyHash.add(languageFilesKey());
  std::string key = keyHash.hex();

  std::error_code ec;
  fs::path dir = twintile::support::cacheDirectory("trace", opts.cacheDir);
  fs::path so = dir / (key + (jit ? ".o" : ".so")), record = dir / (key + ".sum"), deps = dir / (key + ".deps");
  std::optional<std::string> cachedDeps = readFile(deps);
  if (opts.useCache && !rebuild && fs::exists(so, ec) && cachedDeps && dependenciesUnchanged(*cachedDeps)) {
    std::string wrong = twintile::support::checkCached(so, record, kRecordFormat, recordKey(key, *cachedDeps));
    if (wrong.empty()) {
      twintile::support::touchCacheEntry(record);  // the last the cache's limit removes
      out.path = so.string();
      out.cacheHit = true;
      return out;
    }
    // Not removed here: a concurrent writer may be between its two renames;
    // the rebuilt object replaces it atomically.
    out.notes.push_back("the cached host object " + so.string() + " was not used: " + wrong + "; rebuilt");
  }

  // Built in a directory of its own, then renamed into the cache: a
  // concurrent reader sees all or nothing.
  // Of this process and this call alone: threads of one process (the launch
  // API) may build the same key at once.
  static std::atomic<unsigned> builds{0};
  fs::path work = dir / ("build-" + key + "-" + std::to_string(getpid()) + "-" + std::to_string(builds++));
  bool cached = fs::create_directories(work, ec) || fs::is_directory(work);
  if (!cached) {
    std::optional<fs::path> tmp = privateDir();
    if (!tmp) {
      out.error = "cannot create a directory to compile the kernel file in (" + dir.string() + " and the system's "
                  "temporary directory are not writable)";
      return out;
    }
    out.notes.push_back("the trace cache " + dir.string() + " cannot be written (" + ec.message() +
                        "): the kernel file was compiled without it");
    work = *tmp;
  }
  // The driver's limits on Clang's work, which nothing else stops.
  std::unique_ptr<twintile::support::Watchdog> watch = opts.watchHostCompile ? opts.watchHostCompile() : nullptr;
  if (watch) watch->removeOnEnd(work);
  // The parse front end's walks of this compile's AST are not Clang's work:
  // they have limits of their own.
  InstantiatedKernels instantiated;
  if (opts.instantiated)
    instantiated = [&](const std::vector<const clang::FunctionDecl *> &kernels) {
      if (watch) watch->pause();
      opts.instantiated(kernels);
      if (watch) watch->resume();
    };
  fs::path entryPath = work / "entry.cpp", built = work / (jit ? "kernel.o" : "kernel.so");
  std::string output;
  bool compiled = false;
  std::vector<EntrySignature> entries;  // what Clang's AST said of each entry point
  std::vector<InputFile> inputs;        // the files Clang read
  auto start = std::chrono::steady_clock::now();
  if (jit) {
    HostCompileResult c = compileHostObject(entryPath.string(), entry, opts.includeDirs, tracerDirs, instantiated);
    out.notes.insert(out.notes.end(), c.notes.begin(), c.notes.end());
    output = std::move(c.diagnostics);
    out.codegenSeconds = c.codegenSeconds;
    entries = std::move(c.entries);
    out.kernels = std::move(c.kernels);
    inputs = std::move(c.inputs);
    if (!c.internal.empty()) {
      fs::remove_all(work, ec);
      out.error = "the kernel file compiled, but not to host code: " + c.internal;
      out.internal = true;
      return out;
    }
    if (c.ok && !(std::ofstream(built, std::ios::binary) << c.object).good()) {
      fs::remove_all(work, ec);
      out.error = "cannot write the compiled kernel file to " + built.string();
      return out;
    }
    compiled = c.ok;
  } else {
    // The signatures from Clang's AST (in process: front end only, no
    // code), carried in the shared object as the in-process compile's
    // object carries them.
    EntryRead read = readEntrySignatures(entryPath.string(), entry, opts.includeDirs, tracerDirs);
    out.notes.insert(out.notes.end(), read.notes.begin(), read.notes.end());
    entries = read.entries;
    out.kernels = std::move(read.kernels);
    inputs = std::move(read.inputs);  // as the clang++ process reads them: the same flags
    if (!read.ok && read.diagnostics.find("error: ") == std::string::npos) {
      // Clang stopped without an error to show: not the file's doing.
      fs::remove_all(work, ec);
      out.error = "Clang read the kernel file's signatures to nothing, and said nothing" +
                  (read.diagnostics.empty() ? std::string() : ": " + read.diagnostics);
      out.internal = true;
      return out;
    }
    if (!read.ok) output = read.diagnostics;
    else std::ofstream(entryPath) << entry << signatureDefinition(read.entries);
    std::vector<std::string> argv{compiler};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {entryPath.string(), "-o", built.string()});
    int status = read.ok ? runCapture(argv, output) : 1;
    if (status == 127) {
      fs::remove_all(work, ec);
      out.error = "cannot run the host compiler '" + compiler + "' (install clang-19, or set TWINTILE_HOST_CXX)";
      return out;
    }
    compiled = status == 0;
  }
  out.compileSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!compiled) {
    fs::remove_all(work, ec);
    out.compileFailed = true;
    std::string which = specs.size() == 1 ? "'" + specs[0] + "'" : std::to_string(specs.size()) + " specializations";
    out.error = "the kernel file does not compile for " + which + ":\n" + output;
    out.compilerOutput = withoutEntry(output, entryPath.string());
    // Entry.h's static_assert for a plain C++ parameter: said at the parameter.
    if (output.find("a kernel with plain C++ parameters") != std::string::npos)
      for (const EntrySignature &e : entries)
        if (e.hostParameter) {
          const twintile::ir::Diagnostic &d = *e.hostParameter;
          out.compilerOutput = d.loc.pos.file == kernelPath ? twintile::ir::render(d, source) : twintile::ir::render(d);
          break;
        }
    return out;
  }
  if (!cached) {
    out.path = built.string();
    out.scratch = work.string();  // the caller removes it once the object is loaded or traced
    return out;
  }
  storeInCache(out, {work, built, dir, key, so, record, deps}, dependencyRecord(inputs, entryPath.string()));
  return out;
}

} // namespace twintile
