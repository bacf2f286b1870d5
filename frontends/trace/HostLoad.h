//===- HostLoad.h - a kernel file's compiled code, loaded to be run -------===//
//
// A kernel file compiled for tracing (HostObject.h) is one of two things: a
// shared object that clang++ linked, which dlopen() loads, or a relocatable
// object compiled in process (HostCompile.h), which ORC's JIT linker loads.
// Either way its calls into the tracer and the C++ runtime bind to the
// process that loads it, its static initializers run before anything else,
// and it stays loaded for the life of that process: its static objects'
// destructors run at exit. Loaded in the child that traces (Isolate.h), or
// in twintile itself when isolation is off.
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace twintile {

class HostCode {
public:
  /// twintile_trace_entry_<i>: traces specialization i.
  using Entry = void (*)(const void *options, void *result);

  virtual ~HostCode() = default;
  /// Loads the compiled kernel at `path` (`relocatable`: an object file for
  /// the JIT linker; otherwise a shared object). Null, with `error`, when it
  /// does not load.
  static HostCode *load(const std::string &path, bool relocatable, std::string &error);
  /// Entry point i, or null when the object has none.
  virtual Entry entry(size_t i) = 0;
};

} // namespace twintile
