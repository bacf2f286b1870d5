//===- EmuInterleave.cpp - programs that run at the same time -------------===//
//
// EmuOptions::interleave: up to N blocks of the grid are resident at once, as
// on a GPU, admitted in the grid's order (x fastest) as others end. The
// running block's state is the Machine's; the others wait in a Resident,
// swapped in and out whole. A block runs until one of its threads yields
// (after a global atomic or a volatile or strong load: PtxExec.cpp), then a
// resident block drawn from the seeded generator runs. So a spin lock taken
// by several programs, or a decoupled look-back, contends as on the
// hardware, in an order a seed reproduces.
//
// Deadlock: nothing else can make a yielding block's next step differ from
// a previous one but a change of memory. So a block whose whole state (every
// thread's position, registers and local memory; its shared memory and
// barriers) at a yield equals its state at an earlier yield, with no store
// or atomic having changed any byte since, is stuck until another block
// changes memory. When every resident block is stuck, none ever will: the
// launch stops with each program's position. (A program that waits for one
// not yet admitted is stuck the same way, as it would be on a GPU whose
// every slot held such waiters.)
//===----------------------------------------------------------------------===//
#include "runtime/EmuMachine.h"

#include <algorithm>
#include <memory>
#include <unordered_set>
#include <random>
#include <sstream>

namespace twintile::runtime::emu {

struct Machine::Resident {
  std::array<uint32_t, 3> ctaid{};
  std::vector<Thread> threads;
  std::vector<uint8_t> shared;
  std::array<Barrier, 16> barriers{};
  std::map<uint64_t, Mbarrier> mbarriers;
  std::vector<Access> accesses;
  std::vector<uint16_t> inFlight, bulkReading, bulkLanding;
  uint64_t inFlightCount = 0, bulkReadingCount = 0, bulkLandingCount = 0;
  AsyncProxy proxy;
  uint32_t cursor = 0;
  // Stuck detection, since memory last changed: the yielding threads' own
  // states (cheap: one thread's position, registers and local memory), and
  // the whole block's, hashed only once its yielding thread repeats itself.
  std::unordered_set<uint64_t> seenThreads, seen;
  uint64_t seenAt = ~uint64_t(0);  // memoryChanges_ when `seen` began
  bool stuck = false;
  const Instr *yieldedAt = nullptr;
  uint32_t yieldThread = 0;
};

void Machine::swapBlock(Resident &r) {
  std::swap(ctaid_, r.ctaid);
  threads_.swap(r.threads);
  shared_.swap(r.shared);
  std::swap(barriers_, r.barriers);
  mbarriers_.swap(r.mbarriers);
  accesses_.swap(r.accesses);
  inFlight_.swap(r.inFlight);
  std::swap(inFlightCount_, r.inFlightCount);
  bulkReading_.swap(r.bulkReading);
  std::swap(bulkReadingCount_, r.bulkReadingCount);
  bulkLanding_.swap(r.bulkLanding);
  std::swap(bulkLandingCount_, r.bulkLandingCount);
  std::swap(proxy_, r.proxy);
  std::swap(cursor_, r.cursor);
}

namespace {

struct Fnv {
  uint64_t h = 1469598103934665603ull;
  void bytes(const void *p, size_t n) {
    auto *b = static_cast<const uint8_t *>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  }
  template <class T> void value(const T &v) { bytes(&v, sizeof v); }
};

} // namespace

namespace {
/// What decides a thread's next steps. The instruction counts are left out:
/// a spinning thread's grow, and they decide nothing (the budget aside,
/// which a spin reaches only by changing state anyway).
void hashThread(Fnv &f, const Thread &t) {
  f.value(t.linear);
  f.value(t.state);
  f.value(t.carry);
  f.value(t.barrier);
  for (const Frame &fr : t.frames) {
    f.value(fr.fn);
    f.value(fr.pc);
  }
  f.bytes(t.regs.data(), t.regs.size() * sizeof(uint64_t));
  f.bytes(t.local.data(), t.local.size());
  f.value(t.asyncPending.size());
  f.value(t.asyncGroups.size());
}
} // namespace

/// A hash of what decides the running block's next steps: every thread's
/// state, shared memory and the barriers.
uint64_t Machine::stateHash() const {
  Fnv f;
  for (const Thread &t : threads_) hashThread(f, t);
  f.bytes(shared_.data(), shared_.size());
  for (const Barrier &b : barriers_) {
    f.value(b.arrived);
    f.value(b.expected);
  }
  f.value(cursor_);
  return f.h;
}

void Machine::runInterleaved() {
  std::vector<std::array<uint32_t, 3>> order;
  for (uint32_t z = 0; z < grid_.z; ++z)
    for (uint32_t y = 0; y < grid_.y; ++y)
      for (uint32_t x = 0; x < grid_.x; ++x) order.push_back({x, y, z});
  std::vector<std::unique_ptr<Resident>> resident;
  size_t next = 0;
  std::mt19937_64 pick(options_.seed);
  auto admit = [&] {
    while (resident.size() < options_.interleave && next < order.size()) {
      auto r = std::make_unique<Resident>();
      ctaid_ = order[next++];
      initBlock();
      swapBlock(*r);  // the new block waits in r
      resident.push_back(std::move(r));
    }
  };
  admit();
  while (!resident.empty()) {
    size_t i = std::uniform_int_distribution<size_t>(0, resident.size() - 1)(pick);
    Resident &r = *resident[i];
    swapBlock(r);
    Outcome o = schedule();
    if (o == Outcome::Failed) return;  // the error names the running block
    if (o == Outcome::Done) {
      finishBlock();
      swapBlock(r);
      resident.erase(resident.begin() + static_cast<std::ptrdiff_t>(i));
      admit();
      continue;
    }
    r.yieldedAt = yieldedAt_;
    r.yieldThread = yieldThread_;
    if (r.seenAt != memoryChanges_) {  // memory changed since: what it saw before no longer repeats
      r.seenThreads.clear();
      r.seen.clear();
      r.seenAt = memoryChanges_;
    }
    Fnv own;
    hashThread(own, threads_[yieldThread_]);
    // The block can repeat only where its yielding thread does: hash the whole block only then.
    r.stuck = !r.seenThreads.insert(own.h).second && !r.seen.insert(stateHash()).second;
    swapBlock(r);
    bool allStuck = std::all_of(resident.begin(), resident.end(), [&](const std::unique_ptr<Resident> &b) {
      return b->stuck && b->seenAt == memoryChanges_;
    });
    if (!allStuck) continue;
    std::ostringstream s;
    s << "deadlock: the " << resident.size() << " resident program" << (resident.size() == 1 ? "" : "s")
      << " (of " << order.size() << ", at most " << options_.interleave
      << " at once) wait for memory that no program changes:";
    for (const auto &b : resident)
      s << " program (" << b->ctaid[0] << "," << b->ctaid[1] << "," << b->ctaid[2] << ") thread " << b->yieldThread
        << " repeats line " << b->yieldedAt->line << " (" << b->yieldedAt->text << ");";
    std::string msg = s.str();
    msg.back() = '.';
    result.error = msg;
    return;
  }
}

} // namespace twintile::runtime::emu
