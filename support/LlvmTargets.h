//===- LlvmTargets.h - the LLVM targets twintile uses, registered once ---===//
//
// LLVM's target registry is a list no lock guards: registering a target
// while another thread registers or looks one up races. The backend (NVPTX)
// and the tracer's in-process host compile (the host's target) may start at
// once on two threads (the launch API), so both register every target here,
// under one flag.
//===----------------------------------------------------------------------===//
#pragma once

namespace twintile::support {

/// Registers NVPTX and the host's target (with their MC layers, asm
/// printers and the host's asm parser), once per process.
void registerLlvmTargets();

} // namespace twintile::support
