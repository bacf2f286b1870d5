//===- EmuMbarrier.cpp - Hopper's mbarrier objects, emulated --------------===//
//
// A barrier object lives in 8 bytes of shared memory; the emulator keeps its
// state beside them (Machine::mbarriers_, by shared offset) and refuses any
// other access to those bytes while it is initialized, as the PTX ISA leaves
// them opaque. Each phase expects `count` arrivals and as many transaction
// bytes as expect_tx announced; it completes when both reach zero (the bytes
// delivered by the asynchronous copies that complete on it), and the next
// phase begins expecting `count` arrivals again.
//
// A waiting try_wait blocks its thread until the phase it waits for has
// completed (a time limit only changes how often a thread retries on a GPU),
// so a loop around it runs once; when no thread can run and no phase can
// complete, the scheduler reports the deadlock with each barrier's state. The
// parity form waits for the phase whose number has that parity, the current
// one or the one before it (so that a parity the barrier has just left
// returns at once); the state form for the phase an arrive returned.
//===----------------------------------------------------------------------===//
#include "runtime/EmuMachine.h"


namespace twintile::runtime::emu {

using namespace ptx;

namespace {

constexpr uint64_t kMaxArrivals = (uint64_t(1) << 20) - 1;  // the ISA's limit on count and tx-count

} // namespace

std::string Mbarrier::describe(uint64_t offset) const {
  return "mbarrier at shared offset " + hex(offset) + ": phase " + std::to_string(phase) + ", " +
         std::to_string(pending) + " of " + std::to_string(count) + " arrivals and " +
         (tx >= 0 ? std::to_string(tx) + " transaction bytes pending"
                  : std::to_string(-tx) + " transaction bytes more delivered than expected") +
         (deliveries.empty() ? "" : ", " + std::to_string(deliveries.size()) + " bulk copies to deliver");
}

void Machine::completePhase(Mbarrier &b) {
  if (b.pending != 0 || b.tx != 0) return;
  ++b.phase;
  b.pending = b.count;
}

Mbarrier *Machine::mbarrierAt(Thread &t, const Instr &in, uint64_t addr, bool initialized) {
  uint64_t offset = addr - kSharedBase;
  auto it = mbarriers_.find(offset);
  // A barrier's own instructions may touch its bytes; others (a bulk copy
  // naming it) only name it.
  if (it == mbarriers_.end() && !access(t, in, addr, 8, Space::Shared, false)) return nullptr;
  if (initialized && it == mbarriers_.end()) {
    fail(t, in, "mbarrier at shared offset " + hex(offset) + " used before mbarrier.init (or after mbarrier.inval) in");
    return nullptr;
  }
  return it == mbarriers_.end() ? nullptr : &it->second;
}

bool Machine::mbarrierWaitDone(const Mbarrier &b, const Instr &in, uint64_t operand) const {
  if (in.mode == Mode::Parity) return (b.phase & 1) != (operand & 1);
  return b.phase > operand;  // a state: the phase number its arrive returned
}

Machine::MbarOutcome Machine::mbarrier(Thread &t, const Frame &f, uint64_t *R, const Instr &in) {
  uint64_t addr = addressOf(f, R, in.ops[1]);
  uint64_t n = in.nops > 2 ? value(t, f, R, in.ops[2]) : 0;
  auto writeResult = [&](uint64_t v) {
    if (in.ops[0].kind == Operand::Kind::Reg) R[in.ops[0].reg] = v & in.ops[0].imm;
  };
  if (in.op == Op::MbarInit) {
    n &= 0xffffffffu;
    if (n < 1 || n > kMaxArrivals) {
      fail(t, in, "mbarrier.init with a count of " + std::to_string(n) + " (1 to 2^20 - 1) in");
      return MbarOutcome::Error;
    }
    if (!access(t, in, addr, 8, Space::Shared, true)) return MbarOutcome::Error;
    uint64_t offset = addr - kSharedBase;
    if (auto it = mbarriers_.find(offset); it != mbarriers_.end() && !it->second.deliveries.empty()) {
      fail(t, in, "mbarrier.init of a barrier bulk copies are still to complete on (" + it->second.describe(offset) +
                      ") in");
      return MbarOutcome::Error;
    }
    mbarriers_[offset] = Mbarrier{static_cast<uint32_t>(n), static_cast<uint32_t>(n), 0, 0, {}};
    return MbarOutcome::Done;
  }
  Mbarrier *b = mbarrierAt(t, in, addr, true);
  if (!b) return MbarOutcome::Error;
  uint64_t offset = addr - kSharedBase;
  switch (in.op) {
  case Op::MbarInval:
    if (!b->deliveries.empty()) {
      fail(t, in, "mbarrier.inval of a barrier bulk copies are still to complete on (" + b->describe(offset) + ") in");
      return MbarOutcome::Error;
    }
    mbarriers_.erase(offset);
    return MbarOutcome::Done;
  case Op::MbarExpectTx:
  case Op::MbarArrive: {
    uint64_t tx = in.op == Op::MbarExpectTx || in.mode == Mode::ExpectTx ? n & 0xffffffffu : 0;
    uint64_t arrivals = in.op == Op::MbarArrive && in.mode != Mode::ExpectTx ? n & 0xffffffffu : 1;
    if (in.op == Op::MbarExpectTx) arrivals = 0;
    if (tx > kMaxArrivals || b->tx + static_cast<int64_t>(tx) > static_cast<int64_t>(kMaxArrivals)) {
      fail(t, in, "expect_tx of " + std::to_string(tx) + " bytes beyond the 2^20 - 1 a phase may expect (" +
                      b->describe(offset) + ") in");
      return MbarOutcome::Error;
    }
    if (arrivals > b->pending || (in.op == Op::MbarArrive && arrivals == 0)) {
      fail(t, in, std::to_string(arrivals) + " arrivals where the phase expects " + std::to_string(b->pending) +
                      " more (" + b->describe(offset) + ") in");
      return MbarOutcome::Error;
    }
    uint64_t state = b->phase;
    b->tx += static_cast<int64_t>(tx);
    b->pending -= static_cast<uint32_t>(arrivals);
    completePhase(*b);
    writeResult(state);
    return MbarOutcome::Done;
  }
  case Op::MbarCompleteTx:  // what an asynchronous copy does when its bytes have arrived
    b->tx -= static_cast<int64_t>(n & 0xffffffffu);
    completePhase(*b);
    return MbarOutcome::Done;
  case Op::MbarTestWait:
  case Op::MbarTryWait: {
    deliver(*b);  // a wait is when the emulator lets the copies land: a read before it is a race
    bool done = mbarrierWaitDone(*b, in, n);
    if (!done && in.op == Op::MbarTryWait) return MbarOutcome::Wait;
    writeResult(done ? 1 : 0);
    return done ? MbarOutcome::Done : MbarOutcome::NotYet;
  }
  default: break;
  }
  fail(t, in, "internal error: not an mbarrier instruction:");
  return MbarOutcome::Error;
}

bool Machine::resolveMbarriers() {
  bool released = false;
  for (auto &[offset, b] : mbarriers_)
    if (!b.deliveries.empty()) deliver(b), released = true;  // no thread can run: the copies land now
  for (Thread &t : threads_) {
    if (t.state != State::AtMbarrier) continue;
    Frame &f = t.frames.back();
    uint64_t *R = t.regs.data() + f.regBase;
    const Instr &in = *t.waiting;
    auto it = mbarriers_.find(addressOf(f, R, in.ops[1]) - kSharedBase);
    if (it == mbarriers_.end() || !mbarrierWaitDone(it->second, in, value(t, f, R, in.ops[2]))) continue;
    if (in.ops[0].kind == Operand::Kind::Reg) R[in.ops[0].reg] = 1;
    f.pc += 1;
    t.state = State::Ready;
    released = true;
  }
  return released;
}

std::string Machine::mbarrierAccess(uint64_t offset, uint64_t size) const {
  auto it = mbarriers_.upper_bound(offset + size - 1);
  if (it == mbarriers_.begin()) return {};
  --it;
  if (it->first + 8 <= offset) return {};
  return it->second.describe(it->first);
}

} // namespace twintile::runtime::emu
