//===- CachePrune.h - keeping the on-disk caches within a size -----------===//
//
// Every compile that misses a cache adds to it (a traced kernel file's host
// object, a specialization's PTX), and an edited kernel file never hits its
// old entries again: left alone, the caches only grow. After a store, a
// cache directory is brought back under its limit by removing the entries
// used least recently (their modification time, which a hit refreshes),
// ccache's policy, at most once a minute (`.last-scan` says when; a scan
// stats every entry, and within the minute a directory may pass its limit
// by what was stored). An entry
// is what a cache names by a key of hex digits: a directory, or files that
// share the key (`KEY.o` and `KEY.sum`); sizes are disk blocks. Nothing else
// in the directory is counted or removed, except scratch directories
// (`build-*`, `.tmp-*`) over a day old, left by a process that died. A
// concurrent reader that loses an entry finds it missing, as after any
// removal, and rebuilds it. The precompiled-header and libdevice caches,
// one entry per Clang or CUDA version, are not pruned.
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Environment.h"

#include <cstddef>
#include <filesystem>
#include <string>

namespace twintile::support {

/// The environment variable that sets each cache directory's largest size,
/// in MiB; 0 for no limit.
inline constexpr const char *kCacheLimitVariable = envName(Env::CacheMB);

/// Each cache directory's limit in bytes: 2 GiB, or $TWINTILE_CACHE_MB MiB
/// (0: none, returned as 0). A value that is not a number of MiB is
/// ignored here, and cacheSettingProblem says what is wrong with it.
size_t cacheLimitBytes();

/// What is wrong with $TWINTILE_CACHE_MB, or empty.
std::string cacheSettingProblem();

/// Marks the entry `path` belongs to used now (a hit): the last to be
/// removed. (The trace cache touches an object's record, not the object,
/// whose time the JIT loader's cache of loaded objects keys on.)
void touchCacheEntry(const std::filesystem::path &path);

/// When `dir` holds more than `limitBytes` (0: no limit), removes its
/// entries, least recently used first, until it holds 80% of that, never
/// the entry of key `keep` (the one just stored), however large; and
/// scratch directories over a day old. Returns how many entries it removed.
size_t pruneCache(const std::filesystem::path &dir, size_t limitBytes, const std::string &keep = {});

/// After storing the entry `stored` in `dir`: pruneCache with
/// cacheLimitBytes(), unless `dir` was scanned less than a minute ago.
void pruneAfterStore(const std::filesystem::path &dir, const std::string &stored);

} // namespace twintile::support
