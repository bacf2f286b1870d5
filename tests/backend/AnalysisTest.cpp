// The axis analysis and the layout assignment on small kernels written as IR
// text: what they prove and choose is what makes accesses wide.
#include "backend/AxisInfo.h"
#include "backend/Layout.h"
#include "ir/Parser.h"

#include <catch2/catch.hpp>

namespace ir = twintile::ir;
namespace be = twintile::backend;

namespace {

const char *kVectorAdd = R"(
func @vector_add(%x: ptr<f32>, %y: ptr<f32>, %out: ptr<f32>, %n: i32) options {num_warps = 4} {
  %0 = program_id {axis = 0} : i32
  %1 = constant {value = 1024} : i32
  %2 = mul %0, %1 : i32
  %3 = splat %2 : tile<1024xi32>
  %4 = arange {end = 1024, start = 0} : tile<1024xi32>
  %5 = add %3, %4 : tile<1024xi32>
  %6 = splat %n : tile<1024xi32>
  %7 = lt %5, %6 : tile<1024xi1>
  %8 = splat %x : tile<1024xptr<f32>>
  %9 = addptr %8, %5 : tile<1024xptr<f32>>
  %10 = load %9, %7 : tile<1024xf32>
  store %9, %10, %7
  return
}
)";

std::unique_ptr<ir::Module> parse(const char *text) {
  ir::ParseResult p = ir::parseModule(text);
  INFO((p.error ? p.error->str() : std::string()));
  REQUIRE(p.module);
  return std::move(p.module);
}

/// The value defined by the op at `index` in the body.
const ir::Value *valueAt(const ir::Func &f, size_t index) { return f.body.ops[index]->result(); }

} // namespace

TEST_CASE("axis info: arange plus a multiple of the block is contiguous and aligned", "[backend][analysis]") {
  auto m = parse(kVectorAdd);
  const ir::Func &f = *m->funcs[0];
  be::AxisInfoMap plain = be::analyzeAxes(f, {});
  const be::AxisInfo &offs = plain.at(valueAt(f, 5));
  CHECK(offs.contiguity[0] == 1024);
  CHECK(offs.divisibility[0] == 1024);
  CHECK(offs.constancy[0] == 1);
  // Nothing known about n: the mask may change anywhere; x only 4-aligned.
  CHECK(plain.at(valueAt(f, 7)).constancy[0] == 1);
  CHECK(plain.at(valueAt(f, 9)).divisibility[0] == 4);
  CHECK(plain.at(valueAt(f, 9)).contiguity[0] == 1024);

  std::vector<be::ParamAssumption> assume(4);
  assume[0].aligned16 = true;
  assume[3].divisible16 = true;
  be::AxisInfoMap given = be::analyzeAxes(f, assume);
  CHECK(given.at(valueAt(f, 7)).constancy[0] == 16);   // offs < n flips only at multiples of 16
  CHECK(given.at(valueAt(f, 9)).divisibility[0] == 16);
  CHECK(be::vectorWidth(valueAt(f, 9)->type, given.at(valueAt(f, 9)), &given.at(valueAt(f, 7)), 0) == 4);
  CHECK(be::vectorWidth(valueAt(f, 9)->type, plain.at(valueAt(f, 9)), &plain.at(valueAt(f, 7)), 0) == 1);
}

TEST_CASE("axis info: carried pointers meet their initial and yielded facts", "[backend][analysis]") {
  auto m = parse(R"(
func @walk(%p: ptr<f16>, %k: i32) options {num_warps = 4} {
  %0 = arange {end = 64, start = 0} : tile<64xi32>
  %1 = splat %p : tile<64xptr<f16>>
  %2 = addptr %1, %0 : tile<64xptr<f16>>
  %3 = constant {value = 0} : i32
  %4 = constant {value = 32} : i32
  %5 = splat %4 : tile<64xi32>
  %6 = for %3, %k, %4, %2 : tile<64xptr<f16>> {
  ^(%i: i32, %q: tile<64xptr<f16>>):
    %7 = addptr %q, %5 : tile<64xptr<f16>>
    yield %7
  }
  return
}
)");
  const ir::Func &f = *m->funcs[0];
  be::AxisInfoMap info = be::analyzeAxes(f, {{true, false}, {}});
  const be::AxisInfo &carried = info.at(f.body.ops[6]->result());
  CHECK(carried.contiguity[0] == 64);
  CHECK(carried.divisibility[0] == 16);  // 16-byte base, steps of 64 bytes
}

TEST_CASE("blocked layouts: vectors along the fastest dim, threads then warps", "[backend][layout]") {
  be::Layout l = be::blockedLayout({1024}, 4, 4, {0});
  CHECK(l.sizePerThread == std::vector<int>{4});
  CHECK(l.threadsPerWarp == std::vector<int>{32});
  CHECK(l.warpsPerCTA == std::vector<int>{4});
  CHECK(be::numRegisters(l, {1024}) == 8);
  CHECK_FALSE(be::hasReplication(l, {1024}));

  be::Layout m = be::blockedLayout({64, 64}, 4, 4, {1, 0});
  CHECK(m.threadsPerWarp == std::vector<int>{2, 16});
  CHECK(m.warpsPerCTA == std::vector<int>{4, 1});
  CHECK(be::numRegisters(m, {64, 64}) == 32);

  // A tile smaller than the program: threads hold copies.
  be::Layout s = be::blockedLayout({16}, 4, 1, {0});
  CHECK(be::hasReplication(s, {16}));
  CHECK(be::numRegisters(s, {16}) == 1);

  // A reduction slices a dim out; expand_dims puts it back; trans permutes.
  be::Layout row = m.sliced(1);
  CHECK(row.dims == std::vector<int>{0});
  CHECK(be::hasReplication(row, {64}));  // the 16 lanes along the row hold copies
  be::Layout back;
  REQUIRE(row.expanded(1, back));
  CHECK(back == m);
  be::Layout t = m.permuted({1, 0});
  CHECK(t.dims == std::vector<int>{1, 0});
  CHECK(be::toString(t) == "#blocked<spt=[1,4] tpw=[2,16] wpc=[4,1] order=[1,0] dims=[1,0]>");
}

TEST_CASE("layout assignment: loads fix the layout, reductions slice it", "[backend][layout]") {
  auto m = parse(kVectorAdd);
  const ir::Func &f = *m->funcs[0];
  std::vector<be::ParamAssumption> assume(4);
  assume[0].aligned16 = true;
  assume[3].divisible16 = true;
  be::LayoutMap layouts = be::assignLayouts(f, be::analyzeAxes(f, assume), 4, "sm_90a");
  const be::Layout &loaded = layouts.at(valueAt(f, 10));
  CHECK(loaded.sizePerThread == std::vector<int>{4});  // one 16-byte access per 4 elements
  CHECK(layouts.at(valueAt(f, 5)) == loaded);          // the index arithmetic agrees with it
  CHECK(layouts.count(valueAt(f, 0)) == 0);            // scalars have no layout
  // Without the alignment, the elements per thread stay 1.
  be::LayoutMap plain = be::assignLayouts(f, be::analyzeAxes(f, {}), 4, "sm_90a");
  CHECK(plain.at(valueAt(f, 10)).sizePerThread == std::vector<int>{1});
}

TEST_CASE("axis info: only comparisons that flip at a group edge are constant over groups", "[backend][analysis]") {
  // x counts up from a multiple of 1024; n is a multiple of 16.
  auto m = parse(R"(
func @cmp(%n: i32) options {num_warps = 4} {
  %x = arange {end = 1024, start = 0} : tile<1024xi32>
  %s = splat %n : tile<1024xi32>
  %lt = lt %x, %s : tile<1024xi1>
  %ge = ge %x, %s : tile<1024xi1>
  %gt = gt %x, %s : tile<1024xi1>
  %le = le %x, %s : tile<1024xi1>
  %eq = eq %x, %s : tile<1024xi1>
  %ne = ne %x, %s : tile<1024xi1>
  %slt = lt %s, %x : tile<1024xi1>
  %sgt = gt %s, %x : tile<1024xi1>
  return
}
)");
  const ir::Func &f = *m->funcs[0];
  be::AxisInfoMap info = be::analyzeAxes(f, {{false, true}});
  auto constancy = [&](size_t i) { return info.at(valueAt(f, i)).constancy[0]; };
  CHECK(constancy(2) == 16);  // x < n
  CHECK(constancy(3) == 16);  // x >= n
  CHECK(constancy(4) == 1);   // x > n flips between n and n + 1
  CHECK(constancy(5) == 1);   // x <= n
  CHECK(constancy(6) == 1);   // x == n holds at one point
  CHECK(constancy(7) == 1);
  CHECK(constancy(8) == 1);   // n < x is x > n
  CHECK(constancy(9) == 16);  // n > x is x < n
}

TEST_CASE("axis info: a constant with only the top bit set is divisible by the most the analysis tracks", "[backend][analysis]") {
  // 2^63 as a u64 (its int64 bits are INT64_MIN): its lowest set bit, 2^63, is
  // capped, never read as a negative divisibility (std::gcd overflowed on it).
  auto m = parse(R"(func @k(%p: ptr<u64>, %q: ptr<i64>) {
  %0 = constant {value = 9223372036854775808} : u64
  %1 = constant {value = -9223372036854775808} : i64
  %2 = constant {value = 12} : i64
  %3 = lt %1, %2 : i1
  store %p, %0
  store %q, %1
  return
}
)");
  const ir::Func &f = *m->funcs[0];
  be::AxisInfoMap info = be::analyzeAxes(f, {});
  CHECK(info.at(valueAt(f, 0)).divisibility[0] == be::kMaxDivisibility);
  CHECK(info.at(valueAt(f, 1)).divisibility[0] == be::kMaxDivisibility);
  CHECK(info.at(valueAt(f, 3)).constancy[0] == 1);
}
