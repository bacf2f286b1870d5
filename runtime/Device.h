//===- Device.h - one interface over the three places a kernel runs ------===//
//
//   emu     the PTX emulator (Emulator.h): the kernel's PTX on the CPU
//   interp  the IR interpreter: the kernel's tile IR, the oracle (it lives
//           above the runtime, in the launch library, since it needs ir/)
//   cuda    the CUDA driver, opened with dlopen("libcuda.so.1"), never linked
//
// A launch takes host buffers, copies them to the device, runs the kernel
// `warmup` + `repeat` times (each from the same inputs), and copies them
// back: the caller's bytes hold one launch's result. Every failure is a message in
// LaunchResult::error (naming the driver call and its CUresult name on
// cuda), never an exception or a crash.
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Emulator.h"
#include "runtime/Manifest.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace twintile::runtime {

/// A compiled kernel as devices take it. The backend's output, or a bundle's
/// files: the PTX and its manifest, optionally the cubin ptxas made (cuda
/// loads it instead of the PTX when present), and the tile IR's text (what
/// the interp device runs).
struct KernelImage {
  std::string ptx;
  Manifest manifest;
  std::vector<uint8_t> cubin;
  std::string tileIR;
};

/// One argument per manifest parameter: a buffer (by index into the launch's
/// buffers) for a pointer, the value's bits for a scalar (the manifest's type
/// says how many are used). The emulator's own argument type, shared.
using LaunchArg = EmuArg;

struct LaunchOptions {
  Dim3 grid;
  int warmup = 0;      // untimed launches before the timed ones
  int repeat = 1;      // timed launches; the buffers hold the last one's result
  bool profile = false;  // emu: fill LaunchResult::profile
  /// emu: up to this many programs run at once, switching at global atomics
  /// and volatile loads in an order drawn from scheduleSeed (EmuOptions::
  /// interleave); 0: one after another.
  uint32_t interleave = 0;
  uint64_t scheduleSeed = 0;
  /// cuda: before each timed launch, clear the L2 with an asynchronous memset
  /// of this many bytes, which also keeps the GPU busy while the host enqueues
  /// the launch, so neither a warm L2 nor the launch's host-side latency is
  /// timed (triton.testing.do_bench's protocol). 0: neither; others ignore it.
  size_t flushBytes = 0;
};

struct LaunchResult {
  std::string error;                // empty on success
  std::string printed;              // device_print's output, in order (emu, interp)
  std::vector<double> seconds;      // one per timed launch (cuda: CUDA events; others: wall clock)
  uint64_t instructions = 0;        // emu: thread-level instructions executed
  std::vector<size_t> stored;       // interp: per buffer, distinct elements the kernel wrote
  EmuProfile profile;               // emu, with LaunchOptions::profile
  bool ok() const { return error.empty(); }
};

/// What a device can do, so that callers ask it instead of its name.
struct Capabilities {
  /// Runs the tile IR with the IR's semantics (the interpreter): the oracle
  /// others are checked against, which counts the elements each buffer gets
  /// stored (LaunchResult::stored).
  bool reference = false;
  /// Runs every thread on the host, one after another: a launch's size is
  /// bounded by the time it would take.
  bool onCpu = false;
  /// Counts what it runs (LaunchOptions::profile, LaunchResult::profile).
  bool profiles = false;
  /// Runs programs at once in a seeded order (LaunchOptions::interleave).
  bool interleaves = false;
  /// What LaunchResult::seconds measures: "wall clock", "CUDA events".
  std::string timer;
  /// The compile targets whose kernels it runs, in twintile's spelling
  /// ("sm_90a", "sm_80"): a kernel library (KernelLibrary.h) runs the first
  /// of its own targets listed here.
  std::vector<std::string> targets;
  /// The target whose cubins it loads as they are (cuda: the GPU's own
  /// architecture family); empty where it takes PTX alone.
  std::string cubinTarget;
};

class Device {
public:
  virtual ~Device() = default;
  /// "emu", "interp" or "cuda".
  virtual std::string name() const = 0;
  virtual Capabilities capabilities() const = 0;
  /// What it is, for reports: "PTX emulator", "NVIDIA H200 (sm_90, 132 SMs, driver 13.0)".
  virtual std::string describe() const = 0;
  /// The largest grid it launches along x, y and z.
  virtual Dim3 maxGrid() const = 0;
  /// Runs `kernel` over `options.grid` programs of manifest.threadsPerProgram
  /// threads. `args` has one entry per manifest parameter; `buffers` are read
  /// before and written after, in place.
  virtual LaunchResult launch(const KernelImage &kernel, const std::vector<LaunchArg> &args,
                              std::vector<std::span<uint8_t>> buffers, const LaunchOptions &options) = 0;
};

/// The PTX emulator as a device.
std::unique_ptr<Device> makeEmuDevice();

/// The first CUDA GPU through the driver, or nullptr with `why` set ("no
/// CUDA driver: dlopen(libcuda.so.1) failed: ...", "cuInit failed:
/// CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)").
/// $TWINTILE_LIBCUDA names another library to open (tests use it).
std::unique_ptr<Device> makeCudaDevice(std::string &why);

/// The compile targets a GPU of compute capability major.minor runs, best
/// first: sm_90a's only on 9.0 (its architecture-specific instructions run
/// on no later GPU), sm_80's PTX on 8.0 and every later one (the driver
/// compiles it for the GPU).
std::vector<std::string> targetsForComputeCapability(int major, int minor);
/// The target whose cubins such a GPU loads: sm_90a on 9.0, sm_80 on 8.x
/// (a cubin runs on its major version's later minors); else empty.
std::string cubinTargetForComputeCapability(int major, int minor);

/// Checks a launch against its manifest before any device sees it: one
/// argument per parameter, a buffer for each pointer and a scalar for each
/// scalar, buffer indices in range, and the promises the code was specialized
/// on (an integer assumed divisible by 16 is; a buffer assumed aligned has a
/// host address that is a multiple of 16). Empty when it holds; else what
/// is wrong, naming the parameter.
std::string checkLaunch(const Manifest &manifest, const std::vector<LaunchArg> &args,
                        const std::vector<std::span<uint8_t>> &buffers);

/// The global scratch a launch of `manifest` over `grid` gives its kernel
/// (Manifest::globalScratchBytes per program), 0 where it asks for none;
/// UINT64_MAX where the size does not fit in 64 bits. A device allocates it
/// (128-byte aligned, its contents undefined at the launch's start and not
/// kept after) and passes its address as the kernel's last parameter, after
/// the manifest's; program (x, y, z) owns the globalScratchBytes bytes at
/// (x + grid.x * (y + grid.y * z)) * globalScratchBytes.
uint64_t launchScratchBytes(const Manifest &manifest, Dim3 grid);

} // namespace twintile::runtime
