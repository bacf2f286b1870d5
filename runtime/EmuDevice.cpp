//===- EmuDevice.cpp - the PTX emulator behind the Device interface -------===//
//
// A launch checks its arguments (checkLaunch), parses the PTX (once per
// distinct text: the last module is kept), and runs the kernel over
// options.grid blocks of manifest.threadsPerProgram threads, warmup + repeat
// times. The buffers must end up holding what ONE launch computes, also for
// kernels that read what they write (an atomic_add accumulating into its
// output): so with more than one launch, the buffers are saved first and put
// back before every launch after the first. Timings are wall clock around
// emulate(), restoring excluded. A kernel's global scratch
// (launchScratchBytes) is a buffer of its own, passed last.
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <utility>

namespace twintile::runtime {

namespace {

/// The most global scratch one launch gets.
constexpr uint64_t kMaxScratchBytes = uint64_t(1) << 30;

class EmuDevice final : public Device {
public:
  std::string name() const override { return "emu"; }
  std::string describe() const override { return "PTX emulator (CPU)"; }
  Capabilities capabilities() const override {
    return {.reference = false, .onCpu = true, .profiles = true, .interleaves = true, .timer = "wall clock",
            .targets = {"sm_90a", "sm_80"}, .cubinTarget = ""};
  }
  Dim3 maxGrid() const override { return {uint32_t(std::numeric_limits<int32_t>::max()), 65535, 65535}; }

  LaunchResult launch(const KernelImage &kernel, const std::vector<LaunchArg> &args,
                      std::vector<std::span<uint8_t>> buffers, const LaunchOptions &options) override {
    LaunchResult result;
    result.error = checkLaunch(kernel.manifest, args, buffers);
    if (!result.ok()) return result;
    if (options.warmup < 0 || options.repeat < 1) {
      result.error = "a launch needs warmup >= 0 and repeat >= 1, got warmup " + std::to_string(options.warmup) +
                     " and repeat " + std::to_string(options.repeat);
      return result;
    }
    const PtxModule *module = load(kernel.ptx, result.error);
    if (!module) return result;

    Dim3 block{uint32_t(kernel.manifest.threadsPerProgram), 1, 1};
    EmuOptions emuOptions;
    emuOptions.profile = options.profile;
    emuOptions.interleave = options.interleave;
    emuOptions.seed = options.scheduleSeed;
    emuOptions.dynamicSharedBytes = uint32_t(kernel.manifest.dynamicSharedBytes);
    int launches = options.warmup + options.repeat;
    std::vector<std::vector<uint8_t>> saved;
    if (launches > 1)
      for (std::span<uint8_t> b : buffers) saved.emplace_back(b.begin(), b.end());

    std::vector<LaunchArg> all = args;
    std::vector<uint8_t> scratch;
    if (uint64_t bytes = launchScratchBytes(kernel.manifest, options.grid)) {
      if (bytes > kMaxScratchBytes) {
        result.error = "kernel '" + kernel.manifest.kernel + "' needs " + std::to_string(kernel.manifest.globalScratchBytes) +
                       " bytes of global scratch per program; over this grid that is more than the emulator gives (" +
                       std::to_string(kMaxScratchBytes >> 20) + " MiB)";
        return result;
      }
      scratch.resize(bytes);
      buffers.emplace_back(scratch);
      all.push_back(LaunchArg::buf(buffers.size() - 1));
    }

    for (int i = 0; i < launches; ++i) {
      if (i > 0)
        for (size_t b = 0; b < saved.size(); ++b) std::copy(saved[b].begin(), saved[b].end(), buffers[b].begin());
      auto start = std::chrono::steady_clock::now();
      EmuResult r = emulate(*module, kernel.manifest.kernel, options.grid, block, all, buffers, emuOptions);
      std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
      if (!r.ok()) {
        result.error = std::move(r.error);
        result.printed = std::move(r.printed);
        return result;
      }
      if (i >= options.warmup) result.seconds.push_back(elapsed.count());
      if (i + 1 == launches) {
        result.printed = std::move(r.printed);
        result.instructions = r.instructions;
        result.profile = std::move(r.profile);
      }
    }
    return result;
  }

private:
  /// The module of `ptx`, parsed now unless it is the one parsed last; null
  /// with `error` set when the text does not parse.
  const PtxModule *load(const std::string &ptx, std::string &error) {
    if (module_ && ptx == moduleText_) return &*module_;
    module_.reset();
    try {
      module_ = PtxModule::parse(ptx);
    } catch (const PtxError &e) {
      error = std::string("the PTX does not parse: ") + e.what();
      return nullptr;
    } catch (const std::exception &e) {
      error = std::string("the PTX could not be loaded: ") + e.what();
      return nullptr;
    }
    moduleText_ = ptx;
    return &*module_;
  }

  std::optional<PtxModule> module_;
  std::string moduleText_;
};

} // namespace

std::unique_ptr<Device> makeEmuDevice() { return std::make_unique<EmuDevice>(); }

} // namespace twintile::runtime
