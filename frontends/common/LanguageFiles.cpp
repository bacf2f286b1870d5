//===- LanguageFiles.cpp - the language's files, where Clang reads them --===//
#include "frontends/common/LanguageFiles.h"

#include "support/Cache.h"
#include "support/Files.h"

#include <algorithm>
#include <cerrno>
#include <exception>
#include <mutex>
#include <optional>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace twintile {

namespace {

/// Whether `dir` holds every language file with its text.
bool holds(const fs::path &dir) {
  for (const LanguageFile &f : languageFiles()) {
    std::optional<std::string> text = support::readFile(dir / f.path);
    if (!text || *text != f.text) return false;
  }
  return true;
}

/// Writes under `dir` each language file whose copy there is missing or
/// differs, through a file of its own renamed over it (so that a process
/// reading the directory meanwhile sees one whole text or the other); why
/// it could not, or empty.
std::string writeInto(const fs::path &dir) {
  std::string suffix = ".tmp." + std::to_string(getpid()) + "." + std::to_string(std::random_device{}());
  std::error_code ec;
  for (const LanguageFile &f : languageFiles()) {
    fs::path path = dir / f.path;
    if (std::optional<std::string> text = support::readFile(path); text && *text == f.text) continue;
    fs::create_directories(path.parent_path(), ec);
    fs::path tmp = path;
    tmp += suffix;
    bool written = support::writeFile(tmp, std::string(f.text));
    if (written) fs::rename(tmp, path, ec);
    if (!written || ec) {
      std::error_code ignored;
      fs::remove(tmp, ignored);
      return "cannot write " + path.string() + (ec ? ": " + ec.message() : "");
    }
  }
  return holds(dir) ? std::string() : "the files written to " + dir.string() + " do not read back";
}

/// A directory under the temporary directory that only this user can
/// write (another user's, in a shared /tmp, could change the headers
/// between the check and Clang's read); why not, or empty.
std::string privateTemp(fs::path &dir) {
  std::error_code ec;
  dir = fs::temp_directory_path(ec) / ("twintile-" + std::to_string(getuid()));
  if (ec) return "no temporary directory: " + ec.message();
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return "cannot make " + dir.string();
  struct stat st;
  if (lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 022) != 0)
    return dir.string() + " is not a directory of this user's own";
  return {};
}

LanguageRoot writeLanguageRoot() {
  const std::string &key = languageFilesKey();
  fs::path cached = support::cacheDirectory("language") / key;
  std::string inCache = writeInto(cached);
  if (inCache.empty()) return {cached, {}};
  fs::path temp;
  std::string inTemp = privateTemp(temp);
  if (inTemp.empty()) {
    temp /= "language-" + key;
    inTemp = writeInto(temp);
    if (inTemp.empty()) return {temp, {}};
  }
  return {{}, "the language's headers cannot be written where Clang can read them (" + inCache + "; " + inTemp + ")"};
}

} // namespace

const std::string &languageFilesKey() {
  static const std::string key = [] {
    support::ContentHash hash;
    for (const LanguageFile &f : languageFiles()) {
      hash.add(f.path);
      hash.add(f.text);
    }
    return hash.hex();
  }();
  return key;
}

LanguageRoot languageRoot() {
  static std::mutex mutex;
  static std::optional<LanguageRoot> root;
  std::lock_guard<std::mutex> lock(mutex);
  // Checked at every call (a tenth of a millisecond), so that what Clang
  // reads next, and what the caches built from it are keyed as, is the
  // embedded text: a copy edited since, or removed with the cache under a
  // long-running process, is written again.
  if (root && root->error.empty() && holds(root->dir)) return *root;
  try {
    root = writeLanguageRoot();
  } catch (const std::exception &e) {  // the file system's or the allocator's
    root = LanguageRoot{{}, std::string("the language's headers cannot be written where Clang can read them: ") + e.what()};
  }
  return *root;
}

std::vector<std::string> userFiles(const std::vector<std::string> &read) {
  std::error_code ec;
  const std::filesystem::path language = std::filesystem::weakly_canonical(languageRoot().dir, ec);
  std::vector<std::string> files;
  for (const std::string &f : read) {
    std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(f, ec), ec);
    bool inLanguage = !language.empty() && p.lexically_relative(language).string().rfind("..", 0) != 0;
    if (!ec && !inLanguage) files.push_back(p.string());
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

} // namespace twintile
