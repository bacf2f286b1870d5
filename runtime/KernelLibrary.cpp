//===- KernelLibrary.cpp - a compiled specialization's variant, picked ----===//
#include "runtime/KernelLibrary.h"
#include "runtime/GridExpression.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>

namespace twintile::runtime {

namespace {

std::string listed(const std::vector<std::string> &names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? (i + 1 == names.size() ? " and " : ", ") : "") + names[i];
  return out.empty() ? "none" : out;
}

/// How far apart two keys are: the sum of |log2| of their values' ratios,
/// each value's magnitude taken plus one (0 and 1 are apart), and a sign
/// that differs counted as far.
double keyDistance(const int64_t *a, const std::vector<int64_t> &b) {
  double d = 0;
  for (size_t i = 0; i < b.size(); ++i) {
    auto magnitude = [](int64_t v) { return std::fabs(double(v)) + 1.0; };
    d += std::fabs(std::log2(magnitude(a[i]) / magnitude(b[i]))) + ((a[i] < 0) != (b[i] < 0) ? 64 : 0);
  }
  return d;
}

} // namespace

Call callTuned(const TunedTable &table, Device &device, const LaunchOptions &options, const std::vector<LaunchArg> &args,
               std::vector<std::span<uint8_t>> buffers, const std::vector<int64_t> &key,
               const std::vector<std::pair<std::string, int64_t>> &integers) {
  Call call;
  if (table.count == 0 || key.size() != table.keyCount) {
    call.error = std::string("internal error: the kernel library's tuned table of '") + table.kernel +
                 "' has no rows, or a key of another length";
    return call;
  }
  // The equal key, else the nearest (the first of equals).
  const TunedRow *row = nullptr;
  for (size_t r = 0; r < table.count && !row; ++r)
    if (std::equal(key.begin(), key.end(), table.rows[r].key)) row = &table.rows[r];
  bool exact = row != nullptr;
  if (!row) {
    row = &table.rows[0];
    double best = keyDistance(row->key, key);
    for (size_t r = 1; r < table.count; ++r)
      if (double d = keyDistance(table.rows[r].key, key); d < best) best = d, row = &table.rows[r];
  }
  call.config = row->config;
  call.nearest = !exact;

  std::map<std::string, int64_t> names(integers.begin(), integers.end());
  for (size_t m = 0; m < row->metaCount; ++m) names[row->meta[m].name] = row->meta[m].value;
  std::vector<std::string> parts = splitGrid(table.grid);
  uint32_t dims[3] = {1, 1, 1};
  if (parts.size() > 3) {
    call.error = std::string("internal error: the kernel library's grid of '") + table.kernel + "' has " +
                 std::to_string(parts.size()) + " sizes";
    return call;
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string problem;
    std::optional<int64_t> v = evalGridExpression(parts[i], names, problem);
    if (!v || *v <= 0 || *v > int64_t(UINT32_MAX)) {
      call.error = "the grid of '" + std::string(table.kernel) + "' for " + row->config + ": " +
                   (v ? "'" + parts[i] + "' is " + std::to_string(*v) + ", not a size" : problem);
      return call;
    }
    dims[i] = uint32_t(*v);
  }
  call = callCompiled(*row->kernel, device, Dim3{dims[0], dims[1], dims[2]}, options, args, std::move(buffers));
  call.config = row->config;
  call.nearest = !exact;
  return call;
}

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
