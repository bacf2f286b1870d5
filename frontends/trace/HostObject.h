//===- HostObject.h - a kernel file compiled for tracing, cached, verified -===//
//
// The tracer runs a kernel file by compiling it with the host compiler into
// a shared object, with one entry point per requested specialization
// (twintile_trace_entry_<i>). The object is cached by the content hash of
// everything that goes into it, and checked before every use against a
// record written beside it (its key, size and content hash): a damaged,
// truncated or swapped object is rebuilt, with a note, never loaded. A cache
// directory that cannot be written is not an error: the object is built in
// a private temporary directory instead, with a note.
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace twintile {

struct SourceTraceOptions;

struct HostObject {
  std::string path;         // the shared object to load
  std::string entrySource;  // the entry points compiled with the kernel file
  bool cacheHit = false;
  double compileSeconds = 0;
  std::vector<std::string> notes;  // a damaged entry rebuilt, the cache bypassed
  std::string error;        // the host compiler's complaint, or why it could not run
  std::string scratch;      // a private directory holding `path` (the cache was unwritable): remove it after use
  std::string compilerOutput;  // when the compiler rejected the file: its diagnostics, as it printed them,
                               // without the lines about the generated entry file
};

/// The shared object tracing `specs` of the kernel file at `kernelPath`
/// (whose text is `source`). `rebuild` ignores a cached object.
HostObject buildHostObject(const std::string &kernelPath, const std::string &source,
                           const std::vector<std::string> &specs, const SourceTraceOptions &opts, bool rebuild = false);

} // namespace twintile
