//===- TmaStores.cpp - the tma-stores decision ---------------------------===//
#include "backend/TmaStores.h"

#include "ir/Descriptor.h"

#include <algorithm>

namespace twintile::backend {

using namespace twintile::ir;

namespace {

/// Why `store` cannot be written by TMA, or "" (then `s` is set but its index).
std::string qualify(const Op &store, const AxisInfoMap &axes, TmaStore &s) {
  DescriptorOperands d(store);
  const Type &t = d.value()->type;
  if (d.rank() != 2) return "not 2-D";
  if (d.shape(0)->type.elem != ScalarKind::I32) return "its sizes or offsets are 64-bit, TMA's coordinates 32-bit";
  if (tensorMapElemtype(t.elem) < 0)
    return "its elements are " + std::string(scalarName(t.elem)) + ", which a tensor map does not hold";
  int64_t eb = byteSize(t.elem), rowBytes = t.shape[1] * eb;
  if (rowBytes < 32)
    return "its rows are " + std::to_string(rowBytes) + " bytes, and a box here is a swizzled panel of 32 or more";
  if (rowBytes > 128 && t.shape[0] < 8)
    return "it has " + std::to_string(t.shape[0]) + " rows in several panels, each of which must fill 8 rows of the "
           "swizzle the hardware applies by address";
  if (axes.at(d.base()).divisibility[0] % 16)
    return "its base is not known to be 16-byte aligned, as a tensor map's must be (--assume-aligned promises it)";
  if (axes.at(d.stride(0)).divisibility[0] * eb % 16)
    return "its row stride is not known to be a multiple of 16 bytes, as a tensor map's must be "
           "(--assume-divisible promises it)";
  s.swizzleBytes = static_cast<int>(std::min<int64_t>(128, rowBytes));  // rows are a power of two of bytes
  s.tileBytes = t.numElements() * eb;
  if (s.windowBytes() > kMaxTmaStoreBytes + 128)
    return "its tile takes " + std::to_string(s.tileBytes) + " bytes of shared memory to stage, more than the " +
           std::to_string(kMaxTmaStoreBytes) + " a TMA store may take";
  return "";
}

} // namespace

const TmaStore *TmaStorePlan::find(const Op &store) const {
  auto it = stores.find(&store);
  return it == stores.end() ? nullptr : &it->second;
}

TmaStorePlan planTmaStores(const Func &func, const AxisInfoMap &axes, const std::string &arch) {
  TmaStorePlan plan;
  if (arch != "sm_90a") return plan;
  walk(func.body, [&](const Op &op) {
    if (op.kind != OpKind::DescriptorStore) return;
    TmaStore s;
    if (std::string why = qualify(op, axes, s); !why.empty()) return plan.kept.push_back({&op, why});
    s.index = static_cast<int>(plan.stores.size());
    plan.stores.emplace(&op, s);
  });
  return plan;
}

int tensorMapElemtype(ScalarKind k) {
  switch (k) {
  case ScalarKind::I8: case ScalarKind::U8: return 0;
  case ScalarKind::I16: case ScalarKind::U16: return 1;
  case ScalarKind::U32: return 2;
  case ScalarKind::I32: return 3;
  case ScalarKind::U64: return 4;
  case ScalarKind::I64: return 5;
  case ScalarKind::F16: return 6;
  case ScalarKind::F32: return 7;
  case ScalarKind::F64: return 9;
  case ScalarKind::BF16: return 10;
  case ScalarKind::I1: case ScalarKind::Ptr: return -1;
  }
  return -1;
}

} // namespace twintile::backend
