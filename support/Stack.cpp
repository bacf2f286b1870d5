#include "support/Stack.h"

#include <exception>
#include <stdexcept>
#include <string>

#include <pthread.h>

namespace twintile::support {

namespace {

thread_local bool onLargeStack = false;

struct Job {
  const std::function<void()> *fn;
  std::exception_ptr failure;
};

void *runJob(void *p) {
  auto *job = static_cast<Job *>(p);
  onLargeStack = true;
  try {
    (*job->fn)();
  } catch (...) {
    job->failure = std::current_exception();
  }
  return nullptr;
}

} // namespace

void runOnLargeStack(const std::function<void()> &fn, size_t bytes) {
  if (onLargeStack) return fn();
  Job job{&fn, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_t thread;
  bool started = pthread_attr_setstacksize(&attr, bytes) == 0 && pthread_create(&thread, &attr, runJob, &job) == 0;
  pthread_attr_destroy(&attr);
  if (!started) return fn();  // no address space for it: the caller's stack will have to do
  pthread_join(thread, nullptr);
  if (job.failure) std::rethrow_exception(job.failure);
}

} // namespace twintile::support
