//===- FakeCuda.cpp - a CUDA driver stand-in for testing CudaDevice -------===//
//
// A shared library exporting the driver entry points CudaDevice looks up,
// so that its whole path (loading, parameter marshaling, copies, events,
// error messages, cleanup) runs on a machine without a GPU: tests point
// $TWINTILE_LIBCUDA here. Device memory is host memory at made-up
// addresses; a module is the PTX parsed by the emulator; a launch passes
// each 8-byte parameter that is the start of an allocation as that buffer
// and runs the emulator. Like a GPU, an emulator error (a bad access, a
// trap) is sticky: CUDA_ERROR_ILLEGAL_ADDRESS from then on, until
// fakeCudaReset().
//
//   FAKE_CUDA_FAIL=cuMemAlloc_v2=2   that entry point returns that CUresult
//   FAKE_CUDA_FAIL=cuMemAlloc_v2=2@3 ... from its third call on
//   FAKE_CUDA_DEVICES=0              what cuDeviceGetCount reports (1)
//   FAKE_CUDA_TIME=instructions      events time the emulator's work: a
//                                    nanosecond per thread-level instruction
//                                    run between them (default: wall clock),
//                                    so a test of the autotuner knows what
//                                    its timings favour
//
// fakeCudaCount("allocations" | "modules" | "events" | "contexts" |
// "loads" | "memsets") lets a test see what is alive, how often a module was
// loaded and how many memsets ran since the last reset.
//===----------------------------------------------------------------------===//
#include "runtime/Emulator.h"
#include "runtime/PtxProgram.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

using namespace twintile::runtime;

struct CUctx_st {};
struct CUmod_st;
struct CUfunc_st {
  CUmod_st *module;
  std::string name;
  int maxDynamicShared = 48 * 1024;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
};
struct CUmod_st {
  PtxModule ptx;
  std::map<std::string, std::unique_ptr<CUfunc_st>> functions;
};
struct CUevent_st {
  std::chrono::steady_clock::time_point at;
  uint64_t instructionsAt = 0;  // instructions run by then (FAKE_CUDA_TIME=instructions)
  bool recorded = false;
};

namespace {

using CUdeviceptr = unsigned long long;
constexpr int kInvalidValue = 1, kInvalidImage = 200, kInvalidPtx = 218, kInvalidHandle = 400, kNotFound = 500,
              kIllegalAddress = 700, kNotReady = 600;

struct State {
  std::map<CUdeviceptr, std::vector<uint8_t>> memory;  // by start address
  CUdeviceptr next = 0x7f0000000000ull;
  std::map<CUmod_st *, std::unique_ptr<CUmod_st>> modules;
  std::map<CUevent_st *, std::unique_ptr<CUevent_st>> events;
  int contexts = 0, loads = 0, sticky = 0;
  uint64_t instructions = 0;  // thread-level instructions every launch has run
  std::map<std::string, int> calls;  // by entry point, since the last reset
  CUctx_st context;
};
State &state() {
  static State s;
  return s;
}

/// The CUresult FAKE_CUDA_FAIL asks `entry` to return ("cuX=2": always,
/// "cuX=2@3": from its third call since fakeCudaReset on), else the sticky
/// error, else 0.
int injected(const char *entry) {
  int call = ++state().calls[entry];
  if (const char *spec = std::getenv("FAKE_CUDA_FAIL")) {
    std::string s = spec, prefix = std::string(entry) + "=";
    if (s.rfind(prefix, 0) == 0) {
      size_t at = s.find('@');
      if (at == std::string::npos || call >= std::atoi(s.c_str() + at + 1)) return std::atoi(s.c_str() + prefix.size());
    }
  }
  return state().sticky;
}

/// The allocation holding [address, address + bytes), or null.
std::vector<uint8_t> *find(CUdeviceptr address, size_t bytes, size_t &offset) {
  auto &memory = state().memory;
  auto it = memory.upper_bound(address);
  if (it == memory.begin()) return nullptr;
  --it;
  offset = address - it->first;
  if (offset + bytes > it->second.size()) return nullptr;
  return &it->second;
}

} // namespace

#define FAKE_CHECK(entry)                                                                                           \
  if (int injectedError = injected(entry)) return injectedError

FAKE_EXPORT int cuInit(unsigned) {
  FAKE_CHECK("cuInit");
  return 0;
}
FAKE_EXPORT int cuDriverGetVersion(int *version) {
  *version = 13000;
  return 0;
}
FAKE_EXPORT int cuDeviceGetCount(int *count) {
  const char *n = std::getenv("FAKE_CUDA_DEVICES");
  *count = n ? std::atoi(n) : 1;
  return 0;
}
FAKE_EXPORT int cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return 0;
}
FAKE_EXPORT int cuDeviceGetName(char *name, int length, int) {
  std::snprintf(name, size_t(length), "%s", "Fake GPU");
  return 0;
}
FAKE_EXPORT int cuDeviceGetAttribute(int *value, int attribute, int) {
  switch (attribute) {
  case 5: *value = 2147483647; return 0;
  case 6: *value = 65535; return 0;
  case 7: *value = 65535; return 0;
  case 16: *value = 4; return 0;
  case 75: *value = 9; return 0;
  case 76: *value = 0; return 0;
  case 97: *value = 227 * 1024; return 0;
  }
  return kInvalidValue;
}
FAKE_EXPORT int cuDevicePrimaryCtxRetain(CUctx_st **context, int) {
  FAKE_CHECK("cuDevicePrimaryCtxRetain");
  ++state().contexts;
  *context = &state().context;
  return 0;
}
FAKE_EXPORT int cuDevicePrimaryCtxRelease_v2(int) {
  --state().contexts;
  return 0;
}
FAKE_EXPORT int cuCtxSetCurrent(CUctx_st *) { return 0; }
FAKE_EXPORT int cuCtxSynchronize() { return state().sticky; }

FAKE_EXPORT int cuModuleLoadDataEx(CUmod_st **module, const void *image, unsigned numOptions, int *options,
                                   void **values) {
  FAKE_CHECK("cuModuleLoadDataEx");
  const char *text = static_cast<const char *>(image);
  if (std::strncmp(text, "\x7f" "ELF", 4) == 0) return kInvalidImage;  // no cubins here
  auto m = std::make_unique<CUmod_st>();
  try {
    m->ptx = PtxModule::parse(text);
  } catch (const PtxError &e) {
    char *log = nullptr;
    size_t size = 0;
    for (unsigned i = 0; i < numOptions; ++i) {
      if (options[i] == 5) log = static_cast<char *>(values[i]);
      if (options[i] == 6) size = reinterpret_cast<uintptr_t>(values[i]);
    }
    if (log && size) std::snprintf(log, size, "fake ptxas: %s", e.what());
    return kInvalidPtx;
  }
  ++state().loads;
  *module = m.get();
  state().modules.emplace(m.get(), std::move(m));
  return 0;
}
FAKE_EXPORT int cuModuleGetFunction(CUfunc_st **function, CUmod_st *module, const char *name) {
  FAKE_CHECK("cuModuleGetFunction");
  if (!state().modules.count(module)) return kInvalidHandle;
  for (const auto &f : module->ptx.program().functions)
    if (f.isEntry && f.name == name) {
      auto &slot = module->functions[name];
      if (!slot) slot.reset(new CUfunc_st{module, name});
      *function = slot.get();
      return 0;
    }
  return kNotFound;
}
FAKE_EXPORT int cuModuleUnload(CUmod_st *module) {
  return state().modules.erase(module) ? 0 : kInvalidHandle;
}

FAKE_EXPORT int cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  FAKE_CHECK("cuMemAlloc_v2");
  if (bytes == 0) return kInvalidValue;
  State &s = state();
  *pointer = s.next;
  s.memory[s.next].assign(bytes, 0xcd);  // like a GPU, fresh memory is not zero
  s.next += (bytes + 4095) / 4096 * 4096 + 4096;
  return 0;
}
FAKE_EXPORT int cuMemFree_v2(CUdeviceptr pointer) {
  return state().memory.erase(pointer) ? 0 : kInvalidValue;
}
FAKE_EXPORT int cuMemcpyHtoD_v2(CUdeviceptr destination, const void *source, size_t bytes) {
  FAKE_CHECK("cuMemcpyHtoD_v2");
  size_t offset = 0;
  std::vector<uint8_t> *a = find(destination, bytes, offset);
  if (!a) return kInvalidValue;
  std::memcpy(a->data() + offset, source, bytes);
  return 0;
}
FAKE_EXPORT int cuMemsetD8Async(CUdeviceptr destination, unsigned char value, size_t bytes, void *) {
  FAKE_CHECK("cuMemsetD8Async");
  size_t offset = 0;
  std::vector<uint8_t> *a = find(destination, bytes, offset);
  if (!a) return kInvalidValue;
  std::fill_n(a->begin() + std::ptrdiff_t(offset), bytes, value);
  return 0;
}
FAKE_EXPORT int cuMemcpyDtoH_v2(void *destination, CUdeviceptr source, size_t bytes) {
  FAKE_CHECK("cuMemcpyDtoH_v2");
  size_t offset = 0;
  std::vector<uint8_t> *a = find(source, bytes, offset);
  if (!a) return kInvalidValue;
  std::memcpy(destination, a->data() + offset, bytes);
  return 0;
}

FAKE_EXPORT int cuFuncSetAttribute(CUfunc_st *function, int attribute, int value) {
  FAKE_CHECK("cuFuncSetAttribute");
  if (!function || attribute != 8 || value < 0 || value > 227 * 1024) return kInvalidValue;
  function->maxDynamicShared = value;
  return 0;
}

FAKE_EXPORT int cuLaunchKernel(CUfunc_st *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shared, void *, void **params, void **extra) {
  FAKE_CHECK("cuLaunchKernel");
  // As the driver: dynamic shared memory past 48 KiB needs cuFuncSetAttribute first.
  if (!function || extra || int64_t(shared) > function->maxDynamicShared || uint64_t(bx) * by * bz > 1024)
    return kInvalidValue;
  const twintile::runtime::ptx::Function *entry = nullptr;
  for (const auto &f : function->module->ptx.program().functions)
    if (f.isEntry && f.name == function->name) entry = &f;
  if (!entry || (!params && !entry->params.empty())) return kInvalidValue;
  std::vector<EmuArg> args;
  std::vector<std::span<uint8_t>> buffers;
  for (size_t i = 0; i < entry->params.size(); ++i) {
    uint64_t bits = 0;
    size_t size = entry->params[i].size;
    if (size > 8) return kInvalidValue;
    std::memcpy(&bits, params[i], size);
    auto it = state().memory.find(bits);
    if (size == 8 && it != state().memory.end()) {
      args.push_back(EmuArg::buf(buffers.size()));
      buffers.emplace_back(it->second);
    } else {
      args.push_back(EmuArg::scalar(bits));
    }
  }
  EmuOptions options;
  options.dynamicSharedBytes = shared;
  EmuResult r = emulate(function->module->ptx, function->name, {gx, gy, gz}, {bx, by, bz}, args, buffers, options);
  state().instructions += r.instructions;
  if (!r.ok()) state().sticky = kIllegalAddress;  // reported at the next synchronization, as on a GPU
  return 0;
}

FAKE_EXPORT int cuEventCreate(CUevent_st **event, unsigned) {
  FAKE_CHECK("cuEventCreate");
  auto e = std::make_unique<CUevent_st>();
  *event = e.get();
  state().events.emplace(e.get(), std::move(e));
  return 0;
}
FAKE_EXPORT int cuEventRecord(CUevent_st *event, void *) {
  FAKE_CHECK("cuEventRecord");
  event->at = std::chrono::steady_clock::now();
  event->instructionsAt = state().instructions;
  event->recorded = true;
  return 0;
}
FAKE_EXPORT int cuEventSynchronize(CUevent_st *) { return state().sticky; }
FAKE_EXPORT int cuEventElapsedTime(float *milliseconds, CUevent_st *start, CUevent_st *end) {
  FAKE_CHECK("cuEventElapsedTime");
  if (!start->recorded || !end->recorded) return kNotReady;
  const char *time = std::getenv("FAKE_CUDA_TIME");
  *milliseconds = time && !std::strcmp(time, "instructions")
                      ? float(double(end->instructionsAt - start->instructionsAt) * 1e-6)
                      : std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return 0;
}
FAKE_EXPORT int cuEventDestroy_v2(CUevent_st *event) { return state().events.erase(event) ? 0 : kInvalidHandle; }

namespace {
struct ErrorInfo {
  int code;
  const char *name, *text;
};
constexpr ErrorInfo kErrors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {600, "CUDA_ERROR_NOT_READY", "device not ready"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
};
} // namespace

FAKE_EXPORT int cuGetErrorName(int error, const char **name) {
  for (const ErrorInfo &e : kErrors)
    if (e.code == error) return *name = e.name, 0;
  return kInvalidValue;
}
FAKE_EXPORT int cuGetErrorString(int error, const char **text) {
  for (const ErrorInfo &e : kErrors)
    if (e.code == error) return *text = e.text, 0;
  return kInvalidValue;
}

/// How many of `what` are alive ("allocations", "modules", "events",
/// "contexts"), or how many modules were loaded ("loads").
FAKE_EXPORT long fakeCudaCount(const char *what) {
  State &s = state();
  std::string w = what;
  if (w == "allocations") return long(s.memory.size());
  if (w == "modules") return long(s.modules.size());
  if (w == "events") return long(s.events.size());
  if (w == "contexts") return s.contexts;
  if (w == "loads") return s.loads;
  if (w == "memsets") return s.calls.count("cuMemsetD8Async") ? s.calls.at("cuMemsetD8Async") : 0;
  return -1;
}

/// Forgets a sticky error, the load count and the call counts (what is alive stays).
FAKE_EXPORT void fakeCudaReset() {
  state().sticky = 0;
  state().loads = 0;
  state().calls.clear();
}
