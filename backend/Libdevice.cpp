//===- Libdevice.cpp - linking CUDA's math library into a kernel ----------===//
#include "backend/Libdevice.h"

#include "ir/Diagnostic.h"
#include "support/Cache.h"
#include "support/Files.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include <unistd.h>

namespace twintile::backend {

namespace {

namespace fs = std::filesystem;

/// The global values `v` refers to, through constant expressions too.
void referencedGlobals(const llvm::Value *v, std::vector<const llvm::GlobalValue *> &out,
                       std::set<const llvm::Value *> &seen) {
  if (!seen.insert(v).second) return;
  if (const auto *g = llvm::dyn_cast<llvm::GlobalValue>(v)) {
    out.push_back(g);
    return;
  }
  if (const auto *c = llvm::dyn_cast<llvm::Constant>(v))
    for (const llvm::Use &u : c->operands()) referencedGlobals(u.get(), out, seen);
}

/// libdevice's definitions of `names` and of everything they reach, as the
/// bitcode of a module holding only those; empty and `error` (a sentence
/// after "libdevice at PATH") if it cannot. Runs under the caller's lock, in
/// a context of its own.
std::string cutOut(const llvm::MemoryBuffer &bytes, const std::vector<std::string> &names, std::string &error) {
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic diag;
  // Lazily: only the bodies of the functions reached are read.
  std::unique_ptr<llvm::Module> lib =
      llvm::getLazyIRModule(llvm::MemoryBuffer::getMemBuffer(bytes.getMemBufferRef(), false), diag, ctx);
  if (!lib) {
    error = "cannot be read: " + diag.getMessage().str();
    return {};
  }
  std::set<const llvm::GlobalValue *> needed;
  std::vector<const llvm::GlobalValue *> work;
  for (const std::string &n : names) {
    const llvm::GlobalValue *g = lib->getNamedValue(n);
    if (!g || !llvm::isa<llvm::Function>(g)) {
      error = "defines no function " + n + " (the backend needs CUDA 11's libdevice or later)";
      return {};
    }
    work.push_back(g);
  }
  std::set<const llvm::Value *> seen;
  while (!work.empty()) {
    const llvm::GlobalValue *g = work.back();
    work.pop_back();
    if (!needed.insert(g).second) continue;
    auto *mutableG = const_cast<llvm::GlobalValue *>(g);
    if (llvm::Error e = mutableG->materialize()) {
      error = "cannot be read: " + llvm::toString(std::move(e));
      return {};
    }
    if (const auto *alias = llvm::dyn_cast<llvm::GlobalAlias>(g)) referencedGlobals(alias->getAliasee(), work, seen);
    if (const auto *var = llvm::dyn_cast<llvm::GlobalVariable>(g); var && var->hasInitializer())
      referencedGlobals(var->getInitializer(), work, seen);
    if (const auto *f = llvm::dyn_cast<llvm::Function>(g))
      for (const llvm::Instruction &inst : llvm::instructions(*f))
        for (const llvm::Use &u : inst.operands()) referencedGlobals(u.get(), work, seen);
  }
  llvm::ValueToValueMapTy map;
  std::unique_ptr<llvm::Module> part =
      llvm::CloneModule(*lib, map, [&](const llvm::GlobalValue *g) { return needed.count(g) > 0; });
  // The clone declares all of libdevice: keep only what is used.
  for (llvm::Function &f : llvm::make_early_inc_range(part->functions()))
    if (f.isDeclaration() && f.use_empty()) f.eraseFromParent();
  for (llvm::GlobalVariable &v : llvm::make_early_inc_range(part->globals()))
    if (v.isDeclaration() && v.use_empty()) v.eraseFromParent();
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::WriteBitcodeToFile(*part, os);
  return os.str();
}

constexpr const char *kPartRecordFormat = "twintile-libdevice-1";

/// The disk cache's key for a part: libdevice's path, size and modification
/// time (hashing its 500 KB would cost what the cache saves), LLVM's
/// version, the names.
std::string partKey(const std::string &path, const std::vector<std::string> &names) {
  std::error_code ec;
  twintile::support::ContentHash h;
  h.add(path);
  h.add(std::to_string(fs::file_size(path, ec)));
  h.add(std::to_string(fs::last_write_time(path, ec).time_since_epoch().count()));
  h.add(LLVM_VERSION_STRING);
  for (const std::string &n : names) h.add(n);
  return h.hex();
}

/// Keeps `bitcode` in the disk cache (written aside, then renamed: a reader
/// sees all or nothing). A cache that cannot be written only costs time.
void keep(const fs::path &dir, const std::string &key, const std::string &bitcode) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  std::string suffix = "." + std::to_string(::getpid()) + "." + std::to_string(std::random_device{}());
  fs::path tmp = dir / (key + ".bc" + suffix), recordTmp = dir / (key + ".sum" + suffix);
  bool written = twintile::support::writeFile(tmp, bitcode) &&
                 twintile::support::writeFile(recordTmp, twintile::support::cacheRecord(kPartRecordFormat, key, bitcode));
  // The record first: a reader that finds the part finds its record too.
  if (written) fs::rename(recordTmp, dir / (key + ".sum"), ec);
  if (written && !ec) fs::rename(tmp, dir / (key + ".bc"), ec);
  fs::remove(tmp, ec);
  fs::remove(recordTmp, ec);
}

/// The bitcode of libdevice's `names` (sorted) and what they reach: cut out
/// once per process, path and set of names, and kept in the disk cache (as
/// the parse front end keeps its precompiled header, whatever --no-cache
/// says: it is the library's, not a kernel's), where a one-kernel process
/// finds it; an entry that does not match its record is cut again.
const std::string *libdevicePart(const std::string &path, const std::vector<std::string> &names,
                                 const std::string &cacheRoot, std::string &error) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> files;
  static std::map<std::pair<std::string, std::vector<std::string>>, std::string> parts;
  std::lock_guard<std::mutex> lock(mutex);
  auto known = parts.find({path, names});
  if (known != parts.end()) return &known->second;
  std::string key = partKey(path, names);
  fs::path dir = twintile::support::cacheDirectory("libdevice", cacheRoot);
  fs::path entry = dir / (key + ".bc");
  std::error_code ec;
  if (fs::exists(entry, ec) && twintile::support::checkCached(entry, dir / (key + ".sum"), kPartRecordFormat, key).empty())
    if (std::optional<std::string> cached = twintile::support::readFile(entry))
      return &parts.emplace(std::make_pair(path, names), std::move(*cached)).first->second;
  std::unique_ptr<llvm::MemoryBuffer> &bytes = files[path];
  if (!bytes) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(path);
    if (!file) {
      error = "cannot be read: " + file.getError().message();
      files.erase(path);
      return nullptr;
    }
    bytes = std::move(*file);
  }
  std::string bitcode = cutOut(*bytes, names, error);
  if (bitcode.empty()) return nullptr;
  keep(dir, key, bitcode);
  return &parts.emplace(std::make_pair(path, names), std::move(bitcode)).first->second;
}

} // namespace

std::string linkLibdevice(llvm::Module &module, const std::string &path, const std::string &cacheRoot) {
  std::vector<std::string> names;  // in the module's order, which is deterministic
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && f.getName().starts_with("__nv_")) names.push_back(f.getName().str());
  if (names.empty()) return {};
  std::sort(names.begin(), names.end());
  std::string error;
  const std::string *bitcode = libdevicePart(path, names, cacheRoot, error);
  if (!bitcode) return "libdevice at " + path + " " + error;
  llvm::Expected<std::unique_ptr<llvm::Module>> lib =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(*bitcode, "libdevice"), module.getContext());
  if (!lib) throw ir::InternalError("libdevice's functions, cut out of " + path + ", do not read back: " + llvm::toString(lib.takeError()));
  (*lib)->setTargetTriple(module.getTargetTriple());
  (*lib)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(*lib), llvm::Linker::Flags::LinkOnlyNeeded))
    return "cannot link libdevice from " + path;
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  return {};
}

} // namespace twintile::backend
