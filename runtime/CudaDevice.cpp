//===- CudaDevice.cpp - the first GPU, through the CUDA driver API --------===//
//
// makeCudaDevice opens the driver (CudaDriver.h), initializes it, and takes
// device 0's primary context. A launch:
//
//   checkLaunch; load the module (cubin if the image has one, else PTX,
//   once per distinct image, with the JIT's error log on failure); allocate
//   every buffer (at least one byte); then warmup + repeat times: copy the
//   buffers in, launch (timed launches between two events, each after the
//   L2 flush that LaunchOptions::flushBytes asks for); copy back; free.
//   A kernel with dynamic shared memory (the manifest's) gets it at launch,
//   opted into with cuFuncSetAttribute past 48 KiB; one needing more than
//   the GPU gives a block is refused before anything is loaded.
//
// Copying the buffers in before every launch makes the result that of ONE
// launch, also for kernels that accumulate into their output. Kernel
// parameters are passed as the driver wants them: a pointer to each value,
// a CUdeviceptr for a buffer, the scalar's bits in an 8-byte slot of which
// the driver reads the parameter's width (the low bytes: little-endian).
//
// Every failing call is a message: "cuLaunchKernel failed:
// CUDA_ERROR_INVALID_VALUE (invalid argument)". After a sticky error (an
// illegal address, a trap) the context is lost for the whole process; the
// message says so and every later launch refuses at once. Memory is freed
// and events destroyed on every path; modules are unloaded and the context
// released when the device goes away. The library stays loaded: the
// driver's threads and exit handlers outlive an unload.
//===----------------------------------------------------------------------===//
#include "runtime/CudaDriver.h"
#include "support/Environment.h"
#include "runtime/Device.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <map>
#include <type_traits>

namespace twintile::runtime {

using namespace cuda;

bool cuda::isStickyError(CUresult r) {
  // ILLEGAL_ADDRESS, LAUNCH_TIMEOUT, ASSERT, HARDWARE_STACK_ERROR,
  // ILLEGAL_INSTRUCTION, MISALIGNED_ADDRESS, INVALID_ADDRESS_SPACE,
  // INVALID_PC, LAUNCH_FAILED.
  return r == 700 || r == 702 || r == 710 || (r >= 714 && r <= 719);
}

std::unique_ptr<Driver> Driver::open(std::string &why) {
  std::string path = support::envValue(support::Env::LibCuda).value_or("libcuda.so.1");
  void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *e = dlerror();
    why = "no CUDA driver: dlopen(" + path + ") failed: " + (e ? e : "unknown error");
    return nullptr;
  }
  auto d = std::make_unique<Driver>();
  d->library = library;
  std::string missing;
  // The first of `names` the library exports; the first name is reported if none is.
  auto find = [&](auto &entry, std::initializer_list<const char *> names) {
    for (const char *name : names)
      if (void *symbol = dlsym(library, name)) {
        entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(symbol);
        return;
      }
    if (missing.empty()) missing = *names.begin();
  };
  find(d->cuInit, {"cuInit"});
  find(d->cuDriverGetVersion, {"cuDriverGetVersion"});
  find(d->cuDeviceGetCount, {"cuDeviceGetCount"});
  find(d->cuDeviceGet, {"cuDeviceGet"});
  find(d->cuDeviceGetName, {"cuDeviceGetName"});
  find(d->cuDeviceGetAttribute, {"cuDeviceGetAttribute"});
  find(d->cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
  find(d->cuDevicePrimaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"});
  find(d->cuCtxSetCurrent, {"cuCtxSetCurrent"});
  find(d->cuCtxSynchronize, {"cuCtxSynchronize"});
  find(d->cuModuleLoadDataEx, {"cuModuleLoadDataEx"});
  find(d->cuModuleGetFunction, {"cuModuleGetFunction"});
  find(d->cuModuleUnload, {"cuModuleUnload"});
  find(d->cuFuncSetAttribute, {"cuFuncSetAttribute"});
  find(d->cuMemAlloc, {"cuMemAlloc_v2"});
  find(d->cuMemFree, {"cuMemFree_v2"});
  find(d->cuMemcpyHtoD, {"cuMemcpyHtoD_v2"});
  find(d->cuMemcpyDtoH, {"cuMemcpyDtoH_v2"});
  find(d->cuMemsetD8Async, {"cuMemsetD8Async"});
  find(d->cuLaunchKernel, {"cuLaunchKernel"});
  find(d->cuEventCreate, {"cuEventCreate"});
  find(d->cuEventRecord, {"cuEventRecord"});
  find(d->cuEventSynchronize, {"cuEventSynchronize"});
  find(d->cuEventElapsedTime, {"cuEventElapsedTime", "cuEventElapsedTime_v2"});
  find(d->cuEventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"});
  find(d->cuGetErrorName, {"cuGetErrorName"});
  find(d->cuGetErrorString, {"cuGetErrorString"});
  if (!missing.empty()) {
    why = "the CUDA driver lacks " + missing + " (" + path + " is not a CUDA driver, or too old a one)";
    dlclose(library);  // nothing of it ran yet
    return nullptr;
  }
  return d;
}

std::string Driver::errorText(CUresult r) const {
  const char *name = nullptr, *text = nullptr;
  std::string out = cuGetErrorName(r, &name) == CUDA_SUCCESS && name ? name : "CUDA error " + std::to_string(r);
  if (cuGetErrorString(r, &text) == CUDA_SUCCESS && text) out += std::string(" (") + text + ")";
  return out;
}

namespace {

constexpr const char *kContextLost =
    "the CUDA context is unusable after this error: every later launch in this process fails (restart it)";

std::string dim(Dim3 d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

/// The device buffers of one launch, freed however the launch ends.
struct DeviceBuffers {
  const Driver &driver;
  std::vector<CUdeviceptr> pointers;
  ~DeviceBuffers() {
    for (CUdeviceptr p : pointers) driver.cuMemFree(p);
  }
};

/// The two events that time a launch, destroyed however the launch ends.
struct EventPair {
  const Driver &driver;
  CUevent start = nullptr, end = nullptr;
  ~EventPair() {
    if (start) driver.cuEventDestroy(start);
    if (end) driver.cuEventDestroy(end);
  }
};

class CudaDevice final : public Device {
public:
  CudaDevice(std::unique_ptr<Driver> driver, CUdevice device, CUcontext context, std::string description,
             Dim3 maxGrid, int maxSharedPerBlock, int ccMajor, int ccMinor)
      : d_(std::move(driver)), device_(device), context_(context), description_(std::move(description)),
        maxGrid_(maxGrid), maxSharedPerBlock_(maxSharedPerBlock), ccMajor_(ccMajor), ccMinor_(ccMinor) {}

  ~CudaDevice() override {
    d_->cuCtxSetCurrent(context_);
    for (auto &[image, module] : modules_) d_->cuModuleUnload(module);
    d_->cuDevicePrimaryCtxRelease(device_);
  }

  std::string name() const override { return "cuda"; }
  std::string describe() const override { return description_; }
  Capabilities capabilities() const override {
    return {.reference = false, .onCpu = false, .profiles = false, .interleaves = false, .timer = "CUDA events",
            .targets = targetsForComputeCapability(ccMajor_, ccMinor_),
            .cubinTarget = cubinTargetForComputeCapability(ccMajor_, ccMinor_)};
  }
  Dim3 maxGrid() const override { return maxGrid_; }

  LaunchResult launch(const KernelImage &kernel, const std::vector<LaunchArg> &args,
                      std::vector<std::span<uint8_t>> buffers, const LaunchOptions &options) override {
    LaunchResult result;
    result.error = checkLaunch(kernel.manifest, args, buffers);
    if (result.ok()) result.error = run(kernel, args, buffers, options, result.seconds);
    if (!result.ok()) result.seconds.clear();
    return result;
  }

private:
  /// "cuXxx failed: NAME (text)", noting a lost context.
  std::string failure(const std::string &call, CUresult r, const std::string &kernel = {}) {
    std::string message = call + " failed: " + d_->errorText(r);
    if (!kernel.empty()) message += " after launching '" + kernel + "'";
    if (isStickyError(r)) {
      lost_ = message;
      message += "; " + std::string(kContextLost);
    }
    return message;
  }

  /// The module of `kernel`'s image, loaded now unless it was before.
  std::string load(const KernelImage &kernel, CUmodule &module) {
    bool cubin = !kernel.cubin.empty();
    if (!cubin && kernel.ptx.empty()) return "the kernel image has neither PTX nor a cubin";
    std::string key = cubin ? "cubin:" + std::string(kernel.cubin.begin(), kernel.cubin.end()) : "ptx:" + kernel.ptx;
    if (auto it = modules_.find(key); it != modules_.end()) {
      module = it->second;
      return {};
    }
    char log[16384] = {};
    int optionKinds[] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
    void *optionValues[] = {log, reinterpret_cast<void *>(uintptr_t(sizeof log - 1))};
    const void *image = cubin ? static_cast<const void *>(kernel.cubin.data()) : kernel.ptx.c_str();
    if (CUresult r = d_->cuModuleLoadDataEx(&module, image, 2, optionKinds, optionValues)) {
      std::string message = failure(std::string("cuModuleLoadDataEx (loading the ") + (cubin ? "cubin" : "PTX") + ")", r);
      size_t length = strnlen(log, sizeof log);
      if (length) message += ":\n" + std::string(log, length);
      return message;
    }
    modules_.emplace(std::move(key), module);
    return {};
  }

  std::string run(const KernelImage &kernel, const std::vector<LaunchArg> &args,
                  std::vector<std::span<uint8_t>> &buffers, const LaunchOptions &options,
                  std::vector<double> &seconds) {
    if (!lost_.empty()) return "the CUDA context was lost to an earlier error (" + lost_ + "): restart the process";
    if (options.warmup < 0 || options.repeat < 1)
      return "a launch needs warmup >= 0 and repeat >= 1, got warmup " + std::to_string(options.warmup) +
             " and repeat " + std::to_string(options.repeat);
    Dim3 grid = options.grid;
    if (!grid.x || !grid.y || !grid.z) return "empty grid " + dim(grid);
    if (grid.x > maxGrid_.x || grid.y > maxGrid_.y || grid.z > maxGrid_.z)
      return "grid " + dim(grid) + " exceeds the device's largest " + dim(maxGrid_);
    const Manifest &manifest = kernel.manifest;
    if (manifest.sharedBytes > maxSharedPerBlock_)
      return "kernel '" + manifest.kernel + "' needs " + std::to_string(manifest.sharedBytes) +
             " bytes of shared memory; this GPU gives a block at most " + std::to_string(maxSharedPerBlock_) +
             " (compile it with fewer stages or smaller tiles)";
    if (CUresult r = d_->cuCtxSetCurrent(context_)) return failure("cuCtxSetCurrent", r);

    CUmodule module = nullptr;
    if (std::string error = load(kernel, module); !error.empty()) return error;
    CUfunction function = nullptr;
    if (CUresult r = d_->cuModuleGetFunction(&function, module, manifest.kernel.c_str()))
      return failure("cuModuleGetFunction('" + manifest.kernel + "')", r);
    // Dynamic shared memory beyond 48 KiB is opted into per function.
    unsigned dynamicShared = unsigned(manifest.dynamicSharedBytes);
    if (dynamicShared > 48 * 1024)
      if (CUresult r = d_->cuFuncSetAttribute(function, kFuncMaxDynamicSharedSizeBytes, int(dynamicShared)))
        return failure("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " + std::to_string(dynamicShared) + ")", r);

    DeviceBuffers device{*d_, {}};
    for (std::span<uint8_t> b : buffers) {
      CUdeviceptr p = 0;
      if (CUresult r = d_->cuMemAlloc(&p, std::max<size_t>(b.size(), 1)))
        return failure("cuMemAlloc of " + std::to_string(b.size()) + " bytes", r);
      device.pointers.push_back(p);
    }
    // The kernel's global scratch, its last argument (launchScratchBytes).
    CUdeviceptr scratch = 0;
    if (uint64_t bytes = launchScratchBytes(manifest, grid)) {
      if (CUresult r = d_->cuMemAlloc(&scratch, bytes))
        return failure("cuMemAlloc of the kernel's " + std::to_string(bytes) + " bytes of global scratch (" +
                           std::to_string(manifest.globalScratchBytes) + " per program)", r);
      device.pointers.push_back(scratch);
    }
    // The flush buffer is freed with the others; it is no kernel argument.
    CUdeviceptr flush = 0;
    if (options.flushBytes) {
      if (CUresult r = d_->cuMemAlloc(&flush, options.flushBytes))
        return failure("cuMemAlloc of the " + std::to_string(options.flushBytes) + "-byte L2 flush buffer", r);
      device.pointers.push_back(flush);
    }

    // One 8-byte slot per parameter; the driver reads as many bytes as the PTX parameter has.
    std::vector<uint64_t> slots(args.size(), 0);
    std::vector<void *> params(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].kind == LaunchArg::Kind::Buffer) {
        slots[i] = device.pointers[args[i].buffer];
      } else {
        int bytes = parseParamType(manifest.params[i].type)->bytes;  // checkLaunch parsed it
        std::memcpy(&slots[i], &args[i].bits, size_t(bytes));
      }
      params[i] = &slots[i];
    }
    if (scratch) {
      slots.push_back(scratch);
      params.push_back(nullptr);
      for (size_t i = 0; i < slots.size(); ++i) params[i] = &slots[i];  // the push may have moved them
    }

    EventPair events{*d_, nullptr, nullptr};
    if (CUresult r = d_->cuEventCreate(&events.start, 0)) return failure("cuEventCreate", r);
    if (CUresult r = d_->cuEventCreate(&events.end, 0)) return failure("cuEventCreate", r);
    unsigned threads = unsigned(manifest.threadsPerProgram);
    for (int i = 0; i < options.warmup + options.repeat; ++i) {
      for (size_t b = 0; b < buffers.size(); ++b)
        if (!buffers[b].empty())
          if (CUresult r = d_->cuMemcpyHtoD(device.pointers[b], buffers[b].data(), buffers[b].size()))
            return failure("cuMemcpyHtoD of buffer " + std::to_string(b), r);
      bool timed = i >= options.warmup;
      if (timed && flush)
        if (CUresult r = d_->cuMemsetD8Async(flush, 0, options.flushBytes, nullptr))
          return failure("cuMemsetD8Async of the L2 flush buffer", r);
      if (timed)
        if (CUresult r = d_->cuEventRecord(events.start, nullptr)) return failure("cuEventRecord", r);
      if (CUresult r = d_->cuLaunchKernel(function, grid.x, grid.y, grid.z, threads, 1, 1, dynamicShared, nullptr,
                                          params.data(), nullptr))
        return failure("cuLaunchKernel", r);
      if (!timed) {
        if (CUresult r = d_->cuCtxSynchronize()) return failure("cuCtxSynchronize", r, manifest.kernel);
        continue;
      }
      // A fault in the kernel shows in whichever call comes next.
      if (CUresult r = d_->cuEventRecord(events.end, nullptr)) return failure("cuEventRecord", r, manifest.kernel);
      if (CUresult r = d_->cuEventSynchronize(events.end)) return failure("cuEventSynchronize", r, manifest.kernel);
      float milliseconds = 0;
      if (CUresult r = d_->cuEventElapsedTime(&milliseconds, events.start, events.end))
        return failure("cuEventElapsedTime", r, manifest.kernel);
      seconds.push_back(double(milliseconds) / 1000);
    }
    for (size_t b = 0; b < buffers.size(); ++b)
      if (!buffers[b].empty())
        if (CUresult r = d_->cuMemcpyDtoH(buffers[b].data(), device.pointers[b], buffers[b].size()))
          return failure("cuMemcpyDtoH of buffer " + std::to_string(b), r);
    return {};
  }

  std::unique_ptr<Driver> d_;
  CUdevice device_;
  CUcontext context_;
  std::string description_;
  Dim3 maxGrid_;
  int maxSharedPerBlock_;  // CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
  int ccMajor_, ccMinor_;  // its compute capability
  std::map<std::string, CUmodule> modules_;  // by "ptx:" + text or "cubin:" + bytes
  std::string lost_;                         // the sticky error that lost the context
};

} // namespace

std::vector<std::string> targetsForComputeCapability(int major, int minor) {
  std::vector<std::string> targets;
  if (major == 9 && minor == 0) targets.push_back("sm_90a");
  if (major >= 8) targets.push_back("sm_80");
  return targets;
}

std::string cubinTargetForComputeCapability(int major, int minor) {
  if (major == 9 && minor == 0) return "sm_90a";
  return major == 8 ? "sm_80" : "";
}

std::unique_ptr<Device> makeCudaDevice(std::string &why) {
  std::unique_ptr<Driver> d = Driver::open(why);
  if (!d) return nullptr;
  auto fail = [&](const std::string &call, CUresult r) -> std::unique_ptr<Device> {
    why = call + " failed: " + d->errorText(r);
    return nullptr;
  };
  if (CUresult r = d->cuInit(0)) return fail("cuInit", r);
  int count = 0;
  if (CUresult r = d->cuDeviceGetCount(&count)) return fail("cuDeviceGetCount", r);
  if (count < 1) {
    why = "the CUDA driver sees no GPU (cuDeviceGetCount gave " + std::to_string(count) + ")";
    return nullptr;
  }
  CUdevice device = 0;
  if (CUresult r = d->cuDeviceGet(&device, 0)) return fail("cuDeviceGet", r);
  char name[256] = {};
  if (CUresult r = d->cuDeviceGetName(name, int(sizeof name) - 1, device)) return fail("cuDeviceGetName", r);
  int attrs[7] = {};
  const int kinds[7] = {kComputeCapabilityMajor, kComputeCapabilityMinor, kMultiprocessorCount, kMaxGridDimX,
                        kMaxGridDimY,           kMaxGridDimZ,           kMaxSharedMemoryPerBlockOptin};
  for (int i = 0; i < 7; ++i)
    if (CUresult r = d->cuDeviceGetAttribute(&attrs[i], kinds[i], device))
      return fail("cuDeviceGetAttribute(" + std::to_string(kinds[i]) + ")", r);
  int version = 0;
  if (CUresult r = d->cuDriverGetVersion(&version)) return fail("cuDriverGetVersion", r);
  CUcontext context = nullptr;
  if (CUresult r = d->cuDevicePrimaryCtxRetain(&context, device)) return fail("cuDevicePrimaryCtxRetain", r);
  if (CUresult r = d->cuCtxSetCurrent(context)) {
    d->cuDevicePrimaryCtxRelease(device);
    return fail("cuCtxSetCurrent", r);
  }
  std::string description = std::string(name) + " (sm_" + std::to_string(attrs[0]) + std::to_string(attrs[1]) + ", " +
                            std::to_string(attrs[2]) + " SMs, driver " + std::to_string(version / 1000) + "." +
                            std::to_string(version % 1000 / 10) + ")";
  auto positive = [](int v) { return uint32_t(v > 0 ? v : 1); };
  Dim3 maxGrid{positive(attrs[3]), positive(attrs[4]), positive(attrs[5])};
  return std::make_unique<CudaDevice>(std::move(d), device, context, std::move(description), maxGrid, attrs[6],
                                      attrs[0], attrs[1]);
}

} // namespace twintile::runtime
