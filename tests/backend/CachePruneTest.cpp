// support/CachePrune.h: a cache directory over its limit loses its least
// recently used entries (files sharing a key, or a key's directory) until it
// holds 80% of the limit; the entry just stored stays however large, files
// not the cache's and fresh scratch are never touched, a dead build's
// scratch goes, a hit makes an entry the newest, and the setting's bad
// values are said.
#include "support/CachePrune.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>
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

/// A cache key: 16 hex digits ending in `c`.
std::string key(char c) { return std::string(15, 'a') + c; }

TEST_CASE("cache prune: oldest entries go first, with their companions, to 80% of the limit", "[support]") {
  fs::path d = freshDir("order");
  // Four entries of two files each (KEY.o, KEY.sum), oldest first; each
  // takes a few disk blocks.
  for (int i = 0; i < 4; ++i) {
    file(d / (key(char('0' + i)) + ".o"), 9000, 400 - 100 * i);
    file(d / (key(char('0' + i)) + ".sum"), 100, 400 - 100 * i);
  }
  uintmax_t one = 0;
  for (const char *ext : {".o", ".sum"}) {
    struct stat st{};
    REQUIRE(::stat((d / (key('0') + ext)).c_str(), &st) == 0);
    one += uintmax_t(st.st_blocks) * 512;
  }
  REQUIRE(one > 0);
  CHECK(pruneCache(d, 4 * one) == 0);          // within the limit: nothing goes
  CHECK(pruneCache(d, 3 * one + 1) == 2);      // down to 80%: the two oldest
  CHECK_FALSE(fs::exists(d / (key('0') + ".o")));
  CHECK_FALSE(fs::exists(d / (key('0') + ".sum")));
  CHECK_FALSE(fs::exists(d / (key('1') + ".o")));
  CHECK(fs::exists(d / (key('2') + ".o")));
  CHECK(fs::exists(d / (key('2') + ".sum")));
  CHECK(fs::exists(d / (key('3') + ".o")));
  CHECK(pruneCache(d, 0) == 0);  // no limit
  fs::remove_all(d);
}

TEST_CASE("cache prune: directories are entries; the kept one, others' files and fresh scratch stay", "[support]") {
  fs::path d = freshDir("dirs");
  file(d / key('1') / "kernel.ptx", 50000, 300);
  fs::last_write_time(d / key('1'), fs::file_time_type::clock::now() - std::chrono::seconds(300));
  file(d / ".tmp-new-1-ab" / "kernel.ptx", 50000, 500);  // a writer's, older than all but fresh
  file(d / "build-k-1-0" / "kernel.o", 50000, 3 * 86400);  // a dead build's, days old
  fs::last_write_time(d / "build-k-1-0", fs::file_time_type::clock::now() - std::chrono::hours(72));
  file(d / "notes.txt", 50000, 900);                        // not the cache's
  file(d / ".nfs0001", 50000, 900);
  file(d / (key('2') + ".o"), 90000, 600);  // the one just stored (older by a skewed clock), alone over the limit
  CHECK(pruneCache(d, 1000, key('2')) == 1);
  CHECK_FALSE(fs::exists(d / key('1')));
  CHECK(fs::exists(d / (key('2') + ".o")));
  CHECK(fs::exists(d / ".tmp-new-1-ab" / "kernel.ptx"));
  CHECK_FALSE(fs::exists(d / "build-k-1-0"));
  CHECK(fs::exists(d / "notes.txt"));
  CHECK(fs::exists(d / ".nfs0001"));
  fs::remove_all(d);
}

TEST_CASE("cache prune: a hit makes an entry the last to go", "[support]") {
  fs::path d = freshDir("touch");
  file(d / (key('a') + ".o"), 9000, 300);
  file(d / (key('a') + ".sum"), 100, 300);
  file(d / (key('b') + ".o"), 9000, 200);
  file(d / (key('c') + ".o"), 9000, 100);
  twintile::support::touchCacheEntry(d / (key('a') + ".sum"));  // the record: the entry's time is its newest file's
  struct stat st{};
  REQUIRE(::stat((d / (key('b') + ".o")).c_str(), &st) == 0);
  // Four entries' worth of blocks (a's two files, b, c) over a limit of three:
  // down to 80% of it takes b alone.
  CHECK(pruneCache(d, 3 * uintmax_t(st.st_blocks) * 512) == 1);
  CHECK(fs::exists(d / (key('a') + ".o")));
  CHECK_FALSE(fs::exists(d / (key('b') + ".o")));
  CHECK(fs::exists(d / (key('c') + ".o")));
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
