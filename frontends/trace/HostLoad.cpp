//===- HostLoad.cpp - a kernel file's compiled code, loaded to be run ----===//
#include "frontends/trace/HostLoad.h"

#include "support/LlvmTargets.h"

#include <llvm/Demangle/Demangle.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <dlfcn.h>
#include <sys/stat.h>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <vector>
#include <regex>

namespace twintile {

namespace {

class SharedObject : public HostCode {
public:
  explicit SharedObject(void *handle) : handle_(handle) {}
  Entry entry(size_t i) override { return reinterpret_cast<Entry>(::dlsym(handle_, traceEntrySymbol(i).c_str())); }

private:
  void *handle_;
};

class JitObject : public HostCode {
public:
  explicit JitObject(std::unique_ptr<llvm::orc::LLJIT> jit) : jit_(std::move(jit)) {}
  Entry entry(size_t i) override {
    llvm::Expected<llvm::orc::ExecutorAddr> at = jit_->lookup(traceEntrySymbol(i));
    if (!at) {
      llvm::consumeError(at.takeError());
      return nullptr;
    }
    return at->toPtr<Entry>();
  }

private:
  std::unique_ptr<llvm::orc::LLJIT> jit_;
};

/// A linker's complaint as the file's author should read it: the symbols it
/// could not find (ORC's "Symbols not found: [ a, b ]", dlopen's "undefined
/// symbol: a"), demangled, are the file's fault unless one is twintile's own
/// (then the fault is ours, as is any other complaint).
LoadError classify(const std::string &said) {
  static const std::regex missing(R"(Symbols not found: \[ ([^\]]*) \]|undefined symbol: (\S+))");
  std::smatch m;
  if (!std::regex_search(said, m, missing)) return {said, true};
  std::string list = m[1].matched ? m[1].str() : m[2].str();
  std::string names;
  bool ours = false;
  for (size_t at = 0; at < list.size();) {
    size_t comma = list.find(", ", at);
    std::string symbol = list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    at = comma == std::string::npos ? list.size() : comma + 2;
    if (symbol.ends_with(",")) symbol.pop_back();  // glibc's "undefined symbol: f, version V"
    std::string name = llvm::demangle(symbol);
    // twintile's own: its generated entry points, the tracer's functions
    // and types (their typeinfo and vtables too).
    ours |= symbol.starts_with(kTraceEntryPrefix) || symbol == kTraceInitSymbol ||
            name.find("twintile::") != std::string::npos || name.find("tt::detail::") != std::string::npos;
    names += (names.empty() ? "" : ", ") + name;
  }
  if (ours) return {said, true};
  return {"the kernel file uses " + names + ", which neither it nor the C++ runtime defines (" + said + ")", false};
}

HostCode *loadRelocatable(const std::string &path, LoadError &error) {
  twintile::support::registerLlvmTargets();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> bytes = llvm::MemoryBuffer::getFile(path);
  if (!bytes) {
    error = {"cannot read " + path + ": " + bytes.getError().message(), true};
    return nullptr;
  }
  // No platform: the object's initializers are one function of its own
  // (HostCompile.h), called below; the process's symbols are linked.
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
      llvm::orc::LLJITBuilder().setPlatformSetUp(llvm::orc::setUpInactivePlatform).create();
  if (!jit) {
    error = {"the JIT linker could not start: " + llvm::toString(jit.takeError()), true};
    return nullptr;
  }
  llvm::orc::LLJIT &j = **jit;
  // The linker's own complaint (a symbol nothing defines, a relocation it
  // cannot make), where a failed lookup would only list what it could not
  // make.
  auto linkerSaid = std::make_shared<std::string>();
  j.getExecutionSession().setErrorReporter([linkerSaid](llvm::Error e) {
    std::string text = llvm::toString(std::move(e));
    if (linkerSaid->empty()) *linkerSaid = text;
  });
  if (llvm::Error e = j.addObjectFile(std::move(*bytes))) {
    error = {"the JIT linker refused the compiled kernel file: " + llvm::toString(std::move(e)), true};
    return nullptr;
  }
  llvm::Expected<llvm::orc::ExecutorAddr> init = j.lookup(kTraceInitSymbol);
  if (!init) {
    std::string lookup = llvm::toString(init.takeError());
    error = classify(linkerSaid->empty() ? lookup : *linkerSaid);
    return nullptr;
  }
  auto *code = new JitObject(std::move(*jit));
  // Kept whatever happens next: an exception out of an initializer may be
  // of a type whose code lives in the object.
  std::unique_ptr<HostCode> keep(code);
  try {
    init->toPtr<void (*)()>()();
  } catch (...) {
    static auto *kept = new std::vector<std::unique_ptr<HostCode>>();
    kept->push_back(std::move(keep));
    throw;
  }
  return keep.release();
}

} // namespace

HostCode *HostCode::load(const std::string &path, bool relocatable, LoadError &error) {
  // Kept for the life of the process (see HostLoad.h), once per file, as
  // dlopen() keeps a shared object: by path, inode and modification time,
  // since a path (a private scratch directory's) may name another file later.
  static std::mutex mutex;
  static auto *loaded = new std::map<std::string, std::unique_ptr<HostCode>>();
  struct stat st{};
  std::string key = path;
  if (::stat(path.c_str(), &st) == 0)
    key += ":" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec);
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = loaded->find(key); it != loaded->end()) return it->second.get();
  HostCode *code = nullptr;
  if (relocatable) {
    code = loadRelocatable(path, error);
  } else if (void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    code = new SharedObject(handle);
  } else {
    const char *why = ::dlerror();
    error = classify(why ? why : "dlopen failed");
  }
  if (code) loaded->emplace(key, code);
  return code;
}

} // namespace twintile
