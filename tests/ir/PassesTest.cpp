// The pass manager, and the passes' contract beyond the golden tests in
// tests/lit/passes: they preserve what the interpreter computes, reach a
// fixpoint, and respect memory effects.
#include "ir/Builder.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "ir/Passes.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include "TestUtil.h"

#include <catch2/catch.hpp>

#include <random>
#include <sstream>

using namespace twintile::ir;

namespace {

std::unique_ptr<Module> parse(const std::string &text) { return test::parseValid(text, true); }

size_t countOps(const Func &f) {
  size_t n = 0;
  walk(f.body, [&](const Op &) { ++n; });
  return n;
}

// A kernel full of redundancy: constant arithmetic, repeated subexpressions,
// identities, dead values, a constant branch, nested in a loop.
const char *kRedundant = R"(
func @redundant(%x: ptr<f32>, %out: ptr<f32>, %n: i32) {
  %pid = program_id {axis = 0} : i32
  %c64 = constant {value = 64} : i32
  %c2 = constant {value = 2} : i32
  %c32 = constant {value = 32} : i32
  %blk = mul %c32, %c2 : i32
  %start = mul %pid, %blk : i32
  %start2 = mul %pid, %c64 : i32
  %r = arange {end = 64, start = 0} : tile<64xi32>
  %s = splat %start : tile<64xi32>
  %s2 = splat %start2 : tile<64xi32>
  %offs = add %s, %r : tile<64xi32>
  %offs2 = add %s2, %r : tile<64xi32>
  %zero = constant {value = 0} : i32
  %zs = splat %zero : tile<64xi32>
  %offs3 = add %offs2, %zs : tile<64xi32>
  %ns = splat %n : tile<64xi32>
  %mask = lt %offs, %ns : tile<64xi1>
  %px = splat %x : tile<64xptr<f32>>
  %ax = addptr %px, %offs3 : tile<64xptr<f32>>
  %other = constant {value = 0.0} : tile<64xf32>
  %v = load %ax, %mask, %other : tile<64xf32>
  %unused = exp %v : tile<64xf32>
  %one = constant {value = 1.0} : tile<64xf32>
  %t = constant {value = 1} : i1
  %lo = constant {value = 0} : i32
  %hi = constant {value = 3} : i32
  %st = constant {value = 1} : i32
  %acc = for %lo, %hi, %st, %v : tile<64xf32> {
  ^(%i: i32, %a: tile<64xf32>):
    %w = if %t : tile<64xf32> {
      %m = mul %a, %one : tile<64xf32>
      %d = add %m, %v : tile<64xf32>
      yield %d
    } {
      yield %a
    }
    yield %w
  }
  %po = splat %out : tile<64xptr<f32>>
  %ao = addptr %po, %offs : tile<64xptr<f32>>
  store %ao, %acc, %mask
  return
}
)";

std::vector<double> runRedundant(const Func &f, int n) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> dist(-2, 2);
  std::vector<double> x(n);
  for (double &v : x) v = dist(rng);
  std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F32, x, "x"), Buffer(ScalarKind::F32, n, "out")};
  RunResult r = interpret(f, {(n + 63) / 64, 1, 1},
                          {KernelArg::buf(0), KernelArg::buf(1), KernelArg::integer(n)}, bufs);
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r.ok());
  return bufs[1].values();
}

} // namespace

TEST_CASE("the default pipeline preserves the interpreter's results", "[passes]") {
  auto m = parse(kRedundant);
  Func &f = *m->funcs[0];
  std::vector<double> before = runRedundant(f, 150);
  size_t opsBefore = countOps(f);
  PassManager pm;
  pm.addDefaultPipeline();
  REQUIRE(pm.run(f));
  REQUIRE(verify(f).empty());
  CHECK(countOps(f) < opsBefore);
  CHECK(runRedundant(f, 150) == before);
  // out[i] = 4 * x[i] for i < n (three iterations of a + x, starting from x).
  std::vector<double> again = runRedundant(f, 150);
  CHECK(again[10] == Approx(before[10]));
}

TEST_CASE("the pipeline removes the redundancy it is meant to", "[passes]") {
  auto m = parse(kRedundant);
  Func &f = *m->funcs[0];
  PassManager pm;
  pm.addDefaultPipeline();
  pm.run(f);
  std::string text = toString(f, {.locations = false});
  INFO(text);
  CHECK(text.find("exp") == std::string::npos);          // dead
  CHECK(text.find(" if ") == std::string::npos);         // constant condition
  CHECK(text.find("value = 32") == std::string::npos);   // folded into 64
  size_t arangeCount = 0, pos = 0;
  while ((pos = text.find("mul %pid", pos)) != std::string::npos) { ++arangeCount; ++pos; }
  CHECK(arangeCount <= 1);  // the two start offsets are one after CSE
}

TEST_CASE("passes reach a fixpoint: a second run changes nothing", "[passes]") {
  auto m = parse(kRedundant);
  Func &f = *m->funcs[0];
  PassManager pm;
  pm.addDefaultPipeline();
  pm.run(f);
  std::string once = toString(f);
  CHECK_FALSE(canonicalize(f));
  CHECK_FALSE(cse(f));
  CHECK_FALSE(dce(f));
  CHECK(toString(f) == once);
}

TEST_CASE("the pass manager times and prints after each pass", "[passes]") {
  auto m = parse(kRedundant);
  PassManager pm;
  REQUIRE(pm.addByName("canonicalize"));
  REQUIRE(pm.addByName("dce"));
  CHECK_FALSE(pm.addByName("loop-unroll"));
  std::ostringstream trace;
  pm.setPrintAfterEach(&trace);
  pm.run(*m->funcs[0]);
  REQUIRE(pm.timings().size() == 2);
  CHECK(pm.timings()[0].pass == "canonicalize");
  CHECK(pm.timings()[0].changed);
  CHECK(pm.timings()[1].pass == "dce");
  for (const PassTiming &t : pm.timings()) CHECK(t.seconds >= 0);
  std::string s = trace.str();
  size_t first = s.find("IR after canonicalize"), second = s.find("IR after dce");
  CHECK(first != std::string::npos);
  CHECK(second != std::string::npos);
  CHECK(first < second);
  std::ostringstream table;
  pm.printTimings(table);
  CHECK(table.str().find("total") != std::string::npos);
}

TEST_CASE("a bitcast of constants is not folded as a number", "[passes]") {
  auto m = parse(R"(
func @f(%p: ptr<f32>, %q: ptr<i32>) {
  %one = constant {value = 1065353216} : i32
  %f = bitcast %one : f32
  store %p, %f
  %half = constant {value = 0.5} : f32
  %bits = bitcast %half : i32
  store %q, %bits
  return
}
)");
  Func &f = *m->funcs[0];
  PassManager pm;
  pm.addDefaultPipeline();
  pm.run(f);
  std::vector<Buffer> bufs{Buffer(ScalarKind::F32, 1, "p"), Buffer(ScalarKind::I32, 1, "q")};
  REQUIRE(interpret(f, {}, {KernelArg::buf(0), KernelArg::buf(1)}, bufs).ok());
  CHECK(bufs[0].get(0) == 1.0);
  CHECK(bufs[1].getInt(0) == 0x3f000000);
}

TEST_CASE("cse does not merge loads across a store, nor stores", "[passes]") {
  auto m = parse(R"(
func @f(%p: ptr<i32>, %v: i32) {
  %a = load %p : i32
  store %p, %v
  %b = load %p : i32
  %s = add %a, %b : i32
  store %p, %s
  store %p, %s
  return
}
)");
  Func &f = *m->funcs[0];
  size_t before = countOps(f);
  CHECK_FALSE(cse(f));
  CHECK(countOps(f) == before);
}

TEST_CASE("cse reuses a value from an enclosing region but not from a sibling", "[passes]") {
  auto m = parse(R"(
func @f(%p: ptr<i32>, %n: i32, %c: i1) {
  %a = mul %n, %n : i32
  %r = if %c : i32 {
    %b = mul %n, %n : i32
    %x = add %b, %n : i32
    yield %x
  } {
    %y = add %n, %n : i32
    yield %y
  }
  %z = if %c : i32 {
    %x2 = add %a, %n : i32
    yield %x2
  } {
    %y2 = add %n, %n : i32
    yield %y2
  }
  store %p, %r
  store %p, %z
  return
}
)");
  Func &f = *m->funcs[0];
  size_t before = countOps(f);
  REQUIRE(cse(f));
  CHECK(verify(f).empty());
  CHECK(countOps(f) == before - 1);  // only %b goes: %y and %y2 sit in sibling regions
}

TEST_CASE("dce keeps every op that writes memory, even when unused", "[passes]") {
  auto m = parse(R"(
func @f(%p: ptr<i32>, %v: i32, %c: i1) {
  %old = atomic_add %p, %v : i32
  device_print {prefix = "v"} %v
  device_assert {msg = "c holds"} %c
  %dead = load %p : i32
  return
}
)");
  Func &f = *m->funcs[0];
  REQUIRE(dce(f));
  std::string text = toString(f, {.locations = false});
  CHECK(text.find("atomic_add") != std::string::npos);
  CHECK(text.find("device_print") != std::string::npos);
  CHECK(text.find("device_assert") != std::string::npos);
  CHECK(text.find("load") == std::string::npos);
}

TEST_CASE("canonicalize never folds away a division by zero", "[passes]") {
  auto m = parse(R"(
func @f(%p: ptr<i32>) {
  %a = constant {value = 1} : i32
  %z = constant {value = 0} : i32
  %d = rem %a, %z : i32
  store %p, %d
  return
}
)");
  Func &f = *m->funcs[0];
  canonicalize(f);
  std::vector<Buffer> bufs{Buffer(ScalarKind::I32, 1, "p")};
  RunResult r = interpret(f, {}, {KernelArg::buf(0)}, bufs);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message.find("division by zero") != std::string::npos);
}

TEST_CASE("constant folding agrees with the interpreter on every binary integer op", "[passes]") {
  // For each op and a spread of i8 operands: fold, then compare with the
  // interpreter running the unfolded op on the same values.
  const char *ops[] = {"add", "sub", "mul", "div", "rem", "minimum", "maximum",
                       "and", "or",  "xor", "shl", "shr"};
  const int64_t values[] = {-128, -7, -1, 0, 1, 3, 7, 100, 127};
  for (const char *op : ops)
    for (int64_t a : values)
      for (int64_t b : values) {
        if ((std::string(op) == "div" || std::string(op) == "rem") && b == 0) continue;
        std::string text = "func @f(%p: ptr<i8>, %x: i8, %y: i8) {\n"
                           "  %a = constant {value = " + std::to_string(a) + "} : i8\n"
                           "  %b = constant {value = " + std::to_string(b) + "} : i8\n"
                           "  %c = " + op + " %a, %b : i8\n"
                           "  %d = " + op + " %x, %y : i8\n"
                           "  store %p, %c\n"
                           "  %q = constant {value = 1} : i32\n"
                           "  %p1 = addptr %p, %q : ptr<i8>\n"
                           "  store %p1, %d\n"
                           "  return\n}\n";
        auto m = parse(text);
        Func &f = *m->funcs[0];
        canonicalize(f);
        std::vector<Buffer> bufs{Buffer(ScalarKind::I8, 2, "p")};
        RunResult r = interpret(f, {}, {KernelArg::buf(0), KernelArg::integer(a), KernelArg::integer(b)}, bufs);
        REQUIRE(r.ok());
        INFO(op << "(" << a << ", " << b << ")");
        CHECK(bufs[0].getInt(0) == bufs[0].getInt(1));
      }
}

TEST_CASE("a pass that breaks the IR is an internal error, not the user's", "[passes][internal]") {
  auto m = parse(kRedundant);
  PassManager pm;
  pm.add("break-types", [](Func &f) {
    // program_id's i32 result becomes an f32: every use of it is now ill-typed.
    walk(f.body, [](Op &op) {
      if (op.kind == OpKind::ProgramId) op.result()->type = Type::scalar(ScalarKind::F32);
    });
    return true;
  });
  try {
    pm.run(*m->funcs[0]);
    FAIL("the pass manager let IR that does not verify through");
  } catch (const InternalError &e) {
    const Diagnostic &d = e.diag();
    CHECK(d.internal);
    CHECK(d.message.starts_with("the IR does not verify after pass 'break-types'"));
    std::string shown = render(d);
    CHECK(shown.find(": internal error: the IR does not verify after pass 'break-types' — this is a bug in twintile\n") !=
          std::string::npos);
    CHECK(shown.find(": error: ") == std::string::npos);  // never dressed as the user's error
    CHECK(std::string(e.what()).find("this is a bug in twintile") != std::string::npos);
  }
}

TEST_CASE("an error without a location names its file or twintile, not <unknown>", "[internal]") {
  Diagnostic d = Diagnostic::internalError("the compiled kernel has no entry point\nsecond line");
  CHECK(d.headline() == "twintile: internal error: the compiled kernel has no entry point — this is a bug in twintile");
  CHECK(d.str() == d.headline() + "\nsecond line");
  CHECK(render(d) == d.str() + "\n");
  Diagnostic user{{}, "not one of ours"};
  CHECK_FALSE(user.internal);
  CHECK(user.headline() == "twintile: error: not one of ours");
  user.loc.pos.file = "k.cpp";
  CHECK(user.headline() == "k.cpp: error: not one of ours");
}
