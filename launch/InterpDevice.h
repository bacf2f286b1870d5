//===- InterpDevice.h - the IR interpreter as a runtime Device -----------===//
#pragma once

#include "runtime/Device.h"

#include <memory>

namespace twintile {

/// The IR interpreter (the oracle) behind runtime's Device interface: it
/// runs KernelImage::tileIR, not the PTX. It lives above the runtime, which
/// must not depend on the compiler.
std::unique_ptr<twintile::runtime::Device> makeInterpDevice();

} // namespace twintile
