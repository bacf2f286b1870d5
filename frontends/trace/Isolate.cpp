//===- Isolate.cpp - tracing a compiled kernel in a child process --------===//
//
// Protocol: the child writes one JSON line per specialization it traced,
// {"i": index, "seconds": s, "ir": text} or {"i": index, "error": {file, line,
// col, inlined: [[file, line, col], ...], message}}, on a pipe of its own;
// the kernel's stdout and stderr go to another. The parent reads both until
// they close or the time limit passes (then it kills the child), and reaps
// it. A specialization without a line is the one the child died in.
//===----------------------------------------------------------------------===//
#include "frontends/trace/Isolate.h"

#include "frontends/trace/HostLoad.h"
#include "support/LlvmTargets.h"

#include "ir/Parser.h"
#include "ir/Printer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <dlfcn.h>
#include <exception>
#include <iostream>
#include <new>

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define TWINTILE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TWINTILE_ASAN 1
#endif
#endif

namespace twintile {

namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

Json toJson(const twintile::ir::SourcePos &p) { return Json::array({p.file, p.line, p.col}); }

twintile::ir::SourcePos posOf(const Json &j) { return {j.at(0).get<std::string>(), j.at(1).get<int>(), j.at(2).get<int>()}; }

std::string record(size_t i, const TraceResult &r) {
  Json j{{"i", i}, {"seconds", r.seconds}};
  if (r.ok()) {
    j["ir"] = twintile::ir::toString(*r.func);
  } else {
    Json inlined = Json::array();
    for (const twintile::ir::SourcePos &p : r.error->loc.inlinedAt) inlined.push_back(toJson(p));
    j["error"] = {{"pos", toJson(r.error->loc.pos)}, {"inlined", inlined}, {"message", r.error->message}, {"internal", r.error->internal}};
  }
  // Invalid UTF-8 in a user's string must not stop the line from being written.
  return j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

/// A line the child wrote back into a TraceResult; an internal error if it
/// does not read (the child is our own code up to the kernel's).
TraceResult fromRecord(const Json &j) {
  TraceResult r;
  r.seconds = j.value("seconds", 0.0);
  if (j.contains("error")) {
    const Json &e = j["error"];
    twintile::ir::Diagnostic d;
    d.loc.pos = posOf(e.at("pos"));
    for (const Json &p : e.at("inlined")) d.loc.inlinedAt.push_back(posOf(p));
    d.message = e.at("message").get<std::string>();
    d.internal = e.value("internal", false);
    r.error = std::move(d);
    return r;
  }
  twintile::ir::ParseResult parsed = twintile::ir::parseModule(j.at("ir").get<std::string>(), "<traced>");
  if (!parsed.module || parsed.module->funcs.size() != 1)
    r.error = twintile::ir::Diagnostic::internalError("the traced IR does not read back (" +
                                                (parsed.error ? parsed.error->str() : "not one function") + ")");
  else
    r.func = std::move(parsed.module->funcs.front());
  return r;
}

void writeAll(int fd, const std::string &s) {
  for (size_t at = 0; at < s.size();) {
    ssize_t n = ::write(fd, s.data() + at, s.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    at += static_cast<size_t>(n);
  }
}

TraceProgress *childProgress = nullptr;
const char *childObject = nullptr;  // the kernel's compiled file, as loaded

/// Separates the specializations' output on the child's output pipe: an
/// ASCII record separator no printable text holds.
const std::string kMark = "\x1etwintile-trace\x1e";

/// The child's output, split at the marks into each specialization's; what
/// came before the first mark (the kernel file's static initializers, as it
/// loaded) is the first one's, `first`.
void splitOutput(const std::string &printed, size_t first, std::vector<IsolatedTrace> &out) {
  size_t at = printed.find(kMark);
  if (first < out.size()) out[first].output = printed.substr(0, at);
  while (at != std::string::npos) {
    size_t numEnd = printed.find(kMark, at + kMark.size());
    if (numEnd == std::string::npos) return;
    size_t i = std::strtoul(printed.c_str() + at + kMark.size(), nullptr, 10);
    size_t next = printed.find(kMark, numEnd + kMark.size());
    std::string text = printed.substr(numEnd + kMark.size(), next == std::string::npos ? std::string::npos
                                                                                       : next - numEnd - kMark.size());
    if (i < out.size()) out[i].output += text;
    at = next;
  }
}

/// Puts back the default action of `sig` through the system call itself,
/// which interceptors of sigaction() (AddressSanitizer's) do not see.
void defaultAction(int sig) {
  struct { void (*handler)(int); unsigned long flags; void (*restorer)(); unsigned long mask; } dfl{};
  ::syscall(SYS_rt_sigaction, sig, &dfl, nullptr, sizeof dfl.mask);
}

/// The child's fault handler: notes whose code the fault struck in, then
/// puts the default action back and returns, so that the faulting
/// instruction runs again and the child dies of its signal as before.
void onFault(int sig, siginfo_t *, void *context) {
  void *pc = nullptr;
#if defined(__x86_64__)
  pc = reinterpret_cast<void *>(static_cast<ucontext_t *>(context)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  pc = reinterpret_cast<void *>(static_cast<ucontext_t *>(context)->uc_mcontext.pc);
#else
  (void)context;
#endif
  Dl_info at{}, ours{};
  using Fault = TraceProgress::Fault;
  if (childProgress && pc && ::dladdr(reinterpret_cast<void *>(&onFault), &ours)) {
    if (!::dladdr(pc, &at)) {
      // In no loaded file: the JIT-linked kernel's code, or a jump the
      // kernel made to garbage.
      childProgress->fault = Fault::Kernel;
    } else {
      childProgress->fault = at.dli_fbase == ours.dli_fbase ? Fault::Twintile
                             : childObject && at.dli_fname && std::strcmp(at.dli_fname, childObject) == 0
                                 ? Fault::Kernel
                                 : Fault::Elsewhere;
      std::snprintf(childProgress->faultSymbol, sizeof childProgress->faultSymbol, "%s",
                    at.dli_sname ? at.dli_sname : "");
    }
  }
  defaultAction(sig);
}

/// The child's last word on an exception nobody caught: its type.
[[noreturn]] void onTerminate() {
  if (childProgress)
    if (std::type_info *t = abi::__cxa_current_exception_type()) {
      int status = 0;
      char *name = abi::__cxa_demangle(t->name(), nullptr, nullptr, &status);
      std::snprintf(childProgress->what, sizeof childProgress->what, "%s", status == 0 && name ? name : t->name());
    }
  std::abort();
}

[[noreturn]] void child(const std::string &object, bool relocatable, const std::vector<size_t> &entries,
                        const std::vector<TraceOptions> &options, size_t first,
                        int results, int output, TraceProgress *progress, const IsolationLimits &limits,
                        pid_t parent) {
  ::dup2(output, STDOUT_FILENO);
  ::dup2(output, STDERR_FILENO);
  ::close(output);
  // Unbuffered: what the kernel printed before it crashed still arrives.
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  // The parent's death (a kill, a test's time-out) takes the child along.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);
#ifndef TWINTILE_ASAN  // AddressSanitizer reserves terabytes of address space up front
  // On top of what the process already maps (a CUDA context maps tens of GiB).
  unsigned long long pages = 0;
  if (FILE *statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%llu", &pages) != 1) pages = 0;
    std::fclose(statm);
  }
  unsigned long long bytes = pages * static_cast<unsigned long long>(::sysconf(_SC_PAGESIZE)) + limits.memoryBytes;
  rlimit memory{bytes, bytes};
  ::setrlimit(RLIMIT_AS, &memory);
#else
  (void)limits;
#endif
  // exit() in the kernel's code ends the child at once, with its status: no
  // exit-time cleanup of the parent's (leak checks, libraries' handlers).
  ::on_exit([](int status, void *) { std::fflush(nullptr); ::_exit(status); }, nullptr);
  // The faults the kernel's code may cause kill the child with their signal:
  // no handler inherited from the parent (AddressSanitizer's, a host
  // program's) may turn them into something else.
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP}) defaultAction(sig);
  // Except ours, which only notes whose code a fault struck (on a stack of
  // its own: runaway recursion leaves none), then dies of it the same way.
  static char faultStack[64 * 1024];
  stack_t alt{};
  alt.ss_sp = faultStack;
  alt.ss_size = sizeof faultStack;
  if (::sigaltstack(&alt, nullptr) == 0)
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) {
      struct sigaction fault{};
      fault.sa_sigaction = onFault;
      fault.sa_flags = SA_SIGINFO | SA_ONSTACK;
      ::sigaction(sig, &fault, nullptr);
    }
  childObject = object.c_str();
  childProgress = progress;
  setTraceProgress(progress);
  std::set_terminate(onTerminate);
  auto start = Clock::now();
  LoadError loadError;
  HostCode *code = HostCode::load(object, relocatable, loadError);
  if (!code) {
    writeAll(results, Json{{"load_error", loadError.message}, {"ours", loadError.ours}}.dump(
                          -1, ' ', false, Json::error_handler_t::replace) + "\n");
    ::_exit(0);
  }
  writeAll(results, Json{{"loaded", std::chrono::duration<double>(Clock::now() - start).count()}}.dump() + "\n");
  for (size_t i = first; i < options.size(); ++i) {
    HostCode::Entry entry = code->entry(entries[i]);
    if (!entry) {
      // Not the kernel's fault: twintile compiled the entry points itself.
      TraceResult r;
      r.error = twintile::ir::Diagnostic::internalError("the compiled kernel has no entry point " +
                                                        traceEntrySymbol(entries[i]));
      writeAll(results, record(i, r));
      continue;
    }
    progress->line = progress->col = 0;  // a crash before any operation says so, not the last spec's
    progress->file[0] = progress->what[0] = '\0';
    // What follows on the output pipe is specs[i]'s (splitOutput).
    std::string mark = kMark + std::to_string(i) + kMark;
    std::fflush(nullptr);
    writeAll(STDOUT_FILENO, mark);
    TraceResult r;
    entry(&options[i], &r);
    writeAll(results, record(i, r));
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  ::_exit(0);
}

std::string signalName(int sig) {
  switch (sig) {
  case SIGSEGV: return "SIGSEGV (a bad memory access: a null or dangling pointer, or runaway recursion)";
  case SIGBUS: return "SIGBUS (a bad memory access)";
  case SIGFPE: return "SIGFPE (an arithmetic error: an integer division by zero?)";
  case SIGILL: return "SIGILL (an illegal instruction: a function that does not return its value?)";
  case SIGABRT: return "SIGABRT (abort)";
  case SIGKILL: return "SIGKILL (killed: out of memory?)";
  default: return "signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
}

/// What killed the child, as the user should read it.
std::string causeOf(int status, bool timedOut, const TraceProgress &progress, const IsolationLimits &limits) {
  if (timedOut) {
    char s[32];
    std::snprintf(s, sizeof s, "%g", limits.seconds);
    return std::string("ran longer than ") + s + " s (an endless loop in the kernel's host code?)";
  }
  if (progress.what[0]) return std::string("threw an exception of type '") + progress.what + "' that nothing caught";
  if (WIFSIGNALED(status)) return "crashed with " + signalName(WTERMSIG(status));
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status)) + " (the kernel's host code called exit?)";
  return "stopped for an unknown reason";
}

} // namespace

std::vector<IsolatedTrace> traceIsolated(const std::string &object, bool relocatable,
                                         const std::vector<std::string> &specs, const std::vector<size_t> &entries,
                                         const std::vector<TraceOptions> &options, const IsolationLimits &limits,
                                         LoadError &loadError, double &loadSeconds) {
  std::vector<IsolatedTrace> out(specs.size());
  // Whatever the child's loader needs of LLVM, set up before the fork: a
  // thread of this process inside that set-up when it forked would leave
  // the child waiting for it for ever.
  twintile::support::registerLlvmTargets();
  for (size_t next = 0; next < specs.size();) {
    void *shared = ::mmap(nullptr, sizeof(TraceProgress), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int results[2] = {-1, -1}, output[2] = {-1, -1};
    if (shared == MAP_FAILED || ::pipe2(results, O_CLOEXEC) != 0 || ::pipe2(output, O_CLOEXEC) != 0) {
      for (int fd : {results[0], results[1], output[0], output[1]})
        if (fd >= 0) ::close(fd);
      if (shared != MAP_FAILED) ::munmap(shared, sizeof(TraceProgress));
      for (size_t i = next; i < specs.size(); ++i)
        out[i].trace.error = twintile::ir::Diagnostic{{}, std::string("cannot start the tracing process: ") + std::strerror(errno)};
      return out;
    }
    auto *progress = new (shared) TraceProgress();
    // Nothing buffered here may be written again by the child.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    pid_t parent = ::getpid();
    pid_t pid = ::fork();
    if (pid == 0) {
      ::close(results[0]);
      ::close(output[0]);
      child(object, relocatable, entries, options, next, results[1], output[1], progress, limits, parent);
    }
    ::close(results[1]);
    ::close(output[1]);
    std::string lines, printed;
    bool timedOut = false;
    if (pid < 0) {
      ::close(results[0]);
      ::close(output[0]);
      for (size_t i = next; i < specs.size(); ++i)
        out[i].trace.error = twintile::ir::Diagnostic{{}, std::string("cannot start the tracing process: ") + std::strerror(errno)};
      ::munmap(shared, sizeof(TraceProgress));
      return out;
    }
    auto limit = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(std::clamp(limits.seconds, 0.001, 1e6)));
    auto deadline = Clock::now() + limit;
    pollfd fds[2] = {{results[0], POLLIN, 0}, {output[0], POLLIN, 0}};
    std::string *sinks[2] = {&lines, &printed};
    int open = 2;
    while (open > 0) {
      long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (ms <= 0) {
        ::kill(pid, SIGKILL);
        timedOut = true;
        break;
      }
      int n = ::poll(fds, 2, static_cast<int>(std::min<long long>(ms, 1 << 30)));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        ::kill(pid, SIGKILL);
        break;
      }
      for (int k = 0; k < 2; ++k) {
        if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        char buf[65536];
        ssize_t got = ::read(fds[k].fd, buf, sizeof buf);
        if (got > 0 && k == 0) deadline = Clock::now() + limit;  // the time limit is per specialization
        if (got > 0) {
          // A kernel that prints without end is cut off, not stored without bound.
          if (sinks[k] == &lines || printed.size() < (1u << 20)) sinks[k]->append(buf, static_cast<size_t>(got));
        } else if (got == 0 || errno != EINTR) {
          ::close(fds[k].fd);
          fds[k].fd = -1;
          --open;
        }
      }
    }
    for (pollfd &f : fds)
      if (f.fd >= 0) ::close(f.fd);
    int status = 0;
    // A child that closed its pipes but lives on is given until the
    // deadline, then killed: the parent never waits without bound.
    for (;;) {
      pid_t done = ::waitpid(pid, &status, WNOHANG);
      if (done == pid || (done < 0 && errno != EINTR)) break;
      if (done == 0 && Clock::now() >= deadline) {
        ::kill(pid, SIGKILL);
        timedOut = true;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        break;
      }
      if (done == 0) ::usleep(1000);
    }

    size_t done = next;
    size_t at = 0;
    for (size_t nl; (nl = lines.find('\n', at)) != std::string::npos; at = nl + 1) {
      Json j = Json::parse(lines.substr(at, nl - at), nullptr, false);
      if (!j.is_discarded() && j.contains("load_error")) {
        loadError.message = j["load_error"].is_string() ? j["load_error"].get<std::string>() : "unknown";
        loadError.ours = j.value("ours", true);
        ::munmap(shared, sizeof(TraceProgress));
        return out;
      }
      if (!j.is_discarded() && j.contains("loaded") && j["loaded"].is_number()) loadSeconds += j["loaded"].get<double>();
      if (j.is_discarded() || !j.contains("i")) continue;
      size_t i = j["i"].get<size_t>();
      if (i < next || i >= specs.size()) continue;
      out[i].trace = fromRecord(j);
      done = i + 1;
    }
    splitOutput(printed, next, out);
    if (done < specs.size() && (done == next || timedOut || !WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
      // The child died tracing specs[done]: say how, where the trace last was.
      twintile::ir::Diagnostic d;
      if (progress->line > 0) d.loc = twintile::ir::Location(progress->file, progress->line, progress->col);
      d.message = "tracing '" + specs[done] + "' " + causeOf(status, timedOut, *progress, limits) +
                  (progress->line > 0 ? "; the last operation it traced is here" : " before tracing any operation");
      // A fault in the tracer's own code is ours, whatever the kernel did.
      if (!timedOut && WIFSIGNALED(status) && progress->fault == TraceProgress::Fault::Twintile) {
        int demangled = 0;
        char *name = abi::__cxa_demangle(progress->faultSymbol, nullptr, nullptr, &demangled);
        std::string where = demangled == 0 && name ? name : progress->faultSymbol;
        std::free(name);
        d.message = "tracing '" + specs[done] + "' crashed with " + signalName(WTERMSIG(status)) +
                    " in twintile's tracer" + (where.empty() ? "" : " (" + where + ")") +
                    (progress->line > 0 ? ", after the operation here" : ", before tracing any operation");
        d.internal = true;
      }
      out[done].trace.error = std::move(d);
      ++done;
    }
    ::munmap(shared, sizeof(TraceProgress));
    next = done;
  }
  return out;
}

} // namespace twintile
