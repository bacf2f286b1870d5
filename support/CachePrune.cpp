//===- CachePrune.cpp - keeping the on-disk caches within a size ---------===//
#include "support/CachePrune.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace twintile::support {

namespace {

constexpr size_t kDefaultMiB = 2048, kMostMiB = size_t(1) << 30;
/// How long a scratch directory (a build's, a removal's) may stay: one
/// older was left by a process that died.
constexpr auto kScratchLifetime = std::chrono::hours(24);
/// How often a directory is scanned after stores.
constexpr auto kScanInterval = std::chrono::seconds(60);

/// $TWINTILE_CACHE_MB: the default when unset, SIZE_MAX when not a number of MiB.
size_t cacheSetting() {
  const char *text = std::getenv(kCacheLimitVariable);
  if (!text || !*text) return kDefaultMiB;
  size_t n = 0;
  auto [end, ec] = std::from_chars(text, text + std::strlen(text), n);
  return ec == std::errc() && !*end && n <= kMostMiB ? n : SIZE_MAX;
}

/// The key of a cache's entry named `name` (16 or more hex digits, then at
/// most one extension), or empty for a name no cache gives an entry.
std::string keyOf(const std::string &name) {
  size_t dot = name.find('.');
  std::string key = name.substr(0, dot);
  bool hex = key.size() >= 16 && key.size() <= 64 &&
             std::all_of(key.begin(), key.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
  bool oneExtension = dot == std::string::npos ||
                      (dot + 1 < name.size() && name.find('.', dot + 1) == std::string::npos &&
                       std::all_of(name.begin() + long(dot) + 1, name.end(), [](char c) { return c >= 'a' && c <= 'z'; }));
  return hex && oneExtension ? key : std::string();
}

/// Whether `name` is a scratch directory of a cache's (a build in progress,
/// an entry renamed aside to be removed).
bool isScratch(const std::string &name) { return name.starts_with("build-") || name.starts_with(".tmp-"); }

/// What `p` takes on disk, in its blocks (a directory's files all; links
/// are not followed).
uintmax_t diskBytes(const fs::path &p) {
  struct stat st{};
  if (::lstat(p.c_str(), &st) != 0) return 0;
  uintmax_t total = uintmax_t(st.st_blocks) * 512;
  if (S_ISDIR(st.st_mode)) {
    std::error_code ec;
    for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) total += diskBytes(it->path());
  }
  return total;
}

/// Removes `p` so that no reader sees it half removed: renamed aside first.
void removeAside(const fs::path &dir, const fs::path &p) {
  static std::atomic<unsigned> removals{0};
  std::error_code ec;
  fs::path aside = dir / (".tmp-pruned-" + p.filename().string() + "-" + std::to_string(::getpid()) + "-" +
                          std::to_string(removals++));
  fs::rename(p, aside, ec);
  fs::remove_all(ec ? p : aside, ec);
}

} // namespace

size_t cacheLimitBytes() {
  size_t mib = cacheSetting();
  return (mib == SIZE_MAX ? kDefaultMiB : mib) << 20;
}

std::string cacheSettingProblem() {
  if (cacheSetting() != SIZE_MAX) return {};
  return std::string(kCacheLimitVariable) + " is '" + std::getenv(kCacheLimitVariable) +
         "': it is the most the trace and backend caches each keep on disk, in MiB (0 for no limit, up to " +
         std::to_string(kMostMiB) + ")";
}

void touchCacheEntry(const fs::path &path) {
  // The file system's clock, as it stamps new files (a network file
  // system's may differ from this machine's); a cache that cannot be
  // written keeps its order.
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
}

size_t pruneCache(const fs::path &dir, size_t limitBytes, const std::string &keep) {
  if (limitBytes == 0) return 0;
  struct Entry {
    std::vector<fs::path> paths;
    uintmax_t bytes = 0;
    fs::file_time_type used = fs::file_time_type::min();
  };
  std::map<std::string, Entry> entries;  // by key
  uintmax_t total = 0;
  std::error_code ec;
  auto now = fs::file_time_type::clock::now();
  std::vector<fs::path> stale;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    std::error_code timeError;
    fs::file_time_type written = it->last_write_time(timeError);
    if (isScratch(name)) {
      if (!timeError && written < now - kScratchLifetime) stale.push_back(it->path());
      continue;
    }
    std::string key = keyOf(name);
    if (key.empty()) continue;  // not the cache's
    Entry &e = entries[key];
    uintmax_t bytes = diskBytes(it->path());
    e.paths.push_back(it->path());
    e.bytes += bytes;
    total += bytes;
    if (!timeError) e.used = std::max(e.used, written);
  }
  for (const fs::path &p : stale) removeAside(dir, p);
  if (total <= limitBytes) return 0;
  uintmax_t target = limitBytes / 10 * 8;
  std::vector<std::tuple<fs::file_time_type, size_t, Entry *>> byAge;  // (used, key order, entry)
  for (auto &[key, e] : entries)
    if (key != keep) byAge.emplace_back(e.used, byAge.size(), &e);
  std::sort(byAge.begin(), byAge.end(), [](const auto &a, const auto &b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
  });
  size_t removed = 0;
  for (auto &[used, order, e] : byAge) {
    if (total <= target) break;
    for (const fs::path &p : e->paths) removeAside(dir, p);
    total -= std::min(total, e->bytes);
    ++removed;
  }
  return removed;
}

void pruneAfterStore(const fs::path &dir, const std::string &stored) {
  size_t limit = cacheLimitBytes();
  if (limit == 0) return;
  // At most one scan a minute: a scan stats every entry.
  fs::path stamp = dir / ".last-scan";  // (no entry, no scratch: never counted or removed)
  std::error_code ec;
  fs::file_time_type last = fs::last_write_time(stamp, ec);
  if (!ec && last > fs::file_time_type::clock::now() - kScanInterval) return;
  if (ec) ::close(::open(stamp.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
  touchCacheEntry(stamp);
  pruneCache(dir, limit, stored);
}

} // namespace twintile::support
