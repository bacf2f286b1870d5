//===- Watchdog.cpp - limits on work that cannot be stopped part-way -----===//
#include "support/Watchdog.h"

#include <chrono>

#include <fcntl.h>
#include <unistd.h>

namespace twintile::support {

size_t residentBytes() {
  // /proc/self/statm: sizes in pages, the second resident.
  int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[128];
  ssize_t n = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (n <= 0) return 0;
  text[n] = '\0';
  const char *p = text;
  while (*p && *p != ' ') ++p;
  size_t pages = 0;
  for (++p; *p >= '0' && *p <= '9'; ++p) pages = pages * 10 + static_cast<size_t>(*p - '0');
  return pages * static_cast<size_t>(::sysconf(_SC_PAGESIZE));
}

Watchdog::Watchdog(double seconds, size_t bytes, std::string overTime, std::string overMemory)
    : overTime_(std::move(overTime)), overMemory_(std::move(overMemory)) {
  bool timed = seconds > 0;
  if (!timed && bytes == 0) return;
  deadline_ = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                    std::chrono::duration<double>(timed ? seconds : 0));
  thread_ = std::thread([this, timed, bytes] {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (closed_.wait_for(lock, std::chrono::milliseconds(100), [this] { return done_; })) return;
      if (paused_) continue;
      if (timed && std::chrono::steady_clock::now() >= deadline_) end(overTime_, overTimeReport_);
      if (bytes && residentBytes() > bytes) end(overMemory_, overMemoryReport_);
    }
  });
}

void Watchdog::removeOnEnd(std::filesystem::path path) {
  std::lock_guard<std::mutex> lock(mutex_);
  scratch_.push_back(std::move(path));
}

void Watchdog::pause() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (paused_) return;
  paused_ = true;
  pausedAt_ = std::chrono::steady_clock::now();
}

void Watchdog::resume() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!paused_) return;
  paused_ = false;
  deadline_ += std::chrono::steady_clock::now() - pausedAt_;
}

void Watchdog::printOnEnd(std::string overTime, std::string overMemory) {
  std::lock_guard<std::mutex> lock(mutex_);
  overTimeReport_ = std::move(overTime);
  overMemoryReport_ = std::move(overMemory);
}

namespace {

/// All of `text` to `fd`, as far as it takes it.
void writeAll(int fd, const std::string &text) {
  const char *p = text.data();
  size_t left = text.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n <= 0) break;
    p += n;
    left -= static_cast<size_t>(n);
  }
}

} // namespace

/// Called with mutex_ held, on the watch's thread.
void Watchdog::end(const std::string &message, const std::string &report) {
  for (const std::filesystem::path &p : scratch_) {
    std::error_code ec;
    std::filesystem::remove_all(p, ec);
  }
  writeAll(STDERR_FILENO, message);
  writeAll(STDOUT_FILENO, report);
  ::_exit(1);
}

Watchdog::~Watchdog() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  closed_.notify_one();
  thread_.join();
}

} // namespace twintile::support
