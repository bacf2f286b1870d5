//===- EmuWarpgroup.cpp - wgmma, four warps at a time, and the async proxy -===//
//
// Hopper's warpgroup MMA: the four warps 4G..4G+3 (128 threads) issue each
// wgmma instruction together (.sync.aligned); resolveWarpgroups runs it once
// all 128 wait at it. An mma_async computes D (64 x N) = A (64 x 16) * B
// (16 x N) (+ D when scale-d) from shared memory read through two matrix
// descriptors, uniform over the warpgroup, and its results are *pending*:
// they reach the registers when a wgmma.wait_group completes the commit
// group they were committed in, oldest first. Until then any other
// instruction that reads or writes one of those registers is an error, and
// so is a write to the shared memory the wgmma read; a later mma_async
// accumulating into the same registers reads the pending values, as the
// hardware chains them. As the ISA requires, a wgmma.fence must come before
// the first mma_async, and between any other instruction's write of a
// register and an mma_async accumulating into it.
//
// Descriptors (the PTX ISA's "matrix descriptor"): bits 0-13 the start
// address, 16-29 the leading dimension byte offset (LBO), 32-45 the stride
// dimension byte offset (SBO), all >> 4; 49-51 a base offset (only 0 is
// supported); 62-63 the swizzle: 1 for 128 bytes, 2 for 64, 3 for 32 (0, no
// swizzle, is not supported). With S the swizzle's bytes, element (mn, k) of
// a K-major operand (A's m or B's n by k; k's 16 elements in one S-byte row)
// is at
//     start + (mn / 8) * SBO + (mn % 8) * S + k * 2
// and of an MN-major one (imm-trans 1), E = S / 2 elements per row, at
//     start + (mn / E) * LBO + (k / 8) * SBO + (k % 8) * S + (mn % E) * 2
// and then swizzled as an address: bits 4.. (the 16-byte chunk) XORed with
// bits 7.. (the row of the 8 x S-byte pattern), log2(S / 16) of them.
//
// The accumulator: thread 32w + 4g + t of the warpgroup holds, in register
// i of D, row 16w + g + 8 * ((i / 2) % 2), column 8 * (i / 4) + 2t + i % 2.
// Products are exact and summed in double, rounded once to f32 (as
// mma.sync's are here: EmuMatrix.cpp).
//
// The async proxy: shared memory written by ordinary stores (or cp.async)
// is read by a wgmma only after the writing thread ran fence.proxy.async
// (and a barrier ordered it): a wgmma reading bytes whose last writer has
// not fenced since is reported.
//===----------------------------------------------------------------------===//
#include "runtime/EmuMachine.h"
#include "runtime/PtxFloat.h"

#include <bit>
#include <cstring>
#include <sstream>

namespace twintile::runtime::emu {

using namespace ptx;

namespace {

/// The most mma_async a warpgroup may have in flight (issued, not completed
/// by a wait): each holds its results and operands until then.
constexpr uint64_t kMaxPendingMma = 1024;

struct Descriptor {
  uint64_t start = 0, lbo = 0, sbo = 0;
  uint32_t swizzle = 0;  // bytes

  /// The shared-space address of element (mn, k), two bytes each.
  uint64_t element(bool mnMajor, uint32_t mn, uint32_t k) const {
    uint64_t a;
    if (!mnMajor) {
      a = start + (mn / 8) * sbo + (mn % 8) * swizzle + k * 2;
    } else {
      uint32_t e = swizzle / 2;
      a = start + (mn / e) * lbo + (k / 8) * sbo + (k % 8) * swizzle + (mn % e) * 2;
    }
    return swizzled(a, swizzle);
  }
};

/// Decodes `bits`; "" or why the emulator cannot read the operand it describes.
std::string decode(uint64_t bits, Descriptor &d) {
  d.start = (bits & 0x3fff) << 4;
  d.lbo = ((bits >> 16) & 0x3fff) << 4;
  d.sbo = ((bits >> 32) & 0x3fff) << 4;
  uint64_t base = (bits >> 49) & 7, mode = bits >> 62;
  if (mode == 0) return "a layout without swizzle (mode 0) is not supported by the emulator";
  if (base) return "a matrix base offset (bits 49-51) is not supported by the emulator";
  d.swizzle = mode == 1 ? 128 : mode == 2 ? 64 : 32;
  return "";
}

double element(uint16_t raw, Type type) { return type == Type::F16 ? fromF16(raw) : fromBF16(raw); }

} // namespace

void Machine::initProxy() {
  if (!trackProxy_) return;
  proxy_ = {};
  proxy_.warpgroups.resize((threads_.size() + 127) / 128);
  proxy_.reading.assign(shared_.size(), 0);
  proxy_.writer.assign(shared_.size(), 0);
  proxy_.writerFences.assign(shared_.size(), 0);
}

void Machine::noteGenericWrite(const Thread &t, uint64_t offset, uint64_t size) {
  for (uint64_t i = offset; i < offset + size; ++i) {
    proxy_.writer[i] = t.linear + 1;
    proxy_.writerFences[i] = t.proxyFences;
  }
}

bool Machine::wgmmaRegistersFree(Thread &t, const Frame &f, const Instr &in) {
  if (isWarpgroupOp(in.op)) return true;
  auto busy = [&](const Operand &o) {
    bool reg = o.kind == Operand::Kind::Reg || (o.kind == Operand::Kind::Addr && o.reg != Operand::kNoReg);
    return reg && t.wgmmaRegs.count(f.regBase + o.reg) ? &o : nullptr;
  };
  const Operand *hit = nullptr;
  if (in.guard != Operand::kNoReg && t.wgmmaRegs.count(f.regBase + in.guard)) {
    fail(t, in, in.text + " is guarded by a register an in-flight wgmma.mma_async writes");
    return false;
  }
  for (const Operand &o : in.ops) {
    if (o.kind == Operand::Kind::Vec)
      for (uint64_t j = 0; j < o.imm && !hit; ++j) hit = busy(f.fn->vecPool[o.reg + j]);
    else if (!hit) hit = busy(o);
  }
  if (!hit) hit = busy(in.dst2);
  if (!hit && in.op == Op::Call)  // a call's register arguments and results
    for (const std::vector<Operand> *list : {&f.fn->calls[in.target].args, &f.fn->calls[in.target].rets})
      for (const Operand &o : *list)
        if (!hit) hit = busy(o);
  if (!hit) return true;
  const std::string &name = hit->reg < f.fn->regNames.size() ? f.fn->regNames[hit->reg] : "a register";
  fail(t, in, in.text + " uses " + name + " while a wgmma.mma_async that writes it is in flight (no "
              "wgmma.wait_group has completed it)");
  return false;
}

void Machine::noteRegisterWrites(Thread &t, const Frame &f, const Instr &in) {
  // The destinations: ops[0] as a register or a vector of them (every
  // instruction but the barriers, whose ops[0] is a source; stores' is an
  // address), and a second result.
  if (isWarpgroupOp(in.op) || in.op == Op::BarSync || in.op == Op::BarArrive || in.op == Op::BarWarpSync) return;
  auto note = [&](const Operand &o) {
    if (o.kind != Operand::Kind::Reg) return;
    size_t slot = f.regBase + o.reg;
    if (t.lastWrite.size() <= slot) t.lastWrite.resize(std::max(slot + 1, t.regs.size()), 0);
    t.lastWrite[slot] = t.executed;
  };
  const Operand &d = in.ops[0];
  if (d.kind == Operand::Kind::Vec)
    for (uint64_t j = 0; j < d.imm; ++j) note(f.fn->vecPool[d.reg + j]);
  else note(d);
  note(in.dst2);
}

bool Machine::resolveWarpgroups(bool &released) {
  const uint32_t n = static_cast<uint32_t>(threads_.size());
  for (uint32_t base = 0; base < n; base += 128) {
    const Thread *first = nullptr;
    for (uint32_t i = base; i < std::min(n, base + 128) && !first; ++i)
      if (threads_[i].state == State::AtWarpSync && isWarpgroupOp(threads_[i].waiting->op)) first = &threads_[i];
    if (!first) continue;
    const Instr &in = *first->waiting;
    if (n - base < 128) {
      fail(*first, in, in.text + " in a warpgroup of " + std::to_string(n - base) + " threads (it needs 128: four whole warps)");
      return false;
    }
    bool ready = true;
    for (uint32_t i = base; i < base + 128; ++i) {
      const Thread &t = threads_[i];
      if (t.state == State::Exited) {
        fail(*first, in, in.text + " after thread " + std::to_string(i) + " of its warpgroup exited (it needs all 128)");
        return false;
      }
      if (t.state == State::AtWarpSync && t.waiting == &in) continue;
      if (t.state == State::AtWarpSync && isWarpgroupOp(t.waiting->op)) {
        fail(t, *t.waiting, "warpgroup " + std::to_string(base / 128) + " diverges: thread " +
                                std::to_string(first->linear) + " is at " + in.text + " (line " +
                                std::to_string(in.line) + ") while thread " + std::to_string(i) + " is at " +
                                t.waiting->text);
        return false;
      }
      ready = false;
    }
    if (!ready) continue;
    AsyncProxy::Warpgroup &wg = proxy_.warpgroups[base / 128];
    switch (in.op) {
    case Op::WgmmaFence:
      wg.fenced = true;
      for (uint32_t i = base; i < base + 128; ++i) threads_[i].fencedAt = threads_[i].executed;
      break;
    case Op::WgmmaMma:
      if (!warpgroupMma(base, in)) return false;
      break;
    case Op::WgmmaCommit:
      wg.committed.push_back(std::move(wg.open));
      wg.open = {};
      break;
    default:  // WgmmaWait
      completeWgmma(wg, in.ops[0].imm);
      break;
    }
    for (uint32_t i = base; i < base + 128; ++i) {
      Thread &t = threads_[i];
      t.frames.back().pc += 1;
      t.state = State::Ready;
      t.waiting = nullptr;
    }
    released = true;
  }
  return true;
}

void Machine::completeWgmma(AsyncProxy::Warpgroup &wg, size_t pending) {
  for (; wg.committed.size() > pending; wg.committed.pop_front()) {
    const AsyncProxy::Group &g = wg.committed.front();
    for (const AsyncProxy::Write &w : g.writes) {
      Thread &t = threads_[w.thread];
      t.regs[w.slot] = w.value;
      auto it = t.wgmmaRegs.find(w.slot);
      if (it != t.wgmmaRegs.end() && --it->second.first == 0) t.wgmmaRegs.erase(it);
    }
    for (uint32_t off : g.reads) {
      proxy_.reading[off] -= 1;
      proxy_.reading[off + 1] -= 1;
    }
    proxy_.readingCount -= g.reads.size();
    wg.pending -= g.mmas;
  }
}

bool Machine::warpgroupMma(uint32_t base, const Instr &in) {
  AsyncProxy::Warpgroup &wg = proxy_.warpgroups[base / 128];
  Thread &lead = threads_[base];
  if (!wg.fenced) {
    fail(lead, in, in.text + " without a wgmma.fence.sync.aligned before it: the registers it accumulates into "
                             "may not be ready");
    return false;
  }
  // The ISA's fence rule: after the warpgroup's last wgmma.fence, only wgmma
  // may have written the registers an mma_async accumulates into.
  for (uint32_t i = 0; i < 128; ++i) {
    Thread &t = threads_[base + i];
    const Frame &f = t.frames.back();
    for (uint64_t r = 0; r < in.ops[0].imm; ++r) {
      const Operand &d = f.fn->vecPool[in.ops[0].reg + r];
      size_t slot = f.regBase + d.reg;
      if (slot < t.lastWrite.size() && t.lastWrite[slot] > t.fencedAt) {
        fail(t, in, in.text + " accumulates into " + f.fn->regNames[d.reg] + ", which another instruction wrote "
                        "after the warpgroup's last wgmma.fence (the ISA leaves that undefined: fence after the "
                        "write)");
        return false;
      }
    }
  }
  if (wg.pending >= kMaxPendingMma) {
    fail(lead, in, in.text + ": more than " + std::to_string(kMaxPendingMma) +
                       " wgmma.mma_async in flight, no wgmma.wait_group completing them (the emulator's limit)");
    return false;
  }
  ++wg.pending;
  ++wg.open.mmas;
  // The descriptors and scale-d, the same in every thread of the warpgroup.
  uint64_t uniform[3] = {};
  for (uint32_t i = 0; i < 128; ++i) {
    Thread &t = threads_[base + i];
    const Frame &f = t.frames.back();
    const uint64_t *regs = t.regs.data() + f.regBase;
    for (int j = 0; j < 3; ++j) {
      uint64_t v = value(t, f, regs, in.ops[1 + j]);
      if (j == 2) v &= 1;
      if (i == 0) uniform[j] = v;
      else if (v != uniform[j]) {
        static const char *const names[] = {"a-desc", "b-desc", "scale-d"};
        fail(t, in, in.text + ": its " + names[j] + " differs between threads " + std::to_string(base) + " and " +
                        std::to_string(base + i) + " of the warpgroup (" + hex(uniform[j]) + " and " + hex(v) + ")");
        return false;
      }
    }
  }
  uint64_t flags = in.ops[4].imm;
  bool negA = flags & 1, negB = flags & 2, transA = flags & 4, transB = flags & 8, scaleD = uniform[2];
  Descriptor da, db;
  for (auto [bits, d, name] : {std::tuple{uniform[0], &da, "a-desc"}, std::tuple{uniform[1], &db, "b-desc"}})
    if (std::string why = decode(bits, *d); !why.empty()) {
      fail(lead, in, in.text + ": its " + name + " " + hex(bits) + ": " + why);
      return false;
    }
  const uint32_t N = static_cast<uint32_t>(in.ops[0].imm) * 2;
  // The operands, read now (a write to them before the wait is reported).
  std::vector<double> a(64 * 16), b(16 * size_t(N));
  auto read = [&](const Descriptor &d, bool mnMajor, uint32_t mn, uint32_t k, Type type, double &out) {
    uint64_t addr = kSharedBase + d.element(mnMajor, mn, k);
    const uint8_t *p = access(lead, in, addr, 2, Space::Shared, false);
    if (!p) return false;
    uint64_t off = addr - kSharedBase;
    if (uint32_t w = proxy_.writer[off]; w && threads_[w - 1].proxyFences == proxy_.writerFences[off]) {
      fail(lead, in, in.text + " reads shared byte " + hex(addr) + " that thread " + std::to_string(w - 1) +
                         " wrote through the generic proxy and has not made visible to the async proxy since (no "
                         "fence.proxy.async after the write)");
      return false;
    }
    uint16_t raw;
    std::memcpy(&raw, p, 2);
    out = element(raw, type);
    wg.open.reads.push_back(static_cast<uint32_t>(off));
    proxy_.reading[off] += 1;
    proxy_.reading[off + 1] += 1;
    ++proxy_.readingCount;
    return true;
  };
  for (uint32_t m = 0; m < 64; ++m)
    for (uint32_t k = 0; k < 16; ++k)
      if (!read(da, transA, m, k, in.type2, a[m * 16 + k])) return false;
  for (uint32_t k = 0; k < 16; ++k)
    for (uint32_t c = 0; c < N; ++c)
      if (!read(db, transB, c, k, in.type3, b[k * N + c])) return false;
  if (negA)
    for (double &x : a) x = -x;
  if (negB)
    for (double &x : b) x = -x;
  for (uint32_t i = 0; i < 128; ++i) {
    Thread &t = threads_[base + i];
    Frame &f = t.frames.back();
    uint32_t w = i / 32, g = (i % 32) / 4, tg = i % 4;
    for (uint32_t r = 0; r < N / 2; ++r) {
      const Operand &d = f.fn->vecPool[in.ops[0].reg + r];
      uint32_t slot = f.regBase + d.reg;
      uint32_t row = 16 * w + g + 8 * ((r / 2) % 2), col = 8 * (r / 4) + 2 * tg + r % 2;
      double sum = 0;
      if (scaleD) {
        auto it = t.wgmmaRegs.find(slot);
        uint64_t c = it != t.wgmmaRegs.end() ? it->second.second : t.regs[slot];
        sum = std::bit_cast<float>(static_cast<uint32_t>(c));
      }
      for (uint32_t k = 0; k < 16; ++k) sum += a[row * 16 + k] * b[k * N + col];
      uint64_t bits = std::bit_cast<uint32_t>(toF32(sum)) & d.imm;
      wg.open.writes.push_back({t.linear, slot, bits});
      auto &[count, latest] = t.wgmmaRegs[slot];
      ++count;
      latest = bits;
    }
  }
  return true;
}

} // namespace twintile::runtime::emu
