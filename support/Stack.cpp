#include "support/Stack.h"

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>

namespace twintile::support {

StackExhausted::StackExhausted(size_t bytes)
    : std::runtime_error("used up its " + std::to_string(bytes >> 20) + " MiB stack"), bytes(bytes) {}

StackUnavailable::StackUnavailable(size_t bytes, int error)
    : std::runtime_error("cannot start a thread with a " + std::to_string(bytes >> 20) + " MiB stack (" +
                         std::strerror(error) + ")"),
      bytes(bytes) {}

namespace {

constexpr size_t kLeastStackMiB = 16, kMostStackMiB = size_t(1) << 16;

/// $TWINTILE_STACK_MB's value: 0 when unset, SIZE_MAX when not a size it takes.
size_t stackSetting() {
  const char *text = std::getenv(kStackVariable);
  if (!text || !*text) return 0;
  size_t n = 0;
  auto [end, ec] = std::from_chars(text, text + std::strlen(text), n);
  return ec == std::errc() && !*end && n >= kLeastStackMiB && n <= kMostStackMiB ? n : SIZE_MAX;
}

} // namespace

size_t compileStackBytes() {
  size_t mib = stackSetting();
  return (mib == 0 || mib == SIZE_MAX ? 1024 : mib) << 20;
}

std::string stackSettingProblem() {
  if (stackSetting() != SIZE_MAX) return {};
  return std::string(kStackVariable) + " is '" + std::getenv(kStackVariable) + "': it is the stack of each compile, in MiB (" +
         std::to_string(kLeastStackMiB) + " to " + std::to_string(kMostStackMiB) + ")";
}

namespace {

/// Below each large stack, pages that fault: a frame larger than this could
/// step over them into other memory.
constexpr size_t kGuardBytes = size_t(1) << 20;
/// Where the fault handler runs (the faulting stack has no room left): as
/// much as LLVM wants for its own handlers, so that it keeps this one.
constexpr size_t kHandlerStackBytes = size_t(1) << 18;
/// How far above the stack's end the interrupted stack pointer may be when
/// the fault is an overflow (a frame's locals are written below it).
constexpr size_t kFrameSlack = size_t(1) << 16;

/// One runOnLargeStack in progress on this thread: where a fault in the
/// guard returns to.
struct Recovery {
  sigjmp_buf back;
  Recovery *outer;
};

// Read by the fault handler: initial-exec, so that reading them never
// allocates.
[[gnu::tls_model("initial-exec")]] thread_local Recovery *innermost = nullptr;
[[gnu::tls_model("initial-exec")]] thread_local size_t stackBytes = 0;  // 0: not on a large stack
[[gnu::tls_model("initial-exec")]] thread_local uintptr_t stackLow = 0, guardLow = 0;

struct sigaction previousSegv, previousBus;

/// The interrupted stack pointer.
uintptr_t stackPointer(void *context) {
  auto *uc = static_cast<ucontext_t *>(context);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.sp);
#else
  (void)uc;
  return 0;  // unknown: never taken for an overflow
#endif
}

/// A fault of this thread's stack running into its guard: the faulting
/// address in the guard, the stack pointer at the stack's end, and a fault
/// the hardware raised (not one sent with kill).
bool overflow(const siginfo_t *info, void *context) {
  if (!innermost || !stackLow || info->si_code <= 0) return false;
  auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  uintptr_t sp = stackPointer(context);
  return address >= guardLow && address < stackLow && sp >= guardLow && sp < stackLow + kFrameSlack;
}

void onFault(int sig, siginfo_t *info, void *context) {
  if (overflow(info, context)) siglongjmp(innermost->back, 1);
  // Not a large stack's end: whoever handled the signal before.
  struct sigaction &previous = sig == SIGBUS ? previousBus : previousSegv;
  if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) return previous.sa_sigaction(sig, info, context);
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) return previous.sa_handler(sig);
  // The default action: the fault happens again on return, then kills.
  sigaction(sig, &previous, nullptr);
}

/// Puts onFault first for SIGSEGV and SIGBUS: once, keeping what was there
/// to pass other faults on to; again wherever another handler took its
/// place since (LLVM's, when Clang writes a file). That one is not chained:
/// LLVM's handler, on a fault, restores the one it displaced (this) and
/// returns, which would loop.
void installHandler() {
  static std::mutex installing;
  static bool saved = false;
  std::lock_guard<std::mutex> lock(installing);
  struct sigaction action {};
  action.sa_sigaction = onFault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS}) {
    struct sigaction current {};
    sigaction(sig, nullptr, &current);
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == onFault) continue;
    sigaction(sig, &action, saved ? nullptr : (sig == SIGBUS ? &previousBus : &previousSegv));
  }
  saved = true;
}

/// Runs `fn` where a fault in this thread's guard returns: true if it did.
bool runRecoverably(const std::function<void()> &fn) {
  Recovery here;
  here.outer = innermost;
  if (sigsetjmp(here.back, /*savesigs=*/1)) {
    innermost = here.outer;
    return true;
  }
  innermost = &here;
  try {
    fn();
  } catch (...) {
    innermost = here.outer;
    throw;
  }
  innermost = here.outer;
  return false;
}

struct Job {
  const std::function<void()> *fn;
  size_t bytes;
  bool exhausted = false;
  std::exception_ptr failure;
};

void *runJob(void *p) {
  auto *job = static_cast<Job *>(p);
  // This thread's stack and the guard below it: glibc reports the usable
  // stack, and puts the guard just below it.
  pthread_attr_t attr;
  void *low = nullptr;
  size_t size = 0, guard = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_getguardsize(&attr, &guard);
    pthread_attr_destroy(&attr);
  }
  stackBytes = job->bytes;
  if (low && guard) {
    stackLow = reinterpret_cast<uintptr_t>(low);
    guardLow = stackLow - guard;
  }
  // The handler's own stack, and whatever this thread had before put back
  // at the end (AddressSanitizer unmaps its own at a thread's exit).
  void *handlerStack = mmap(nullptr, kHandlerStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  stack_t mine{}, before{};
  bool alternate = false;
  if (handlerStack != MAP_FAILED) {
    mine.ss_sp = handlerStack;
    mine.ss_size = kHandlerStackBytes;
    alternate = sigaltstack(&mine, &before) == 0;
  }
  try {
    job->exhausted = runRecoverably(*job->fn);
  } catch (...) {
    job->failure = std::current_exception();
  }
  if (alternate) sigaltstack(&before, nullptr);
  if (handlerStack != MAP_FAILED) munmap(handlerStack, kHandlerStackBytes);
  return nullptr;
}

} // namespace

void runOnLargeStack(const std::function<void()> &fn, size_t bytes) {
  installHandler();
  if (stackBytes) {
    if (runRecoverably(fn)) throw StackExhausted(stackBytes);
    return;
  }
  Job job{&fn, bytes, false, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_t thread;
  int error = pthread_attr_setstacksize(&attr, bytes);
  if (!error) error = pthread_attr_setguardsize(&attr, kGuardBytes);
  if (!error) error = pthread_create(&thread, &attr, runJob, &job);
  pthread_attr_destroy(&attr);
  // Not on the caller's stack instead: there nothing would catch an overflow.
  if (error) throw StackUnavailable(bytes, error);
  pthread_join(thread, nullptr);
  if (job.failure) std::rethrow_exception(job.failure);
  if (job.exhausted) throw StackExhausted(bytes);
}

} // namespace twintile::support
