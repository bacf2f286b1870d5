//===- EmuBulkCopy.cpp - tensor maps and bulk tensor copies, emulated -----===//
//
// A tensor map is 128 opaque bytes: the emulator keeps the fields
// tensormap.replace sets at offsets of its own (below), so that a map built
// on the device, zero-filled and then replaced field by field as Triton's
// and CUTLASS's kernels do, reads back here; a GPU's layout differs, and
// nothing but tensormap.replace may write one. A global stride is bytes from
// PTX ISA 8.6 on and 16-byte units before it (ptxas's reading, which
// Triton's and CUTLASS's device-side maps work around).
//
// cp.async.bulk.tensor copies a box of the tensor: element (i0, i1, ...) of
// the box (i0 innermost) is the tensor's element at the coordinates plus i,
// read from global memory where it lies inside the tensor's dimensions and
// filled with zeros (or NaN, fill mode 1) where it does not. The box lands
// in shared memory row after row, packed, each 16-byte chunk at its swizzled
// address. Its bytes stay in flight (any access to them is a race, as for
// cp.async) until a thread waits on the barrier the copy completes on; the
// copy then delivers them and its bytes to the barrier's transaction count.
// A store writes the box's elements that lie inside the tensor when it is
// issued; the shared bytes it reads stay reserved (a write to them is a
// race) until a wait_group.read leaves its group behind, and it must read
// them through the async proxy: a generic write not fenced since is
// reported, as for wgmma.
//===----------------------------------------------------------------------===//
#include "runtime/EmuMachine.h"

#include <cstring>

namespace twintile::runtime::emu {

using namespace ptx;

namespace {

// The emulator's tensor-map image: field offsets in its 128 bytes.
constexpr uint64_t kAddressAt = 0, kRankAt = 8, kElemtypeAt = 12, kInterleaveAt = 16, kSwizzleAt = 20, kFillAt = 24,
                   kBoxAt = 28, kDimAt = 48, kElementStrideAt = 68, kStrideAt = 88;
constexpr uint32_t kMaxRank = 5;

template <class T> T field(const uint8_t *map, uint64_t at) {
  T v;
  std::memcpy(&v, map + at, sizeof v);
  return v;
}

/// Bytes of an element of `elemtype` (tensormap.replace's .elemtype values), 0 if not one the emulator copies.
uint32_t elementBytes(uint32_t elemtype) {
  static constexpr uint32_t kBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 4, 8, 2, 4, 4};
  return elemtype < std::size(kBytes) ? kBytes[elemtype] : 0;
}
bool isFloatType(uint32_t elemtype) { return elemtype >= 6 && elemtype <= 12; }

} // namespace

/// A decoded tensor map, checked against what the PTX ISA allows.
struct TensorMap {
  uint64_t address = 0;
  uint32_t rank = 0, elemBytes = 0, swizzle = 0, fill = 0, elemtype = 0;
  uint32_t box[kMaxRank] = {}, dim[kMaxRank] = {};
  uint64_t stride[kMaxRank] = {};  // bytes; stride[0] is the element's size
  /// The global address of the box's element `i` (box-linear, innermost
  /// fastest) for a box at `coord`, or false where it lies outside the tensor.
  bool elementAddress(const int32_t *coord, uint64_t i, uint64_t &addr) const {
    bool inside = true;
    addr = address;
    for (uint32_t d = 0; d < rank; ++d) {
      int64_t x = int64_t(coord[d]) + int64_t(i % box[d]);
      i /= box[d];
      inside = inside && x >= 0 && x < int64_t(dim[d]);
      addr += static_cast<uint64_t>(x) * stride[d];
    }
    return inside;
  }
  uint64_t boxBytes() const {
    uint64_t n = elemBytes;
    for (uint32_t d = 0; d < rank; ++d) n *= box[d];
    return n;
  }
};

uint8_t *Machine::mapBytes(Thread &t, const Instr &in, uint64_t addr, ptx::Space space, bool write) {
  if (addr % 64) {
    fail(t, in, "a tensor map at " + hex(addr) + ", which is not 64-byte aligned, in");
    return nullptr;
  }
  uint8_t *lo = access(t, in, addr, 64, space, write);
  uint8_t *hi = lo ? access(t, in, addr + 64, 64, space, write) : nullptr;
  if (lo && hi != lo + 64) {
    if (hi) fail(t, in, "a tensor map at " + hex(addr) + " that does not lie in one buffer or window, in");
    return nullptr;
  }
  return lo;
}

bool Machine::sharedBox(Thread &t, const Instr &in, uint64_t addr, uint64_t bytes, uint32_t swizzle,
                        std::vector<uint64_t> &chunks) {
  uint64_t offset = addr - kSharedBase;
  if (addr < kSharedBase || offset >= shared_.size() || addr % 128) {
    fail(t, in, std::string(addr % 128 ? "misaligned" : "out-of-bounds") + " box (" + std::to_string(bytes) +
                    " bytes) at shared address " + hex(addr) + " (boxes are 128-byte aligned in shared memory) in");
    return false;
  }
  chunks.clear();
  for (uint64_t c = 0; c < bytes; c += 16) {
    uint64_t chunk = swizzled(offset + c, swizzle);
    if (chunk + 16 > shared_.size()) {
      fail(t, in, "out-of-bounds box: its chunk " + std::to_string(c / 16) + " lands at shared address " +
                      hex(kSharedBase + chunk) + ", past the " + std::to_string(shared_.size()) +
                      " bytes of shared memory, in");
      return false;
    }
    chunks.push_back(chunk);
  }
  return true;
}

bool Machine::readTensorMap(Thread &t, const Instr &in, uint64_t addr, TensorMap &m) {
  auto bad = [&](const std::string &why) {
    fail(t, in, in.text + " with the tensor map at " + hex(addr) + ": " + why + ", in");
    return false;
  };
  const uint8_t *p = mapBytes(t, in, addr, Space::Generic, false);
  if (!p) return false;
  m.address = field<uint64_t>(p, kAddressAt);
  m.rank = field<uint32_t>(p, kRankAt) + 1;
  m.elemtype = field<uint32_t>(p, kElemtypeAt);
  m.elemBytes = elementBytes(m.elemtype);
  uint32_t swizzleMode = field<uint32_t>(p, kSwizzleAt);
  m.fill = field<uint32_t>(p, kFillAt);
  if (m.rank != in.vec)
    return bad("its rank is " + std::to_string(m.rank) + ", the instruction's " + std::to_string(in.vec));
  if (!m.elemBytes) return bad("element type " + std::to_string(m.elemtype) + " is not one the emulator copies");
  if (field<uint32_t>(p, kInterleaveAt) != 0) return bad("interleaved layouts are not supported");
  if (swizzleMode > 3) return bad("swizzle mode " + std::to_string(swizzleMode) + " is not sm_90's");
  if (m.fill > 1 || (m.fill == 1 && !isFloatType(m.elemtype))) return bad("fill mode " + std::to_string(m.fill) + " does not apply");
  m.swizzle = swizzleMode == 0 ? 0 : 16u << swizzleMode;  // 32, 64, 128 bytes
  if (m.address % 16) return bad("its global address " + hex(m.address) + " is not 16-byte aligned");
  m.stride[0] = m.elemBytes;
  for (uint32_t d = 0; d < m.rank; ++d) {
    m.box[d] = field<uint32_t>(p, kBoxAt + 4 * d);
    m.dim[d] = field<uint32_t>(p, kDimAt + 4 * d);
    if (field<uint32_t>(p, kElementStrideAt + 4 * d) != 1) return bad("element strides other than 1 are not supported");
    if (m.box[d] < 1 || m.box[d] > 256) return bad("box dimension " + std::to_string(d) + " is " + std::to_string(m.box[d]) + " (1 to 256)");
    if (m.dim[d] < 1) return bad("dimension " + std::to_string(d) + " is empty");
    if (d > 0) {
      m.stride[d] = field<uint64_t>(p, kStrideAt + 8 * (d - 1));
      if (m.stride[d] % 16 || m.stride[d] >= (uint64_t(1) << 40))
        return bad("stride " + std::to_string(d - 1) + " (" + std::to_string(m.stride[d]) + " bytes) is not a multiple of 16 below 2^40");
    }
  }
  uint64_t inner = uint64_t(m.box[0]) * m.elemBytes;
  if (inner % 16) return bad("the box's inner dimension spans " + std::to_string(inner) + " bytes, not a multiple of 16");
  if (m.swizzle && inner > m.swizzle)
    return bad("the box's inner dimension spans " + std::to_string(inner) + " bytes, more than the " +
               std::to_string(m.swizzle) + "-byte swizzle");
  return true;
}

bool Machine::tensormapReplace(Thread &t, const Frame &f, uint64_t *R, const Instr &in) {
  uint64_t addr = addressOf(f, R, in.ops[1]), v = value(t, f, R, in.ops[2]), ord = in.ops[3].imm;
  uint8_t *p = mapBytes(t, in, addr, in.space, true);
  if (!p) return false;
  auto put32 = [&](uint64_t at) { uint32_t x = static_cast<uint32_t>(v); std::memcpy(p + at, &x, 4); };
  switch (static_cast<TensormapField>(in.ops[4].imm)) {
  case TensormapField::GlobalAddress: std::memcpy(p + kAddressAt, &v, 8); break;
  case TensormapField::Rank: put32(kRankAt); break;
  case TensormapField::BoxDim: put32(kBoxAt + 4 * ord); break;
  case TensormapField::GlobalDim: put32(kDimAt + 4 * ord); break;
  case TensormapField::GlobalStride:
    if (ord > 3) {
      fail(t, in, "a tensor map has strides 0 to 3 (the dimensions but the innermost), not " + std::to_string(ord) + " in");
      return false;
    }
    // Before PTX ISA 8.6 ptxas takes the stride in 16-byte units (its 4 low
    // bits, always 0, left out), as the map holds it; Triton and CUTLASS shift
    // it for those versions. The emulator keeps bytes.
    if (prog_.ptxVersion && prog_.ptxVersion < 86) {
      if (v >= (uint64_t(1) << 36)) {  // 2^40 bytes or more: no map holds it
        fail(t, in, "a tensor map's stride of " + std::to_string(v) + " 16-byte units (2^40 bytes or more) in");
        return false;
      }
      v <<= 4;
    }
    std::memcpy(p + kStrideAt + 8 * ord, &v, 8);
    break;
  case TensormapField::ElementStride: put32(kElementStrideAt + 4 * ord); break;
  case TensormapField::Elemtype: put32(kElemtypeAt); break;
  case TensormapField::Interleave: put32(kInterleaveAt); break;
  case TensormapField::SwizzleMode: put32(kSwizzleAt); break;
  case TensormapField::FillMode: put32(kFillAt); break;
  }
  return true;
}

bool Machine::tensormapCopy(Thread &t, const Frame &f, uint64_t *R, const Instr &in) {
  const uint8_t *src = mapBytes(t, in, addressOf(f, R, in.ops[1]), Space::Shared, false);
  if (!src) return false;
  std::array<uint8_t, 128> bytes;
  std::memcpy(bytes.data(), src, 128);
  uint8_t *to = mapBytes(t, in, addressOf(f, R, in.ops[0]), Space::Global, true);
  if (!to) return false;
  std::memcpy(to, bytes.data(), 128);
  return true;
}

void Machine::coordinates(const Thread &t, const Frame &f, const uint64_t *R, const Instr &in, int32_t *coord) const {
  for (uint32_t d = 0; d < in.vec; ++d) coord[d] = static_cast<int32_t>(value(t, f, R, f.fn->vecPool[in.ops[2].reg + d]));
}

bool Machine::bulkTensorLoad(Thread &t, const Frame &f, uint64_t *R, const Instr &in) {
  TensorMap m;
  if (!readTensorMap(t, in, addressOf(f, R, in.ops[1]), m)) return false;
  uint64_t dst = addressOf(f, R, in.ops[0]), bar = addressOf(f, R, in.ops[3]);
  Mbarrier *b = mbarrierAt(t, in, bar, true);
  if (!b) return false;
  uint64_t bytes = m.boxBytes();
  std::vector<uint64_t> chunks;
  if (!sharedBox(t, in, dst, bytes, m.swizzle, chunks)) return false;
  int32_t coord[kMaxRank];
  coordinates(t, f, R, in, coord);
  BulkDelivery out;
  out.bytes.assign(bytes, 0);
  uint64_t nan = m.elemBytes == 2 ? (m.elemtype == 10 ? 0x7fc0 : 0x7e00) : m.elemBytes == 4 ? 0x7fc00000u : 0x7ff8000000000000ull;
  for (uint64_t i = 0; i < bytes / m.elemBytes; ++i) {
    uint64_t addr = 0;
    uint8_t *to = out.bytes.data() + i * m.elemBytes;
    if (!m.elementAddress(coord, i, addr)) {
      if (m.fill == 1) std::memcpy(to, &nan, m.elemBytes);
      continue;
    }
    const uint8_t *from = access(t, in, addr, m.elemBytes, Space::Global, false);
    if (!from) return false;
    std::memcpy(to, from, m.elemBytes);
  }
  for (uint64_t chunk : chunks) {
    for (uint64_t k = 0; k < 16; ++k) {
      const char *race = bulkLanding_[chunk + k]                          ? "another cp.async.bulk.tensor lands on"
                         : bulkReading_[chunk + k]                        ? "a cp.async.bulk.tensor store still reads"
                         : trackProxy_ && proxy_.readingCount && proxy_.reading[chunk + k] ? "an in-flight wgmma reads"
                                                                          : nullptr;
      if (race) {
        fail(t, in, std::string("racing (") + race + " shared byte " + hex(kSharedBase + chunk + k) + ") " + in.text + " in");
        return false;
      }
    }
    out.chunks.push_back(chunk);
    for (uint64_t k = 0; k < 16; ++k) ++bulkLanding_[chunk + k];
  }
  bulkLandingCount_ += 1;
  b->deliveries.push_back(std::move(out));
  return true;
}

void Machine::deliver(Mbarrier &b) {
  for (BulkDelivery &d : b.deliveries) {
    for (size_t j = 0; j < d.chunks.size(); ++j) {
      std::memcpy(shared_.data() + d.chunks[j], d.bytes.data() + 16 * j, 16);
      for (uint64_t k = 0; k < 16; ++k) {
        --bulkLanding_[d.chunks[j] + k];
        if (trackProxy_) proxy_.writer[d.chunks[j] + k] = 0;  // the async proxy's own write
      }
    }
    bulkLandingCount_ -= 1;
    b.tx -= static_cast<int64_t>(d.bytes.size());
  }
  b.deliveries.clear();
  completePhase(b);
}

bool Machine::bulkTensorStore(Thread &t, const Frame &f, uint64_t *R, const Instr &in) {
  TensorMap m;
  if (!readTensorMap(t, in, addressOf(f, R, in.ops[1]), m)) return false;
  uint64_t src = addressOf(f, R, in.ops[0]), bytes = m.boxBytes();
  std::vector<uint64_t> chunks;
  if (!sharedBox(t, in, src, bytes, m.swizzle, chunks)) return false;
  std::vector<uint8_t> box(bytes);
  for (uint64_t c = 0; c < bytes; c += 16) {
    uint64_t chunk = chunks[c / 16];
    for (uint64_t k = 0; k < 16; ++k)
      if (bulkLanding_[chunk + k]) {
        fail(t, in, "racing (a cp.async.bulk.tensor load to shared byte " + hex(kSharedBase + chunk + k) +
                        " has not landed: no thread has waited on its mbarrier) " + in.text + " in");
        return false;
      } else if (uint32_t w = proxy_.writer[chunk + k]; w && threads_[w - 1].proxyFences == proxy_.writerFences[chunk + k]) {
        fail(t, in, in.text + " reads shared byte " + hex(kSharedBase + chunk + k) + " that thread " +
                        std::to_string(w - 1) +
                        " wrote through the generic proxy and has not made visible to the async proxy since (no "
                        "fence.proxy.async after the write), in");
        return false;
      }
    std::memcpy(box.data() + c, shared_.data() + chunk, 16);
    t.bulkPending.push_back(chunk);
    for (uint64_t k = 0; k < 16; ++k) ++bulkReading_[chunk + k];
    ++bulkReadingCount_;
  }
  int32_t coord[kMaxRank];
  coordinates(t, f, R, in, coord);
  for (uint64_t i = 0; i < bytes / m.elemBytes; ++i) {
    uint64_t addr = 0;
    if (!m.elementAddress(coord, i, addr)) continue;
    uint8_t *to = access(t, in, addr, m.elemBytes, Space::Global, true);
    if (!to) return false;
    std::memcpy(to, box.data() + i * m.elemBytes, m.elemBytes);
    ++memoryChanges_;
  }
  return true;
}

void Machine::bulkCommit(Thread &t) {
  t.bulkGroups.push_back(std::move(t.bulkPending));
  t.bulkPending.clear();
}

void Machine::bulkWait(Thread &t, uint64_t pending) {
  for (; t.bulkGroups.size() > pending; t.bulkGroups.pop_front())
    for (uint64_t chunk : t.bulkGroups.front()) {
      for (uint64_t k = 0; k < 16; ++k) --bulkReading_[chunk + k];
      --bulkReadingCount_;
    }
}

} // namespace twintile::runtime::emu
