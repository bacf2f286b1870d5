//===- Stack.h - running deep recursions on a stack that can hold them ----===//
//
// Clang's code generation, the walker and LLVM recurse once per nesting
// level of a kernel's expressions: a 3,000-term sum overflows a thread's
// default 8 MiB. twintile compiles on threads with a large stack (address
// space reserved, pages touched only as used), and gives the host compiler
// the same (HostObject.cpp raises its RLIMIT_STACK).
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <functional>

namespace twintile::support {

/// The stack every compile thread gets: 1 GiB of address space.
constexpr size_t kCompileStackBytes = size_t(1) << 30;

/// Runs `fn` on a new thread with a stack of `bytes`, waits for it, and
/// rethrows what it threw. Already on such a thread: runs `fn` in place.
void runOnLargeStack(const std::function<void()> &fn, size_t bytes = kCompileStackBytes);

} // namespace twintile::support
