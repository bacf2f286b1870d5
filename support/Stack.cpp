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

namespace twintile::support {

StackExhausted::StackExhausted(size_t bytes)
    : std::runtime_error("used up its " + std::to_string(bytes >> 20) + " MiB stack"), bytes(bytes) {}

namespace {

constexpr size_t kLeastStackMiB = 16, kMostStackMiB = size_t(1) << 20;

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
/// Where the fault handler runs (the faulting stack has no room left).
constexpr size_t kHandlerStackBytes = size_t(1) << 16;

/// One runOnLargeStack in progress on this thread: where a fault in the
/// guard returns to.
struct Recovery {
  sigjmp_buf back;
  Recovery *outer;
};

thread_local Recovery *innermost = nullptr;
thread_local size_t stackBytes = 0;                  // 0: not on a large stack
thread_local uintptr_t guardLow = 0, guardHigh = 0;  // the faulting range below it

struct sigaction previousSegv, previousBus;

void onFault(int sig, siginfo_t *info, void *context) {
  auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  if (innermost && address >= guardLow && address < guardHigh) siglongjmp(innermost->back, 1);
  // Not a large stack's end: whoever handled the signal before.
  struct sigaction &previous = sig == SIGBUS ? previousBus : previousSegv;
  if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) return previous.sa_sigaction(sig, info, context);
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) return previous.sa_handler(sig);
  // The default action: the fault happens again on return, then kills.
  sigaction(sig, &previous, nullptr);
}

void installHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = onFault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previousSegv);
    sigaction(SIGBUS, &action, &previousBus);
  });
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
  stackBytes = job->bytes;
  // This thread's stack and the guard below it (glibc puts the guard at the
  // low end of the mapping).
  pthread_attr_t attr;
  void *low = nullptr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
  }
  if (low) {
    guardLow = reinterpret_cast<uintptr_t>(low) - 2 * kGuardBytes;
    guardHigh = reinterpret_cast<uintptr_t>(low) + kGuardBytes;
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
  bool started = pthread_attr_setstacksize(&attr, bytes) == 0 && pthread_attr_setguardsize(&attr, kGuardBytes) == 0 &&
                 pthread_create(&thread, &attr, runJob, &job) == 0;
  pthread_attr_destroy(&attr);
  if (!started) return fn();  // no address space for it: the caller's stack will have to do
  pthread_join(thread, nullptr);
  if (job.failure) std::rethrow_exception(job.failure);
  if (job.exhausted) throw StackExhausted(bytes);
}

} // namespace twintile::support
