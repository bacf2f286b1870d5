//===- Watchdog.h - limits on work that cannot be stopped part-way -------===//
//
// Clang cannot be interrupted: a kernel file whose macros expand to 2^40
// tokens keeps it busy for hours, its memory growing by a gigabyte every
// few seconds, from a file of forty lines. Abandoning its frames from
// outside (a signal) may leave a lock held - malloc's, mid-allocation - and
// the process hung, so the one safe end is the process's own: a watch still
// open when its time is up, or while the process holds more memory than it
// allows, writes its message to standard error and exits with status 1,
// running nothing of the process's (no destructor, no atexit, no malloc).
// Only a program that is itself one compile (the driver) opens a watch; a
// program that embeds the compiler is never ended by one (CompileRequest.h).
//===----------------------------------------------------------------------===//
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

namespace twintile::support {

class Watchdog {
public:
  /// Watches from now, ten times a second: past `seconds` it ends the
  /// process with `overTime`, above `bytes` of resident memory with
  /// `overMemory`. A limit of 0 is none.
  Watchdog(double seconds, size_t bytes, std::string overTime, std::string overMemory);
  /// Closes the watch: the work ended within its limits.
  ~Watchdog();
  Watchdog(const Watchdog &) = delete;
  Watchdog &operator=(const Watchdog &) = delete;

private:
  std::string overTime_, overMemory_;
  std::mutex mutex_;
  std::condition_variable closed_;
  bool done_ = false;
  std::thread thread_;
};

/// This process's resident memory in bytes (0 where it cannot be read),
/// read without allocating.
size_t residentBytes();

} // namespace twintile::support
