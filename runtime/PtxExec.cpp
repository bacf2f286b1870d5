//===- PtxExec.cpp - one thread's instructions, until it stops ------------===//
//
// The interpreter loop: operands are read from the thread's register slots
// (each holds its register's value zero-extended from the declared width),
// memory goes through Machine::access (windows, bounds, alignment), and the
// loop returns to the scheduler at a barrier, a warp-synchronous instruction,
// the end of the thread, or an error (the instruction budget included).
//===----------------------------------------------------------------------===//
#include "runtime/EmuMachine.h"
#include "runtime/PtxFloat.h"
#include "runtime/PtxOps.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <sstream>

namespace twintile::runtime::emu {

using namespace ptx;

namespace {

uint64_t maskBits(unsigned bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

/// Little-endian bits of an element of `size` bytes (1, 2, 4, 8; 16 is split by the caller).
inline uint64_t loadBits(const uint8_t *p, unsigned size) {
  switch (size) {
  case 1: return *p;
  case 2: { uint16_t v; std::memcpy(&v, p, 2); return v; }
  case 4: { uint32_t v; std::memcpy(&v, p, 4); return v; }
  default: { uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}
inline void storeBits(uint8_t *p, unsigned size, uint64_t v) {
  switch (size) {
  case 1: *p = static_cast<uint8_t>(v); break;
  case 2: { uint16_t x = static_cast<uint16_t>(v); std::memcpy(p, &x, 2); break; }
  case 4: { uint32_t x = static_cast<uint32_t>(v); std::memcpy(p, &x, 4); break; }
  default: std::memcpy(p, &v, 8); break;
  }
}

float asF32(uint64_t v) { return std::bit_cast<float>(static_cast<uint32_t>(v)); }
uint64_t f32Bits(float f) { return f != f ? kCanonicalNaN32 : std::bit_cast<uint32_t>(f); }

inline void write(uint64_t *regs, const Operand &o, uint64_t v) {
  if (o.kind == Operand::Kind::Reg) regs[o.reg] = v & o.imm;
}

constexpr size_t kMaxCallDepth = 256;

} // namespace

uint64_t Machine::special(const Thread &t, uint32_t which) const {
  uint32_t lane = t.lane();
  switch (static_cast<Sreg>(which)) {
  case Sreg::TidX: return t.tid[0];
  case Sreg::TidY: return t.tid[1];
  case Sreg::TidZ: return t.tid[2];
  case Sreg::NtidX: return block_.x;
  case Sreg::NtidY: return block_.y;
  case Sreg::NtidZ: return block_.z;
  case Sreg::CtaidX: return ctaid_[0];
  case Sreg::CtaidY: return ctaid_[1];
  case Sreg::CtaidZ: return ctaid_[2];
  case Sreg::NctaidX: return grid_.x;
  case Sreg::NctaidY: return grid_.y;
  case Sreg::NctaidZ: return grid_.z;
  case Sreg::LaneId: return lane;
  case Sreg::WarpId: return t.warp();
  case Sreg::NWarpId: return (threads_.size() + 31) / 32;
  case Sreg::WarpSize: return 32;
  case Sreg::SmId: case Sreg::GridId: return 0;
  case Sreg::NSmId: return 1;
  case Sreg::Clock: return t.executed & 0xffffffff;
  case Sreg::Clock64: case Sreg::GlobalTimer: return t.executed;
  case Sreg::LanemaskEq: return uint64_t(1) << lane;
  case Sreg::LanemaskLt: return (uint64_t(1) << lane) - 1;
  case Sreg::LanemaskLe: return (uint64_t(2) << lane) - 1;
  case Sreg::LanemaskGt: return ~((uint64_t(2) << lane) - 1) & 0xffffffff;
  case Sreg::LanemaskGe: return ~((uint64_t(1) << lane) - 1) & 0xffffffff;
  case Sreg::DynamicSmemSize: return options_.dynamicSharedBytes;
  case Sreg::TotalSmemSize: return shared_.size();
  }
  return 0;
}

std::string Machine::where(const Thread &t, const Instr &in) const {
  std::ostringstream s;
  s << "(line " << in.line << ", block (" << ctaid_[0] << "," << ctaid_[1] << "," << ctaid_[2] << "), thread ";
  if (block_.y == 1 && block_.z == 1) s << t.linear;
  else s << "(" << t.tid[0] << "," << t.tid[1] << "," << t.tid[2] << ")";
  s << ")";
  return s.str();
}

void Machine::fail(const Thread &t, const Instr &in, const std::string &what) {
  if (result.error.empty()) result.error = what + " " + where(t, in);
}

uint8_t *Machine::access(Thread &t, const Instr &in, uint64_t addr, uint64_t size, Space space, bool write) {
  auto bad = [&](const std::string &why) -> uint8_t * {
    fail(t, in, why + " " + in.text + " of " + std::to_string(size) + " bytes at " + hex(addr) + describeAddress(t, addr));
    return nullptr;
  };
  if (size > 1 && (addr & (size - 1)) != 0) return bad("misaligned");
  // Where the address points, whatever the instruction's state space.
  uint8_t *p = nullptr;
  Space window = Space::Generic;
  bool readOnly = false;
  auto within = [&](uint64_t base, size_t len) { return addr >= base && addr - base < len && addr - base + size <= len; };
  if (uint64_t index = addr >> kBufferShift; index != 0) {
    uint64_t off = addr & ((uint64_t(1) << kBufferShift) - 1);
    if (index - 1 < buffers_.size() && off + size <= buffers_[index - 1].size()) {
      p = buffers_[index - 1].data() + off;
      window = Space::Global;
    }
  } else if (within(kSharedBase, shared_.size())) {
    p = shared_.data() + (addr - kSharedBase);
    window = Space::Shared;
  } else if (within(kLocalBase, t.local.size())) {
    p = t.local.data() + (addr - kLocalBase);
    window = Space::Local;
  } else if (within(kFParamBase, t.param.size())) {
    p = t.param.data() + (addr - kFParamBase);
    window = Space::Param;
  } else if (within(kKParamBase, kparams_.size())) {
    p = kparams_.data() + (addr - kKParamBase);
    window = Space::Param;
    readOnly = true;
  } else if (within(kGlobalVarBase, globalData_.size())) {
    p = globalData_.data() + (addr - kGlobalVarBase);
    window = Space::Global;
  } else if (within(kConstVarBase, constData_.size())) {
    p = constData_.data() + (addr - kConstVarBase);
    window = Space::Const;
    readOnly = true;
  }
  if (!p) return bad("out-of-bounds");
  if (space != Space::Generic && space != window)
    return bad(std::string("wrong-space (not ") + spaceName(space) + " memory)");
  if (write && readOnly) return bad(std::string("read-only (") + spaceName(window) + " memory)");
  if (window == Space::Shared && write && bulkReadingCount_ && !isBulkOp(in.op))
    for (uint64_t i = addr - kSharedBase, end = i + size; i < end; ++i)
      if (bulkReading_[i])
        return bad("racing (a cp.async.bulk.tensor store reads byte " + hex(kSharedBase + i) +
                   " until a cp.async.bulk.wait_group.read completes it)");
  if (window == Space::Shared && !mbarriers_.empty() && !isMbarrierOp(in.op))
    if (std::string b = mbarrierAccess(addr - kSharedBase, size); !b.empty())
      return bad("racing (the bytes of an initialized " + b + ")");
  if (window == Space::Shared && bulkLandingCount_ && !isBulkOp(in.op))
    for (uint64_t i = addr - kSharedBase, end = i + size; i < end; ++i)
      if (bulkLanding_[i])
        return bad("racing (a cp.async.bulk.tensor to byte " + hex(kSharedBase + i) +
                   " is in flight: no thread has waited on the mbarrier it completes on)");
  if (window == Space::Shared && inFlightCount_)
    for (uint64_t i = addr - kSharedBase, end = i + size; i < end; ++i)
      if (inFlight_[i])
        return bad(std::string(in.op == Op::CpAsync ? "overlapping" : "racing") + " (a cp.async to byte " +
                   hex(kSharedBase + i) + " is in flight: no wait has completed it)");
  if (window == Space::Shared && trackProxy_ && write) {
    uint64_t off = addr - kSharedBase;
    if (proxy_.readingCount)
      for (uint64_t i = off; i < off + size; ++i)
        if (proxy_.reading[i])
          return bad("racing (a wgmma.mma_async reading byte " + hex(kSharedBase + i) +
                     " is in flight: no wgmma.wait_group has completed it)");
    noteGenericWrite(t, off, size);
  }
  if (options_.profile && (window == Space::Global || window == Space::Shared) &&
      (in.op == Op::Ld || in.op == Op::St || in.op == Op::Atom || in.op == Op::Red || in.op == Op::Ldmatrix || in.op == Op::Stmatrix ||
       in.op == Op::CpAsync))
    accesses_.push_back({t.linear, &in, t.runs[&in], addr, static_cast<uint32_t>(size), window == Space::Shared});
  return p;
}

bool Machine::call(Thread &t, const Instr &in) {
  Frame &f = t.frames.back();
  const CallInfo &c = f.fn->calls[in.target];
  if (c.builtin != Builtin::None) return callBuiltin(t, in);
  if (t.frames.size() >= kMaxCallDepth) {
    fail(t, in, "call stack overflow (" + std::to_string(kMaxCallDepth) + " frames) calling " + c.calleeName);
    return false;
  }
  const Function &callee = prog_.functions[c.callee];
  Frame nf;
  nf.fn = &callee;
  nf.regBase = f.regBase + f.fn->numRegs;
  nf.localBase = (f.localBase + f.fn->localBytes + 15) / 16 * 16;
  nf.paramBase = (f.paramBase + f.fn->paramBytes + 15) / 16 * 16;
  nf.call = in.target;
  if (t.regs.size() < nf.regBase + callee.numRegs) t.regs.resize(nf.regBase + callee.numRegs, 0);
  if (t.local.size() < nf.localBase + callee.localBytes) t.local.resize(nf.localBase + callee.localBytes, 0);
  if (t.param.size() < nf.paramBase + callee.paramBytes) t.param.resize(nf.paramBase + callee.paramBytes, 0);
  if (t.local.size() > kWindowSize || t.param.size() > kWindowSize) {
    fail(t, in, "out of local memory calling " + c.calleeName);
    return false;
  }
  const uint64_t *regs = t.regs.data() + f.regBase;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Param &p = callee.params[i];
    uint8_t *dst = t.param.data() + nf.paramBase + p.offset;
    const Operand &a = c.args[i];
    if (a.kind == Operand::Kind::Addr) {
      uint64_t size = std::min(p.size, c.argSizes[i]);
      uint8_t *src = access(t, in, addressOf(f, regs, a), size, Space::Param, false);
      if (!src) return false;
      std::memcpy(dst, src, size);
    } else {
      uint64_t v = value(t, f, regs, a);
      std::memcpy(dst, &v, std::min<uint64_t>(p.size, 8));
    }
  }
  t.frames.back().pc += 1;  // the return address
  t.frames.push_back(nf);
  return true;
}

bool Machine::ret(Thread &t, const Instr &in, bool &exited) {
  exited = t.frames.size() == 1;
  if (exited) return true;
  Frame callee = t.frames.back();
  t.frames.pop_back();
  Frame &f = t.frames.back();
  const CallInfo &c = f.fn->calls[callee.call];
  uint64_t *regs = t.regs.data() + f.regBase;
  for (size_t i = 0; i < c.rets.size(); ++i) {
    const Param &p = callee.fn->rets[i];
    const uint8_t *src = t.param.data() + callee.paramBase + p.offset;
    const Operand &r = c.rets[i];
    if (r.kind == Operand::Kind::Addr) {
      uint8_t *dst = access(t, in, addressOf(f, regs, r), std::min(p.size, c.retSizes[i]), Space::Param, true);
      if (!dst) return false;
      std::memcpy(dst, src, std::min(p.size, c.retSizes[i]));
    } else {
      uint64_t v = 0;
      std::memcpy(&v, src, std::min<uint64_t>(p.size, 8));
      write(regs, r, v);
    }
  }
  return true;
}

Machine::Stop Machine::step(Thread &t) {
  const uint64_t budget = options_.maxInstructionsPerThread;
reload:
  Frame *f = &t.frames.back();
  const Function *fn = f->fn;
  const Instr *code = fn->code.data();
  const uint32_t codeSize = static_cast<uint32_t>(fn->code.size());
  uint64_t *R = t.regs.data() + f->regBase;
  uint32_t pc = f->pc;
  auto val = [&](const Operand &o) { return value(t, *f, R, o); };
  for (;;) {
    if (pc >= codeSize) {  // fell off the end: an implicit ret
      f->pc = pc;
      bool exited = false;
      static const Instr kEmptyBody{};  // a function without instructions has no last one to blame
      if (!ret(t, codeSize ? code[codeSize - 1] : kEmptyBody, exited)) return Stop::Error;
      if (exited) {
        t.state = State::Exited;
        return Stop::Exited;
      }
      goto reload;
    }
    const Instr &in = code[pc];
    if (t.executed >= budget) [[unlikely]] {
      f->pc = pc;
      fail(t, in, "instruction budget of " + std::to_string(budget) + " per thread exceeded at " + in.text);
      return Stop::Error;
    }
    ++t.executed;
    if (options_.profile) [[unlikely]]
      ++t.runs[&in];
    if (!t.wgmmaRegs.empty()) [[unlikely]] {
      if (!wgmmaRegistersFree(t, *f, in)) {
        f->pc = pc;
        return Stop::Error;
      }
    }
    if (in.guard != Operand::kNoReg && ((R[in.guard] & 1) != 0) == in.guardNegate) {
      ++pc;
      continue;
    }
    if (trackProxy_) [[unlikely]]
      noteRegisterWrites(t, *f, in);
    if (in.fast != Fast::None) {
      const Operand &d = in.ops[0];
      uint64_t a = val(in.ops[1]), b = val(in.ops[2]);
      uint64_t r = 0;
      switch (in.fast) {
      case Fast::AddF32: r = f32Bits(asF32(a) + asF32(b)); break;
      case Fast::SubF32: r = f32Bits(asF32(a) - asF32(b)); break;
      case Fast::MulF32: r = f32Bits(asF32(a) * asF32(b)); break;
      case Fast::FmaF32: r = f32Bits(std::fma(asF32(a), asF32(b), asF32(val(in.ops[3])))); break;
      case Fast::AddI32: r = (a + b) & 0xffffffff; break;
      case Fast::SubI32: r = (a - b) & 0xffffffff; break;
      case Fast::AddI64: r = a + b; break;
      case Fast::SubI64: r = a - b; break;
      case Fast::MulLoI32: r = (a * b) & 0xffffffff; break;
      case Fast::MulWideS32:
        r = static_cast<uint64_t>(int64_t(int32_t(uint32_t(a))) * int64_t(int32_t(uint32_t(b))));
        break;
      case Fast::MulWideU32: r = (a & 0xffffffff) * (b & 0xffffffff); break;
      case Fast::AndB32: r = a & b & 0xffffffff; break;
      case Fast::OrB32: r = (a | b) & 0xffffffff; break;
      case Fast::XorB32: r = (a ^ b) & 0xffffffff; break;
      case Fast::ShlB32: r = (b & 0xffffffff) >= 32 ? 0 : (a << (b & 31)) & 0xffffffff; break;
      case Fast::ShlB64: r = (b & 0xffffffff) >= 64 ? 0 : a << (b & 63); break;
      case Fast::ShrU32: r = (b & 0xffffffff) >= 32 ? 0 : (a & 0xffffffff) >> (b & 31); break;
      case Fast::Selp: r = (val(in.ops[3]) & 1) ? a : b; break;
      case Fast::CvtF32F16: r = f32Bits(static_cast<float>(fromF16(static_cast<uint16_t>(a)))); break;
      case Fast::CvtF32BF16: r = (a & 0xffff) << 16; break;
      case Fast::None: break;
      }
      write(R, d, r);
      ++pc;
      continue;
    }
    switch (in.op) {
    case Op::Mov: write(R, in.ops[0], val(in.ops[1]) & maskBits(typeBits(in.type))); break;
    case Op::MovPack: {
      const Operand &v = in.ops[1];
      unsigned part = typeBits(in.type) / static_cast<unsigned>(v.imm);
      uint64_t r = 0;
      for (uint64_t i = 0; i < v.imm; ++i) r |= (val(fn->vecPool[v.reg + i]) & maskBits(part)) << (i * part);
      write(R, in.ops[0], r);
      break;
    }
    case Op::MovUnpack: {
      const Operand &v = in.ops[0];
      unsigned part = typeBits(in.type) / static_cast<unsigned>(v.imm);
      uint64_t x = val(in.ops[1]);
      for (uint64_t i = 0; i < v.imm; ++i) write(R, fn->vecPool[v.reg + i], (x >> (i * part)) & maskBits(part));
      break;
    }
    case Op::Ld: {
      unsigned esz = typeBytes(in.type);
      uint8_t *p = access(t, in, addressOf(*f, R, in.ops[1]), uint64_t(esz) * in.vec, in.space, false);
      if (!p) { f->pc = pc; return Stop::Error; }
      if (in.vec == 1) {
        write(R, in.ops[0], extendLoaded(loadBits(p, esz), in.type));
      } else {
        for (unsigned i = 0; i < in.vec; ++i)
          write(R, fn->vecPool[in.ops[0].reg + i], extendLoaded(loadBits(p + i * esz, esz), in.type));
      }
      break;
    }
    case Op::St: {
      unsigned esz = typeBytes(in.type);
      uint8_t *p = access(t, in, addressOf(*f, R, in.ops[0]), uint64_t(esz) * in.vec, in.space, true);
      if (!p) { f->pc = pc; return Stop::Error; }
      if (in.vec == 1) {
        uint64_t v = val(in.ops[1]);
        if (options_.interleave) [[unlikely]]
          memoryChanges_ += loadBits(p, esz) != (v & maskBits(esz * 8));
        storeBits(p, esz, v);
      } else {
        for (unsigned i = 0; i < in.vec; ++i) {
          const Operand &e = fn->vecPool[in.ops[1].reg + i];
          if (e.kind == Operand::Kind::Sink) continue;
          uint64_t v = val(e);
          if (options_.interleave) [[unlikely]]
            memoryChanges_ += loadBits(p + i * esz, esz) != (v & maskBits(esz * 8));
          storeBits(p + i * esz, esz, v);
        }
      }
      break;
    }
    case Op::Cvta: write(R, in.ops[0], val(in.ops[1]) & maskBits(typeBits(in.type))); break;
    case Op::Setp: {
      bool c = compare(in, val(in.ops[1]), val(in.ops[2]));
      bool b = in.boolOp == BoolOp::None ? false : (val(in.ops[3]) & 1) != 0;
      auto combine = [&](bool x) {
        switch (in.boolOp) {
        case BoolOp::And: return x && b;
        case BoolOp::Or: return x || b;
        case BoolOp::Xor: return x != b;
        case BoolOp::None: return x;
        }
        return x;
      };
      write(R, in.ops[0], combine(c));
      write(R, in.dst2, combine(!c));
      break;
    }
    case Op::Atom:
    case Op::Red: {
      int i = in.op == Op::Atom ? 1 : 0;
      unsigned size = typeBytes(in.type);
      if (in.space == Space::Param || in.space == Space::Const || in.space == Space::Local) {
        f->pc = pc;
        fail(t, in, std::string(in.text) + " on ." + spaceName(in.space) + " memory");
        return Stop::Error;
      }
      uint8_t *p = access(t, in, addressOf(*f, R, in.ops[i]), size, in.space, true);
      if (!p) { f->pc = pc; return Stop::Error; }
      uint64_t old = 0;
      std::memcpy(&old, p, size);
      uint64_t c = in.mode == Mode::AtomCas ? val(in.ops[i + 2]) : 0;
      uint64_t updated = atomicUpdate(in, old, val(in.ops[i + 1]), c);
      memoryChanges_ += (old & maskBits(size * 8)) != (updated & maskBits(size * 8));
      std::memcpy(p, &updated, size);
      if (in.op == Op::Atom) write(R, in.ops[0], old);
      break;
    }
    case Op::Bra: pc = in.target; continue;
    case Op::Call: {
      f->pc = pc;
      const CallInfo &c = fn->calls[in.target];
      if (!call(t, in)) return Stop::Error;
      if (c.builtin != Builtin::None) break;
      goto reload;
    }
    case Op::Ret: {
      f->pc = pc;
      bool exited = false;
      if (!ret(t, in, exited)) return Stop::Error;
      if (exited) {
        t.state = State::Exited;
        return Stop::Exited;
      }
      goto reload;
    }
    case Op::Exit:
      f->pc = pc;
      t.state = State::Exited;
      return Stop::Exited;
    case Op::Trap:
      f->pc = pc;
      fail(t, in, "trap instruction executed:");
      return Stop::Error;
    case Op::BarSync:
    case Op::BarArrive: {
      uint64_t id = val(in.ops[0]);
      uint64_t count = in.nops == 2 ? val(in.ops[1]) : 0;
      f->pc = pc;
      if (id >= barriers_.size()) {
        fail(t, in, "barrier " + std::to_string(id) + " out of range (0..15) in");
        return Stop::Error;
      }
      if (count % 32 != 0) {
        fail(t, in, "barrier thread count " + std::to_string(count) + " is not a multiple of 32 in");
        return Stop::Error;
      }
      Barrier &b = barriers_[id];
      if (b.arrived && b.expected != count) {
        fail(t, in, "barrier " + std::to_string(id) + " used with thread counts " + std::to_string(b.expected) + " and " +
                        std::to_string(count) + " in");
        return Stop::Error;
      }
      b.arrived += 1;
      b.expected = static_cast<uint32_t>(count);
      if (in.op == Op::BarArrive) break;
      t.state = State::AtBarrier;
      t.barrier = static_cast<uint32_t>(id);
      t.waiting = &in;
      return Stop::Sync;
    }
    case Op::Shfl:
    case Op::Vote:
    case Op::Redux:
    case Op::BarWarpSync:
    case Op::Ldmatrix:
    case Op::Stmatrix:
    case Op::Mma:
    case Op::WgmmaFence:
    case Op::WgmmaMma:
    case Op::WgmmaCommit:
    case Op::WgmmaWait:
      f->pc = pc;
      t.state = State::AtWarpSync;
      t.waiting = &in;
      return Stop::Sync;
    case Op::Activemask: {
      uint64_t m = 0;
      uint32_t base = t.warp() * 32;
      for (uint32_t l = 0; l < 32 && base + l < threads_.size(); ++l)
        if (threads_[base + l].state != State::Exited) m |= uint64_t(1) << l;
      write(R, in.ops[0], m);
      break;
    }
    case Op::CpAsync: {
      uint64_t dst = addressOf(*f, R, in.ops[0]), src = addressOf(*f, R, in.ops[1]);
      uint64_t size = in.ops[2].imm, from = in.nops == 4 ? val(in.ops[3]) & 0xffffffffu : size;
      f->pc = pc;
      if (from > size) {
        fail(t, in, "src-size " + std::to_string(from) + " larger than the cp-size " + std::to_string(size) + " of " +
                        in.text);
        return Stop::Error;
      }
      if (src % size != 0) {
        fail(t, in, "misaligned " + in.text + " source (" + std::to_string(size) + " bytes) at " + hex(src));
        return Stop::Error;
      }
      uint8_t *to = access(t, in, dst, size, ptx::Space::Shared, true);
      const uint8_t *bytes = to && from ? access(t, in, src, from, ptx::Space::Global, false) : nullptr;
      if (!to || (from && !bytes)) return Stop::Error;
      AsyncCopy c;
      c.sharedOffset = static_cast<uint64_t>(to - shared_.data());
      c.size = static_cast<uint8_t>(size);
      if (from) std::memcpy(c.bytes.data(), bytes, from);  // the rest stays zero: the zero-filling form
      t.asyncPending.push_back(c);
      for (uint64_t i = 0; i < size; ++i) ++inFlight_[c.sharedOffset + i];
      ++inFlightCount_;
      break;
    }
    case Op::CpAsyncCommit:
      t.asyncGroups.push_back(std::move(t.asyncPending));
      t.asyncPending.clear();
      break;
    case Op::CpAsyncWait: {
      if (in.mode == ptx::Mode::WaitAll) {  // commit_group, then wait_group 0
        t.asyncGroups.push_back(std::move(t.asyncPending));
        t.asyncPending.clear();
      }
      size_t pending = in.mode == ptx::Mode::WaitAll ? 0 : in.ops[0].imm;
      for (; t.asyncGroups.size() > pending; t.asyncGroups.pop_front())
        for (const AsyncCopy &c : t.asyncGroups.front()) {
          std::memcpy(shared_.data() + c.sharedOffset, c.bytes.data(), c.size);
          if (trackProxy_) noteGenericWrite(t, c.sharedOffset, c.size);
          for (uint64_t i = 0; i < c.size; ++i) --inFlight_[c.sharedOffset + i];
          --inFlightCount_;
        }
      break;
    }
    case Op::FenceProxyAsync: ++t.proxyFences; break;
    case Op::TensormapReplace:
    case Op::TensormapCopy:
    case Op::BulkTensorLoad:
    case Op::BulkTensorStore: {
      f->pc = pc;
      bool ok = in.op == Op::TensormapReplace ? tensormapReplace(t, *f, R, in)
                : in.op == Op::TensormapCopy  ? tensormapCopy(t, *f, R, in)
                : in.op == Op::BulkTensorLoad ? bulkTensorLoad(t, *f, R, in)
                                              : bulkTensorStore(t, *f, R, in);
      if (!ok) return Stop::Error;
      break;
    }
    case Op::BulkCommit: bulkCommit(t); break;
    case Op::BulkWait: bulkWait(t, in.ops[0].imm); break;
    case Op::MbarInit:
    case Op::MbarInval:
    case Op::MbarArrive:
    case Op::MbarExpectTx:
    case Op::MbarCompleteTx:
    case Op::MbarTryWait:
    case Op::MbarTestWait: {
      f->pc = pc;
      MbarOutcome o = mbarrier(t, *f, R, in);
      if (o == MbarOutcome::Error) return Stop::Error;
      if (o == MbarOutcome::NotYet) {  // a spinning test_wait: the others run first
        f->pc = pc + 1;
        return Stop::Sync;
      }
      if (o == MbarOutcome::Wait) {
        t.state = State::AtMbarrier;
        t.waiting = &in;
        return Stop::Sync;
      }
      break;
    }
    case Op::Prefetch:
    case Op::Nop: break;
    default: {
      uint64_t s[4] = {0, 0, 0, 0};
      for (int i = 1; i < in.nops; ++i) s[i - 1] = val(in.ops[i]);
      write(R, in.ops[0], evalAlu(in, s, t.carry));
      break;
    }
    }
    if (in.yields && options_.interleave) [[unlikely]] {  // another program may run now (EmuInterleave.cpp)
      f->pc = pc + 1;
      yieldedAt_ = &in;
      return Stop::Yield;
    }
    ++pc;
  }
}

} // namespace twintile::runtime::emu
