//===- Devices.h - a device by name ---------------------------------------===//
#pragma once

#include "runtime/Device.h"

#include <memory>
#include <string>

namespace twintile {

/// "emu", "interp" or "cuda"; nullptr with `why` for another name or a
/// device that is not there (no CUDA driver, no GPU).
std::unique_ptr<twintile::runtime::Device> makeDevice(const std::string &name, std::string &why);

} // namespace twintile
