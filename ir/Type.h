//===- Type.h - element, pointer and tile types of the tile IR -----------===//
//
// A Type is an element kind, the pointee kind when the element is a pointer,
// and a static shape. An empty shape is a scalar; a non-empty one is a tile.
//
//   i32            scalar 32-bit integer
//   ptr<f16>       scalar pointer to f16
//   tile<128xf32>  a 1-D tile of 128 f32
//   tile<64x32xptr<bf16>>  a 2-D tile of pointers
//
// Integers are two's complement, signed (i8 .. i64) or unsigned (u8 .. u64);
// i1 holds 0 or 1. Signedness lives in the type, as in C++ and Triton: the
// ops that depend on it (division, remainder, >>, comparisons, min/max,
// conversions) read it from their operands' element kind. Pointers address
// global memory and step in elements of their pointee (see IR.h).
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace twintile::ir {

enum class ScalarKind : uint8_t { I1, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, Ptr };

/// Spelling of a scalar kind in IR text ("i32", "bf16", "ptr").
std::string_view scalarName(ScalarKind k);
/// Inverse of scalarName for the element types (not "ptr").
std::optional<ScalarKind> parseScalarName(std::string_view s);

bool isInt(ScalarKind k);       // i1 .. i64, u8 .. u64
bool isUnsigned(ScalarKind k);  // u8 .. u64 (i1 is neither: it holds 0 or 1)
/// Whether integers of kind k order as unsigned numbers: u8 .. u64, and i1
/// (it holds 0 or 1, where a signed 1-bit view would be 0 or -1).
inline bool unsignedOrder(ScalarKind k) { return k == ScalarKind::I1 || isUnsigned(k); }
bool isFloat(ScalarKind k);  // f16, bf16, f32, f64
unsigned bitWidth(ScalarKind k);   // 1 for i1, 64 for ptr
unsigned byteSize(ScalarKind k);   // storage size in memory (i1: 1 byte)

using Shape = std::vector<int64_t>;

/// The largest tile the IR accepts, in elements, and its most dimensions.
constexpr int64_t kMaxTileElements = int64_t(1) << 24;
constexpr int64_t kMaxTileRank = 8;

int64_t numElements(const Shape &s);
std::string shapeString(const Shape &s);  // "128x64", "" for scalars

struct Type {
  ScalarKind elem = ScalarKind::I32;
  ScalarKind pointee = ScalarKind::I32;  // meaningful only when elem == Ptr
  Shape shape;

  static Type scalar(ScalarKind k) { return {k, ScalarKind::I32, {}}; }
  static Type ptr(ScalarKind to) { return {ScalarKind::Ptr, to, {}}; }
  static Type tile(Shape s, ScalarKind k) { return {k, ScalarKind::I32, std::move(s)}; }
  static Type ptrTile(Shape s, ScalarKind to) { return {ScalarKind::Ptr, to, std::move(s)}; }

  bool isScalar() const { return shape.empty(); }
  bool isTile() const { return !shape.empty(); }
  bool isPtr() const { return elem == ScalarKind::Ptr; }
  bool isInt() const { return ir::isInt(elem); }
  bool isUnsigned() const { return ir::isUnsigned(elem); }
  bool isFloat() const { return ir::isFloat(elem); }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t numElements() const { return ir::numElements(shape); }

  /// The same element (and pointee) with another shape.
  Type withShape(Shape s) const { Type t = *this; t.shape = std::move(s); return t; }
  /// The same shape with another element kind.
  Type withElem(ScalarKind k) const { return {k, ScalarKind::I32, shape}; }
  /// The scalar type of one element.
  Type elementType() const { return withShape({}); }

  friend bool operator==(const Type &a, const Type &b) {
    return a.elem == b.elem && a.shape == b.shape &&
           (a.elem != ScalarKind::Ptr || a.pointee == b.pointee);
  }
};

/// IR spelling: "f32", "ptr<f16>", "tile<4x8xi32>".
std::string toString(const Type &t);

/// Why `t` is not a legal IR type (a dimension that is not positive, too
/// many dimensions or elements, a pointer to a pointer), or empty.
std::string checkType(const Type &t);

} // namespace twintile::ir
