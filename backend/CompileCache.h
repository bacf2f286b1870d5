//===- CompileCache.h - compiled kernels on disk, keyed by content -------===//
//
// An entry is a directory named by the key (a hash over the canonical IR
// text, target, options and compiler version) holding the PTX, the manifest,
// the LLVM IR, the cubin and the ptxas report. Entries are written to a
// temporary directory and renamed into place, so readers never see half an
// entry; each file's size and hash are recorded in an index, so a corrupt or
// truncated entry is detected, dropped and rebuilt.
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/Backend.h"

#include <filesystem>
#include <optional>
#include <string>

namespace twintile::backend {

class CompileCache {
public:
  /// The cache under `root` (empty: twintile's cacheDirectory("backend")).
  explicit CompileCache(const std::string &root = {});

  /// The entry for `key`, if present and intact. A damaged entry is removed,
  /// and `damaged` (when given) says what was wrong with it.
  std::optional<CompileResult> lookup(const std::string &key, std::string *damaged = nullptr) const;
  /// Stores `result` under `key` atomically; failures to write are ignored
  /// (the cache is an optimization), but never leave a partial entry.
  void store(const std::string &key, const CompileResult &result) const;

  const std::filesystem::path &directory() const { return dir_; }

private:
  std::filesystem::path dir_;
};

/// The cache key: a content hash (support/Cache.h) of the IR printed without locations, arch, num_warps,
/// num_stages, assumptions, the libdevice and the ptxas it would use (path, size, time), math and
/// compilerVersion().
std::string compileKey(const ir::Func &func, const CompileOptions &options);

} // namespace twintile::backend
