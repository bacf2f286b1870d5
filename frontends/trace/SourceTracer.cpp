#include "frontends/trace/SourceTracer.h"

#include "frontends/trace/Isolate.h"

#include "support/Cache.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#ifndef TWINTILE_SOURCE_DIR
#error "TWINTILE_SOURCE_DIR must name the source tree (for the headers a traced kernel includes)"
#endif

namespace fs = std::filesystem;

namespace twintile {

namespace {

using Clock = std::chrono::steady_clock;

std::optional<std::string> readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

std::string envOr(const char *name, std::string fallback) {
  const char *v = std::getenv(name);
  return v && *v ? v : std::move(fallback);
}

/// Runs argv, capturing its standard error; returns the exit status.
int runCapture(const std::vector<std::string> &argv, std::string &output) {
  int pipefd[2];
  if (pipe(pipefd) != 0) return -1;
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    dup2(pipefd[1], STDERR_FILENO);
    dup2(pipefd[1], STDOUT_FILENO);
    close(pipefd[0]);
    close(pipefd[1]);
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
  while ((n = read(pipefd[0], buf.data(), buf.size())) > 0) output.append(buf.data(), n);
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TraceResult failure(std::string message, tt::ir::Location loc = {}) {
  TraceResult r;
  r.error = tt::ir::Diagnostic{std::move(loc), std::move(message)};
  return r;
}

std::vector<std::string> splitTopLevel(const std::string &s) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
    if (c == '>' || c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (cur.find_first_not_of(" \t\n") != std::string::npos) parts.push_back(cur);
  return parts;
}

/// The declared name in "typename T", "int BLOCK = 4", "Ptr<f32> x".
std::string declaredName(std::string decl) {
  if (size_t eq = decl.find('='); eq != std::string::npos) decl.resize(eq);
  size_t end = decl.find_last_not_of(" \t\n");
  if (end == std::string::npos) return {};
  size_t start = end;
  while (start > 0 && (std::isalnum(static_cast<unsigned char>(decl[start - 1])) || decl[start - 1] == '_')) --start;
  return decl.substr(start, end - start + 1);
}

std::string baseName(const std::string &spec) {
  std::string name = spec.substr(0, spec.find('<'));
  name.erase(std::remove_if(name.begin(), name.end(), [](unsigned char c) { return std::isspace(c); }), name.end());
  return name;
}

} // namespace

KernelSignature readSignature(const std::string &source, const std::string &kernel) {
  KernelSignature sig;
  // The definition: "TT_KERNEL void <kernel>(".
  size_t at = 0;
  while ((at = source.find(kernel, at)) != std::string::npos) {
    size_t before = source.rfind("TT_KERNEL", at);
    bool isDef = before != std::string::npos && source.substr(before, at - before).find(';') == std::string::npos &&
                 source.substr(before, at - before).find('}') == std::string::npos;
    size_t after = at + kernel.size();
    while (after < source.size() && std::isspace(static_cast<unsigned char>(source[after]))) ++after;
    if (isDef && after < source.size() && source[after] == '(') {
      size_t close = source.find(')', after);
      if (close == std::string::npos) return sig;
      for (const std::string &p : splitTopLevel(source.substr(after + 1, close - after - 1)))
        sig.params.push_back(declaredName(p));
      // Its template header, just before TT_KERNEL.
      size_t tmpl = source.rfind("template", before);
      if (tmpl != std::string::npos) {
        size_t open = source.find('<', tmpl);
        int depth = 0;
        size_t end = open;
        for (; end < before; ++end) {
          if (source[end] == '<') ++depth;
          if (source[end] == '>' && --depth == 0) break;
        }
        if (open < before && end < before && source.substr(end + 1, before - end - 1).find_first_not_of(" \t\n") == std::string::npos)
          for (const std::string &p : splitTopLevel(source.substr(open + 1, end - open - 1)))
            sig.templateParams.push_back(declaredName(p));
      }
      return sig;
    }
    at = after;
  }
  return sig;
}

std::vector<SourceTraceResult> traceSourceFile(const std::string &file, const std::vector<std::string> &specs,
                                               const SourceTraceOptions &opts) {
  std::vector<SourceTraceResult> results(specs.size());
  auto failAll = [&](const std::string &message) {
    for (SourceTraceResult &r : results) r.trace = failure(message);
    return std::move(results);
  };
  std::error_code ec;
  fs::path kernelPath = fs::absolute(file, ec);
  std::optional<std::string> source = readFile(kernelPath);
  if (!source) return failAll("cannot read kernel file '" + file + "'");
  if (specs.empty()) return results;
  const fs::path root = TWINTILE_SOURCE_DIR;
  std::string compiler = !opts.hostCompiler.empty() ? opts.hostCompiler : envOr("TWINTILE_HOST_CXX", "clang++-19");

  // The entry points: the kernel file, the tracer, and one C function per
  // requested specialization, so that one host compile serves them all.
  std::string entry = "#include \"" + kernelPath.string() + "\"\n"
                      "#include \"frontends/trace/Entry.h\"\n";
  for (size_t i = 0; i < specs.size(); ++i)
    entry += "extern \"C\" void twintile_trace_entry_" + std::to_string(i) +
             "(const void *options, void *result) {\n"
             "  twintile::entry::trace(&" + specs[i] + ", options, \"" + specs[i] + "\", result);\n"
             "}\n";
  std::vector<std::string> flags = {"-std=c++20", "-O0", "-fPIC", "-shared", "-w",
                                    "-I" + root.string(), "-I" + (root / "include").string(),
                                    "-I" + kernelPath.parent_path().string()};
  for (const std::string &d : opts.includeDirs) flags.push_back("-I" + d);

  tt::support::ContentHash key;
  key.add(entry);
  key.add(*source);
  key.add(compiler);
  for (const std::string &f : flags) key.add(f);
  // The headers the entry compiles against: a changed tracer is a new key.
  for (const char *h : {"include/twintile.h", "frontends/trace/Entry.h"})
    key.add(readFile(root / h).value_or(h));

  fs::path dir = tt::support::cacheDirectory("trace", opts.cacheDir);
  fs::path so = dir / (key.hex() + ".so");
  bool cacheHit = opts.useCache && fs::exists(so);
  double compileSeconds = 0;

  if (!cacheHit) {
    fs::path work = dir / ("build-" + key.hex() + "-" + std::to_string(getpid()));
    fs::create_directories(work, ec);
    fs::path entryPath = work / "entry.cpp", tmp = work / "kernel.so";
    std::ofstream(entryPath) << entry;
    std::vector<std::string> argv{compiler};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {entryPath.string(), "-o", tmp.string()});
    std::string output;
    auto start = Clock::now();
    int status = runCapture(argv, output);
    compileSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (status != 0) {
      fs::remove_all(work, ec);
      if (status == 127)
        return failAll("cannot run the host compiler '" + compiler + "' (install clang-19, or set TWINTILE_HOST_CXX)");
      std::string which = specs.size() == 1 ? "'" + specs[0] + "'" : std::to_string(specs.size()) + " specializations";
      return failAll("the kernel file does not compile for " + which + ":\n" + output);
    }
    fs::rename(tmp, so, ec);  // atomic: a concurrent reader sees all or nothing
    fs::remove_all(work, ec);
    if (ec) return failAll("cannot write the compile cache '" + so.string() + "': " + ec.message());
  }

  void *handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    // A corrupt cache entry is rebuilt once.
    std::string why = dlerror();
    if (cacheHit) {
      fs::remove(so, ec);
      return traceSourceFile(file, specs, opts);
    }
    return failAll("cannot load the compiled kernel: " + why);
  }
  std::vector<void (*)(const void *, void *)> entries;
  std::vector<TraceOptions> traceOpts(specs.size());
  std::vector<KernelSignature> sigs;
  for (size_t i = 0; i < specs.size(); ++i) {
    SourceTraceResult &result = results[i];
    result.entrySource = entry;
    result.sharedObject = so.string();
    result.cacheHit = cacheHit;
    result.compileSeconds = i == 0 ? compileSeconds : 0;  // one compile for all: counted once
    using Entry = void (*)(const void *, void *);
    auto fn = reinterpret_cast<Entry>(dlsym(handle, ("twintile_trace_entry_" + std::to_string(i)).c_str()));
    if (!fn) return failAll("internal error: the compiled kernel has no entry point — this is a bug in twintile");
    entries.push_back(fn);
    sigs.push_back(readSignature(*source, baseName(specs[i])));
    traceOpts[i].metaNames = sigs.back().templateParams;
    traceOpts[i].numWarps = opts.numWarps;
  }
  if (opts.isolate && envOr("TWINTILE_TRACE_IN_PROCESS", "") != "1") {
    // The kernel's host code runs in a child process (Isolate.h).
    IsolationLimits limits = opts.limits;
    if (std::string t = envOr("TWINTILE_TRACE_TIMEOUT", ""); !t.empty() && std::atof(t.c_str()) > 0)
      limits.seconds = std::atof(t.c_str());
    std::vector<IsolatedTrace> traced = traceIsolated(entries, specs, traceOpts, limits);
    for (size_t i = 0; i < specs.size(); ++i) {
      results[i].trace = std::move(traced[i].trace);
      results[i].output = std::move(traced[i].output);
    }
  } else {
    for (size_t i = 0; i < specs.size(); ++i) entries[i](&traceOpts[i], &results[i].trace);
  }
  // Parameter names from the source, when they line up one to one.
  for (size_t i = 0; i < specs.size(); ++i) {
    TraceResult &t = results[i].trace;
    if (t.ok() && sigs[i].params.size() == t.func->numParams())
      for (size_t p = 0; p < sigs[i].params.size(); ++p) t.func->param(p)->name = sigs[i].params[p];
  }
  // The shared object stays loaded for the life of the process.
  return results;
}

SourceTraceResult traceSourceFile(const std::string &file, const std::string &spec, const SourceTraceOptions &opts) {
  return std::move(traceSourceFile(file, std::vector<std::string>{spec}, opts).front());
}

} // namespace twintile
