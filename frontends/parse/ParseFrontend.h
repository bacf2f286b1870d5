//===- ParseFrontend.h - the parsing front end: read a kernel, emit IR ---===//
//
// Parses a kernel file with Clang 19 in-process, instantiates the requested
// specializations (an appended `&kernel<args>` per specialization is enough
// for Sema), and walks each instantiated body to tile IR: calls to the
// language become ops (recorded by the same Recorder the tracer uses),
// helpers are inlined, host code is evaluated at compile time, and native
// device control flow becomes structured IR. One parse serves many
// specializations.
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/clang/KernelDecl.h"
#include "frontends/common/Recorder.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace twintile {

struct ParseOptions {
  std::vector<std::string> includeDirs;  // besides the language header's
  int numWarps = ir::kDefaultNumWarps;
};

/// One parse of a kernel file, instantiated for a list of specializations.
class ParsedFile {
public:
  ~ParsedFile();
  ParsedFile(const ParsedFile &) = delete;
  ParsedFile &operator=(const ParsedFile &) = delete;

  /// Parses `file` once, instantiating every specialization in `specs`
  /// ("softmax<f16, 1024>", or a plain name). Clang's own errors make the
  /// parse fail; they are in error() as Clang printed them.
  static std::unique_ptr<ParsedFile> parse(const std::string &file, const std::vector<std::string> &specs,
                                           const ParseOptions &opts = {});

  bool ok() const;
  /// Clang's diagnostics, as Clang prints them (file:line:col: error: ...,
  /// the line, a caret), when the file does not compile.
  const std::string &error() const;
  double parseSeconds() const;
  /// What the parse has to say besides errors: a cached precompiled header
  /// that was damaged and rebuilt, a cache that could not keep one.
  const std::vector<std::string> &notes() const;
  /// The kernels the file declares, as Clang read it (also when it does not
  /// compile, as far as Clang got).
  const std::vector<DeclaredKernel> &kernels() const;

  /// The files the parse read, absolute and sorted: the kernel file and
  /// every file it includes, the language's own aside (twintile carries
  /// those). What a build's dependency file lists (`twintile library`).
  std::vector<std::string> inputFiles() const;

  /// Walks one of the parsed specializations to tile IR.
  FrontendResult walk(const std::string &spec) const;

  /// The specialization as Clang instantiated it (null, with `why`, where it
  /// names none of the parsed kernels): what the hybrid front end rewrites.
  /// Lives as long as this ParsedFile.
  const clang::FunctionDecl *instantiated(const std::string &spec, std::string &why) const;

  /// The specialization's body as Clang instantiated it (template arguments
  /// substituted), printed back as C++: the `source` stage of a dump.
  std::string instantiatedSource(const std::string &spec) const;

  struct Impl;

private:
  explicit ParsedFile(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Walks a kernel specialization Clang instantiated in another compile of
/// its file (the tracing front end's, HostCompile.h): what ParsedFile::walk
/// does once it has found the kernel, timed.
FrontendResult walkInstantiated(const clang::FunctionDecl &kernel, const ParseOptions &opts = {});

/// The specialization `spec`'s body as Clang instantiated it in `kernel`,
/// printed back as C++ (ParsedFile::instantiatedSource).
std::string instantiatedSource(const clang::FunctionDecl &kernel, const std::string &spec);

/// Parses and walks one specialization; Clang's errors become the result's error.
FrontendResult parseKernel(const std::string &file, const std::string &spec, const ParseOptions &opts = {});

} // namespace twintile
