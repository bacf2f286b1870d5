//===- CachePrune.cpp - keeping the on-disk caches within a size ---------===//
#include "support/CachePrune.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;

namespace twintile::support {

namespace {

constexpr size_t kDefaultMiB = 2048, kMostMiB = size_t(1) << 30;

/// $TWINTILE_CACHE_MB: the default when unset, SIZE_MAX when not a number of MiB.
size_t cacheSetting() {
  const char *text = std::getenv(kCacheLimitVariable);
  if (!text || !*text) return kDefaultMiB;
  size_t n = 0;
  auto [end, ec] = std::from_chars(text, text + std::strlen(text), n);
  return ec == std::errc() && !*end && n <= kMostMiB ? n : SIZE_MAX;
}

/// What an entry's files take on disk (a directory's, all of them).
uintmax_t bytesOf(const fs::directory_entry &e) {
  std::error_code ec;
  if (e.is_regular_file(ec)) return e.file_size(ec);
  uintmax_t total = 0;
  if (e.is_directory(ec))
    for (fs::recursive_directory_iterator it(e.path(), ec), end; !ec && it != end; it.increment(ec))
      if (it->is_regular_file(ec)) total += it->file_size(ec);
  return total;
}

} // namespace

size_t cacheLimitBytes() {
  size_t mib = cacheSetting();
  return (mib == SIZE_MAX ? kDefaultMiB : mib) << 20;
}

std::string cacheSettingProblem() {
  if (cacheSetting() != SIZE_MAX) return {};
  return std::string(kCacheLimitVariable) + " is '" + std::getenv(kCacheLimitVariable) +
         "': it is the most each of twintile's caches keeps on disk, in MiB (0 for no limit, up to " +
         std::to_string(kMostMiB) + ")";
}

void touchCacheEntry(const fs::path &path) {
  std::error_code ec;
  fs::last_write_time(path, fs::file_time_type::clock::now(), ec);  // a cache that cannot be written keeps its order
}

size_t pruneCache(const fs::path &dir, size_t limitBytes) {
  if (limitBytes == 0) return 0;
  struct Entry {
    std::vector<fs::path> paths;
    uintmax_t bytes = 0;
    fs::file_time_type used = fs::file_time_type::min();
  };
  std::map<std::string, Entry> entries;  // by name up to its first dot
  uintmax_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.starts_with("build-") || name.starts_with(".tmp-") || name.empty()) continue;  // being built
    Entry &e = entries[name.substr(0, name.find('.'))];
    uintmax_t bytes = bytesOf(*it);
    e.paths.push_back(it->path());
    e.bytes += bytes;
    total += bytes;
    std::error_code timeError;
    e.used = std::max(e.used, it->last_write_time(timeError));
  }
  uintmax_t target = limitBytes / 10 * 8;
  if (total <= limitBytes) return 0;
  std::vector<Entry *> byAge;
  for (auto &[name, e] : entries) byAge.push_back(&e);
  std::sort(byAge.begin(), byAge.end(), [](const Entry *a, const Entry *b) { return a->used < b->used; });
  size_t removed = 0;
  // The most recently used (the entry just stored) stays, however large.
  for (size_t i = 0; i + 1 < byAge.size() && total > target; ++i) {
    for (const fs::path &p : byAge[i]->paths) {
      // Renamed aside first, as the backend cache discards a damaged entry:
      // no reader sees a directory half removed.
      fs::path aside = dir / (".tmp-pruned-" + p.filename().string() + "-" + std::to_string(::getpid()));
      fs::rename(p, aside, ec);
      fs::remove_all(ec ? p : aside, ec);
    }
    total -= std::min(total, byAge[i]->bytes);
    ++removed;
  }
  return removed;
}

} // namespace twintile::support
