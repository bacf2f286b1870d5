//===- PtxDecodeWarpgroup.cpp - wgmma and fence.proxy.async --------------===//
//
// Hopper's warpgroup MMA, as the emulator runs it (EmuWarpgroup.cpp):
//
//   wgmma.fence.sync.aligned;
//   wgmma.mma_async.sync.aligned.m64nNk16.f32.A.B d, a-desc, b-desc, scale-d,
//                                          imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b;
//   wgmma.commit_group.sync.aligned;
//   wgmma.wait_group.sync.aligned N;
//   fence.proxy.async{.shared::cta};
//
// A and B are f16 or bf16 (the same), both read from shared memory through
// descriptors, D is N/2 f32 registers per thread (N a multiple of 8 up to
// 256). A from registers, the f16 accumulator, tf32, 8-bit and sparse forms
// are refused. An mma_async's operands land in the instruction as
//   ops[0] d (a vector), ops[1] a-desc, ops[2] b-desc (.b64), ops[3] scale-d
//   (a predicate or 0/1), ops[4] the immediates: bit 0 a negated, bit 1 b
//   negated, bit 2 a transposed, bit 3 b transposed.
//===----------------------------------------------------------------------===//
#include "runtime/PtxDecoder.h"

namespace twintile::runtime::ptx {

void Decoder::wgmma() {
  if (take("fence") || take("commit_group") || take("wait_group")) {
    const std::string &what = raw_.opcode;
    bool wait = what.find("wait_group") != std::string::npos;
    in_.op = wait ? Op::WgmmaWait : what.find("fence") != std::string::npos ? Op::WgmmaFence : Op::WgmmaCommit;
    if (!take("sync") || !take("aligned")) fail("'" + what + "' needs .sync.aligned");
    operands(wait ? 1 : 0);
    if (wait) {
      if (op(0).kind != RawOperand::Kind::Int || op(0).imm > 7)
        fail("'" + what + "' takes the number of groups left pending, an integer constant from 0 to 7");
      in_.ops[0].kind = Operand::Kind::Imm;
      in_.ops[0].imm = op(0).imm;
    }
    return;
  }
  if (!take("mma_async")) fail("unknown instruction '" + raw_.opcode + "'");
  if (!take("sync") || !take("aligned")) fail("'" + raw_.opcode + "' needs .sync.aligned");
  if (take("sp")) fail("'" + raw_.opcode + "': sparse wgmma is not supported");
  int n = 0;
  for (auto it = mods_.begin(); it != mods_.end(); ++it) {
    const std::string &m = *it;
    if (m.size() > 7 && m.rfind("m64n", 0) == 0 && m.substr(m.size() - 3) == "k16") {
      std::string digits = m.substr(4, m.size() - 7);
      if (digits.empty() || digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos) break;
      n = std::stoi(digits);
      mods_.erase(it);
      break;
    }
  }
  if (n < 8 || n > 256 || n % 8) fail("'" + raw_.opcode + "': only the m64nNk16 shapes (N a multiple of 8 up to 256) are supported");
  if (mods_.size() != 3) fail("'" + raw_.opcode + "' needs three types: D, A, B");
  Type d = parseType(mods_[0]), a = parseType(mods_[1]), b = parseType(mods_[2]);
  if (d != Type::F32 || (a != Type::F16 && a != Type::BF16) || b != a)
    fail("'" + raw_.opcode + "' is not supported (f16 or bf16 operands into f32 accumulators)");
  mods_.clear();
  in_.op = Op::WgmmaMma;
  in_.type = d;
  in_.type2 = a;
  in_.type3 = b;
  operands(8);
  if (op(0).kind != RawOperand::Kind::Vec || op(0).elems.size() != static_cast<size_t>(n / 2))
    fail("'" + raw_.opcode + "' needs {" + std::to_string(n / 2) + " registers} for D");
  if (op(1).kind == RawOperand::Kind::Vec) fail("'" + raw_.opcode + "' with A in registers is not supported");
  for (const RawOperand &e : op(0).elems)
    if (e.kind != RawOperand::Kind::Name) fail("'" + raw_.opcode + "' takes registers for D");
  in_.ops[0] = vector(op(0), Type::F32, true);
  for (uint64_t j = 0; j < in_.ops[0].imm; ++j)
    if (Type t = fn_.regTypes[fn_.vecPool[in_.ops[0].reg + j].reg]; t != Type::F32 && t != Type::B32)
      fail("'" + raw_.opcode + "' accumulates into .f32 (or .b32) registers");
  in_.ops[1] = src(op(1), Type::B64);
  in_.ops[2] = src(op(2), Type::B64);
  for (int j = 1; j <= 2; ++j)
    if (const Operand &d = in_.ops[static_cast<size_t>(j)]; d.kind == Operand::Kind::Reg &&
                                                              typeBits(fn_.regTypes[d.reg]) != 64)
      fail("'" + raw_.opcode + "' takes 64-bit descriptors");
  in_.ops[3] = src(op(3), Type::Pred);
  uint64_t flags = 0;
  for (size_t i = 4; i < 8; ++i) {
    const RawOperand &o = op(i);
    bool scale = i < 6;
    int64_t v = static_cast<int64_t>(o.imm);
    bool ok = o.kind == RawOperand::Kind::Int && (scale ? v == 1 || v == -1 : v == 0 || v == 1);
    if (!ok) fail("'" + raw_.opcode + "' takes " + (scale ? "1 or -1 for imm-scale-a and imm-scale-b" : "0 or 1 for imm-trans-a and imm-trans-b"));
    if (scale ? v == -1 : v == 1) flags |= uint64_t(1) << (i - 4);
  }
  in_.ops[4].kind = Operand::Kind::Imm;
  in_.ops[4].imm = flags;
}

void Decoder::fenceProxy() {
  take("proxy");
  take("async");
  // Generic-proxy writes to shared memory made visible to the async proxy: the
  // unqualified form and .shared; .global fences global memory only, which
  // the emulator does not track (a no-op).
  bool shared = take("shared::cta") || take("shared::cluster") || mods_.empty();
  if (take("global")) shared = false;
  in_.op = shared ? Op::FenceProxyAsync : Op::Nop;
  operands(0);
}

} // namespace twintile::runtime::ptx
