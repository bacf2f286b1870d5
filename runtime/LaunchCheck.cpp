//===- LaunchCheck.cpp - a launch's arguments against the kernel's manifest ===//
//
// Every device calls checkLaunch before it touches a buffer, so a wrong
// argument is the same message on emu, interp and cuda, and names the
// parameter instead of a slot number. Besides count and kind, it checks the
// promises the code was specialized on: a parameter compiled as divisible16
// may have had its tail masks removed, and one compiled as aligned16 may be
// read with 16-byte vector loads; breaking either gives wrong results or a
// misaligned-address fault far from the cause.
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace twintile::runtime {

namespace {

/// `bits` as the integer a scalar of type `t` holds: its low t.bytes bytes,
/// sign-extended when the type is signed.
int64_t scalarValue(const ParamType &t, uint64_t bits) {
  if (t.bytes >= 8) return static_cast<int64_t>(bits);
  unsigned width = 8 * static_cast<unsigned>(t.bytes);
  uint64_t low = bits & ((uint64_t(1) << width) - 1);
  if (t.isSigned && (low >> (width - 1)) & 1) low |= ~uint64_t(0) << width;
  return static_cast<int64_t>(low);
}

std::string hexAddress(const void *p) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)));
  return text;
}

} // namespace

std::string checkLaunch(const Manifest &manifest, const std::vector<LaunchArg> &args,
                        const std::vector<std::span<uint8_t>> &buffers) {
  const auto &params = manifest.params;
  if (args.size() != params.size())
    return "kernel '" + manifest.kernel + "' takes " + std::to_string(params.size()) + " argument" +
           (params.size() == 1 ? "" : "s") + ", got " + std::to_string(args.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const Manifest::Param &p = params[i];
    const LaunchArg &a = args[i];
    std::string name = "argument '" + p.name + "'";
    std::optional<ParamType> type = parseParamType(p.type);
    if (!type) return name + " has type '" + p.type + "', which the runtime cannot pass";
    bool isBuffer = a.kind == LaunchArg::Kind::Buffer;
    if (type->pointer && !isBuffer) return name + " (" + p.type + ") must be a buffer, got a scalar";
    if (!type->pointer && isBuffer)
      return name + " (" + p.type + ") must be a scalar, got buffer " + std::to_string(a.buffer);
    if (isBuffer) {
      if (a.buffer >= buffers.size())
        return name + " is buffer " + std::to_string(a.buffer) + ", but the launch has " +
               std::to_string(buffers.size()) + " buffer" + (buffers.size() == 1 ? "" : "s");
      const void *at = buffers[a.buffer].data();
      if (p.assume.aligned16 && reinterpret_cast<uintptr_t>(at) % 16 != 0)
        return name + " is at " + hexAddress(at) +
               ", which is not a multiple of 16 bytes, as the kernel was compiled to assume";
      continue;
    }
    // Only integers can be multiples; the manifest never marks a float so.
    if (p.assume.divisible16 && !type->isFloat) {
      int64_t value = scalarValue(*type, a.bits);
      if (value % 16 != 0)
        return name + " = " + std::to_string(value) +
               " is not divisible by 16, which the kernel was compiled to assume";
    }
  }
  return {};
}

uint64_t launchScratchBytes(const Manifest &manifest, Dim3 grid) {
  if (manifest.globalScratchBytes <= 0) return 0;
  unsigned __int128 n = static_cast<unsigned __int128>(manifest.globalScratchBytes) * grid.x * grid.y * grid.z;
  return n > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(n);
}

} // namespace twintile::runtime
