//===- HostCompile.h - a kernel file compiled for tracing inside twintile ===//
//
// The tracing front end runs a kernel file's code, so the file must first
// be compiled for the host. By default that happens here, in the twintile
// process: Clang (from the language's precompiled header, LanguageHeader.h)
// makes an LLVM module of the file and its entry points, and LLVM's host
// code generator makes a relocatable object of it, which ORC's JIT linker
// loads into the process that runs it (HostLoad.h) - a child process, where
// the kernel's code cannot take twintile down (Isolate.h). The other way,
// a `clang++` process making a shared object, stays selectable
// (TraceHost::ClangProcess), so the two can be measured against each other.
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/clang/KernelDecl.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace twintile {

/// The header every compile of a kernel file for tracing includes before
/// the file (the entry points' templates): a language file, under
/// languageRoot() (LanguageFiles.h).
inline constexpr const char *kEntryHeader = "frontends/trace/Entry.h";

/// What Clang's AST says of entry point i's specialization: the kernel's
/// signature, or why the spec does not name a kernel (then nothing of the
/// file may run for it).
struct EntrySignature {
  KernelSignature kernel;
  std::string notAKernel;
  /// Its first parameter of a host type or a Tile (then Entry.h refuses to
  /// compile it), located; not carried in objects, which such a file never makes.
  std::optional<ir::Diagnostic> hostParameter;
};

/// A file a compile read, and the hash (support::ContentHash) of the text
/// Clang read from it: what a cached result depends on, as it was when read.
struct InputFile {
  std::string path;  // as Clang named it
  std::string hash;
};

struct HostCompileResult {
  bool ok = false;
  std::string object;       // the relocatable object, when ok
  std::string diagnostics;  // Clang's, as clang++ prints them
  std::string internal;     // when the host's code generator failed (twintile's fault, not the file's)
  std::vector<std::string> notes;  // the precompiled header's cache
  /// What Clang's AST said, also when the file did not compile (as far as
  /// Clang got): each entry point's signature, the kernels the file declares.
  std::vector<EntrySignature> entries;
  std::vector<DeclaredKernel> kernels;
  /// The files Clang read (the source's includes, as it named them).
  std::vector<InputFile> inputs;
  double seconds = 0;       // Clang and the code generator
  double codegenSeconds = 0;  // of which the code generator's
};

/// Given the AST of an in-process host compile that Clang read without an
/// error, before code is generated from it: each entry point's kernel
/// specialization as Clang instantiated it (null where the spec names no
/// kernel). The parse front end walks those, so that one Clang parse serves
/// both front ends (pipeline::compileBoth). The AST lives only during the call.
using InstantiatedKernels = std::function<void(const std::vector<const clang::FunctionDecl *> &)>;

/// Compiles `source`, taken to be the file `path` (which need not exist),
/// with the user's `includeDirs` searched after the language's include
/// directory (so that the parse front end's precompiled header serves), then
/// the tracer's `moreDirs`. The
/// object defines what the source defines, and `twintile_trace_init`, which
/// runs the source's static initializers in their order (what a loader
/// would run): the caller runs it once, before anything else of the object.
/// It also carries, in a section of its own, the signature of each entry
/// point's kernel (twintile_trace_entry_<i> in `source`), read back by
/// entrySignatures without running anything. `read`, when set, is given the
/// entry points' kernels (above).
HostCompileResult compileHostObject(const std::string &path, const std::string &source,
                                    const std::vector<std::string> &includeDirs,
                                    const std::vector<std::string> &moreDirs, const InstantiatedKernels &read = {});

/// The entry points' signatures of `source` (compiled as compileHostObject
/// would), read from Clang's AST without generating code: for a file a
/// clang++ process compiles, so that both host compiles read a kernel the
/// same way.
struct EntryRead {
  bool ok = false;
  std::vector<EntrySignature> entries;
  std::vector<DeclaredKernel> kernels;  // the kernels the file declares
  std::string diagnostics;         // Clang's, when not ok
  std::vector<std::string> notes;  // the precompiled header's cache
  std::vector<InputFile> inputs;  // the files Clang read, as compileHostObject's
  double seconds = 0;
};
EntryRead readEntrySignatures(const std::string &path, const std::string &source,
                              const std::vector<std::string> &includeDirs, const std::vector<std::string> &moreDirs);

/// C++ that defines the section compileHostObject's objects carry `entries`
/// in: appended to the entry file a clang++ process compiles.
std::string signatureDefinition(const std::vector<EntrySignature> &entries);

/// The signatures an object compileHostObject made (or a shared object
/// whose source ends with a signatureDefinition) carries, by entry point;
/// empty, with `error`, when it has none that read.
std::vector<EntrySignature> entrySignatures(const std::string &objectPath, std::string &error);

/// What identifies the in-process compiler in a cache key: Clang's version,
/// the arguments compileHostObject gives it and the object's format.
std::string hostCompilerIdentity(const std::vector<std::string> &includeDirs,
                                 const std::vector<std::string> &moreDirs);

} // namespace twintile
