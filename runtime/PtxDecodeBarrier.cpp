//===- PtxDecodeBarrier.cpp - mbarrier ------------------------------------===//
//
// Hopper's barrier objects in shared memory, as the emulator runs them
// (EmuMbarrier.cpp):
//
//   mbarrier.init.shared::cta.b64 [bar], count;
//   mbarrier.inval.shared::cta.b64 [bar];
//   mbarrier.arrive{.release.cta}.shared::cta.b64 state, [bar]{, count};
//   mbarrier.arrive.expect_tx{.release.cta}.shared::cta.b64 state, [bar], tx;
//   mbarrier.expect_tx{.relaxed.cta}.shared::cta.b64 [bar], tx;
//   mbarrier.complete_tx{.relaxed.cta}.shared::cta.b64 [bar], tx;
//   mbarrier.try_wait{.parity}{.acquire.cta}.shared::cta.b64 p, [bar], parity-or-state{, hint};
//   mbarrier.test_wait{.parity}{.acquire.cta}.shared::cta.b64 p, [bar], parity-or-state;
//
// Operands land as: ops[0] the result (state or predicate; a sink `_`),
// ops[1] the barrier's address, ops[2] the count, tx or parity/state. init,
// inval, expect_tx and complete_tx have no result: their address is ops[1] too. The
// .shared form only (a generic address is refused): the emulator keeps each
// barrier's phase beside the block's shared memory. Cluster scope
// (.cluster, shared::cluster addresses of other blocks) is refused.
//===----------------------------------------------------------------------===//
#include "runtime/PtxDecoder.h"

namespace twintile::runtime::ptx {

void Decoder::mbarrier() {
  const std::string what = "'" + raw_.opcode + "'";
  bool init = take("init"), inval = !init && take("inval"), arrive = !init && !inval && take("arrive");
  bool expectTx = take("expect_tx"), completeTx = take("complete_tx"), tryWait = take("try_wait"), testWait = !tryWait && take("test_wait");
  if (take("noComplete") || take("arrive_drop") || has("cluster") || has("shared::cluster"))
    fail(what + " is not supported (one block's barriers, without drops)");
  bool parity = take("parity");
  for (const char *m : {"release", "acquire", "relaxed", "cta"}) take(m);
  if (!(take("shared") || take("shared::cta"))) fail(what + " needs .shared::cta (barriers in this block's shared memory)");
  if (!take("b64")) fail(what + " needs .b64");
  if (!mods_.empty()) fail("unsupported modifier ." + mods_.front() + " of " + what);
  in_.space = Space::Shared;
  in_.type = Type::B64;
  auto addressAt = [&](size_t i) {
    if (op(i).kind != RawOperand::Kind::Mem) fail(what + " takes the barrier's address as [addr]");
    in_.ops[1] = address(op(i));
  };
  if (init || inval || completeTx || (expectTx && !arrive)) {
    in_.op = init ? Op::MbarInit : inval ? Op::MbarInval : completeTx ? Op::MbarCompleteTx : Op::MbarExpectTx;
    operands(inval ? 1 : 2);
    addressAt(0);
    if (!inval) in_.ops[2] = src(op(1), Type::B32);
    in_.nops = 3;
    return;
  }
  if (arrive) {
    in_.op = Op::MbarArrive;
    in_.mode = expectTx ? Mode::ExpectTx : Mode::None;
    if (raw_.ops.size() != 2 && raw_.ops.size() != 3)
      fail(what + " takes a state, [bar] and " + (expectTx ? "the transaction bytes" : "an optional count"));
    if (expectTx && raw_.ops.size() != 3) fail(what + " takes the transaction bytes");
    in_.ops[0] = dst(op(0));
    addressAt(1);
    if (raw_.ops.size() == 3) in_.ops[2] = src(op(2), Type::B32);
    else in_.ops[2].kind = Operand::Kind::Imm, in_.ops[2].imm = 1;
    in_.nops = 3;
    return;
  }
  if (!tryWait && !testWait) fail("unknown instruction '" + raw_.opcode + "'");
  in_.op = tryWait ? Op::MbarTryWait : Op::MbarTestWait;
  in_.mode = parity ? Mode::Parity : Mode::None;
  if (raw_.ops.size() != 3 && !(tryWait && raw_.ops.size() == 4))
    fail(what + " takes a predicate, [bar], " + (parity ? "the phase parity" : "a state") +
         (tryWait ? " and an optional time limit" : ""));
  in_.ops[0] = dst(op(0));
  if (in_.ops[0].kind == Operand::Kind::Reg && fn_.regTypes[in_.ops[0].reg] != Type::Pred)
    fail(what + " writes a predicate");
  addressAt(1);
  in_.ops[2] = src(op(2), parity ? Type::B32 : Type::B64);
  in_.nops = 3;  // a time limit does not change what a wait means here
}

} // namespace twintile::runtime::ptx
