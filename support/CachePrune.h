//===- CachePrune.h - keeping the on-disk caches within a size -----------===//
//
// Every compile that misses a cache adds to it (a traced kernel file's host
// object, a specialization's PTX), and an edited kernel file never hits its
// old entries again: left alone, the caches only grow. After each new entry
// a cache directory is brought back under its limit by removing the entries
// used least recently (their modification time, which a hit refreshes),
// ccache's policy. An entry is a file or a directory with its companions
// (`KEY.o` and `KEY.sum`: the name up to its first dot); entries still being
// built (`build-*`, `.tmp-*`) are never removed. A concurrent reader that
// loses an entry finds it missing or damaged, as after any removal, and
// rebuilds it.
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace twintile::support {

/// The environment variable that sets each cache directory's largest size,
/// in MiB; 0 for no limit.
inline constexpr const char *kCacheLimitVariable = "TWINTILE_CACHE_MB";

/// Each cache directory's limit in bytes: 2 GiB, or $TWINTILE_CACHE_MB MiB
/// (0: none, returned as 0). A value that is not a number of MiB is
/// ignored here, and cacheSettingProblem says what is wrong with it.
size_t cacheLimitBytes();

/// What is wrong with $TWINTILE_CACHE_MB, or empty.
std::string cacheSettingProblem();

/// Marks the entry at `path` used now (a hit): the last to be removed.
void touchCacheEntry(const std::filesystem::path &path);

/// When `dir` holds more than `limitBytes` (0: no limit), removes its
/// entries, least recently used first, until it holds 80% of that, keeping
/// the most recent (the one just stored) however large. Returns how many
/// were removed.
size_t pruneCache(const std::filesystem::path &dir, size_t limitBytes);

} // namespace twintile::support
