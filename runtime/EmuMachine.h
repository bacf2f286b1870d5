//===- EmuMachine.h - the state of one emulated launch (internal) --------===//
//
// A Machine holds one launch: the kernel parameters, the module's data
// windows, the block being run (its shared memory and threads) and the first
// error. Emulator.cpp drives it (blocks, scheduling, barriers, warp
// collectives, vprintf); PtxExec.cpp runs one thread until it stops.
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Emulator.h"
#include "runtime/PtxProgram.h"

#include <array>
#include <deque>
#include <map>
#include <span>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace twintile::runtime::emu {

/// "0x1f": addresses and bits in the emulator's messages.
inline std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

/// The shared-memory address a 16-byte chunk at `a` lands at under a swizzle
/// of `bytes` (128, 64, 32; 0 none): the chunk's bits 4.. XORed with bits
/// 7.., as wgmma's operands and the tensor memory accelerator lay them out.
inline uint64_t swizzled(uint64_t a, uint32_t bytes) {
  if (bytes == 0) return a;
  uint64_t mask = bytes / 16 - 1;
  return a ^ (((a >> 7) & mask) << 4);
}

using ptx::Function;
using ptx::Instr;
using ptx::Operand;
using ptx::Program;

enum class State : uint8_t { Ready, AtBarrier, AtWarpSync, AtMbarrier, Exited };

/// A function activation: the entry's, then one per .func call.
struct Frame {
  const Function *fn = nullptr;
  uint32_t pc = 0;
  uint32_t regBase = 0;     // first slot in Thread::regs
  uint64_t localBase = 0;   // offset in Thread::local
  uint64_t paramBase = 0;   // offset in Thread::param
  uint32_t call = 0;        // the caller's CallInfo index that made this frame
};

/// One cp.async: the bytes read from global memory when it was issued, written
/// to shared memory when a wait completes its group. A copy no wait completes
/// is never written: only a wait makes it visible, to its thread and (after a
/// barrier) to the others. Until then its bytes are in flight (Machine::
/// inFlight_), and any access to them, by any thread, is reported as a race.
struct AsyncCopy {
  uint64_t sharedOffset = 0;
  std::array<uint8_t, 16> bytes{};
  uint8_t size = 0;
};

struct Thread {
  uint32_t linear = 0;
  std::unordered_map<const Instr *, uint32_t> runs;  // with profiling: times each instruction was reached
  std::array<uint32_t, 3> tid{};
  State state = State::Ready;
  std::vector<Frame> frames;
  std::vector<uint64_t> regs;
  std::vector<uint8_t> local, param;
  uint64_t executed = 0;
  bool carry = false;
  uint32_t barrier = 0;     // AtBarrier: which
  const Instr *waiting = nullptr;  // AtBarrier / AtWarpSync: the instruction
  std::vector<AsyncCopy> asyncPending;             // issued since the last commit_group
  std::deque<std::vector<AsyncCopy>> asyncGroups;  // committed, oldest first
  uint32_t proxyFences = 0;                        // fence.proxy.async executed so far
  std::vector<uint64_t> bulkPending;               // shared chunks bulk stores read, since the last commit_group
  std::deque<std::vector<uint64_t>> bulkGroups;    // committed, oldest first
  /// With wgmma in the program: per register slot, the count of executed
  /// instructions (`executed`) when a non-wgmma instruction last wrote it,
  /// and that count at this thread's last wgmma.fence (0: none yet).
  std::vector<uint64_t> lastWrite;
  uint64_t fencedAt = 0;
  /// Registers (absolute slots in regs) an in-flight wgmma.mma_async will
  /// write: how many such writes are pending, and the last one's value (what
  /// the next wgmma accumulating into the register reads).
  std::unordered_map<uint32_t, std::pair<uint32_t, uint64_t>> wgmmaRegs;

  uint32_t lane() const { return linear % 32; }
  uint32_t warp() const { return linear / 32; }
};

/// One global or shared memory access, recorded for the profile.
struct Access {
  uint32_t thread;
  const Instr *in;
  uint32_t run;   // which execution of `in` by this thread (1-based)
  uint64_t addr;
  uint32_t size;
  bool shared;
};

/// Adds one block's instruction counts and recorded accesses to `p` (EmuProfile.cpp).
void addBlockProfile(const std::vector<Thread> &threads, const std::vector<Access> &accesses, EmuProfile &p);

/// Hopper's async proxy in one block (EmuWarpgroup.cpp): per warpgroup, the
/// wgmma.mma_async groups in flight; per byte of shared memory, how many
/// in-flight wgmmas read it (a write to it before their wait is a race) and
/// which thread last wrote it through the generic proxy at which of its
/// fence.proxy.async counts (a wgmma may read it only once that thread has
/// fenced since).
struct AsyncProxy {
  struct Write {
    uint32_t thread, slot;
    uint64_t value;
  };
  struct Group {
    std::vector<Write> writes;
    std::vector<uint32_t> reads;  // shared offsets of the 2-byte elements read
    uint64_t mmas = 0;
  };
  struct Warpgroup {
    Group open;                    // issued since the last commit_group
    std::deque<Group> committed;   // oldest first
    bool fenced = false;           // a wgmma.fence since the launch began
    uint64_t pending = 0;          // mma_async issued and not yet completed by a wait
  };
  std::vector<Warpgroup> warpgroups;
  std::vector<uint32_t> reading;
  uint64_t readingCount = 0;       // elements in flight
  std::vector<uint32_t> writer;    // thread + 1 of the last generic write (0: none)
  std::vector<uint32_t> writerFences;
};

struct Barrier {
  uint32_t arrived = 0;
  uint32_t expected = 0;  // 0: every non-exited thread of the block
};

/// A box a cp.async.bulk.tensor copied, delivered to shared memory when a
/// thread waits on its barrier (EmuBulkCopy.cpp): the shared offset of each
/// 16-byte chunk (swizzled), and the chunks' bytes in the box's order.
struct BulkDelivery {
  std::vector<uint64_t> chunks;
  std::vector<uint8_t> bytes;
};

/// An mbarrier object of the running block (EmuMbarrier.cpp).
struct Mbarrier {
  uint32_t count = 0;    // arrivals each phase expects
  uint32_t pending = 0;  // arrivals the current phase still expects
  int64_t tx = 0;        // transaction bytes the current phase still expects
  uint64_t phase = 0;    // phases completed since mbarrier.init
  std::vector<BulkDelivery> deliveries;  // bulk copies to complete on it, not yet delivered
  /// "mbarrier at shared offset 0x10: phase 2, 1 of 1 arrivals and 0 transaction bytes pending"
  std::string describe(uint64_t offset) const;
};

class Machine {
public:
  Machine(const Program &prog, const Function &entry, Dim3 grid, Dim3 block, std::vector<std::span<uint8_t>> buffers,
          EmuOptions options);

  /// Sets up the kernel parameters from the arguments; false (with error) if they do not fit.
  bool bindArguments(const std::vector<EmuArg> &args);
  /// Runs every block; the outcome is in result.
  void run();

  EmuResult result;

  // --- used by PtxExec.cpp --------------------------------------------------
  enum class Stop { Sync, Exited, Error, Yield };  // Yield: after a yields instruction, interleaved
  /// Runs `t` until it waits, exits or fails.
  Stop step(Thread &t);

private:
  const Program &prog_;
  const Function &entry_;
  Dim3 grid_, block_;
  std::vector<std::span<uint8_t>> buffers_;
  EmuOptions options_;
  std::vector<uint8_t> kparams_, shared_, globalData_, constData_;
  std::array<uint32_t, 3> ctaid_{};
  std::vector<Thread> threads_;
  std::array<Barrier, 16> barriers_{};
  std::vector<Access> accesses_;  // this block's, with profiling
  /// Per byte of shared memory, the cp.async copies in flight to it (issued,
  /// not completed by a wait): any other access to such a byte is a race.
  std::vector<uint16_t> inFlight_;
  uint64_t inFlightCount_ = 0;  // copies in flight in the block
  AsyncProxy proxy_;            // wgmma state of the block (only with trackProxy_)
  std::map<uint64_t, Mbarrier> mbarriers_;  // initialized barrier objects, by shared offset
  /// Per byte of shared memory, the bulk tensor stores still reading it (until
  /// a wait_group.read): a write to such a byte is a race.
  std::vector<uint16_t> bulkReading_;
  uint64_t bulkReadingCount_ = 0;
  /// Per byte of shared memory, the bulk tensor loads to land on it (until a
  /// thread waits on their barrier): any access to such a byte is a race.
  std::vector<uint16_t> bulkLanding_;
  uint64_t bulkLandingCount_ = 0;
  bool trackProxy_ = false;     // the program issues wgmma: shared writes are tracked for proxy fences
  uint32_t cursor_ = 0;         // the thread a scheduling pass starts at (after a yield: the next one)
  uint64_t sharedBytes_ = 0;
  // Interleaved launches (EmuOptions::interleave).
  uint64_t memoryChanges_ = 0;  // stores and atomics that changed a byte, so far
  const Instr *yieldedAt_ = nullptr;  // the instruction the running block last yielded after
  uint32_t yieldThread_ = 0;
  struct Resident;              // a block's state while another runs (EmuInterleave.cpp)

  // Emulator.cpp
  enum class Outcome { Done, Yielded, Failed };
  void initBlock();
  void finishBlock();
  void runInterleaved();
  void swapBlock(Resident &r);
  uint64_t stateHash() const;
  Outcome schedule();
  bool resolveWarps(bool &released);
  bool resolveBarriers();
  void reportDeadlock();
  std::string describeAddress(const Thread &t, uint64_t addr) const;
  bool callBuiltin(Thread &t, const Instr &in);
  bool readString(Thread &t, const Instr &in, uint64_t addr, std::string &out);

  // EmuMatrix.cpp: the warp at `base`, all 32 lanes waiting at `in`; false on an error.
  bool warpLdmatrix(uint32_t base, const Instr &in);
  bool warpStmatrix(uint32_t base, const Instr &in);
  bool warpMma(uint32_t base, const Instr &in);

  // EmuWarpgroup.cpp: wgmma, four warps at a time
  void initProxy();
  bool resolveWarpgroups(bool &released);
  bool warpgroupMma(uint32_t base, const Instr &in);
  void completeWgmma(AsyncProxy::Warpgroup &wg, size_t pending);
  /// False (with the error) if `in` touches a register an in-flight wgmma writes.
  bool wgmmaRegistersFree(Thread &t, const Frame &f, const Instr &in);
  /// Records the registers `in` writes (not wgmma's own), for the fence rule.
  void noteRegisterWrites(Thread &t, const Frame &f, const Instr &in);
  /// A generic-proxy write of shared bytes [offset, offset + size) by `t`.
  void noteGenericWrite(const Thread &t, uint64_t offset, uint64_t size);

  // EmuMbarrier.cpp
  enum class MbarOutcome { Done, Wait, NotYet, Error };
  /// Runs an mbarrier instruction of `t`; Wait: a try_wait whose phase has not
  /// completed (the thread blocks); NotYet: a test_wait that found it so (the
  /// thread lets the block's others run before it tests again).
  MbarOutcome mbarrier(Thread &t, const Frame &f, uint64_t *R, const Instr &in);
  /// The initialized barrier at `addr` (nullptr with the error set when it is not).
  Mbarrier *mbarrierAt(Thread &t, const Instr &in, uint64_t addr, bool initialized);
  bool mbarrierWaitDone(const Mbarrier &b, const Instr &in, uint64_t operand) const;
  void completePhase(Mbarrier &b);
  /// Releases the threads whose try_wait's phase has completed.
  bool resolveMbarriers();
  /// The barrier whose bytes [offset, offset + size) of shared memory touch, described; "" if none.
  std::string mbarrierAccess(uint64_t offset, uint64_t size) const;

  // EmuBulkCopy.cpp
  bool readTensorMap(Thread &t, const Instr &in, uint64_t addr, struct TensorMap &m);
  /// The 128 bytes of a tensor map at `addr` (64-byte aligned, in one window), or nullptr with the error set.
  uint8_t *mapBytes(Thread &t, const Instr &in, uint64_t addr, ptx::Space space, bool write);
  /// The shared offsets of a box's 16-byte chunks at `addr` under `swizzle`, each checked to lie in
  /// shared memory (the box 128-byte aligned); false with the error set.
  bool sharedBox(Thread &t, const Instr &in, uint64_t addr, uint64_t bytes, uint32_t swizzle,
                 std::vector<uint64_t> &chunks);
  bool tensormapReplace(Thread &t, const Frame &f, uint64_t *R, const Instr &in);
  bool tensormapCopy(Thread &t, const Frame &f, uint64_t *R, const Instr &in);
  /// A bulk tensor copy's coordinates (in.vec of them, innermost first).
  void coordinates(const Thread &t, const Frame &f, const uint64_t *R, const Instr &in, int32_t *coord) const;
  bool bulkTensorLoad(Thread &t, const Frame &f, uint64_t *R, const Instr &in);
  bool bulkTensorStore(Thread &t, const Frame &f, uint64_t *R, const Instr &in);
  void bulkCommit(Thread &t);
  void bulkWait(Thread &t, uint64_t pending);
  /// Delivers the copies that complete on `b` (their bytes to shared memory,
  /// their transaction bytes to the barrier).
  void deliver(Mbarrier &b);

  // PtxExec.cpp
  friend struct Exec;
  uint64_t special(const Thread &t, uint32_t which) const;
  uint64_t value(const Thread &t, const Frame &f, const uint64_t *regs, const Operand &o) const;
  uint64_t frameBase(const Frame &f, uint8_t window) const;
  uint64_t addressOf(const Frame &f, const uint64_t *regs, const Operand &o) const;
  /// Host memory for [addr, addr + size) as `in` accesses it, or nullptr with the error set.
  uint8_t *access(Thread &t, const Instr &in, uint64_t addr, uint64_t size, ptx::Space space, bool write);
  bool call(Thread &t, const Instr &in);
  /// Returns from the current frame; `exited` when it was the kernel's. False on an error.
  bool ret(Thread &t, const Instr &in, bool &exited);

public:
  /// "(line 12, block (0,0,0), thread 5)"
  std::string where(const Thread &t, const Instr &in) const;
  void fail(const Thread &t, const Instr &in, const std::string &what);
  uint8_t *hostAccess(Thread &t, const Instr &in, uint64_t addr, uint64_t size, bool write) {
    return access(t, in, addr, size, ptx::Space::Generic, write);
  }
};

inline uint64_t Machine::frameBase(const Frame &f, uint8_t window) const {
  switch (window) {
  case 1: return ptx::kLocalBase + f.localBase;
  case 2: return ptx::kFParamBase + f.paramBase;
  case 3: return ptx::kSharedBase + prog_.dynamicSharedOffset;
  default: return 0;
  }
}

inline uint64_t Machine::value(const Thread &t, const Frame &f, const uint64_t *regs, const Operand &o) const {
  switch (o.kind) {
  case Operand::Kind::Reg: return o.negate ? (~regs[o.reg] & 1) : regs[o.reg];
  case Operand::Kind::Imm: return o.imm;
  case Operand::Kind::Special: return special(t, o.reg);
  case Operand::Kind::FrameAddr: return o.imm + frameBase(f, o.frame);
  default: return 0;
  }
}

inline uint64_t Machine::addressOf(const Frame &f, const uint64_t *regs, const Operand &o) const {
  uint64_t a = o.imm;
  if (o.reg != Operand::kNoReg) a += regs[o.reg];
  if (o.frame) a += frameBase(f, o.frame);
  return a;
}

/// CUDA's vprintf: `fmt` with the arguments packed (naturally aligned) at
/// `args`. read(addr, size, out) reads device memory; str(addr, out) a
/// NUL-terminated string. Returns false (with `error`) on a bad pointer.
struct PrintfMemory {
  virtual ~PrintfMemory() = default;
  virtual bool read(uint64_t addr, unsigned size, uint64_t &out) = 0;
  virtual bool str(uint64_t addr, std::string &out) = 0;
};
bool formatPrintf(const std::string &fmt, uint64_t args, PrintfMemory &mem, std::string &out, int &count);

} // namespace twintile::runtime::emu
