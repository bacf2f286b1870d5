//===- CudaDriver.h - the CUDA driver API, opened with dlopen -------------===//
//
// Private to CudaDevice.cpp. No CUDA header is needed to build the runtime:
// the few types the driver API uses are declared here with the ABI the
// driver has (CUresult an int, handles opaque pointers, device pointers 64
// bits), and every entry point is looked up by its exported name, the _v2
// names where the driver has them. libcuda is never linked: a machine
// without a GPU builds and runs everything else.
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace twintile::runtime::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUevent = struct CUevent_st *;
using CUstream = struct CUstream_st *;

constexpr CUresult CUDA_SUCCESS = 0;

/// CUdevice_attribute values the runtime reads.
enum Attribute : int {
  kMaxGridDimX = 5,
  kMaxGridDimY = 6,
  kMaxGridDimZ = 7,
  kMultiprocessorCount = 16,
  kComputeCapabilityMajor = 75,
  kComputeCapabilityMinor = 76,
  kMaxSharedMemoryPerBlockOptin = 97,
};

/// CUfunction_attribute: the dynamic shared memory a launch may ask for,
/// above 48 KiB only once set.
constexpr int kFuncMaxDynamicSharedSizeBytes = 8;

/// CUjit_option values for cuModuleLoadDataEx's logs.
enum JitOption : int {
  kJitInfoLogBuffer = 3,
  kJitInfoLogBufferSizeBytes = 4,
  kJitErrorLogBuffer = 5,
  kJitErrorLogBufferSizeBytes = 6,
};

/// Errors after which the context is lost: every later call in this
/// process fails too (an illegal address, a trap, a device assert, ...).
bool isStickyError(CUresult r);

/// The entry points, loaded from one library.
struct Driver {
  void *library = nullptr;  // dlopen's handle; never closed once cuInit ran

  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int *version) = nullptr;
  CUresult (*cuDeviceGetCount)(int *count) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetName)(char *name, int length, CUdevice device) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext context) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image, unsigned numOptions, int *options,
                                 void **optionValues) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module, const char *name) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule module) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *pointer, size_t bytes) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr pointer) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr destination, const void *source, size_t bytes) = nullptr;
  CUresult (*cuMemcpyDtoH)(void *destination, CUdeviceptr source, size_t bytes) = nullptr;
  CUresult (*cuMemsetD8Async)(CUdeviceptr destination, unsigned char value, size_t bytes, CUstream stream) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
                             unsigned blockY, unsigned blockZ, unsigned sharedBytes, CUstream stream, void **params,
                             void **extra) = nullptr;
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags) = nullptr;
  CUresult (*cuEventRecord)(CUevent event, CUstream stream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent event) = nullptr;
  CUresult (*cuEventElapsedTime)(float *milliseconds, CUevent start, CUevent end) = nullptr;
  CUresult (*cuEventDestroy)(CUevent event) = nullptr;
  CUresult (*cuGetErrorName)(CUresult error, const char **name) = nullptr;
  CUresult (*cuGetErrorString)(CUresult error, const char **text) = nullptr;

  /// Opens $TWINTILE_LIBCUDA, else libcuda.so.1, and looks up every entry
  /// point; null with `why` set when the library or a symbol is missing.
  static std::unique_ptr<Driver> open(std::string &why);

  /// "CUDA_ERROR_INVALID_VALUE (invalid argument)", or the number when the
  /// driver does not know it.
  std::string errorText(CUresult r) const;
};

} // namespace twintile::runtime::cuda
