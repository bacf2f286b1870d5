//===- LanguageFiles.h - the files a kernel compiles against -------------===//
//
// The language's files (include/twintile.h and what it includes, and the
// tracer's entry header) are carried by twintile itself, embedded at build
// time (cmake/EmbedFiles.cmake): no run reads its source tree, and an
// installed twintile moved to another prefix, or a program linking the
// compiler, compiles a kernel against exactly the files it was built with.
// Clang reads them as files, from a directory this process writes once per
// content (languageRoot).
//===----------------------------------------------------------------------===//
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>
#include <string_view>

namespace twintile {

/// One of the language's files: its path under the language's root
/// ("include/twintile.h", "frontends/trace/Entry.h") and its text.
struct LanguageFile {
  std::string_view path;
  std::string_view text;
};

/// Every language file this build carries (generated from the list in
/// frontends/common/CMakeLists.txt).
std::span<const LanguageFile> languageFiles();

/// A hash of every language file's path and text: what every cache of a
/// compiled kernel file (the precompiled header, the tracer's host objects)
/// keys on, so that another language is another key.
const std::string &languageFilesKey();

/// Where Clang reads the language's files: a directory holding each of them
/// under its path, named by languageFilesKey(), under twintile's cache
/// (cacheDirectory("language")) or, where that cannot be written, under the
/// temporary directory in one of this user's own. Checked against the
/// embedded text at every call, and rewritten where it differs or has gone
/// (a damaged or edited copy is never used). `error` says why no directory
/// could hold them (then `dir` is empty); a later call tries again.
struct LanguageRoot {
  std::filesystem::path dir;
  std::string error;
};
LanguageRoot languageRoot();

/// The files a compile read (Clang's list), as a build's dependencies: each
/// absolute and canonical, once, sorted, without the language's own (which
/// twintile carries, and whose key keys what it compiles).
std::vector<std::string> userFiles(const std::vector<std::string> &read);

} // namespace twintile
