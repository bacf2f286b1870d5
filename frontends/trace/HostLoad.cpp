//===- HostLoad.cpp - a kernel file's compiled code, loaded to be run ----===//
#include "frontends/trace/HostLoad.h"

#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>

#include <dlfcn.h>
#include <mutex>
#include <vector>

namespace twintile {

namespace {

std::string entryName(size_t i) { return "twintile_trace_entry_" + std::to_string(i); }

class SharedObject : public HostCode {
public:
  explicit SharedObject(void *handle) : handle_(handle) {}
  Entry entry(size_t i) override { return reinterpret_cast<Entry>(::dlsym(handle_, entryName(i).c_str())); }

private:
  void *handle_;
};

class JitObject : public HostCode {
public:
  explicit JitObject(std::unique_ptr<llvm::orc::LLJIT> jit) : jit_(std::move(jit)) {}
  Entry entry(size_t i) override {
    llvm::Expected<llvm::orc::ExecutorAddr> at = jit_->lookup(entryName(i));
    if (!at) {
      llvm::consumeError(at.takeError());
      return nullptr;
    }
    return at->toPtr<Entry>();
  }

private:
  std::unique_ptr<llvm::orc::LLJIT> jit_;
};

HostCode *loadRelocatable(const std::string &path, std::string &error) {
  static std::once_flag once;
  std::call_once(once, [] { llvm::InitializeNativeTarget(); });
  auto fail = [&](llvm::Error e) -> HostCode * {
    error = llvm::toString(std::move(e));
    return nullptr;
  };
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> bytes = llvm::MemoryBuffer::getFile(path);
  if (!bytes) {
    error = "cannot read " + path + ": " + bytes.getError().message();
    return nullptr;
  }
  // No platform: the object's initializers are one function of its own
  // (HostCompile.h), called below; the process's symbols are linked.
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
      llvm::orc::LLJITBuilder().setPlatformSetUp(llvm::orc::setUpInactivePlatform).create();
  if (!jit) return fail(jit.takeError());
  llvm::orc::LLJIT &j = **jit;
  // The linker's own complaint (a symbol nothing defines, a relocation it
  // cannot make), where a failed lookup would only list what it could not
  // make.
  auto linkerSaid = std::make_shared<std::string>();
  j.getExecutionSession().setErrorReporter([linkerSaid](llvm::Error e) {
    std::string text = llvm::toString(std::move(e));
    if (linkerSaid->empty()) *linkerSaid = text;
  });
  if (llvm::Error e = j.addObjectFile(std::move(*bytes))) return fail(std::move(e));
  llvm::Expected<llvm::orc::ExecutorAddr> init = j.lookup("twintile_trace_init");
  if (!init) {
    llvm::consumeError(init.takeError());
    error = linkerSaid->empty() ? "the JIT linker could not load it" : *linkerSaid;
    return nullptr;
  }
  init->toPtr<void (*)()>()();
  return new JitObject(std::move(*jit));
}

} // namespace

HostCode *HostCode::load(const std::string &path, bool relocatable, std::string &error) {
  // Kept for the life of the process (see HostLoad.h).
  static std::mutex mutex;
  static auto *loaded = new std::vector<std::unique_ptr<HostCode>>();
  HostCode *code = nullptr;
  if (relocatable) {
    code = loadRelocatable(path, error);
  } else if (void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    code = new SharedObject(handle);
  } else {
    const char *why = ::dlerror();
    error = why ? why : "unknown";
  }
  if (code) {
    std::lock_guard<std::mutex> lock(mutex);
    loaded->emplace_back(code);
  }
  return code;
}

} // namespace twintile
