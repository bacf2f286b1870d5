//===- HostObject.h - a kernel file compiled for tracing, cached, verified -===//
//
// The tracer runs a kernel file by compiling it for the host, with one entry
// point per requested specialization (twintile_trace_entry_<i>): in process
// into a relocatable object (HostCompile.h), or by clang++ into a shared
// object. The object is cached by the content hash of
// everything that goes into it, and checked before every use against a
// record written beside it (its key, size and content hash): a damaged,
// truncated or swapped object is rebuilt, with a note, never loaded. A cache
// directory that cannot be written is not an error: the object is built in
// a private temporary directory instead, with a note.
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/clang/KernelDecl.h"

#include <string>
#include <vector>

namespace twintile {

struct SourceTraceOptions;

struct HostObject {
  std::string path;         // the compiled file to load (HostLoad.h)
  bool relocatable = false; // an object file for the JIT linker, not a shared object
  std::string entrySource;  // the entry points compiled with the kernel file
  bool cacheHit = false;
  double compileSeconds = 0;
  double codegenSeconds = 0;  // of which the host code generator's (in process only)
  std::vector<std::string> notes;  // a damaged entry rebuilt, the cache bypassed
  std::string error;        // the host compiler's complaint, or why it could not run
  bool internal = false;    // the error is twintile's (its code generator failed), not the file's
  bool compileFailed = false;  // the error is the compiler's verdict on the file (else: it could not run, or write)
  std::string scratch;      // a private directory holding `path` (the cache was unwritable): remove it after use
  std::string compilerOutput;  // when the compiler rejected the file: its diagnostics, as it printed them,
                               // without the lines about the generated entry file
  std::vector<DeclaredKernel> kernels;  // then, the kernels the file declares (Clang's AST, as far as it got)
};

/// The compiled file tracing `specs` of the kernel file at `kernelPath`
/// (whose text is `source`). `rebuild` ignores a cached object.
HostObject buildHostObject(const std::string &kernelPath, const std::string &source,
                           const std::vector<std::string> &specs, const SourceTraceOptions &opts, bool rebuild = false);

} // namespace twintile
