//===- PtxDecodeBulk.cpp - tensor maps and bulk tensor copies ------------===//
//
// The tensor memory accelerator, as the emulator runs it (EmuBulkCopy.cpp):
//
//   tensormap.replace.tile.FIELD{.shared::cta,.global}.b1024.{b32,b64} [map], {ord,} value;
//   tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [dst], [src], 128;
//   cp.async.bulk.tensor.Nd.shared::cluster.global{.tile}.mbarrier::complete_tx::bytes [dst], [map, {c0, ..}], [bar];
//   cp.async.bulk.tensor.Nd.global.shared::cta{.tile}.bulk_group [map, {c0, ..}], [src];
//   cp.async.bulk.commit_group;
//   cp.async.bulk.wait_group{.read} N;
//
// Operands land as: replace: ops[1] the map, ops[2] the value, ops[3] the
// ordinal, ops[4] the field (TensormapField); cp_fenceproxy: ops[0] dst,
// ops[1] src; a tensor load: ops[0] the shared destination, ops[1] the map,
// ops[2] the coordinates (s32, innermost first), ops[3] the barrier; a store:
// ops[0] the shared source, ops[1] the map, ops[2] the coordinates; vec is
// the rank. Multicast, im2col, cache hints, .swizzle_atomicity and cluster
// destinations other than the block's own are refused.
//===----------------------------------------------------------------------===//
#include "runtime/PtxDecoder.h"

#include <algorithm>

namespace twintile::runtime::ptx {

void Decoder::tensormap() {
  const std::string what = "'" + raw_.opcode + "'";
  if (take("cp_fenceproxy")) {
    if (!take("global") || !take("shared::cta") || !take("tensormap::generic") || !take("release") || !take("gpu") ||
        !take("sync") || !take("aligned") || !mods_.empty())
      fail(what + ": the form is tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned");
    operands(3);
    if (op(2).kind != RawOperand::Kind::Int || op(2).imm != 128) fail(what + " copies a tensor map's 128 bytes");
    in_.op = Op::TensormapCopy;
    in_.ops[0] = address(op(0));
    in_.ops[1] = address(op(1));
    return;
  }
  if (!take("replace") || !take("tile")) fail("unknown instruction '" + raw_.opcode + "'");
  static const std::pair<const char *, TensormapField> kFields[] = {
      {"global_address", TensormapField::GlobalAddress}, {"rank", TensormapField::Rank},
      {"box_dim", TensormapField::BoxDim},               {"global_dim", TensormapField::GlobalDim},
      {"global_stride", TensormapField::GlobalStride},   {"element_stride", TensormapField::ElementStride},
      {"elemtype", TensormapField::Elemtype},            {"interleave_layout", TensormapField::Interleave},
      {"swizzle_mode", TensormapField::SwizzleMode},     {"fill_mode", TensormapField::FillMode}};
  const std::pair<const char *, TensormapField> *field = nullptr;
  for (const auto &f : kFields)
    if (take(f.first)) field = &f;
  if (!field) fail(what + ": the field is not one the emulator runs (.swizzle_atomicity is sm_100's)");
  in_.space = take("shared::cta") ? Space::Shared : take("global") ? Space::Global : Space::Generic;
  if (!take("b1024")) fail(what + " needs .b1024");
  bool wide = field->second == TensormapField::GlobalAddress || field->second == TensormapField::GlobalStride;
  if (!take(wide ? "b64" : "b32")) fail(what + " takes a ." + (wide ? "b64" : "b32") + " value");
  if (!mods_.empty()) fail("unsupported modifier ." + mods_.front() + " of " + what);
  bool ordinal = field->second == TensormapField::BoxDim || field->second == TensormapField::GlobalDim ||
                 field->second == TensormapField::GlobalStride || field->second == TensormapField::ElementStride;
  operands(ordinal ? 3 : 2);
  in_.op = Op::TensormapReplace;
  in_.type = wide ? Type::B64 : Type::B32;
  in_.ops[1] = address(op(0));
  const RawOperand &value = op(ordinal ? 2 : 1);
  bool immediate = field->second >= TensormapField::Elemtype;
  if (immediate && value.kind != RawOperand::Kind::Int) fail(what + " takes an immediate value");
  in_.ops[2] = src(value, in_.type);
  in_.ops[3].kind = Operand::Kind::Imm;
  if (ordinal) {
    if (op(1).kind != RawOperand::Kind::Int || op(1).imm > 4) fail(what + " takes an ordinal from 0 to 4");
    in_.ops[3].imm = op(1).imm;
  }
  in_.ops[4].kind = Operand::Kind::Imm;
  in_.ops[4].imm = static_cast<uint64_t>(field->second);
  in_.nops = 5;
}

void Decoder::bulkCopy() {
  const std::string what = "'" + raw_.opcode + "'";
  if (take("commit_group")) {
    in_.op = Op::BulkCommit;
    return operands(0);
  }
  if (take("wait_group")) {
    take("read");  // the emulator applies a store's writes when it is issued: waiting for its reads is all there is
    in_.op = Op::BulkWait;
    operands(1);
    if (op(0).kind != RawOperand::Kind::Int || op(0).imm > 63)
      fail(what + " takes the number of groups left pending, an integer constant");
    in_.ops[0].kind = Operand::Kind::Imm;
    in_.ops[0].imm = op(0).imm;
    return;
  }
  if (!take("tensor")) fail(what + ": only the tensor forms of the bulk copies are supported");
  int rank = 0;
  for (int n = 1; n <= 5; ++n)
    if (take((std::to_string(n) + "d").c_str())) rank = n;
  if (!rank) fail(what + " needs the tensor's rank (.1d to .5d)");
  take("tile");
  if (has("im2col") || has("multicast::cluster") || has("L2::cache_hint") || has("cta_group::1") || has("cta_group::2"))
    fail(what + ": im2col, multicast, cache hints and CTA groups are not supported");
  // The destination's space comes first: shared memory for a load, global for a store.
  auto at = [&](const char *m) { return std::find(mods_.begin(), mods_.end(), m) - mods_.begin(); };
  bool load = std::min(at("shared::cluster"), at("shared::cta")) < at("global");
  if (load) {
    if (!take("shared::cluster")) take("shared::cta");
    if (!take("global") || !take("mbarrier::complete_tx::bytes") || !mods_.empty())
      fail(what + ": a load is cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes");
  } else if (!take("global") || !take("shared::cta") || !take("bulk_group") || !mods_.empty()) {
    fail(what + ": a store is cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group");
  }
  operands(load ? 3 : 2);
  const RawOperand &map = op(load ? 1 : 0);
  if (map.kind != RawOperand::Kind::Mem || map.elems.size() != static_cast<size_t>(rank))
    fail(what + " takes [map, {" + std::to_string(rank) + " coordinates}]");
  RawOperand plain = map;
  plain.elems.clear();
  in_.op = load ? Op::BulkTensorLoad : Op::BulkTensorStore;
  in_.vec = static_cast<uint8_t>(rank);
  in_.ops[0] = address(op(load ? 0 : 1));
  in_.ops[1] = address(plain);
  RawOperand coords;
  coords.kind = RawOperand::Kind::Vec;
  coords.elems = map.elems;
  in_.ops[2] = vector(coords, Type::S32, false);
  if (load) {
    if (op(2).kind != RawOperand::Kind::Mem || !op(2).elems.empty()) fail(what + " takes the barrier as [bar]");
    in_.ops[3] = address(op(2));
  }
  in_.nops = load ? 4 : 3;
}

} // namespace twintile::runtime::ptx
