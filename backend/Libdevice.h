//===- Libdevice.h - linking CUDA's math library into a kernel ------------===//
#pragma once

#include <llvm/IR/Module.h>

#include <string>

namespace twintile::backend {

/// Links the libdevice functions `module` calls (the `__nv_` declarations)
/// and what they call, keeps only the kernel external and sets NVVMReflect's
/// flush-to-zero flag to off. Returns an error message, or empty.
///
/// Reading libdevice (500 KB of bitcode) costs more than compiling most
/// kernels, so a process reads it once per path and, once per set of
/// functions asked for, cuts out those functions as a module of their own
/// (a few KB), kept in memory and in the disk cache under `cacheRoot`
/// (support::cacheDirectory's); each compile parses only that, in its own
/// context.
std::string linkLibdevice(llvm::Module &module, const std::string &path, const std::string &cacheRoot);

} // namespace twintile::backend
