// Tests of the tile IR's types (ir/Type.h): their spelling in IR text, the
// scalar names, bit widths and storage sizes, equality and element counts.
#include "ir/Type.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace twintile::ir;

namespace {

const std::vector<ScalarKind> kElementKinds = {
    ScalarKind::I1,  ScalarKind::I8,   ScalarKind::I16, ScalarKind::I32, ScalarKind::I64,
    ScalarKind::U8,  ScalarKind::U16,  ScalarKind::U32, ScalarKind::U64,
    ScalarKind::F16, ScalarKind::BF16, ScalarKind::F32, ScalarKind::F64};

} // namespace

TEST_CASE("scalar types are spelled by their element name", "[type]") {
  CHECK(toString(Type::scalar(ScalarKind::I1)) == "i1");
  CHECK(toString(Type::scalar(ScalarKind::I8)) == "i8");
  CHECK(toString(Type::scalar(ScalarKind::I16)) == "i16");
  CHECK(toString(Type::scalar(ScalarKind::I32)) == "i32");
  CHECK(toString(Type::scalar(ScalarKind::I64)) == "i64");
  CHECK(toString(Type::scalar(ScalarKind::U8)) == "u8");
  CHECK(toString(Type::scalar(ScalarKind::U64)) == "u64");
  CHECK(toString(Type::scalar(ScalarKind::F16)) == "f16");
  CHECK(toString(Type::scalar(ScalarKind::BF16)) == "bf16");
  CHECK(toString(Type::scalar(ScalarKind::F32)) == "f32");
  CHECK(toString(Type::scalar(ScalarKind::F64)) == "f64");
}

TEST_CASE("pointer types are spelled ptr<pointee>", "[type]") {
  CHECK(toString(Type::ptr(ScalarKind::F16)) == "ptr<f16>");
  CHECK(toString(Type::ptr(ScalarKind::I8)) == "ptr<i8>");
  CHECK(toString(Type::ptr(ScalarKind::BF16)) == "ptr<bf16>");
}

TEST_CASE("tile types are spelled tile<dims x elem>", "[type]") {
  CHECK(toString(Type::tile({4, 8}, ScalarKind::I32)) == "tile<4x8xi32>");
  CHECK(toString(Type::tile({128}, ScalarKind::F32)) == "tile<128xf32>");
  CHECK(toString(Type::tile({1, 1, 1}, ScalarKind::I1)) == "tile<1x1x1xi1>");
  CHECK(toString(Type::ptrTile({16}, ScalarKind::BF16)) == "tile<16xptr<bf16>>");
  CHECK(toString(Type::ptrTile({64, 32}, ScalarKind::F16)) == "tile<64x32xptr<f16>>");
}

TEST_CASE("shapeString joins dimensions with x and is empty for scalars", "[type]") {
  CHECK(shapeString({}) == "");
  CHECK(shapeString({7}) == "7");
  CHECK(shapeString({128, 64}) == "128x64");
  CHECK(shapeString({2, 3, 4}) == "2x3x4");
}

TEST_CASE("parseScalarName inverts scalarName for the nine element types", "[type]") {
  for (ScalarKind k : kElementKinds) {
    INFO(scalarName(k));
    auto parsed = parseScalarName(scalarName(k));
    REQUIRE(parsed.has_value());
    CHECK(*parsed == k);
  }
}

TEST_CASE("parseScalarName rejects ptr and unknown names", "[type]") {
  CHECK(scalarName(ScalarKind::Ptr) == "ptr");
  CHECK_FALSE(parseScalarName("ptr").has_value());
  CHECK_FALSE(parseScalarName("").has_value());
  CHECK_FALSE(parseScalarName("i33").has_value());
  CHECK_FALSE(parseScalarName("I32").has_value());
  CHECK_FALSE(parseScalarName("f32 ").has_value());
  CHECK_FALSE(parseScalarName("float").has_value());
  CHECK_FALSE(parseScalarName("tile").has_value());
}

TEST_CASE("isInt and isFloat split the element kinds", "[type]") {
  for (ScalarKind k : {ScalarKind::I1, ScalarKind::I8, ScalarKind::I16, ScalarKind::I32,
                       ScalarKind::I64}) {
    CHECK(isInt(k));
    CHECK_FALSE(isUnsigned(k));
    CHECK_FALSE(isFloat(k));
  }
  for (ScalarKind k : {ScalarKind::U8, ScalarKind::U16, ScalarKind::U32, ScalarKind::U64}) {
    CHECK(isInt(k));
    CHECK(isUnsigned(k));
    CHECK(unsignedOrder(k));
    CHECK_FALSE(isFloat(k));
  }
  CHECK(unsignedOrder(ScalarKind::I1));
  CHECK_FALSE(unsignedOrder(ScalarKind::I32));
  for (ScalarKind k : {ScalarKind::F16, ScalarKind::BF16, ScalarKind::F32, ScalarKind::F64}) {
    CHECK(isFloat(k));
    CHECK_FALSE(isInt(k));
  }
  CHECK_FALSE(isInt(ScalarKind::Ptr));
  CHECK_FALSE(isFloat(ScalarKind::Ptr));
  CHECK(Type::ptr(ScalarKind::I32).isPtr());
  CHECK_FALSE(Type::ptr(ScalarKind::I32).isInt());
}

TEST_CASE("bitWidth and byteSize of every scalar kind", "[type]") {
  CHECK(bitWidth(ScalarKind::I1) == 1);
  CHECK(bitWidth(ScalarKind::I8) == 8);
  CHECK(bitWidth(ScalarKind::I16) == 16);
  CHECK(bitWidth(ScalarKind::I32) == 32);
  CHECK(bitWidth(ScalarKind::I64) == 64);
  CHECK(bitWidth(ScalarKind::U8) == 8);
  CHECK(bitWidth(ScalarKind::U16) == 16);
  CHECK(bitWidth(ScalarKind::U32) == 32);
  CHECK(bitWidth(ScalarKind::U64) == 64);
  CHECK(bitWidth(ScalarKind::F16) == 16);
  CHECK(bitWidth(ScalarKind::BF16) == 16);
  CHECK(bitWidth(ScalarKind::F32) == 32);
  CHECK(bitWidth(ScalarKind::F64) == 64);
  CHECK(bitWidth(ScalarKind::Ptr) == 64);

  CHECK(byteSize(ScalarKind::I1) == 1);  // stored in one byte
  CHECK(byteSize(ScalarKind::I8) == 1);
  CHECK(byteSize(ScalarKind::I16) == 2);
  CHECK(byteSize(ScalarKind::I32) == 4);
  CHECK(byteSize(ScalarKind::I64) == 8);
  CHECK(byteSize(ScalarKind::U8) == 1);
  CHECK(byteSize(ScalarKind::U64) == 8);
  CHECK(byteSize(ScalarKind::F16) == 2);
  CHECK(byteSize(ScalarKind::BF16) == 2);
  CHECK(byteSize(ScalarKind::F32) == 4);
  CHECK(byteSize(ScalarKind::F64) == 8);
  CHECK(byteSize(ScalarKind::Ptr) == 8);
}

TEST_CASE("type equality compares element and shape", "[type]") {
  CHECK(Type::scalar(ScalarKind::F32) == Type::scalar(ScalarKind::F32));
  CHECK_FALSE(Type::scalar(ScalarKind::F32) == Type::scalar(ScalarKind::F16));
  CHECK_FALSE(Type::scalar(ScalarKind::F32) == Type::tile({1}, ScalarKind::F32));
  CHECK(Type::tile({4, 8}, ScalarKind::I32) == Type::tile({4, 8}, ScalarKind::I32));
  CHECK_FALSE(Type::tile({4, 8}, ScalarKind::I32) == Type::tile({8, 4}, ScalarKind::I32));
  CHECK_FALSE(Type::tile({32}, ScalarKind::I32) == Type::tile({4, 8}, ScalarKind::I32));
}

TEST_CASE("the pointee matters for pointers only", "[type]") {
  CHECK(Type::ptr(ScalarKind::F16) == Type::ptr(ScalarKind::F16));
  CHECK_FALSE(Type::ptr(ScalarKind::F16) == Type::ptr(ScalarKind::F32));
  CHECK_FALSE(Type::ptrTile({8}, ScalarKind::F16) == Type::ptrTile({8}, ScalarKind::BF16));

  // A stale pointee left in a non-pointer type does not make it different.
  Type a = Type::scalar(ScalarKind::F32);
  Type b = Type::scalar(ScalarKind::F32);
  b.pointee = ScalarKind::F64;
  CHECK(a == b);
  Type ta = Type::tile({4}, ScalarKind::I8);
  Type tb = ta;
  tb.pointee = ScalarKind::BF16;
  CHECK(ta == tb);
  CHECK(toString(tb) == "tile<4xi8>");
}

TEST_CASE("numElements multiplies the dimensions", "[type]") {
  CHECK(numElements({}) == 1);
  CHECK(numElements({128}) == 128);
  CHECK(numElements({4, 8}) == 32);
  CHECK(numElements({2, 3, 5}) == 30);
  CHECK(Type::scalar(ScalarKind::I32).numElements() == 1);
  CHECK(Type::tile({64, 32}, ScalarKind::F16).numElements() == 2048);
  CHECK(Type::ptrTile({16, 16}, ScalarKind::F32).numElements() == 256);
}

TEST_CASE("withShape, withElem and elementType derive types", "[type]") {
  Type p = Type::ptrTile({16}, ScalarKind::BF16);
  CHECK(toString(p.withShape({2, 8})) == "tile<2x8xptr<bf16>>");
  CHECK(toString(p.elementType()) == "ptr<bf16>");
  CHECK(p.elementType().isScalar());
  CHECK(p.rank() == 1);

  Type t = Type::tile({4, 8}, ScalarKind::F32);
  CHECK(toString(t.withElem(ScalarKind::I1)) == "tile<4x8xi1>");
  CHECK(t.withElem(ScalarKind::I1).rank() == 2);
  CHECK(toString(t.elementType()) == "f32");
  CHECK(t.isTile());
  CHECK_FALSE(t.elementType().isTile());
}
