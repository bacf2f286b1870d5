// The unsigned element types u8 .. u64 in the IR's text and the interpreter
// (and so in
// constant folding, which shares ir/Semantics.cpp): the ops whose meaning
// depends on signedness, each against values worked out here in C++'s own
// unsigned arithmetic. A u64 above 2^63 is the case a signed int64 view gets
// wrong, so every 64-bit test has one.
#include "OpKernels.h"
#include "TestUtil.h"
#include "ir/Printer.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <vector>

using namespace twintile::ir;
using namespace twintile::ir::test;

namespace {

constexpr uint64_t kBig = 0xF000000000000005ull;  // above 2^63: negative as an int64
constexpr int64_t asI64(uint64_t v) { return static_cast<int64_t>(v); }

Buffer u64s(const std::vector<uint64_t> &v, const char *name) {
  std::vector<int64_t> bits;
  for (uint64_t x : v) bits.push_back(asI64(x));
  return ints(ScalarKind::U64, bits, name);
}

} // namespace

TEST_CASE("unsigned buffers hold zero-extended values", "[interpreter][unsigned]") {
  Buffer b = ints(ScalarKind::U8, {255, 256, -1}, "b");  // stored mod 2^8
  CHECK(intValues(b) == std::vector<int64_t>{255, 0, 255});
  Buffer w = ints(ScalarKind::U32, {-1}, "w");
  CHECK(w.getInt(0) == 4294967295);
  CHECK(w.get(0) == 4294967295.0);
  Buffer d = u64s({kBig}, "d");
  CHECK(d.get(0) == static_cast<double>(kBig));  // not a negative number
}

TEST_CASE("unsigned division, remainder, shift right and comparisons", "[interpreter][unsigned]") {
  std::vector<uint32_t> xs{4000000000u, 7u, 0x80000000u, 5u}, ys{3u, 4000000000u, 31u, 1u};
  std::vector<int64_t> x32, y32;
  for (size_t i = 0; i < xs.size(); ++i) x32.push_back(xs[i]), y32.push_back(ys[i]);
  Buffer x = ints(ScalarKind::U32, x32, "x"), y = ints(ScalarKind::U32, y32, "y");
  MapResult div = runOp(OpKind::Div, {x, y}), rem = runOp(OpKind::Rem, {x, y}), shr = runOp(OpKind::Shr, {x, y});
  MapResult lt = runOp(OpKind::Lt, {x, y}), mx = runOp(OpKind::Maximum, {x, y}), mn = runOp(OpKind::Minimum, {x, y});
  REQUIRE((div.run.ok() && rem.run.ok() && shr.run.ok() && lt.run.ok()));
  for (size_t i = 0; i < xs.size(); ++i) {
    INFO("element " << i);
    CHECK(div.out().getInt(i) == xs[i] / ys[i]);
    CHECK(rem.out().getInt(i) == xs[i] % ys[i]);
    CHECK(shr.out().getInt(i) == (ys[i] < 32 ? xs[i] >> ys[i] : 0));  // logical: no sign fill
    CHECK(lt.out().getInt(i) == (xs[i] < ys[i]));
    CHECK(mx.out().getInt(i) == std::max(xs[i], ys[i]));
    CHECK(mn.out().getInt(i) == std::min(xs[i], ys[i]));
  }
  // A shift by the width or more gives 0 (the IR's rule), never the sign fill.
  MapResult wide = runOp(OpKind::Shr, {ints(ScalarKind::U8, {200, 200}, "x"), ints(ScalarKind::U8, {8, 255}, "y")});
  CHECK(intValues(wide.out()) == std::vector<int64_t>{0, 0});
}

TEST_CASE("u64 above 2^63 divides, compares and shifts as unsigned", "[interpreter][unsigned]") {
  Buffer x = u64s({kBig, kBig, 3}, "x"), y = u64s({10, 3, kBig}, "y");
  MapResult div = runOp(OpKind::Div, {x, y}), rem = runOp(OpKind::Rem, {x, y}), gt = runOp(OpKind::Gt, {x, y});
  MapResult mx = runOp(OpKind::Maximum, {x, y});
  REQUIRE((div.run.ok() && rem.run.ok() && gt.run.ok() && mx.run.ok()));
  CHECK(intValues(div.out()) == std::vector<int64_t>{asI64(kBig / 10), asI64(kBig / 3), 0});
  CHECK(intValues(rem.out()) == std::vector<int64_t>{asI64(kBig % 10), asI64(kBig % 3), 3});
  CHECK(intValues(gt.out()) == std::vector<int64_t>{1, 1, 0});
  CHECK(intValues(mx.out()) == std::vector<int64_t>{asI64(kBig), asI64(kBig), asI64(kBig)});
  MapResult shr = runOp(OpKind::Shr, {u64s({kBig}, "x"), u64s({60}, "y")});
  CHECK(shr.out().getInt(0) == 15);
  // abs of an unsigned value is the value; neg wraps.
  MapResult abs = runOp(OpKind::Abs, {u64s({kBig}, "x")}), neg = runOp(OpKind::Neg, {ints(ScalarKind::U8, {1}, "x")});
  CHECK(abs.out().getInt(0) == asI64(kBig));
  CHECK(neg.out().getInt(0) == 255);
}

TEST_CASE("unsigned reductions order as unsigned", "[interpreter][unsigned]") {
  Buffer in = ints(ScalarKind::U32, {1, 4000000000, 7, 3000000000, 2, 9}, "x");
  MapResult mx = runReduce(OpKind::Max, in, 2, 3, 1), mn = runReduce(OpKind::Min, in, 2, 3, 1);
  MapResult am = runReduce(OpKind::Argmax, in, 2, 3, 1);
  REQUIRE((mx.run.ok() && mn.run.ok() && am.run.ok()));
  CHECK(intValues(mx.out()) == std::vector<int64_t>{4000000000, 3000000000});
  CHECK(intValues(mn.out()) == std::vector<int64_t>{1, 2});
  CHECK(intValues(am.out()) == std::vector<int64_t>{1, 0});
}

TEST_CASE("conversions to and from unsigned types", "[interpreter][unsigned]") {
  // Integers: from a signed type sign-extend then wrap (C++'s conversion),
  // from an unsigned one zero-extend.
  MapResult s2u = runCast(ints(ScalarKind::I8, {-5, 100}, "x"), ScalarKind::U32);
  CHECK(intValues(s2u.out()) == std::vector<int64_t>{4294967291, 100});
  MapResult u2s = runCast(ints(ScalarKind::U8, {250, 5}, "x"), ScalarKind::I32);
  CHECK(intValues(u2s.out()) == std::vector<int64_t>{250, 5});
  MapResult u2i8 = runCast(ints(ScalarKind::U32, {4000000000}, "x"), ScalarKind::I8);
  CHECK(u2i8.out().getInt(0) == static_cast<int8_t>(static_cast<uint8_t>(4000000000u)));
  // To floats: by value, a u64 above 2^63 positive.
  MapResult u2f = runCast(u64s({kBig, 4294967295}, "x"), ScalarKind::F64);
  CHECK(u2f.out().get(0) == static_cast<double>(kBig));
  CHECK(u2f.out().get(1) == 4294967295.0);
  // From floats: truncated, negatives and NaN to 0, too large to the maximum
  // (PTX cvt.rzi.u32.f32 saturates).
  Buffer f = Buffer::fromValues(ScalarKind::F32, {3.9, -2.5, 5e9, kNaN, 4294967040.0}, "x");
  MapResult f2u = runCast(f, ScalarKind::U32);
  CHECK(intValues(f2u.out()) == std::vector<int64_t>{3, 0, 4294967295, 0, 4294967040});
  MapResult f2u64 = runCast(Buffer::fromValues(ScalarKind::F64, {1e20, 1.5e19}, "x"), ScalarKind::U64);
  CHECK(f2u64.out().getInt(0) == -1);  // all ones: the maximum
  CHECK(static_cast<uint64_t>(f2u64.out().getInt(1)) == 15000000000000000000ull);
}

TEST_CASE("unsigned kinds in the type rules", "[interpreter][unsigned]") {
  Type u32 = Type::scalar(ScalarKind::U32), u64t = Type::tile({4}, ScalarKind::U64);
  // atomic_cas takes 32- and 64-bit integers of either signedness.
  Type p = Type::ptrTile({4}, ScalarKind::U64);
  CHECK(inferResultTypes(OpKind::AtomicCas, {p, u64t, u64t}, {}, {}).error.empty());
  // A loop's bounds are signed: its comparison is.
  std::string forErr = inferResultTypes(OpKind::For, {u32, u32, u32}, {}, {}).error;
  CHECK(forErr.find("signed integer") != std::string::npos);
  // bitcast between signed and unsigned of one width.
  CHECK(inferResultTypes(OpKind::Bitcast, {u32}, {}, {Type::scalar(ScalarKind::I32)}).error.empty());
}

TEST_CASE("a u64 constant above 2^63 prints and parses as its number", "[interpreter][unsigned]") {
  const std::string text = "func @k(%p: ptr<u64>) {\n"
                           "  %0 = constant {value = 18446744073709551615} : u64\n"
                           "  store %p, %0\n"
                           "  return\n"
                           "}\n";
  auto m = test::parseValid(text);
  const Op &c = *m->funcs[0]->body.ops.front();
  CHECK(c.attr("value").i == -1);  // its 64 bits
  CHECK(toString(*m).find("constant {value = 18446744073709551615} : u64") != std::string::npos);
}
