// The verifier (ir/Verifier.h) on IR only a program can make: one test case
// per class of invalid IR the parser would refuse first (dominance, type
// rules, operand counts, attributes). Each builds a function with the
// Builder, or constructs the bad op directly to get past the builder's
// checks, and checks the message and that the diagnostic is located at the
// failing op. The verifier's refusals of IR that parses (terminators,
// regions, yields) are tests/lit/errors/verifier.tir.
#include "ir/Builder.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using namespace twintile::ir;

namespace {

const Type kI1 = Type::scalar(ScalarKind::I1);
const Type kI32 = Type::scalar(ScalarKind::I32);
const Type kF32 = Type::scalar(ScalarKind::F32);

Location at(int line, int col = 3) { return Location("bad.cpp", line, col); }

/// A function `bad(%x: ptr<f32>, %n: i32)` and a builder for its body.
struct Kernel {
  Func f;
  Builder b{f.body};
  Value *x;
  Value *n;

  Kernel() {
    f.name = "bad";
    f.loc = at(1, 1);
    x = f.body.addArg(Type::ptr(ScalarKind::F32), "x");
    n = f.body.addArg(kI32, "n");
    b.setLoc(at(2));
  }
};

/// Appends an op to `block` as is, bypassing the builder's type rules.
Op *appendRaw(Block &block, OpKind kind, Location loc, std::vector<Value *> operands,
              std::vector<Type> results, AttrMap attrs = {}) {
  auto op = std::make_unique<Op>(kind, std::move(loc));
  op->operands = std::move(operands);
  op->attrs = std::move(attrs);
  for (Type &t : results) op->addResult(std::move(t));
  for (int i = 0; i < op->info().numRegions; ++i) op->addRegion();
  op->parent = &block;
  block.ops.push_back(std::move(op));
  return block.ops.back().get();
}

std::string all(const std::vector<Diagnostic> &diags) {
  std::string s;
  for (const Diagnostic &d : diags) s += d.str() + "\n";
  return s;
}

/// The one diagnostic of `f`, which must be located at `loc`.
Diagnostic onlyDiagnostic(const Func &f, const Location &loc) {
  std::vector<Diagnostic> diags = verify(f);
  INFO(toString(f));
  INFO(all(diags));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].loc == loc);
  return diags[0];
}

/// The diagnostic of `f` whose message contains `key`, located at `loc`.
Diagnostic diagnosticWith(const Func &f, const std::string &key, const Location &loc) {
  std::vector<Diagnostic> diags = verify(f);
  INFO(toString(f));
  INFO(all(diags));
  for (const Diagnostic &d : diags)
    if (d.message.find(key) != std::string::npos) {
      CHECK(d.loc == loc);
      return d;
    }
  FAIL("no diagnostic contains \"" << key << "\"");
  return {};
}

} // namespace

TEST_CASE("verifier: a valid function has no diagnostics", "[verifier]") {
  Kernel k;
  Value *offs = k.b.arange(0, 128);
  Value *ptrs = k.b.addptr(k.b.splat(k.x, {128}), offs);
  Value *mask = k.b.binary(OpKind::Lt, offs, k.b.splat(k.n, {128}));
  Value *v = k.b.load(ptrs, mask, k.b.constFloat(Type::tile({128}, ScalarKind::F32), 0.0));
  Op *loop = k.b.forOp(k.b.constInt(kI32, 0), k.n, k.b.constInt(kI32, 1), {v});
  Builder body(loop->region(0));
  body.yield({body.unary(OpKind::Exp, loop->region(0).arg(1))});
  k.b.store(ptrs, loop->result(), mask);
  k.b.ret();
  std::vector<Diagnostic> diags = verify(k.f);
  INFO(all(diags));
  CHECK(diags.empty());
}

TEST_CASE("verifier: operand types of an elementwise op differ", "[verifier]") {
  Kernel k;
  Value *a = k.b.constFloat(Type::tile({128}, ScalarKind::F32), 1.0);
  Value *c = k.b.constFloat(Type::tile({64}, ScalarKind::F32), 2.0);
  appendRaw(k.f.body, OpKind::Add, at(7, 9), {a, c}, {Type::tile({128}, ScalarKind::F32)});
  k.b.ret();
  Diagnostic d = onlyDiagnostic(k.f, at(7, 9));
  CHECK(d.message == "'add' operands must have the same type, got tile<128xf32> and tile<64xf32>");
  CHECK(d.str() == "bad.cpp:7:9: error: " + d.message);
}

TEST_CASE("verifier: broadcast to an incompatible shape", "[verifier]") {
  Kernel k;
  Value *t = k.b.constFloat(Type::tile({4, 8}, ScalarKind::F32), 1.0);
  appendRaw(k.f.body, OpKind::Broadcast, at(8), {t}, {Type::tile({4, 16}, ScalarKind::F32)});
  k.b.ret();
  CHECK(onlyDiagnostic(k.f, at(8)).message ==
        "'broadcast' cannot broadcast tile<4x8xf32> to tile<4x16xf32>: dimension 1 is 8, not 1 "
        "or 16");
}

TEST_CASE("verifier: reduction over an axis out of range", "[verifier]") {
  Kernel k;
  Value *t = k.b.constFloat(Type::tile({16, 8}, ScalarKind::F32), 1.0);
  appendRaw(k.f.body, OpKind::Sum, at(9), {t}, {Type::tile({16}, ScalarKind::F32)},
            {{"axis", Attr::integer(2)}});
  k.b.ret();
  CHECK(onlyDiagnostic(k.f, at(9)).message == "'sum' axis 2 is out of range for tile<16x8xf32>");
}

TEST_CASE("verifier: negative axis for argmax", "[verifier]") {
  Kernel k;
  Value *t = k.b.constFloat(Type::tile({16}, ScalarKind::F32), 1.0);
  appendRaw(k.f.body, OpKind::Argmax, at(9), {t}, {kI32}, {{"axis", Attr::integer(-1)}});
  k.b.ret();
  CHECK(onlyDiagnostic(k.f, at(9)).message == "'argmax' axis -1 is out of range for tile<16xf32>");
}

TEST_CASE("verifier: declared result type differs from the inferred one", "[verifier]") {
  Kernel k;
  appendRaw(k.f.body, OpKind::Add, at(10), {k.n, k.n}, {kF32});
  k.b.ret();
  CHECK(onlyDiagnostic(k.f, at(10)).message ==
        "'add' result types (f32) do not match (i32) given by its operands");
}

TEST_CASE("verifier: an op with a result too many", "[verifier]") {
  Kernel k;
  Value *v = k.b.constFloat(kF32, 1.0);
  appendRaw(k.f.body, OpKind::Store, at(10), {k.x, v}, {kF32});
  k.b.ret();
  CHECK(onlyDiagnostic(k.f, at(10)).message ==
        "'store' result types (f32) do not match () given by its operands");
}

TEST_CASE("verifier: select with a condition that is not i1", "[verifier]") {
  Kernel k;
  Value *cond = k.b.arange(0, 128);
  Value *a = k.b.constFloat(Type::tile({128}, ScalarKind::F32), 1.0);
  appendRaw(k.f.body, OpKind::Select, at(11), {cond, a, a}, {a->type});
  k.b.ret();
  CHECK(onlyDiagnostic(k.f, at(11)).message ==
        "'select' condition must be i1 of the values' shape, got tile<128xi32> for tile<128xf32>");
}

TEST_CASE("verifier: load mask of the wrong shape", "[verifier]") {
  Kernel k;
  Value *ptrs = k.b.addptr(k.b.splat(k.x, {128}), k.b.arange(0, 128));
  Value *mask = k.b.binary(OpKind::Lt, k.b.arange(0, 64), k.b.splat(k.n, {64}));
  appendRaw(k.f.body, OpKind::Load, at(12), {ptrs, mask}, {Type::tile({128}, ScalarKind::F32)});
  k.b.ret();
  CHECK(onlyDiagnostic(k.f, at(12)).message == "'load' mask must be tile<128xi1>, got tile<64xi1>");
}

TEST_CASE("verifier: dot with mismatched inner dimensions", "[verifier]") {
  Kernel k;
  Value *a = k.b.constFloat(Type::tile({16, 32}, ScalarKind::F16), 1.0);
  Value *bm = k.b.constFloat(Type::tile({16, 8}, ScalarKind::F16), 1.0);
  Value *acc = k.b.constFloat(Type::tile({16, 8}, ScalarKind::F32), 0.0);
  appendRaw(k.f.body, OpKind::Dot, at(13), {a, bm, acc}, {acc->type});
  k.b.ret();
  CHECK(onlyDiagnostic(k.f, at(13)).message ==
        "'dot' shapes do not match: tile<16x32xf16> @ tile<16x8xf16> + tile<16x8xf32>");
}

TEST_CASE("verifier: dot precision is ieee or tf32, and tf32 only for f32", "[verifier]") {
  for (auto [elem, precision, message] :
       {std::tuple{ScalarKind::F32, "fp8", "'dot' precision must be ieee or tf32, got 'fp8'"},
        {ScalarKind::F16, "tf32", "'dot' precision tf32 is for f32 operands accumulating in f32, got tile<16x16xf16> and "
                                  "tile<16x16xf32>"}}) {
    Kernel k;
    Value *a = k.b.constFloat(Type::tile({16, 16}, elem), 1.0);
    Value *acc = k.b.constFloat(Type::tile({16, 16}, ScalarKind::F32), 0.0);
    appendRaw(k.f.body, OpKind::Dot, at(14), {a, a, acc}, {acc->type}, {{"precision", Attr::string(precision)}});
    k.b.ret();
    CHECK(onlyDiagnostic(k.f, at(14)).message == message);
  }
}

TEST_CASE("verifier: a value defined in a loop body is used after the loop", "[verifier]") {
  Kernel k;
  Op *loop = k.b.forOp(k.b.constInt(kI32, 0), k.n, k.b.constInt(kI32, 1), {});
  Builder body(loop->region(0));
  body.setLoc(at(20));
  Value *inner = body.binary(OpKind::Add, loop->region(0).arg(0), k.n);
  body.yield({});
  k.b.setLoc(at(22, 11));
  k.b.binary(OpKind::Mul, inner, k.n);  // the builder does not check dominance
  k.b.ret();

  std::vector<Diagnostic> diags = verify(k.f);
  INFO(all(diags));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].loc == at(22, 11));
  CHECK(diags[0].message ==
        "'mul' operand 0 (i32, defined by 'add' at bad.cpp:20:3) does not dominate this use");
}

TEST_CASE("verifier: a use before the definition in the same block", "[verifier]") {
  Kernel k;
  Value *c = k.b.constInt(kI32, 5);
  k.b.setLoc(at(30));
  k.b.binary(OpKind::Add, c, k.n);
  k.b.ret();
  // Swap the constant and the add.
  std::swap(k.f.body.ops[0], k.f.body.ops[1]);
  Diagnostic d = diagnosticWith(k.f, "does not dominate", at(30));
  CHECK(d.message == "'add' operand 0 (i32, defined by 'constant' at bad.cpp:2:3) does not "
                     "dominate this use");
}

TEST_CASE("verifier: a loop carried value used in the other region of a while", "[verifier]") {
  Kernel k;
  Op *loop = k.b.whileOp({k.n});
  Builder cond(loop->region(0));
  cond.setLoc(at(40));
  cond.yield({cond.binary(OpKind::Gt, loop->region(0).arg(0), k.n)});
  Builder body(loop->region(1));
  body.setLoc(at(41));
  body.yield({loop->region(0).arg(0)});  // the condition region's argument
  k.b.ret();
  Diagnostic d = diagnosticWith(k.f, "does not dominate", at(41));
  CHECK(d.message == "'yield' operand 0 (i32, a block argument) does not dominate this use");
}

TEST_CASE("verifier: a float constant with an integer value", "[verifier]") {
  Kernel k;
  appendRaw(k.f.body, OpKind::Constant, at(100), {}, {kF32}, {{"value", Attr::integer(3)}});
  k.b.ret();
  CHECK(onlyDiagnostic(k.f, at(100)).message ==
        "'constant' of float type f32 needs a float value, got 3");
}

TEST_CASE("verifier: an integer constant with a float value", "[verifier]") {
  Kernel k;
  appendRaw(k.f.body, OpKind::Constant, at(101), {}, {Type::tile({4}, ScalarKind::I8)},
            {{"value", Attr::floating(2.5)}});
  k.b.ret();
  CHECK(onlyDiagnostic(k.f, at(101)).message ==
        "'constant' of integer type tile<4xi8> needs an integer value, got 2.5");
}

TEST_CASE("verifier: wrong number of operands", "[verifier]") {
  Kernel k;
  appendRaw(k.f.body, OpKind::Add, at(110), {k.n, k.n, k.n}, {kI32});
  appendRaw(k.f.body, OpKind::Load, at(111), {k.x, k.n, k.n, k.n}, {kF32});
  appendRaw(k.f.body, OpKind::Select, at(112), {}, {kF32});
  k.b.ret();
  CHECK(diagnosticWith(k.f, "'add'", at(110)).message == "'add' takes 2 operands, got 3");
  CHECK(diagnosticWith(k.f, "'load'", at(111)).message == "'load' takes 1 to 3 operands, got 4");
  CHECK(diagnosticWith(k.f, "'select'", at(112)).message == "'select' takes 3 operands, got 0");
  CHECK(verify(k.f).size() == 3);
}

TEST_CASE("verifier: for with too few operands", "[verifier]") {
  Kernel k;
  Op *loop = appendRaw(k.f.body, OpKind::For, at(115), {k.n, k.n}, {});
  loop->region(0).addArg(kI32);
  Builder body(loop->region(0));
  body.yield({});
  k.b.ret();
  CHECK(onlyDiagnostic(k.f, at(115)).message == "'for' takes at least 3 operands, got 2");
}

TEST_CASE("verifier: missing and unknown attributes", "[verifier]") {
  Kernel k;
  appendRaw(k.f.body, OpKind::ProgramId, at(120), {}, {kI32});
  appendRaw(k.f.body, OpKind::Add, at(121), {k.n, k.n}, {kI32}, {{"axis", Attr::integer(0)}});
  appendRaw(k.f.body, OpKind::ExpandDims, at(122), {k.n}, {Type::tile({1}, ScalarKind::I32)},
            {{"axis", Attr::string("0")}});
  k.b.ret();
  CHECK(diagnosticWith(k.f, "'program_id'", at(120)).message ==
        "'program_id' requires attribute 'axis'");
  CHECK(diagnosticWith(k.f, "'add'", at(121)).message == "'add' has unknown attribute 'axis'");
  CHECK(diagnosticWith(k.f, "'expand_dims'", at(122)).message ==
        "'expand_dims' attribute 'axis' has the wrong kind: \"0\"");
}

TEST_CASE("verifier: a result type with a zero dimension", "[verifier]") {
  Kernel k;
  appendRaw(k.f.body, OpKind::Constant, at(130), {}, {Type::tile({4, 0}, ScalarKind::F32)},
            {{"value", Attr::floating(0.0)}});
  k.b.ret();
  CHECK(onlyDiagnostic(k.f, at(130)).message ==
        "'constant' result type tile<4x0xf32> has a non-positive dimension");
}

TEST_CASE("verifier: reports errors in every region, not just the first", "[verifier]") {
  Kernel k;
  Op *branch = k.b.ifOp(k.b.binary(OpKind::Gt, k.n, k.n), {});
  Builder thenB(branch->region(0)), elseB(branch->region(1));
  appendRaw(branch->region(0), OpKind::Add, at(140), {k.n, k.x}, {kI32});
  thenB.yield({});
  appendRaw(branch->region(1), OpKind::Neg, at(141), {k.x}, {k.x->type});
  elseB.yield({});
  k.b.ret();
  std::vector<Diagnostic> diags = verify(k.f);
  INFO(all(diags));
  REQUIRE(diags.size() == 2);
  CHECK(diags[0].loc == at(140));
  CHECK(diags[0].message == "'add' operands must have the same type, got i32 and ptr<f32>");
  CHECK(diags[1].loc == at(141));
  CHECK(diags[1].message == "'neg' does not apply to pointers, got ptr<f32>");
}

TEST_CASE("verifier: the diagnostic of an inlined op carries its call chain", "[verifier]") {
  Kernel k;
  Location loc("helper.h", 5, 12);
  loc.inlinedAt = {SourcePos{"kernel.cpp", 30, 10}, SourcePos{"main.cpp", 4, 2}};
  appendRaw(k.f.body, OpKind::Exp, loc, {k.n}, {kI32});
  k.b.ret();
  Diagnostic d = onlyDiagnostic(k.f, loc);
  CHECK(d.str() == "helper.h:5:12: error: 'exp' requires a float type, got i32\n"
                   "  in call from kernel.cpp:30:10\n"
                   "  in call from main.cpp:4:2");
}

TEST_CASE("verifier: arange with an empty or overflowing range", "[verifier]") {
  Kernel k;
  appendRaw(k.f.body, OpKind::Arange, at(150), {}, {Type::tile({1}, ScalarKind::I32)},
            {{"start", Attr::integer(4)}, {"end", Attr::integer(4)}});
  appendRaw(k.f.body, OpKind::Arange, at(151), {}, {Type::tile({1}, ScalarKind::I32)},
            {{"start", Attr::integer(INT64_MIN)}, {"end", Attr::integer(INT64_MAX)}});
  k.b.ret();
  CHECK(diagnosticWith(k.f, "[4, 4)", at(150)).message == "'arange' needs start < end, got [4, 4)");
  CHECK(diagnosticWith(k.f, "-9223372036854775808", at(151)).message ==
        "'arange' range [-9223372036854775808, 9223372036854775807) must lie in i32 and hold at most 16777216 elements");
}

TEST_CASE("verifier: builder-made tiles beyond the size limit are refused", "[verifier]") {
  Func f;
  f.name = "huge";
  Value *x = f.body.addArg(Type::tile({1024}, ScalarKind::F32), "x");
  Builder b(f.body);
  b.setLoc(Location("huge.cpp", 3, 7));
  CHECK_THROWS_WITH(b.arange(0, int64_t(1) << 40),
                    "'arange' range [0, 1099511627776) must lie in i32 and hold at most 16777216 elements");
  CHECK_THROWS_WITH(b.broadcast(b.expandDims(x, 0), {1 << 20, 1024}),
                    "'broadcast' result type tile<1048576x1024xf32> has more than 16777216 elements");
  // Bypassing the builder, the verifier still catches it, at the op.
  auto op = std::make_unique<Op>(OpKind::Reshape, Location("huge.cpp", 9, 2));
  op->operands.push_back(x);
  op->addResult(Type::tile({1 << 25}, ScalarKind::F32));
  f.body.insert(nullptr, std::move(op));
  b.ret();
  std::vector<Diagnostic> d = verify(f);
  REQUIRE(d.size() == 1);
  CHECK(d[0].str() == "huge.cpp:9:2: error: 'reshape' result type tile<33554432xf32> has more than 16777216 elements");
}
