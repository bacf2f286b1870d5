//===- Emulator.cpp - launches, blocks, scheduling and synchronization ----===//
//
// A launch checks its shape and arguments against the kernel, then runs the
// blocks in order. In a block, every ready thread runs (PtxExec.cpp) until
// it waits or exits; then waits are resolved: a warp
// whose waiting lanes cover every live lane of their member mask completes
// its shfl/vote/redux at once, a barrier that every thread it expects has
// reached releases them. When nothing is ready and nothing can be released,
// the block is deadlocked and the error says who waits where.
//===----------------------------------------------------------------------===//
#include "runtime/Emulator.h"

#include "runtime/EmuMachine.h"
#include "runtime/PtxProgram.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <sstream>

namespace twintile::runtime {

EmuArg EmuArg::buf(size_t i) {
  EmuArg a;
  a.kind = Kind::Buffer;
  a.buffer = i;
  return a;
}

EmuArg EmuArg::scalar(uint64_t bits) {
  EmuArg a;
  a.kind = Kind::Bits;
  a.bits = bits;
  return a;
}

EmuArg EmuArg::f32(float v) { return scalar(std::bit_cast<uint32_t>(v)); }
EmuArg EmuArg::f64(double v) { return scalar(std::bit_cast<uint64_t>(v)); }

uint64_t bufferAddress(size_t i) { return static_cast<uint64_t>(i + 1) << ptx::kBufferShift; }

namespace emu {

using namespace ptx;

namespace {

constexpr uint64_t kMaxSharedBytes = 227 * 1024;  // sm_90's per-block limit

std::string dim(Dim3 d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

/// "lanes 0-15, 20" / "threads 3, 7-9"
std::string ranges(const std::vector<uint32_t> &ids) {
  std::string out;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(ids[i]);
    if (j > i) out += "-" + std::to_string(ids[j]);
    i = j + 1;
  }
  return out;
}

} // namespace

Machine::Machine(const Program &prog, const Function &entry, Dim3 grid, Dim3 block,
                 std::vector<std::span<uint8_t>> buffers, EmuOptions options)
    : prog_(prog), entry_(entry), grid_(grid), block_(block), buffers_(std::move(buffers)), options_(options),
      globalData_(prog.globalInit), constData_(prog.constInit) {
  for (const ptx::Function &fn : prog.functions)
    for (const Instr &in : fn.code) trackProxy_ |= isWarpgroupOp(in.op) || isBulkOp(in.op);
}

bool Machine::bindArguments(const std::vector<EmuArg> &args) {
  const auto &params = entry_.params;
  if (args.size() != params.size()) {
    result.error = "kernel " + entry_.name + " takes " + std::to_string(params.size()) + " parameters, " +
                   std::to_string(args.size()) + " arguments given";
    return false;
  }
  uint64_t size = 0;
  for (const Param &p : params) size = std::max(size, p.offset + p.size);
  kparams_.assign(size, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const Param &p = params[i];
    const EmuArg &a = args[i];
    uint64_t bits = a.bits;
    std::string what = "argument " + std::to_string(i) + " of " + entry_.name + " (" + p.name + ", " +
                       std::to_string(p.size) + " bytes)";
    if (a.kind == EmuArg::Kind::Buffer) {
      if (a.buffer >= buffers_.size()) {
        result.error = what + " is buffer " + std::to_string(a.buffer) + ", but there are " +
                       std::to_string(buffers_.size()) + " buffers";
        return false;
      }
      if (p.size != 8) {
        result.error = what + " is a buffer; a pointer parameter has 8 bytes";
        return false;
      }
      bits = bufferAddress(a.buffer);
    } else if (p.size > 8) {
      result.error = what + " is a scalar; parameters over 8 bytes are not supported";
      return false;
    }
    std::memcpy(kparams_.data() + p.offset, &bits, p.size);
  }
  return true;
}

void Machine::run() {
  auto fail = [&](const std::string &msg) { result.error = msg; };
  if (!grid_.x || !grid_.y || !grid_.z || !block_.x || !block_.y || !block_.z)
    return fail("empty launch: grid " + dim(grid_) + ", block " + dim(block_));
  uint64_t threads = uint64_t(block_.x) * block_.y * block_.z;  // no overflow: each factor is below 2^32
  if (block_.x > 1024 || block_.y > 1024 || block_.z > 64 || threads > 1024)
    return fail("block " + dim(block_) + " has more than 1024 threads (or z > 64)");
  if (grid_.y > 65535 || grid_.z > 65535) return fail("grid " + dim(grid_) + " exceeds 65535 in y or z");
  const auto &mx = entry_.maxntid;
  if (mx[0] && threads > uint64_t(mx[0]) * std::max(mx[1], 1u) * std::max(mx[2], 1u))
    return fail("block " + dim(block_) + " exceeds .maxntid " + std::to_string(mx[0]) + "," + std::to_string(mx[1]) +
                "," + std::to_string(mx[2]) + " of " + entry_.name);
  const auto &rq = entry_.reqntid;
  if (rq[0] && (block_.x != rq[0] || block_.y != std::max(rq[1], 1u) || block_.z != std::max(rq[2], 1u)))
    return fail("block " + dim(block_) + " differs from .reqntid " + std::to_string(rq[0]) + "," +
                std::to_string(rq[1]) + "," + std::to_string(rq[2]) + " of " + entry_.name);
  uint64_t sharedBytes = prog_.dynamicSharedOffset + options_.dynamicSharedBytes;
  if (!options_.dynamicSharedBytes) sharedBytes = prog_.staticSharedBytes;
  if (sharedBytes > kMaxSharedBytes)
    return fail("shared memory of " + std::to_string(sharedBytes) + " bytes exceeds the limit of " +
                std::to_string(kMaxSharedBytes));
  sharedBytes_ = sharedBytes;
  if (options_.interleave) return runInterleaved();
  for (uint32_t z = 0; z < grid_.z && result.ok(); ++z)
    for (uint32_t y = 0; y < grid_.y && result.ok(); ++y)
      for (uint32_t x = 0; x < grid_.x && result.ok(); ++x) {
        ctaid_ = {x, y, z};
        initBlock();
        if (schedule() == Outcome::Done) finishBlock();
      }
}

/// The running block's state, ctaid_ given: shared memory zeroed, every
/// thread at the entry.
void Machine::initBlock() {
  uint32_t threads = block_.x * block_.y * block_.z;
  shared_.assign(sharedBytes_, 0);
  inFlight_.assign(shared_.size(), 0);
  inFlightCount_ = 0;
  bulkReading_.assign(shared_.size(), 0);
  bulkReadingCount_ = 0;
  bulkLanding_.assign(shared_.size(), 0);
  bulkLandingCount_ = 0;
  barriers_ = {};
  mbarriers_.clear();
  cursor_ = 0;
  threads_.resize(threads);
  for (uint32_t i = 0; i < threads; ++i) {
    Thread &t = threads_[i];
    t.linear = i;
    t.tid = {i % block_.x, (i / block_.x) % block_.y, i / (block_.x * block_.y)};
  }
  for (Thread &t : threads_) {
    t.state = State::Ready;
    t.frames.assign(1, Frame{&entry_, 0, 0, 0, 0, 0});
    t.regs.assign(entry_.numRegs, 0);
    t.local.assign(entry_.localBytes, 0);
    t.param.assign(entry_.paramBytes, 0);
    t.executed = 0;
    t.carry = false;
    t.waiting = nullptr;
    t.runs.clear();
    t.asyncPending.clear();
    t.asyncGroups.clear();
    t.bulkPending.clear();
    t.bulkGroups.clear();
    t.proxyFences = 0;
    t.wgmmaRegs.clear();
    t.lastWrite.clear();
    t.fencedAt = 0;
  }
  initProxy();
  accesses_.clear();
}

/// The running block has ended: its counts join the launch's.
void Machine::finishBlock() {
  for (const Thread &t : threads_) result.instructions += t.executed;
  if (options_.profile && result.ok()) addBlockProfile(threads_, accesses_, result.profile);
}

/// Runs the running block's threads until all have exited (Done), one
/// yielded (interleaved launches only), or the block failed.
Machine::Outcome Machine::schedule() {
  const size_t n = threads_.size();
  for (;;) {
    bool anyReady = false;
    for (size_t k = 0; k < n; ++k) {
      size_t i = (cursor_ + k) % n;
      Thread &t = threads_[i];
      if (t.state != State::Ready) continue;
      anyReady = true;
      Stop s = step(t);
      if (s == Stop::Error) return Outcome::Failed;
      if (s == Stop::Exited && !t.wgmmaRegs.empty()) [[unlikely]] {
        result.error = "thread " + std::to_string(t.linear) + " of block (" + std::to_string(ctaid_[0]) + "," +
                       std::to_string(ctaid_[1]) + "," + std::to_string(ctaid_[2]) +
                       ") exited with a wgmma.mma_async in flight (no wgmma.wait_group completed it)";
        return Outcome::Failed;
      }
      if (s == Stop::Exited && (!t.bulkGroups.empty() || !t.bulkPending.empty())) [[unlikely]] {
        result.error = "thread " + std::to_string(t.linear) + " of block (" + std::to_string(ctaid_[0]) + "," +
                       std::to_string(ctaid_[1]) + "," + std::to_string(ctaid_[2]) +
                       ") exited with a cp.async.bulk.tensor store still reading shared memory (no "
                       "cp.async.bulk.wait_group.read completed it)";
        return Outcome::Failed;
      }
      if (s == Stop::Yield) {
        cursor_ = static_cast<uint32_t>((i + 1) % n);  // resumed at the next thread: no thread starves
        yieldThread_ = t.linear;
        return Outcome::Yielded;
      }
    }
    if (anyReady) continue;  // run until every thread waits or has exited
    if (std::all_of(threads_.begin(), threads_.end(), [](const Thread &t) { return t.state == State::Exited; })) {
      for (const auto &[offset, b] : mbarriers_)
        if (!b.deliveries.empty()) {
          result.error = "block (" + std::to_string(ctaid_[0]) + "," + std::to_string(ctaid_[1]) + "," +
                         std::to_string(ctaid_[2]) + ") ended with cp.async.bulk.tensor loads no thread waited for (" +
                         b.describe(offset) + ")";
          return Outcome::Failed;
        }
      return Outcome::Done;
    }
    bool released = false;
    if (!resolveWarps(released) || !resolveWarpgroups(released)) return Outcome::Failed;
    released |= resolveBarriers();
    released |= resolveMbarriers();
    if (!released) {
      reportDeadlock();
      return Outcome::Failed;
    }
  }
}

/// Completes each warp-synchronous group whose member mask's live lanes all wait.
bool Machine::resolveWarps(bool &released) {
  uint32_t warps = static_cast<uint32_t>((threads_.size() + 31) / 32);
  for (uint32_t w = 0; w < warps; ++w) {
    uint32_t base = w * 32, n = std::min<uint32_t>(32, static_cast<uint32_t>(threads_.size()) - base);
    // Group the waiting lanes by member mask.
    std::map<uint32_t, std::vector<uint32_t>> groups;
    for (uint32_t l = 0; l < n; ++l) {
      Thread &t = threads_[base + l];
      if (t.state != State::AtWarpSync) continue;
      const Instr &in = *t.waiting;
      const Frame &f = t.frames.back();
      if (isWarpgroupOp(in.op)) continue;  // four warps at a time: resolveWarpgroups
      if (isWarpMatrixOp(in.op)) {  // .aligned: the whole warp, every lane
        if (n < 32) {
          fail(t, in, in.text + " in a warp of " + std::to_string(n) + " threads (it needs all 32)");
          return false;
        }
        for (uint32_t o = 0; o < 32; ++o)
          if (threads_[base + o].state == State::Exited) {
            fail(t, in, in.text + " after lane " + std::to_string(o) + " of its warp exited (it needs all 32)");
            return false;
          }
        groups[0xffffffffu].push_back(l);
        continue;
      }
      const Operand &maskOp = in.op == Op::Shfl ? in.ops[4] : in.op == Op::BarWarpSync ? in.ops[0] : in.ops[2];
      uint32_t mask = static_cast<uint32_t>(value(t, f, t.regs.data() + f.regBase, maskOp));
      if (!((mask >> l) & 1)) {
        fail(t, in, in.text + " in a lane (" + std::to_string(l) + ") that its member mask " + hex(mask) + " leaves out");
        return false;
      }
      groups[mask].push_back(l);
    }
    for (auto &[mask, lanes] : groups) {
      // Ready when every live lane of the mask waits here with the same mask.
      bool ready = true;
      for (uint32_t l = 0; l < n && ready; ++l) {
        if (!((mask >> l) & 1)) continue;
        const Thread &t = threads_[base + l];
        if (t.state == State::Exited) continue;
        ready = std::find(lanes.begin(), lanes.end(), l) != lanes.end();
      }
      if (!ready) continue;
      // All lanes of a group must run the same kind of instruction.
      const Instr &first = *threads_[base + lanes[0]].waiting;
      for (uint32_t l : lanes) {
        const Instr &in = *threads_[base + l].waiting;
        if (in.op != first.op || in.mode != first.mode) {
          fail(threads_[base + l], in,
               "warp " + std::to_string(w) + " diverges: lane " + std::to_string(lanes[0]) + " is at " + first.text +
                   " (line " + std::to_string(first.line) + ") while lane " + std::to_string(l) + " is at " + in.text);
          return false;
        }
      }
      if (isWarpMatrixOp(first.op)) {
        for (uint32_t l : lanes)
          if (threads_[base + l].waiting != &first) {
            const Instr &in = *threads_[base + l].waiting;
            fail(threads_[base + l], in,
                 "warp " + std::to_string(w) + " diverges: lane " + std::to_string(lanes[0]) + " is at line " +
                     std::to_string(first.line) + " while lane " + std::to_string(l) + " is at " + in.text);
            return false;
          }
        bool ran = first.op == Op::Ldmatrix   ? warpLdmatrix(base, first)
                   : first.op == Op::Stmatrix ? warpStmatrix(base, first)
                                              : warpMma(base, first);
        if (!ran) return false;
        for (uint32_t l : lanes) {
          Thread &t = threads_[base + l];
          t.frames.back().pc += 1;
          t.state = State::Ready;
          t.waiting = nullptr;
        }
        released = true;
        continue;
      }
      // Read every lane's operands before writing any result (a result may overwrite a source).
      uint64_t a[32] = {}, b[32] = {}, c[32] = {};
      bool member[32] = {};
      for (uint32_t l : lanes) {
        Thread &t = threads_[base + l];
        const Instr &in = *t.waiting;
        const Frame &f = t.frames.back();
        const uint64_t *regs = t.regs.data() + f.regBase;
        member[l] = true;
        if (in.op == Op::BarWarpSync) continue;
        a[l] = value(t, f, regs, in.ops[1]);
        if (in.op == Op::Shfl) {
          b[l] = value(t, f, regs, in.ops[2]);
          c[l] = value(t, f, regs, in.ops[3]);
        }
      }
      uint64_t ballot = 0, reduced = 0;
      bool all = true, any = false;
      for (size_t i = 0; i < lanes.size(); ++i) {
        uint32_t l = lanes[i];
        ballot |= uint64_t(a[l] & 1) << l;
        all &= (a[l] & 1) != 0;
        any |= (a[l] & 1) != 0;
        if (first.op != Op::Redux) continue;
        uint32_t v = static_cast<uint32_t>(a[l]), r = static_cast<uint32_t>(reduced);
        bool sgn = first.type == Type::S32;
        if (i == 0) { reduced = v; continue; }
        switch (first.mode) {
        case Mode::AtomAdd: reduced = r + v; break;
        case Mode::AtomAnd: reduced = r & v; break;
        case Mode::AtomOr: reduced = r | v; break;
        case Mode::AtomXor: reduced = r ^ v; break;
        case Mode::AtomMin: reduced = sgn ? static_cast<uint32_t>(std::min<int32_t>(r, v)) : std::min(r, v); break;
        case Mode::AtomMax: reduced = sgn ? static_cast<uint32_t>(std::max<int32_t>(r, v)) : std::max(r, v); break;
        default: break;
        }
      }
      for (uint32_t l : lanes) {
        Thread &t = threads_[base + l];
        const Instr &in = *t.waiting;
        Frame &f = t.frames.back();
        uint64_t *regs = t.regs.data() + f.regBase;
        auto put = [&](const Operand &o, uint64_t v) {
          if (o.kind == Operand::Kind::Reg) regs[o.reg] = v & o.imm;
        };
        switch (in.op) {
        case Op::Shfl: {
          int lane = static_cast<int>(l);
          int bval = static_cast<int>(b[l] & 0x1f), cval = static_cast<int>(c[l] & 0x1f);
          int segmask = static_cast<int>((c[l] >> 8) & 0x1f);
          int maxLane = (lane & segmask) | (cval & ~segmask), minLane = lane & segmask;
          int j = lane;
          bool pval = false;
          switch (in.mode) {
          case Mode::Up: j = lane - bval; pval = j >= maxLane; break;
          case Mode::Down: j = lane + bval; pval = j <= maxLane; break;
          case Mode::Bfly: j = lane ^ bval; pval = j <= maxLane; break;
          default: j = minLane | (bval & ~segmask); pval = j <= maxLane; break;
          }
          if (!pval) j = lane;
          // A source lane that does not take part (exited, absent) gives the reader's own value.
          put(in.ops[0], (j >= 0 && j < 32 && member[j]) ? a[j] : a[l]);
          put(in.dst2, pval ? 1 : 0);
          break;
        }
        case Op::Vote:
          switch (in.mode) {
          case Mode::All: put(in.ops[0], all); break;
          case Mode::Any: put(in.ops[0], any); break;
          case Mode::Uni: put(in.ops[0], all || !any); break;
          default: put(in.ops[0], ballot); break;
          }
          break;
        case Op::Redux: put(in.ops[0], reduced); break;
        default: break;
        }
        f.pc += 1;
        t.state = State::Ready;
        t.waiting = nullptr;
      }
      released = true;
    }
  }
  return true;
}

bool Machine::resolveBarriers() {
  uint32_t live = 0;
  for (const Thread &t : threads_) live += t.state != State::Exited;
  bool released = false;
  for (uint32_t id = 0; id < barriers_.size(); ++id) {
    Barrier &b = barriers_[id];
    if (!b.arrived) continue;
    uint32_t expected = b.expected ? b.expected : live;
    if (b.arrived < expected) continue;
    for (Thread &t : threads_)
      if (t.state == State::AtBarrier && t.barrier == id) {
        t.state = State::Ready;
        t.frames.back().pc += 1;
        t.waiting = nullptr;
      }
    b = Barrier{};
    released = true;
  }
  return released;
}

void Machine::reportDeadlock() {
  // Who waits where: one group per instruction, and the exited threads.
  std::map<std::pair<uint32_t, std::string>, std::vector<uint32_t>> waits;
  std::vector<uint32_t> exited;
  uint32_t live = 0;
  for (const Thread &t : threads_) {
    if (t.state == State::Exited) {
      exited.push_back(t.linear);
      continue;
    }
    ++live;
    const Instr &in = *t.waiting;
    waits[{in.line, in.text}].push_back(t.linear);
  }
  bool warpSync = false, mbarrier = false;
  for (const Thread &t : threads_) warpSync |= t.state == State::AtWarpSync, mbarrier |= t.state == State::AtMbarrier;
  std::ostringstream s;
  s << (warpSync   ? "deadlock (a warp-synchronous instruction whose warp does not converge)"
        : mbarrier ? "deadlock (an mbarrier phase that never completes)"
                   : "deadlock at a barrier not reached by every thread")
    << " in block (" << ctaid_[0] << "," << ctaid_[1] << "," << ctaid_[2] << "): ";
  bool firstGroup = true;
  for (const auto &[key, ids] : waits) {
    if (!firstGroup) s << "; ";
    firstGroup = false;
    s << "threads " << ranges(ids) << " wait at " << key.second << " (line " << key.first << ")";
  }
  for (uint32_t id = 0; id < barriers_.size(); ++id)
    if (barriers_[id].arrived)
      s << "; barrier " << id << " has " << barriers_[id].arrived << " of "
        << (barriers_[id].expected ? barriers_[id].expected : live) << " threads";
  for (const auto &[offset, b] : mbarriers_) s << "; " << b.describe(offset);
  if (!exited.empty()) s << "; threads " << ranges(exited) << " have exited";
  result.error = s.str();
}

std::string Machine::describeAddress(const Thread &t, uint64_t addr) const {
  if (uint64_t index = addr >> kBufferShift; index != 0) {
    index -= 1;
    uint64_t off = addr & ((uint64_t(1) << kBufferShift) - 1);
    if (index >= buffers_.size())
      return " (no buffer " + std::to_string(index) + "; there are " + std::to_string(buffers_.size()) + ")";
    return " (offset " + std::to_string(off) + " in buffer " + std::to_string(index) + " of " +
           std::to_string(buffers_[index].size()) + " bytes)";
  }
  struct Window {
    uint64_t base, span, size;
    const char *name;
  };
  const Window windows[] = {
      {kSharedBase, kSharedWindowSize, shared_.size(), "shared memory"},
      {kLocalBase, kWindowSize, t.local.size(), "local memory"},
      {kKParamBase, kWindowSize, kparams_.size(), "kernel parameters"},
      {kFParamBase, kWindowSize, t.param.size(), "call parameters"},
      {kGlobalVarBase, kDataWindowSize, globalData_.size(), "module .global data"},
      {kConstVarBase, kDataWindowSize, constData_.size(), "module .const data"},
  };
  std::string w;
  for (const Window &x : windows)
    if (addr >= x.base && addr < x.base + x.span)
      w = " (offset " + std::to_string(addr - x.base) + " in " + x.name + " of " + std::to_string(x.size) + " bytes)";
  if (w.empty()) w = " (in no buffer or memory window)";
  return w;
}

bool Machine::readString(Thread &t, const Instr &in, uint64_t addr, std::string &out) {
  out.clear();
  for (size_t i = 0; i < (1u << 20); ++i) {
    uint8_t *p = access(t, in, addr + i, 1, Space::Generic, false);
    if (!p) return false;
    if (!*p) return true;
    out.push_back(static_cast<char>(*p));
  }
  fail(t, in, "unterminated string at " + hex(addr) + " in");
  return false;
}

namespace {

struct ThreadMemory final : PrintfMemory {
  Machine &m;
  Thread &t;
  const Instr &in;
  ThreadMemory(Machine &m, Thread &t, const Instr &in) : m(m), t(t), in(in) {}
  bool read(uint64_t addr, unsigned size, uint64_t &out) override {
    uint8_t *p = m.hostAccess(t, in, addr, size, false);
    if (!p) return false;
    out = 0;
    std::memcpy(&out, p, size);
    return true;
  }
  bool str(uint64_t addr, std::string &out) override {
    out.clear();
    for (size_t i = 0; i < (1u << 20); ++i) {
      uint8_t *p = m.hostAccess(t, in, addr + i, 1, false);
      if (!p) return false;
      if (!*p) return true;
      out.push_back(static_cast<char>(*p));
    }
    return false;
  }
};

} // namespace

bool Machine::callBuiltin(Thread &t, const Instr &in) {
  Frame &f = t.frames.back();
  const CallInfo &c = f.fn->calls[in.target];
  const uint64_t *regs = t.regs.data() + f.regBase;
  // An argument's bits: a .param variable's contents, or a register's or immediate's value.
  auto arg = [&](size_t i, unsigned size, uint64_t &out) {
    const Operand &o = c.args[i];
    if (o.kind != Operand::Kind::Addr) {
      out = value(t, f, regs, o);
      return true;
    }
    uint8_t *p = access(t, in, addressOf(f, regs, o), size, Space::Param, false);
    if (!p) return false;
    out = 0;
    std::memcpy(&out, p, size);
    return true;
  };
  if (c.builtin == Builtin::AssertFail) {
    uint64_t msg = 0, file = 0, line = 0, func = 0;
    if (!arg(0, 8, msg) || !arg(1, 8, file) || !arg(2, 4, line) || !arg(3, 8, func)) return false;
    std::string m, fi, fu;
    if (!readString(t, in, msg, m) || !readString(t, in, file, fi) || !readString(t, in, func, fu)) return false;
    result.error = "device assertion failed: " + m + " (" + fi + ":" + std::to_string(static_cast<uint32_t>(line)) +
                   " in " + fu + "; " + where(t, in).substr(1);
    return false;
  }
  // vprintf(format, args)
  uint64_t fmtAddr = 0, argsAddr = 0;
  if (!arg(0, 8, fmtAddr) || !arg(1, 8, argsAddr)) return false;
  std::string fmt, out;
  if (!readString(t, in, fmtAddr, fmt)) return false;
  ThreadMemory mem(*this, t, in);
  int count = 0;
  if (!formatPrintf(fmt, argsAddr, mem, out, count)) {
    if (result.error.empty()) fail(t, in, "vprintf with a bad argument buffer at " + hex(argsAddr) + " in");
    return false;
  }
  result.printed += out;
  if (!c.rets.empty()) {
    const Operand &r = c.rets[0];
    uint64_t v = static_cast<uint32_t>(count);
    if (r.kind == Operand::Kind::Addr) {
      uint8_t *p = access(t, in, addressOf(f, regs, r), 4, Space::Param, true);
      if (!p) return false;
      std::memcpy(p, &v, 4);
    } else if (r.kind == Operand::Kind::Reg) {
      t.regs[f.regBase + r.reg] = v & r.imm;
    }
  }
  return true;
}

} // namespace emu

EmuResult emulate(const PtxModule &module, const std::string &entry, Dim3 grid, Dim3 block,
                  const std::vector<EmuArg> &args, std::vector<std::span<uint8_t>> buffers, EmuOptions options) {
  const ptx::Program &prog = module.program();
  const ptx::Function *fn = prog.find(entry);
  if (!fn || !fn->isEntry || !fn->defined) {
    EmuResult r;
    std::string names;
    for (const std::string &e : module.entries()) names += (names.empty() ? "" : ", ") + e;
    r.error = "no kernel '" + entry + "' in the module (its kernels: " + (names.empty() ? "none" : names) + ")";
    return r;
  }
  emu::Machine m(prog, *fn, grid, block, std::move(buffers), options);
  if (m.bindArguments(args)) m.run();
  return std::move(m.result);
}

} // namespace twintile::runtime
