// support/CachePrune.h: a cache directory over its limit loses its least
// recently used entries (a file with its companions, or a directory) until
// it holds 80% of the limit; the newest stays however large, entries being
// built are never touched, a hit makes an entry the newest, and the
// setting's bad values are said.
#include "support/CachePrune.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace fs = std::filesystem;
using twintile::support::pruneCache;

namespace {

/// A fresh directory under the system's temporary one.
fs::path freshDir(const std::string &name) {
  fs::path d = fs::temp_directory_path() / ("twintile-prune-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

/// A file of `bytes` bytes, last written `age` seconds ago.
void file(const fs::path &p, size_t bytes, int age) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << std::string(bytes, 'x');
  fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::seconds(age));
}

} // namespace

TEST_CASE("cache prune: oldest entries go first, with their companions, to 80% of the limit", "[support]") {
  fs::path d = freshDir("order");
  // Four 1000-byte entries of two files each (KEY.o, KEY.sum), oldest first.
  for (int i = 0; i < 4; ++i) {
    std::string key = "k" + std::to_string(i);
    file(d / (key + ".o"), 900, 400 - 100 * i);
    file(d / (key + ".sum"), 100, 400 - 100 * i);
  }
  CHECK(pruneCache(d, 4000) == 0);  // within the limit: nothing goes
  CHECK(pruneCache(d, 3000) == 2);  // 4000 > 3000: down to 2400, the two oldest
  CHECK_FALSE(fs::exists(d / "k0.o"));
  CHECK_FALSE(fs::exists(d / "k0.sum"));
  CHECK_FALSE(fs::exists(d / "k1.o"));
  CHECK(fs::exists(d / "k2.o"));
  CHECK(fs::exists(d / "k2.sum"));
  CHECK(fs::exists(d / "k3.o"));
  CHECK(pruneCache(d, 0) == 0);  // no limit
  fs::remove_all(d);
}

TEST_CASE("cache prune: directories are entries; those being built and the newest stay", "[support]") {
  fs::path d = freshDir("dirs");
  file(d / "old" / "kernel.ptx", 5000, 300);
  fs::last_write_time(d / "old", fs::file_time_type::clock::now() - std::chrono::seconds(300));
  file(d / ".tmp-new-1-ab" / "kernel.ptx", 5000, 500);  // a writer's, older than all
  file(d / "build-k-1-0" / "kernel.o", 5000, 500);
  file(d / "huge.o", 9000, 0);  // the newest, alone over the limit
  CHECK(pruneCache(d, 1000) == 1);
  CHECK_FALSE(fs::exists(d / "old"));
  CHECK(fs::exists(d / "huge.o"));
  CHECK(fs::exists(d / ".tmp-new-1-ab" / "kernel.ptx"));
  CHECK(fs::exists(d / "build-k-1-0" / "kernel.o"));
  fs::remove_all(d);
}

TEST_CASE("cache prune: a hit makes an entry the last to go", "[support]") {
  fs::path d = freshDir("touch");
  file(d / "a.o", 1000, 300);
  file(d / "b.o", 1000, 200);
  file(d / "c.o", 1000, 100);
  twintile::support::touchCacheEntry(d / "a.o");
  CHECK(pruneCache(d, 2500) == 1);
  CHECK(fs::exists(d / "a.o"));
  CHECK_FALSE(fs::exists(d / "b.o"));
  CHECK(fs::exists(d / "c.o"));
  fs::remove_all(d);
}

TEST_CASE("cache prune: the setting", "[support]") {
  const char *saved = std::getenv(twintile::support::kCacheLimitVariable);
  std::string keep = saved ? saved : "";
  ::unsetenv(twintile::support::kCacheLimitVariable);
  CHECK(twintile::support::cacheLimitBytes() == size_t(2048) << 20);
  CHECK(twintile::support::cacheSettingProblem().empty());
  ::setenv(twintile::support::kCacheLimitVariable, "0", 1);
  CHECK(twintile::support::cacheLimitBytes() == 0);
  ::setenv(twintile::support::kCacheLimitVariable, "64", 1);
  CHECK(twintile::support::cacheLimitBytes() == size_t(64) << 20);
  ::setenv(twintile::support::kCacheLimitVariable, "lots", 1);
  CHECK(twintile::support::cacheLimitBytes() == size_t(2048) << 20);
  CHECK(twintile::support::cacheSettingProblem().find("TWINTILE_CACHE_MB is 'lots'") != std::string::npos);
  if (saved) ::setenv(twintile::support::kCacheLimitVariable, keep.c_str(), 1);
  else ::unsetenv(twintile::support::kCacheLimitVariable);
}
