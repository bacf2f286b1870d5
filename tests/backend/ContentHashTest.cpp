// The support library's content hash and whole-file read (support/Cache.h,
// support/Files.h), on which every cache's keys and damage checks rest: the
// hash tells apart inputs that differ in one bit, in where one part ends and
// the next begins, in their length (trailing zero bytes) and in every lane of
// the block loop, and its value is pinned (a change to it silently orphans
// every cache entry: change it on purpose or not at all); readFile returns a
// file's bytes exactly at sizes around its buffer's, a file with no size to
// its end, and nothing for what is not a readable file.
#include "support/Cache.h"
#include "support/Files.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>

#include <unistd.h>

namespace fs = std::filesystem;
using twintile::support::ContentHash;

namespace {

std::string hashOf(std::initializer_list<std::string_view> parts) {
  ContentHash h;
  for (std::string_view p : parts) h.add(p);
  return h.hex();
}

std::string bytes(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char &c : s) c = static_cast<char>(rng());
  return s;
}

} // namespace

TEST_CASE("content hash: sixteen hex digits, the same for the same parts", "[support]") {
  std::string h = hashOf({"kernel", "sm_90a"});
  CHECK(h.size() == 16);
  CHECK(h.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(h == hashOf({"kernel", "sm_90a"}));
  CHECK(hashOf({}) != hashOf({""}));  // an empty part is a part
}

TEST_CASE("content hash: its value, pinned", "[support]") {
  CHECK(hashOf({"softmax<f16,1024>", "sm_90a"}) == "4243ec31d805f48f");
}

TEST_CASE("content hash: where parts split, and trailing zeros, change it", "[support]") {
  CHECK(hashOf({"ab", "c"}) != hashOf({"a", "bc"}));
  CHECK(hashOf({"abc"}) != hashOf({"ab", "c"}));
  CHECK(hashOf({std::string("x")}) != hashOf({std::string("x\0", 2)}));
  CHECK(hashOf({std::string(8, '\0')}) != hashOf({std::string(9, '\0')}));
}

TEST_CASE("content hash: every single-bit change of a block-sized input is seen", "[support]") {
  // 77 bytes: two full 32-byte blocks (each byte in one of four lanes), an
  // 8-byte word and a 5-byte tail.
  std::string base = bytes(77, 1);
  std::set<std::string> seen = {hashOf({base})};
  for (size_t i = 0; i < base.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      std::string changed = base;
      changed[i] = static_cast<char>(changed[i] ^ (1 << bit));
      seen.insert(hashOf({changed}));
    }
  CHECK(seen.size() == 1 + base.size() * 8);
}

TEST_CASE("content hash: prefixes of one input all differ", "[support]") {
  std::string text = bytes(300, 2);
  std::set<std::string> seen;
  for (size_t n = 0; n <= text.size(); ++n) seen.insert(hashOf({std::string_view(text).substr(0, n)}));
  CHECK(seen.size() == text.size() + 1);
}

TEST_CASE("readFile: a file's bytes exactly, at sizes around the read's buffer", "[support]") {
  fs::path dir = fs::temp_directory_path() / ("twintile-readfile-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (size_t n : {size_t(0), size_t(1), size_t(4095), size_t(4096), size_t(4097), size_t(1) << 20}) {
    std::string want = bytes(n, static_cast<unsigned>(n));
    fs::path f = dir / ("f" + std::to_string(n));
    REQUIRE(twintile::support::writeFile(f, want));
    std::optional<std::string> got = twintile::support::readFile(f);
    REQUIRE(got);
    CHECK(got->size() == n);
    CHECK(*got == want);
  }
  // A file whose size stat gives as 0 though it has content: read to its end.
  std::optional<std::string> status = twintile::support::readFile("/proc/self/status");
  REQUIRE(status);
  CHECK(status->starts_with("Name:"));
  CHECK(status->find("\nPid:") != std::string::npos);
  CHECK_FALSE(twintile::support::readFile(dir / "missing"));
  CHECK_FALSE(twintile::support::readFile(dir));  // a directory
  std::error_code ec;
  fs::remove_all(dir, ec);
}
