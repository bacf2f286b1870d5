//===- CompileCache.cpp - compiled kernels on disk, keyed by content -----===//
//
// An entry <dir>/<key>/ holds
//
//   kernel.ptx  manifest.json  ptxas.json  notes.txt  [kernel.cubin]
//   index.json   {"format", "key", "files": [{"name", "size", "hash"}, ...]}
//
// Writers fill <dir>/.tmp-<key>-<pid>-<random>/ and rename it to <dir>/<key>;
// the rename either installs a whole entry or fails because another writer
// got there first (then ours is dropped). Readers check every file against
// the index; a damaged entry is renamed away and deleted, so that it is
// compiled and stored again.
//===----------------------------------------------------------------------===//
#include "backend/CompileCache.h"

#include "backend/Ptxas.h"
#include "support/Cache.h"
#include "support/CachePrune.h"
#include "support/Files.h"
#include "ir/Printer.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>

#include <unistd.h>

namespace fs = std::filesystem;

namespace twintile::backend {

namespace {

/// A tool's file as a cache key holds it: its path, size and time of last
/// change (replaced in place, as an upgrade does, it is another tool); "none".
std::string fileIdentity(const std::optional<std::string> &path) {
  if (!path) return "none";
  std::error_code sizeError, timeError;
  auto size = fs::file_size(*path, sizeError);
  auto time = fs::last_write_time(*path, timeError).time_since_epoch().count();
  if (sizeError || timeError) return *path + " ?";
  return *path + " " + std::to_string(size) + " " + std::to_string(time);
}


using Json = nlohmann::ordered_json;

constexpr const char *kIndexFormat = "twintile-cache-entry-1";

/// The files of an entry beside its index; the cubin is optional.
const char *const kRequiredFiles[] = {"kernel.ptx", "manifest.json", "ptxas.json", "notes.txt"};
constexpr const char *kCubinFile = "kernel.cubin";

std::string hashOf(const std::string &bytes) {
  twintile::support::ContentHash h;
  h.add(bytes);
  return h.hex();
}

/// A key names a directory: hex digits (as compileKey makes), nothing else.
bool isValidKey(const std::string &key) {
  if (key.empty() || key.size() > 128) return false;
  for (char c : key)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string randomHex() {
  std::random_device rd;
  twintile::support::ContentHash h;
  h.add(std::to_string(rd()) + "-" + std::to_string(rd()));
  return h.hex();
}

std::string ptxasToJson(const PtxasReport &r) {
  Json j;
  j["ran"] = r.ran;
  j["skipped"] = r.skipped;
  j["ok"] = r.ok;
  j["registers"] = r.registers;
  j["spill_store_bytes"] = r.spillStoreBytes;
  j["spill_load_bytes"] = r.spillLoadBytes;
  j["stack_bytes"] = r.stackBytes;
  j["shared_bytes"] = r.sharedBytes;
  j["log"] = r.log;
  return j.dump(2) + "\n";
}

/// Throws (nlohmann's exceptions) when a field is missing or ill-typed.
PtxasReport ptxasFromJson(const std::string &text) {
  Json j = Json::parse(text);
  PtxasReport r;
  r.ran = j.at("ran").get<bool>();
  r.skipped = j.at("skipped").get<std::string>();
  r.ok = j.at("ok").get<bool>();
  r.registers = j.at("registers").get<int>();
  r.spillStoreBytes = j.at("spill_store_bytes").get<int>();
  r.spillLoadBytes = j.at("spill_load_bytes").get<int>();
  r.stackBytes = j.at("stack_bytes").get<int>();
  r.sharedBytes = j.at("shared_bytes").get<int>();
  r.log = j.at("log").get<std::string>();
  return r;
}

/// One note a line (a note spanning lines comes back as several).
std::string notesToText(const std::vector<std::string> &notes) {
  std::string text;
  for (const std::string &n : notes) text += n + "\n";
  return text;
}

std::vector<std::string> notesFromText(const std::string &text) {
  std::vector<std::string> notes;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) notes.push_back(line);
  return notes;
}

/// Deletes `entry` so that no reader sees it half deleted: renames it aside
/// first, then removes the renamed copy.
void discard(const fs::path &entry) {
  std::error_code ec;
  fs::path trash = entry.parent_path() /
                   (".tmp-" + entry.filename().string() + "-" + std::to_string(::getpid()) + "-" + randomHex());
  fs::rename(entry, trash, ec);
  fs::remove_all(ec ? entry : trash, ec);
}

} // namespace

CompileCache::CompileCache(const std::string &root) : dir_(twintile::support::cacheDirectory("backend", root)) {}

std::optional<CompileResult> CompileCache::lookup(const std::string &key, std::string *damaged) const {
  if (!isValidKey(key)) return std::nullopt;
  fs::path entry = dir_ / key;
  std::error_code ec;
  if (!fs::is_directory(entry, ec)) return std::nullopt;

  std::map<std::string, std::string> files;  // name -> bytes, each checked against the index
  try {
    std::optional<std::string> indexText = twintile::support::readFile(entry / "index.json");
    if (!indexText) throw std::runtime_error("no index");
    Json index = Json::parse(*indexText);
    if (index.at("format").get<std::string>() != kIndexFormat || index.at("key").get<std::string>() != key)
      throw std::runtime_error("wrong index");
    for (const Json &f : index.at("files")) {
      std::string name = f.at("name").get<std::string>();
      bool known = name == kCubinFile;
      for (const char *required : kRequiredFiles) known = known || name == required;
      if (!known || files.count(name)) throw std::runtime_error("unexpected file in index");
      std::optional<std::string> bytes = twintile::support::readFile(entry / name);
      if (!bytes || bytes->size() != f.at("size").get<uint64_t>() || hashOf(*bytes) != f.at("hash").get<std::string>())
        throw std::runtime_error(name + " does not match the index");
      files[name] = std::move(*bytes);
    }
    for (const char *required : kRequiredFiles)
      if (!files.count(required)) throw std::runtime_error("file missing from index");

    CompileResult result;
    result.ptx = std::move(files["kernel.ptx"]);
    result.manifest = Manifest::fromJson(files["manifest.json"]);
    result.ptxas = ptxasFromJson(files["ptxas.json"]);
    if (auto it = files.find(kCubinFile); it != files.end()) result.ptxas.cubin = std::move(it->second);
    result.notes = notesFromText(files["notes.txt"]);
    result.cacheHit = true;
    twintile::support::touchCacheEntry(entry);  // the last the cache's limit removes
    return result;
  } catch (const std::exception &e) {
    if (damaged) *damaged = "the cached compile " + entry.string() + " was damaged (" + e.what() + "): compiled again";
    discard(entry);
    return std::nullopt;
  }
}

void CompileCache::store(const std::string &key, const CompileResult &result) const {
  if (!isValidKey(key)) return;
  std::error_code ec;
  fs::path entry = dir_ / key;
  if (fs::exists(entry, ec)) return;  // stored already (by us or another writer)
  fs::path tmp = dir_ / (".tmp-" + key + "-" + std::to_string(::getpid()) + "-" + randomHex());
  if (!fs::create_directory(tmp, ec) || ec) return;

  try {
    std::vector<std::pair<std::string, std::string>> files = {
        {"kernel.ptx", result.ptx},
        {"manifest.json", result.manifest.toJson()},
        {"ptxas.json", ptxasToJson(result.ptxas)},
        {"notes.txt", notesToText(result.notes)},
    };
    if (!result.ptxas.cubin.empty()) files.emplace_back(kCubinFile, result.ptxas.cubin);

    Json list = Json::array();
    bool written = true;
    for (const auto &[name, bytes] : files) {
      written = written && twintile::support::writeFile(tmp / name, bytes);
      list.push_back(Json{{"name", name}, {"size", bytes.size()}, {"hash", hashOf(bytes)}});
    }
    Json index;
    index["format"] = kIndexFormat;
    index["key"] = key;
    index["files"] = std::move(list);
    // The index goes last: an entry is complete when its index is.
    written = written && twintile::support::writeFile(tmp / "index.json", index.dump(2) + "\n");
    if (written) fs::rename(tmp, entry, ec);
    if (!written || ec) fs::remove_all(tmp, ec);
    else twintile::support::pruneAfterStore(dir_, key);
  } catch (...) {
    fs::remove_all(tmp, ec);
  }
}

std::string compileKey(const ir::Func &func, const CompileOptions &options) {
  twintile::support::ContentHash h;
  ir::PrintOptions print;
  print.locations = false;
  h.add("ir");
  h.add(ir::toString(func, print));
  h.add("arch");
  h.add(options.arch);
  h.add("num_warps");
  h.add(std::to_string(options.numWarps > 0 ? options.numWarps : func.numWarps));
  h.add("num_stages");
  h.add(std::to_string(options.numStages > 0 ? options.numStages : func.numStages));
  // No assumptions and all-false ones for every parameter compile alike.
  h.add("assume");
  bool none = true;
  for (const ParamAssumption &a : options.assume) none = none && a == ParamAssumption{};
  if (!(none && (options.assume.empty() || options.assume.size() == func.numParams()))) {
    h.add(std::to_string(options.assume.size()));
    for (const ParamAssumption &a : options.assume)
      h.add(std::string(a.aligned16 ? "a" : "-") + (a.divisible16 ? "d" : "-"));
  }
  // The tools the environment chose (TWINTILE_LIBDEVICE, TWINTILE_PTXAS,
  // support/Environment.h): another libdevice makes other PTX, another
  // ptxas another cubin and report.
  h.add("libdevice");
  h.add(options.useLibdevice ? fileIdentity(findLibdevice()) : "0");
  h.add("ptxas");
  h.add(fileIdentity(findPtxas()));
  h.add("math");
  h.add(options.fastMath ? "fast" : "precise");
  h.add("compiler");
  h.add(compilerVersion());
  return h.hex();
}

} // namespace twintile::backend
