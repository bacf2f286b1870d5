// Structural equality up to value names and locations, reporting the first
// difference: the tool that later compares the two front ends' IR.
#include "ir/Equivalence.h"
#include "ir/Parser.h"
#include "ir/Printer.h"

#include "TestUtil.h"

#include <catch2/catch.hpp>

using namespace twintile::ir;

namespace {

std::unique_ptr<Module> parse(const std::string &text) { return test::parseValid(text, false); }

const char *kBase = R"(
func @k(%x: ptr<f32>, %n: i32) meta {BLOCK = 64} {
  %pid = program_id {axis = 0} : i32 loc("a.cpp":3:5)
  %r = arange {end = 64, start = 0} : tile<64xi32> loc("a.cpp":4:5)
  %s = splat %pid : tile<64xi32> loc("a.cpp":5:5)
  %o = add %s, %r : tile<64xi32> loc("a.cpp":6:5)
  %p = splat %x : tile<64xptr<f32>> loc("a.cpp":7:5)
  %a = addptr %p, %o : tile<64xptr<f32>> loc("a.cpp":8:5)
  %v = load %a : tile<64xf32> loc("a.cpp":9:5)
  store %a, %v loc("a.cpp":10:5)
  return
}
)";

std::optional<std::string> diff(const std::string &a, const std::string &b, EquivalenceOptions o = {}) {
  auto ma = parse(a), mb = parse(b);
  return firstDifference(*ma->funcs[0], *mb->funcs[0], o);
}

std::string replaceOnce(std::string s, const std::string &from, const std::string &to) {
  size_t pos = s.find(from);
  REQUIRE(pos != std::string::npos);
  return s.replace(pos, from.size(), to);
}

} // namespace

TEST_CASE("a function equals itself, renamed and without locations", "[equivalence]") {
  auto m = parse(kBase);
  std::string renamed = toString(*m->funcs[0], {.locations = false});  // %pid becomes %0, ...
  CHECK_FALSE(diff(kBase, renamed).has_value());
}

TEST_CASE("a different op is reported with both locations", "[equivalence]") {
  auto d = diff(kBase, replaceOnce(kBase, "%o = add %s, %r", "%o = sub %s, %r"));
  REQUIRE(d);
  CHECK(*d == "ops differ: 'add' at a.cpp:6:5 vs 'sub' at a.cpp:6:5");
}

TEST_CASE("swapped operands are a difference, named by operand", "[equivalence]") {
  auto d = diff(kBase, replaceOnce(kBase, "%o = add %s, %r", "%o = add %r, %s"));
  REQUIRE(d);
  CHECK(d->find("operand 0 differs: 'add'") == 0);
}

TEST_CASE("a different type is reported with both types", "[equivalence]") {
  std::string other = R"(
func @k(%x: ptr<f32>, %n: i32) meta {BLOCK = 64} {
  %pid = program_id {axis = 0} : i32
  %r = arange {end = 32, start = 0} : tile<32xi32>
  return
}
)";
  std::string base = R"(
func @k(%x: ptr<f32>, %n: i32) meta {BLOCK = 64} {
  %pid = program_id {axis = 0} : i32
  %r = arange {end = 64, start = 0} : tile<64xi32>
  return
}
)";
  auto d = diff(base, other);
  REQUIRE(d);
  CHECK(d->find("attributes differ: 'arange'") == 0);
  auto p = diff(base, replaceOnce(base, "%x: ptr<f32>", "%x: ptr<f16>"));
  REQUIRE(p);
  CHECK(*p == "parameter 0 types differ: ptr<f32> vs ptr<f16>");
}

TEST_CASE("an extra op shows as the first op that differs", "[equivalence]") {
  std::string longer = replaceOnce(kBase, "  return", "  %extra = add %pid, %pid : i32 loc(\"a.cpp\":11:5)\n  return");
  auto d = diff(kBase, longer);
  REQUIRE(d);
  CHECK(d->find("ops differ: 'return'") == 0);
  auto e = diff(longer, kBase);
  REQUIRE(e);
  CHECK(e->find("ops differ: 'add' at a.cpp:11:5 vs 'return'") == 0);
}

TEST_CASE("names and meta-parameters count unless told otherwise", "[equivalence]") {
  std::string renamedParam = replaceOnce(replaceOnce(kBase, "%x: ptr<f32>", "%y: ptr<f32>"), "splat %x", "splat %y");
  auto d = diff(kBase, renamedParam);
  REQUIRE(d);
  CHECK(*d == "parameter 0 names differ: x vs y");
  CHECK_FALSE(diff(kBase, renamedParam, {.compareNames = false}).has_value());

  std::string otherMeta = replaceOnce(kBase, "BLOCK = 64", "BLOCK = 128");
  REQUIRE(diff(kBase, otherMeta));
  CHECK(*diff(kBase, otherMeta) == "meta-parameter 'BLOCK' differs: 64 vs 128");
  std::string renamedMeta = replaceOnce(kBase, "BLOCK = 64", "WIDTH = 64");
  CHECK(*diff(kBase, renamedMeta) == "meta-parameter 0 differs: BLOCK = 64 vs WIDTH = 64");
  std::string moreMeta = replaceOnce(kBase, "BLOCK = 64", "BLOCK = 64, T = \"f16\"");
  CHECK(*diff(kBase, moreMeta) == "meta-parameter 'T' = \"f16\" is only in the second function");
  CHECK_FALSE(diff(kBase, otherMeta, {.compareMeta = false}).has_value());
}

TEST_CASE("differences inside regions name the region", "[equivalence]") {
  std::string loop = R"(
func @k(%n: i32, %p: ptr<i32>) {
  %z = constant {value = 0} : i32
  %o = constant {value = 1} : i32
  %r = for %z, %n, %o, %z : i32 {
  ^(%i: i32, %acc: i32):
    %s = add %acc, %i : i32
    yield %s
  }
  store %p, %r
  return
}
)";
  auto d = diff(loop, replaceOnce(loop, "%s = add %acc, %i", "%s = add %i, %acc"));
  REQUIRE(d);
  CHECK(d->find("operand 0 differs: 'add'") == 0);
  auto t = diff(loop, replaceOnce(loop, "    yield %s", "    yield %acc"));
  REQUIRE(t);
  CHECK(t->find("operand 0 differs: 'yield'") == 0);
}

TEST_CASE("an atomic's default sem and scope, spelled out, equal their absence", "[equivalence]") {
  const char *implicit = R"(
func @k(%p: ptr<i32>, %v: i32) {
  %old = atomic_add %p, %v : i32
  return
}
)";
  std::string spelled = replaceOnce(implicit, "atomic_add %p", "atomic_add {scope = \"gpu\", sem = \"relaxed\"} %p");
  CHECK_FALSE(diff(implicit, spelled).has_value());
  auto d = diff(implicit, replaceOnce(implicit, "atomic_add %p", "atomic_add {sem = \"acquire\"} %p"));
  REQUIRE(d);
  CHECK(d->find("attributes differ: 'atomic_add'") == 0);
}

TEST_CASE("a dot's default precision, spelled out, equals its absence; tf32 does not", "[equivalence]") {
  const char *implicit = R"(
func @k(%a: tile<16x16xf32>, %c: tile<16x16xf32>) {
  %d = dot %a, %a, %c : tile<16x16xf32>
  return
}
)";
  CHECK_FALSE(diff(implicit, replaceOnce(implicit, "dot %a", "dot {precision = \"ieee\"} %a")).has_value());
  auto d = diff(implicit, replaceOnce(implicit, "dot %a", "dot {precision = \"tf32\"} %a"));
  REQUIRE(d);
  CHECK(d->find("attributes differ: 'dot'") == 0);
}
