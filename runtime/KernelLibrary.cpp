//===- KernelLibrary.cpp - a compiled specialization's variant, picked ----===//
#include "runtime/KernelLibrary.h"

#include <algorithm>
#include <stdexcept>

namespace twintile::runtime {

namespace {

std::string listed(const std::vector<std::string> &names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? (i + 1 == names.size() ? " and " : ", ") : "") + names[i];
  return out.empty() ? "none" : out;
}

} // namespace

Call callCompiled(const CompiledKernel &kernel, Device &device, Dim3 grid, const LaunchOptions &options,
                  const std::vector<LaunchArg> &args, std::vector<std::span<uint8_t>> buffers) {
  Call call;
  const std::string spec = kernel.spec;
  const Capabilities can = device.capabilities();
  // The manifests, read at each call (microseconds, where a launch copies
  // every buffer): nothing is kept by the address of data that a library's
  // unloading would free. Their targets, in the library's order.
  std::vector<Manifest> manifests;
  std::vector<std::string> compiled;
  for (size_t i = 0; i < kernel.count; ++i) {
    const CompiledVariant &v = kernel.variants[i];
    try {
      manifests.push_back(Manifest::fromJson(v.manifest));
    } catch (const std::exception &e) {
      call.error = "internal error: the kernel library's manifest of '" + spec + "' (" + v.assumes +
                   ") does not read: " + e.what();
      return call;
    }
    if (std::find(compiled.begin(), compiled.end(), manifests.back().arch) == compiled.end())
      compiled.push_back(manifests.back().arch);
  }
  // The library's targets in its order (the preferred first), where the device runs them.
  for (const std::string &target : compiled) {
    if (std::find(can.targets.begin(), can.targets.end(), target) == can.targets.end()) continue;
    std::string refused;  // the least specialized variant's complaint, when none fits
    for (size_t i = 0; i < kernel.count; ++i) {
      if (manifests[i].arch != target) continue;
      std::string why = checkLaunch(manifests[i], args, buffers);
      if (!why.empty()) {
        refused = why;
        continue;
      }
      const CompiledVariant &v = kernel.variants[i];
      KernelImage image;
      image.manifest = std::move(manifests[i]);
      image.ptx.assign(v.ptx, v.ptxBytes);
      if (can.cubinTarget == target && v.cubin) image.cubin.assign(v.cubin, v.cubin + v.cubinBytes);
      image.tileIR = v.tileIR ? v.tileIR : "";
      LaunchOptions o = options;
      o.grid = grid;
      static_cast<LaunchResult &>(call) = device.launch(image, args, std::move(buffers), o);
      call.variant = v.assumes;
      call.target = target;
      return call;
    }
    if (!refused.empty()) {
      call.error = "'" + spec + "': " + refused;
      return call;
    }
  }
  call.error = "'" + spec + "' was compiled for " + listed(compiled) + ", and the device (" + device.describe() +
               ") runs " + (can.targets.empty() ? "none of twintile's targets" : listed(can.targets));
  return call;
}

} // namespace twintile::runtime
