//===- Emulator.h - run PTX on the CPU with SIMT semantics ---------------===//
//
// Runs one kernel of a PtxModule over a grid, block after block (x fastest),
// or with several blocks resident and interleaved (EmuOptions::interleave).
// Inside a block every thread is an interpreter state; threads run
// round-robin, each until it reaches a synchronization point:
//
//   bar.sync / barrier.sync   waits until every non-exited thread of the block
//                             (or the barrier's thread count) has arrived;
//   shfl.sync, vote.sync, redux.sync, bar.warp.sync
//                             wait until every non-exited lane of the warp in
//                             the member mask has arrived, then compute all
//                             lanes' results at once;
//   ret / exit                ends the thread.
//
// When no thread can run and no wait can be released, the launch stops with
// a deadlock error that says who waits where. One thread runs at a time, so
// atomics are trivially atomic, and output order is deterministic (for one
// seed, when blocks interleave: EmuInterleave.cpp).
//
// Memory is checked: an access outside every buffer, outside shared memory,
// outside the thread's local memory or the parameters, or misaligned for its
// size, stops the launch with an error that names the instruction, its PTX
// line, the address, and the block and thread.
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/PtxModule.h"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace twintile::runtime {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

struct EmuArg {
  enum class Kind { Buffer, Bits };
  Kind kind = Kind::Bits;
  size_t buffer = 0;  // index into `buffers`: the argument is that buffer's device address
  uint64_t bits = 0;  // a scalar's bits; the .param's width decides how many are used
  static EmuArg buf(size_t i);
  static EmuArg scalar(uint64_t bits);
  static EmuArg f32(float v);   // the bits of v
  static EmuArg f64(double v);  // the bits of v
};

struct EmuOptions {
  uint64_t maxInstructionsPerThread = uint64_t(1) << 24;
  uint32_t dynamicSharedBytes = 0;  // the size of .extern .shared arrays
  bool profile = false;             // fill EmuResult::profile (EmuProfile.cpp)
  /// 0: the grid's programs (blocks) run one after another, each to its end.
  /// N > 0: up to N programs are resident at once, as on a GPU, and the
  /// emulator switches between them (an order drawn from `seed`) after every
  /// global atomic and volatile or strong load, so that programs that wait
  /// for each other (a spin lock, a decoupled look-back) really contend.
  /// Programs that only wait for each other, with no memory changing, are
  /// reported as a deadlock with each one's position, never a hang.
  uint32_t interleave = 0;
  uint64_t seed = 0;
};

/// What a launch did, counted as the hardware would see it (EmuProfile.cpp
/// states the model). Warp-level counts group the lanes of a warp that
/// execute the same instruction for the same time.
struct EmuProfile {
  /// Warp-level instruction issues, by opcode as written ("ld.global.v4.b32"):
  /// per warp, an instruction counts as often as its busiest lane ran it
  /// (predicated-off lanes included, as they are issued).
  std::map<std::string, uint64_t> warpInstructions;
  uint64_t globalRequests = 0;   // warp-level ld/st/atom/red to global memory
  uint64_t globalSectors = 0;    // distinct 32-byte sectors those requests touch
  uint64_t globalBytes = 0;      // bytes the lanes asked for
  uint64_t sharedRequests = 0;   // warp-level accesses to shared memory
  uint64_t sharedWavefronts = 0; // passes the banks need for them
  uint64_t sharedIdealWavefronts = 0;  // passes without bank conflicts
};

struct EmuResult {
  /// Empty on success; else e.g. "out-of-bounds st.global.v4.b32 of 16 bytes at 0x... (offset 4096 in buffer 2 of
  /// 4096 bytes) (line 123, block (2,0,0), thread 37)".
  std::string error;
  std::string printed;  // what vprintf printed, in execution order
  uint64_t instructions = 0;
  EmuProfile profile;   // with EmuOptions::profile
  bool ok() const { return error.empty(); }
};

/// The device address the emulator gives buffer `i` (for checking pointers a kernel writes).
uint64_t bufferAddress(size_t i);

/// Runs `entry` over `grid` x `block` threads. Each buffer is device global memory the caller owns
/// (read and written in place). Any access outside every buffer (and outside shared memory / params) is an
/// error naming the instruction's PTX line, the address, block and thread. Never crashes or hangs on bad PTX
/// or bad launches: a wrong argument count, a barrier not reached by all threads (deadlock), a shfl whose
/// warp does not converge, an instruction budget exceeded — all become `error`.
EmuResult emulate(const PtxModule &module, const std::string &entry, Dim3 grid, Dim3 block,
                  const std::vector<EmuArg> &args, std::vector<std::span<uint8_t>> buffers, EmuOptions options = {});

} // namespace twintile::runtime
