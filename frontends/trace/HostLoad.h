//===- HostLoad.h - a kernel file's compiled code, loaded to be run -------===//
//
// A kernel file compiled for tracing (HostObject.h) is one of two things: a
// shared object that clang++ linked, which dlopen() loads, or a relocatable
// object compiled in process (HostCompile.h), which ORC's JIT linker loads.
// Either way its calls into the tracer and the C++ runtime bind to the
// process that loads it, its static initializers run before anything else,
// and it stays loaded for the life of that process. Loaded in the child that
// traces (Isolate.h), which ends with _exit: the file's static destructors
// never run there; or in twintile itself when isolation is off, where they
// run at twintile's exit.
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string>

namespace twintile {

/// The symbols twintile generates into a compiled kernel file.
inline constexpr const char *kTraceEntryPrefix = "twintile_trace_entry_";  // + the specialization's index
inline constexpr const char *kTraceInitSymbol = "twintile_trace_init";     // its static initializers (JIT only)
inline std::string traceEntrySymbol(size_t i) { return kTraceEntryPrefix + std::to_string(i); }

/// Why a compiled kernel file did not load.
struct LoadError {
  std::string message;
  /// twintile's fault (its generated code, its linker, a symbol of its own),
  /// not the file's (a function the file uses that nothing defines).
  bool ours = false;
  bool any() const { return !message.empty(); }
};

class HostCode {
public:
  /// twintile_trace_entry_<i>: traces specialization i.
  using Entry = void (*)(const void *options, void *result);

  virtual ~HostCode() = default;
  /// The compiled kernel at `path` (`relocatable`: an object file for the
  /// JIT linker; otherwise a shared object), loaded once per process and
  /// path. Null, with `error`, when it does not load.
  static HostCode *load(const std::string &path, bool relocatable, LoadError &error);
  /// Entry point i, or null when the object has none.
  virtual Entry entry(size_t i) = 0;
};

} // namespace twintile
