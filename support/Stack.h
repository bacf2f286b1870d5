//===- Stack.h - running deep recursions on a stack that can hold them ----===//
//
// Clang's parser and code generation, the walker and LLVM recurse once per
// nesting level of a kernel's expressions: a 3,000-term sum overflows a
// thread's default 8 MiB. twintile compiles on threads with a large stack
// (address space reserved, pages touched only as used), and gives the host
// compiler the same (HostObject.cpp raises its RLIMIT_STACK).
//
// A file nested deeper than even that holds (half a megabyte of `!` in front
// of an operand, a million nested template argument lists) must still be an
// error in the file, not a crash: a fault of the thread's stack pointer in
// the guard below such a stack abandons the work (siglongjmp from the fault
// handler, on a stack of its own, back to where runOnLargeStack started it)
// and runOnLargeStack throws StackExhausted, as LLVM's CrashRecoveryContext
// abandons a crashed compile. What the abandoned frames held stays held:
// memory is leaked, and a lock one of them held (malloc's, a static's
// initialization) would stay locked, so the driver reports and ends, and a
// program that embeds the compiler should end soon after such an error too.
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Environment.h"

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>

namespace twintile::support {

/// The environment variable that sets the compile threads' stack, in MiB.
inline constexpr const char *kStackVariable = envName(Env::StackMB);

/// The stack every compile thread gets: 1 GiB of address space, or
/// $TWINTILE_STACK_MB MiB (16 to 65536; another value is ignored here,
/// and stackSettingProblem says what is wrong with it).
size_t compileStackBytes();

/// What is wrong with $TWINTILE_STACK_MB, or empty.
std::string stackSettingProblem();

/// Thrown by runOnLargeStack when the work used its whole stack.
class StackExhausted : public std::runtime_error {
public:
  explicit StackExhausted(size_t bytes);
  size_t bytes;  // the stack's size
};

/// Thrown by runOnLargeStack when no thread with such a stack can start
/// (address space limited, or $TWINTILE_STACK_MB more than there is).
class StackUnavailable : public std::runtime_error {
public:
  StackUnavailable(size_t bytes, int error);
  size_t bytes;
};

/// Runs `fn` on a new thread with a stack of `bytes`, waits for it, and
/// rethrows what it threw; StackExhausted if it recursed past the stack's
/// end. Already on such a thread: runs `fn` in place (with the same
/// protection, so that the innermost call is the one that throws).
void runOnLargeStack(const std::function<void()> &fn, size_t bytes = compileStackBytes());

} // namespace twintile::support
