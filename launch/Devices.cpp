//===- Devices.cpp - a device by name -------------------------------------===//
#include "launch/Devices.h"

#include "launch/InterpDevice.h"

namespace twintile {

std::unique_ptr<twintile::runtime::Device> makeDevice(const std::string &name, std::string &why) {
  if (name == "emu") return twintile::runtime::makeEmuDevice();
  if (name == "interp") return makeInterpDevice();
  if (name == "cuda") return twintile::runtime::makeCudaDevice(why);
  why = "unknown device '" + name + "' (expected emu, interp or cuda)";
  return nullptr;
}

} // namespace twintile
