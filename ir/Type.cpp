#include "ir/Type.h"

#include "ir/Diagnostic.h"

#include <iterator>

namespace twintile::ir {

namespace {
constexpr std::string_view kNames[] = {"i1", "i8",  "i16", "i32", "i64",  "u8",  "u16",
                                       "u32", "u64", "f16", "bf16", "f32", "f64", "ptr"};
static_assert(std::size(kNames) == static_cast<size_t>(ScalarKind::Ptr) + 1);
} // namespace

std::string_view scalarName(ScalarKind k) { return kNames[static_cast<int>(k)]; }

std::optional<ScalarKind> parseScalarName(std::string_view s) {
  for (int i = 0; i < static_cast<int>(ScalarKind::Ptr); ++i)
    if (kNames[i] == s) return static_cast<ScalarKind>(i);
  return std::nullopt;
}

bool isInt(ScalarKind k) { return k <= ScalarKind::U64; }
bool isUnsigned(ScalarKind k) { return k >= ScalarKind::U8 && k <= ScalarKind::U64; }
bool isFloat(ScalarKind k) { return k >= ScalarKind::F16 && k <= ScalarKind::F64; }

unsigned bitWidth(ScalarKind k) {
  switch (k) {
  case ScalarKind::I1: return 1;
  case ScalarKind::I8: case ScalarKind::U8: return 8;
  case ScalarKind::I16: case ScalarKind::U16: case ScalarKind::F16: case ScalarKind::BF16: return 16;
  case ScalarKind::I32: case ScalarKind::U32: case ScalarKind::F32: return 32;
  case ScalarKind::I64: case ScalarKind::U64: case ScalarKind::F64: case ScalarKind::Ptr: return 64;
  }
  throw InternalError("unknown scalar kind");
}

unsigned byteSize(ScalarKind k) { return k == ScalarKind::I1 ? 1 : bitWidth(k) / 8; }

int64_t numElements(const Shape &s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

std::string shapeString(const Shape &s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) r += 'x';
    r += std::to_string(s[i]);
  }
  return r;
}

std::string toString(const Type &t) {
  std::string elem = t.isPtr() ? "ptr<" + std::string(scalarName(t.pointee)) + ">"
                               : std::string(scalarName(t.elem));
  if (t.isScalar()) return elem;
  return "tile<" + shapeString(t.shape) + "x" + elem + ">";
}

std::string checkType(const Type &t) {
  if (t.rank() > kMaxTileRank)
    return "type " + toString(t) + " has more than " + std::to_string(kMaxTileRank) + " dimensions";
  int64_t n = 1;
  for (int64_t d : t.shape) {
    if (d <= 0) return "type " + toString(t) + " has a non-positive dimension";
    if (d > kMaxTileElements || (n *= d) > kMaxTileElements)
      return "type " + toString(t) + " has more than " + std::to_string(kMaxTileElements) + " elements";
  }
  if (t.isPtr() && t.pointee == ScalarKind::Ptr)
    return "pointers to pointers are not supported";
  return {};
}

} // namespace twintile::ir
