//===- LanguageHeader.cpp - Clang's arguments, the precompiled language header ===//
#include "frontends/clang/LanguageHeader.h"

#include "frontends/common/LanguageFiles.h"
#include "support/Cache.h"
#include "support/Environment.h"
#include "support/Files.h"

#include <clang/Basic/Version.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Tooling/Tooling.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <unistd.h>

#ifndef TWINTILE_CLANG_RESOURCE_DIR
#error "TWINTILE_CLANG_RESOURCE_DIR must name Clang's resource directory"
#endif

namespace fs = std::filesystem;

namespace twintile {

namespace {

/// Writes a PCH to a file of our choosing (tooling drops -o).
class WritePch : public clang::GeneratePCHAction {
public:
  explicit WritePch(std::string out) : out_(std::move(out)) {}

protected:
  bool BeginInvocation(clang::CompilerInstance &ci) override {
    ci.getFrontendOpts().OutputFile = out_;
    return clang::GeneratePCHAction::BeginInvocation(ci);
  }

private:
  std::string out_;
};

constexpr const char *kPchRecordFormat = "twintile-pch-2";
constexpr const char *kInstantiatedHeader = "include/twintile/instantiated.h";

} // namespace

std::vector<std::string> clangBaseArgs(const std::vector<std::string> &includeDirs) {
  std::vector<std::string> args = {"-std=c++20", "-w", "-resource-dir", TWINTILE_CLANG_RESOURCE_DIR};
  if (LanguageRoot root = languageRoot(); !root.dir.empty()) args.push_back("-I" + (root.dir / "include").string());
  for (const std::string &d : includeDirs) args.push_back("-I" + d);
  return args;
}

std::vector<std::string> pchArgs(const std::string &pch) {
  return {"-include-pch", pch, "-Xclang", "-fno-validate-pch"};
}

namespace {

std::mutex pchMutex;
std::map<std::pair<std::vector<std::string>, std::string>, std::string> pchBuilt;  // by arguments, header

} // namespace

bool pchUnusable(const std::string &diagnostics, const std::string &pch) {
  // Clang's messages about a header it cannot read name the file ("PCH file
  // '...' not found", "unable to read PCH file ...") or say what it found in
  // it; a user's error that quotes the words does neither.
  return diagnostics.find(pch) != std::string::npos ||
         diagnostics.find("malformed or corrupted AST file") != std::string::npos;
}

void forgetLanguagePch(const std::string &pch) {
  std::lock_guard<std::mutex> lock(pchMutex);
  std::erase_if(pchBuilt, [&](const auto &entry) { return entry.second == pch; });
}

std::string languagePch(const std::vector<std::string> &args, std::vector<std::string> &notes,
                        const std::string &header) {
  std::lock_guard<std::mutex> lock(pchMutex);
  auto &built = pchBuilt;
  // What this process made or found before, unless it has gone since (a
  // cache directory removed under a long-running process).
  std::error_code gone;
  auto which = std::make_pair(args, header);
  if (auto it = built.find(which); it != built.end() && (it->second.empty() || fs::exists(it->second, gone)))
    return it->second;
  std::string &result = built[which];
  result.clear();
  if (support::envValue(support::Env::NoPch)) return result;
  LanguageRoot root = languageRoot();
  if (root.dir.empty()) return result;
  fs::path headerPath = root.dir / header;
  std::optional<std::string> text = twintile::support::readFile(headerPath);
  if (!text) return result;
  // Key: the language's files (the header among them), the header, the
  // arguments and Clang's version.
  twintile::support::ContentHash keyHash;
  keyHash.add(languageFilesKey());
  keyHash.add(header);
  for (const std::string &a : args) keyHash.add(a);
  keyHash.add(clang::getClangFullVersion());  // the Clang this process runs
  std::string key = keyHash.hex();
  fs::path dir = twintile::support::cacheDirectory("pch");
  fs::path pch = dir / (key + ".pch"), record = dir / (key + ".sum");
  std::error_code ec;
  if (fs::exists(pch, ec)) {
    std::string wrong = twintile::support::checkCached(pch, record, kPchRecordFormat, key);
    if (wrong.empty()) return result = pch.string();
    notes.push_back("the cached precompiled header " + pch.string() + " was not used: " + wrong + "; rebuilt");
  }
  // A cache that cannot be written is said here, before Clang would print
  // an error about the file it cannot open.
  if (!fs::is_directory(dir, ec) || ::access(dir.c_str(), W_OK) != 0) {
    notes.push_back("the precompiled language header cannot be kept in " + dir.string() +
                    ": the header is parsed with every kernel (slower, same result)");
    return result;
  }
  // Built beside the entry under a name of its own, then renamed over it.
  std::string suffix = "." + std::to_string(getpid()) + "." + std::to_string(std::random_device{}());
  fs::path tmp = dir / (key + ".pch" + suffix), recordTmp = dir / (key + ".sum" + suffix);
  // The header, after the element types' classes instantiated once
  // (twintile/instantiated.h, which includes the language header).
  std::vector<std::string> headerArgs = args;
  headerArgs.insert(headerArgs.end(), {"-include", (root.dir / kInstantiatedHeader).string(),
                                       "-x", "c++-header"});
  std::optional<std::string> bytes;
  if (clang::tooling::runToolOnCodeWithArgs(std::make_unique<WritePch>(tmp.string()), *text, headerArgs,
                                            headerPath.string(), "twintile"))
    bytes = twintile::support::readFile(tmp);
  if (bytes) std::ofstream(recordTmp, std::ios::binary) << twintile::support::cacheRecord(kPchRecordFormat, key, *bytes);
  // The record first: a reader that finds the header finds its record too.
  if (bytes) fs::rename(recordTmp, record, ec);
  if (bytes && !ec) fs::rename(tmp, pch, ec);
  if (!bytes || ec) {
    fs::remove(tmp, ec);
    fs::remove(recordTmp, ec);
    notes.push_back(std::string("the precompiled language header could not be ") +
                    (bytes ? "kept in " + dir.string() : "built") +
                    ": the header is parsed with every kernel (slower, same result)");
    return result;
  }
  return result = pch.string();
}

} // namespace twintile
