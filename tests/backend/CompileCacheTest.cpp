// The compile cache (backend/CompileCache.h): an entry stored is looked up
// whole; a damaged one (a changed byte, a truncated file or index, a missing
// file) is detected, removed and reported as absent; concurrent writers
// leave one entry and no temporaries. The key follows everything that changes
// the code (IR, arch, warps, assumptions, libdevice) and not the locations.
#include "backend/CompileCache.h"
#include "support/Cache.h"
#include "ir/Parser.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

using namespace twintile::backend;
namespace fs = std::filesystem;

namespace {

/// A fresh directory for one test's cache, removed with everything in it.
struct TempDir {
  fs::path path;
  TempDir() {
    std::random_device rd;
    path = fs::temp_directory_path() /
           ("twintile-cache-test-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

const std::string kKernel = R"(func @add1(%x: ptr<f32>, %n: i32) options {num_warps = 4} loc("add1.cpp":3:1) {
  %0 = program_id {axis = 0} : i32 loc("add1.cpp":4:13)
  %1 = arange {end = 128, start = 0} : tile<128xi32> loc("add1.cpp":5:13)
  %2 = splat %x : tile<128xptr<f32>> loc("add1.cpp":6:13)
  %3 = addptr %2, %1 : tile<128xptr<f32>> loc("add1.cpp":6:13)
  %4 = splat %n : tile<128xi32> loc("add1.cpp":7:13)
  %5 = lt %1, %4 : tile<128xi1> loc("add1.cpp":7:13)
  %6 = load %3, %5 : tile<128xf32> loc("add1.cpp":8:13)
  %7 = constant {value = 1.0} : tile<128xf32> loc("add1.cpp":9:13)
  %8 = add %6, %7 : tile<128xf32> loc("add1.cpp":9:13)
  store %3, %8, %5 loc("add1.cpp":10:3)
  return loc("add1.cpp":11:1)
}
)";

std::unique_ptr<twintile::ir::Module> parse(const std::string &text) {
  twintile::ir::ParseResult r = twintile::ir::parseModule(text);
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r.module);
  REQUIRE(r.module->funcs.size() == 1);
  return std::move(r.module);
}

/// `text` with every occurrence of `from` replaced by `to`.
std::string replaced(std::string text, const std::string &from, const std::string &to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

CompileResult sampleResult() {
  CompileResult r;
  r.ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry add1() { ret; }\n";
  r.manifest.kernel = "add1";
  r.manifest.arch = "sm_90a";
  r.manifest.numWarps = 4;
  r.manifest.threadsPerProgram = 128;
  r.manifest.sharedBytes = 512;
  r.manifest.params = {{"x", "ptr<f32>", {true, false}}, {"n", "i32", {false, true}}};
  r.ptxas.ran = true;
  r.ptxas.ok = true;
  r.ptxas.log = "ptxas info    : Used 8 registers, used 0 barriers, 512 bytes smem\n";
  r.ptxas.registers = 8;
  r.ptxas.spillStoreBytes = 0;
  r.ptxas.spillLoadBytes = 4;
  r.ptxas.stackBytes = 16;
  r.ptxas.sharedBytes = 512;
  r.ptxas.cubin = std::string("\x7f" "ELF\0\1\2\xff binary", 16);
  r.notes = {"libdevice not linked: not found", "ptxas: sm_90a"};
  r.seconds = 1.5;
  return r;
}

void checkSame(const CompileResult &a, const CompileResult &b) {
  CHECK(a.ptx == b.ptx);
  CHECK(a.manifest.toJson() == b.manifest.toJson());
  CHECK(a.ptxas.ran == b.ptxas.ran);
  CHECK(a.ptxas.skipped == b.ptxas.skipped);
  CHECK(a.ptxas.ok == b.ptxas.ok);
  CHECK(a.ptxas.log == b.ptxas.log);
  CHECK(a.ptxas.registers == b.ptxas.registers);
  CHECK(a.ptxas.spillStoreBytes == b.ptxas.spillStoreBytes);
  CHECK(a.ptxas.spillLoadBytes == b.ptxas.spillLoadBytes);
  CHECK(a.ptxas.stackBytes == b.ptxas.stackBytes);
  CHECK(a.ptxas.sharedBytes == b.ptxas.sharedBytes);
  CHECK(a.ptxas.cubin == b.ptxas.cubin);
  CHECK(a.notes == b.notes);
}

/// Names in `dir` that start with ".tmp-": writers' leftovers.
int temporaries(const fs::path &dir) {
  int n = 0;
  for (const auto &e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(".tmp-", 0) == 0) ++n;
  return n;
}

std::string readAll(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeAll(const fs::path &p, const std::string &bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

const std::string kKey = "0123456789abcdef";

} // namespace

TEST_CASE("cache stores and looks up an entry", "[cache]") {
  TempDir tmp;
  CompileCache cache(tmp.path.string());
  CHECK(cache.directory() == tmp.path / "backend");
  CHECK_FALSE(cache.lookup(kKey));

  CompileResult stored = sampleResult();
  cache.store(kKey, stored);
  fs::path entry = cache.directory() / kKey;
  for (const char *file : {"kernel.ptx", "manifest.json", "kernel.cubin", "ptxas.json",
                           "notes.txt", "index.json"})
    CHECK(fs::is_regular_file(entry / file));
  CHECK(readAll(entry / "kernel.ptx") == stored.ptx);
  CHECK(readAll(entry / "ptxas.json").find("cubin") == std::string::npos);
  CHECK(temporaries(cache.directory()) == 0);

  std::optional<CompileResult> found = cache.lookup(kKey);
  REQUIRE(found);
  CHECK(found->cacheHit);
  checkSame(stored, *found);
  CHECK_FALSE(cache.lookup("fedcba9876543210"));

  // A second cache on the same directory sees the entry.
  REQUIRE(CompileCache(tmp.path.string()).lookup(kKey));
}

TEST_CASE("cache entry without a cubin", "[cache]") {
  TempDir tmp;
  CompileCache cache(tmp.path.string());
  CompileResult stored = sampleResult();
  stored.ptxas = PtxasReport{};
  stored.ptxas.skipped = "ptxas not found";
  stored.notes.clear();
  cache.store(kKey, stored);
  CHECK_FALSE(fs::exists(cache.directory() / kKey / "kernel.cubin"));
  std::optional<CompileResult> found = cache.lookup(kKey);
  REQUIRE(found);
  checkSame(stored, *found);
}

TEST_CASE("cache drops an entry whose file changed", "[cache]") {
  TempDir tmp;
  CompileCache cache(tmp.path.string());
  fs::path entry = cache.directory() / kKey;
  const char *file = GENERATE("kernel.ptx", "manifest.json", "kernel.cubin", "ptxas.json",
                              "notes.txt");
  INFO(file);
  cache.store(kKey, sampleResult());
  REQUIRE(cache.lookup(kKey));

  SECTION("one byte changed, same size") {
    std::string bytes = readAll(entry / file);
    REQUIRE_FALSE(bytes.empty());
    bytes[bytes.size() / 2] ^= 0x20;
    writeAll(entry / file, bytes);
  }
  SECTION("truncated") {
    std::string bytes = readAll(entry / file);
    writeAll(entry / file, bytes.substr(0, bytes.size() / 2));
  }
  SECTION("deleted") { fs::remove(entry / file); }

  CHECK_FALSE(cache.lookup(kKey));
  CHECK_FALSE(fs::exists(entry));
  CHECK(temporaries(cache.directory()) == 0);

  // The next store rebuilds it.
  cache.store(kKey, sampleResult());
  CHECK(cache.lookup(kKey));
}

TEST_CASE("cache drops an entry whose index is damaged", "[cache]") {
  TempDir tmp;
  CompileCache cache(tmp.path.string());
  fs::path entry = cache.directory() / kKey;
  cache.store(kKey, sampleResult());
  std::string index = readAll(entry / "index.json");

  SECTION("truncated") { writeAll(entry / "index.json", index.substr(0, index.size() / 2)); }
  SECTION("empty") { writeAll(entry / "index.json", ""); }
  SECTION("missing") { fs::remove(entry / "index.json"); }
  SECTION("not an object") { writeAll(entry / "index.json", "[]"); }
  SECTION("another key") { writeAll(entry / "index.json", replaced(index, kKey, "00000000000000ff")); }
  SECTION("a file outside the entry") {
    writeAll(entry / "index.json", replaced(index, "\"notes.txt\"", "\"../notes.txt\""));
  }
  SECTION("a required file not listed") {
    writeAll(entry / "index.json", replaced(index, "\"notes.txt\"", "\"kernel.cubin\""));
  }

  CHECK_FALSE(cache.lookup(kKey));
  CHECK_FALSE(fs::exists(entry));
}

TEST_CASE("cache drops an entry whose manifest does not parse", "[cache]") {
  // Consistent sizes and hashes, but a manifest of the wrong format.
  TempDir tmp;
  CompileCache cache(tmp.path.string());
  CompileResult bad = sampleResult();
  cache.store(kKey, bad);
  fs::path entry = cache.directory() / kKey;
  std::string manifest = readAll(entry / "manifest.json");
  std::string wrong = replaced(manifest, "twintile-manifest-1", "twintile-manifest-9");
  std::string index = readAll(entry / "index.json");
  twintile::support::ContentHash before, after;
  before.add(manifest);
  after.add(wrong);
  writeAll(entry / "manifest.json", wrong);
  writeAll(entry / "index.json", replaced(index, before.hex(), after.hex()));
  CHECK_FALSE(cache.lookup(kKey));
  CHECK_FALSE(fs::exists(entry));
}

TEST_CASE("cache keeps the first of two writers", "[cache]") {
  TempDir tmp;
  CompileCache cache(tmp.path.string());
  CompileResult first = sampleResult();
  CompileResult second = sampleResult();
  second.ptx = "// another\n";
  cache.store(kKey, first);
  cache.store(kKey, second);
  std::optional<CompileResult> found = cache.lookup(kKey);
  REQUIRE(found);
  CHECK(found->ptx == first.ptx);
  CHECK(temporaries(cache.directory()) == 0);
}

TEST_CASE("cache: concurrent writers leave one whole entry", "[cache]") {
  TempDir tmp;
  CompileCache cache(tmp.path.string());
  std::vector<std::thread> writers;
  for (int i = 0; i < 8; ++i) writers.emplace_back([&] { cache.store(kKey, sampleResult()); });
  for (std::thread &t : writers) t.join();
  std::optional<CompileResult> found = cache.lookup(kKey);
  REQUIRE(found);
  checkSame(sampleResult(), *found);
  CHECK(temporaries(cache.directory()) == 0);
}

TEST_CASE("cache ignores keys that are not hex digits", "[cache]") {
  TempDir tmp;
  CompileCache cache(tmp.path.string());
  for (const char *key : {"", "../escape", ".tmp-x", "abc/def", "not-hex"}) {
    INFO(key);
    cache.store(key, sampleResult());
    CHECK_FALSE(cache.lookup(key));
  }
  CHECK(fs::is_empty(cache.directory()));
  CHECK_FALSE(fs::exists(tmp.path / "escape"));
}

TEST_CASE("compile key follows the code, not the locations", "[cache]") {
  auto module = parse(kKernel);
  const twintile::ir::Func &func = *module->funcs[0];
  CompileOptions base;
  std::string key = compileKey(func, base);
  CHECK(key.size() == 16);
  CHECK(key.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(compileKey(func, base) == key);

  SECTION("locations do not count") {
    auto moved = parse(replaced(kKernel, "add1.cpp", "elsewhere/add_one.cpp"));
    CHECK(compileKey(*moved->funcs[0], base) == key);
    auto noLocs = parse(std::regex_replace(kKernel, std::regex(R"( loc\([^)]*\))"), ""));
    CHECK(compileKey(*noLocs->funcs[0], base) == key);
  }
  SECTION("the IR counts") {
    auto changed = parse(replaced(kKernel, "value = 1.0", "value = 2.0"));
    CHECK(compileKey(*changed->funcs[0], base) != key);
    auto renamed = parse(replaced(kKernel, "@add1", "@add2"));
    CHECK(compileKey(*renamed->funcs[0], base) != key);
  }
  SECTION("the tools the environment names count") {
    // Any readable file stands for another libdevice: only its identity is keyed.
    const char *old = std::getenv("TWINTILE_LIBDEVICE");
    std::string saved = old ? old : "";
    ::setenv("TWINTILE_LIBDEVICE", __FILE__, 1);
    std::string other = compileKey(func, base);
    if (old) ::setenv("TWINTILE_LIBDEVICE", saved.c_str(), 1);
    else ::unsetenv("TWINTILE_LIBDEVICE");
    CHECK(other != key);
    CompileOptions fast = base;
    fast.useLibdevice = false;  // fast math links none: which one is no matter
    CHECK(compileKey(func, fast) != key);
  }
  SECTION("the arch counts") {
    CompileOptions o = base;
    o.arch = "sm_80";
    CHECK(compileKey(func, o) != key);
  }
  SECTION("the number of warps counts, as it takes effect") {
    CompileOptions o = base;
    o.numWarps = func.numWarps;  // the kernel's own: the same compile
    CHECK(compileKey(func, o) == key);
    o.numWarps = 8;
    CHECK(compileKey(func, o) != key);
    auto eight = parse(replaced(kKernel, "num_warps = 4", "num_warps = 8"));
    CHECK(compileKey(*eight->funcs[0], base) != key);
    CHECK(compileKey(*eight->funcs[0], base) != compileKey(func, base));
  }
  SECTION("assumptions count") {
    CompileOptions aligned = base, divisible = base, none = base;
    aligned.assume = {{true, false}, {false, false}};
    divisible.assume = {{false, false}, {false, true}};
    none.assume = {{}, {}};
    CHECK(compileKey(func, aligned) != key);
    CHECK(compileKey(func, divisible) != key);
    CHECK(compileKey(func, aligned) != compileKey(func, divisible));
    CHECK(compileKey(func, none) == key);  // all-false assumes nothing
    CompileOptions swapped = base;
    swapped.assume = {{false, false}, {true, false}};
    CHECK(compileKey(func, swapped) != compileKey(func, aligned));
  }
  SECTION("libdevice counts") {
    CompileOptions o = base;
    o.useLibdevice = false;
    CHECK(compileKey(func, o) != key);
  }
  SECTION("what does not change the code does not count") {
    CompileOptions o = base;
    o.useCache = false;
    o.cacheRoot = "/somewhere/else";
    CHECK(compileKey(func, o) == key);
  }
}
