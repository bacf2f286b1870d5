//===- Watchdog.h - limits on work that cannot be stopped part-way -------===//
//
// Clang cannot be interrupted: a kernel file whose macros expand to 2^40
// tokens keeps it busy for hours, its memory growing by a gigabyte every
// few seconds, from a file of forty lines. Abandoning its frames from
// outside (a signal) may leave a lock held - malloc's, mid-allocation - and
// the process hung, so the one safe end is the process's own: a watch still
// open when its time is up, or while the process holds more memory than it
// allows, removes the scratch files it was given, writes its message to
// standard error (and a report to standard output, where it was given one)
// and exits with status 1 - from its own thread, while the
// work runs on, so running none of the process's destructors or atexit
// handlers, which that work may be using. Only a program that is itself one
// compile (the driver) opens a watch; a program that embeds the compiler is
// never ended by one (pipeline/CompileRequest.h).
//===----------------------------------------------------------------------===//
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace twintile::support {

class Watchdog {
public:
  /// Watches from now, ten times a second: past `seconds` it ends the
  /// process with `overTime`, above `bytes` of resident memory with
  /// `overMemory`. A limit of 0 is none.
  Watchdog(double seconds, size_t bytes, std::string overTime, std::string overMemory);
  /// Closes the watch: the work ended within its limits.
  ~Watchdog();
  /// What the watched work writes at `path` (a directory, or a file) is
  /// removed if the watch ends the process.
  void removeOnEnd(std::filesystem::path path);
  /// If the watch ends the process, it first writes `overTime` or
  /// `overMemory` (as the limit was) to standard output: a report the
  /// process promised (the driver's --json).
  void printOnEnd(std::string overTime, std::string overMemory);
  /// Work between pause() and resume() is not watched: its time does not
  /// count, and its memory is not checked (work of another kind, with
  /// limits of its own, inside the watched work).
  void pause();
  void resume();
  Watchdog(const Watchdog &) = delete;
  Watchdog &operator=(const Watchdog &) = delete;

private:
  [[noreturn]] void end(const std::string &message, const std::string &report);

  std::string overTime_, overMemory_;
  std::string overTimeReport_, overMemoryReport_;
  std::vector<std::filesystem::path> scratch_;
  std::mutex mutex_;
  std::condition_variable closed_;
  bool done_ = false;
  bool paused_ = false;
  std::chrono::steady_clock::time_point deadline_, pausedAt_;
  std::thread thread_;
};

/// This process's resident memory in bytes (0 where it cannot be read),
/// read without allocating.
size_t residentBytes();

} // namespace twintile::support
