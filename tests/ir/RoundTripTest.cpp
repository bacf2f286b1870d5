// Print/parse round trips (ir/Printer.h, ir/Parser.h): for every op kind of
// the table, a small valid function is built, verified, printed with and
// without locations, parsed back, verified again and printed to the very same
// text. Also: inlined-at locations, float and string attributes, parameter
// names, meta attributes and options, determinism, modules of two functions.
#include "ir/Builder.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

using namespace twintile::ir;

namespace {

const Type kI1 = Type::scalar(ScalarKind::I1);
const Type kI32 = Type::scalar(ScalarKind::I32);
const Type kF32 = Type::scalar(ScalarKind::F32);

/// A function under construction. Ops get consecutive source lines (an op
/// whose operands are built inline shares the line of its last operand).
struct Kernel {
  std::unique_ptr<Func> f = std::make_unique<Func>();
  Builder b{f->body};
  int line = 10;

  explicit Kernel(std::string name) {
    f->name = std::move(name);
    f->loc = Location("kernels.cpp", 3, 1);
  }
  Value *param(std::string name, Type t) { return f->body.addArg(std::move(t), std::move(name)); }
  /// The builder `bb`, positioned at the next source line.
  Builder &at(Builder &bb) {
    bb.setLoc(Location("kernels.cpp", line++, 5));
    return bb;
  }
  Builder &at() { return at(b); }

  // Small recurring pieces, built with `bb` (the function body by default).
  Value *offsets(Builder *bb = nullptr) { return at(bb ? *bb : b).arange(0, 128); }
  Value *pointers(Value *base, Builder *bb = nullptr) {
    Builder &w = bb ? *bb : b;
    Value *splat = at(w).splat(base, {128});
    return at(w).addptr(splat, offsets(&w));
  }
  Value *floats(Value *base, Builder *bb = nullptr) {
    Value *ptrs = pointers(base, bb);
    return at(bb ? *bb : b).load(ptrs);
  }
  Value *mask(Value *n) {
    Value *offs = offsets();
    return at().binary(OpKind::Lt, offs, at().splat(n, {128}));
  }
  void storeFloats(Value *base, Value *v) {
    Value *ptrs = pointers(base);
    at().store(ptrs, v);
  }
  std::unique_ptr<Func> finish() {
    at().ret();
    return std::move(f);
  }
};

/// A for loop with two carried values whose body holds an if with a result.
std::unique_ptr<Func> buildFor() {
  Kernel k("loop");
  Value *out = k.param("out", Type::ptr(ScalarKind::F32));
  Value *n = k.param("n", kI32);
  Value *lo = k.at().constInt(kI32, 0);
  Value *step = k.at().constInt(kI32, 16);
  Value *acc0 = k.at().constFloat(kF32, 0.0);
  Value *cnt0 = k.at().constInt(kI32, 0);
  Op *loop = k.at().forOp(lo, n, step, {acc0, cnt0});
  {
    Builder body(loop->region(0));
    Value *iv = loop->region(0).arg(0), *acc = loop->region(0).arg(1);
    Value *cnt = loop->region(0).arg(2);
    Value *small = k.at(body).binary(OpKind::Lt, iv, k.at(body).constInt(kI32, 64));
    Op *branch = k.at(body).ifOp(small, {kF32});
    Builder thenB(branch->region(0)), elseB(branch->region(1));
    k.at(thenB).yield({k.at(thenB).binary(OpKind::Add, acc, k.at(thenB).constFloat(kF32, 1.5))});
    k.at(elseB).yield({acc});
    Value *next = k.at(body).binary(OpKind::Add, cnt, k.at(body).constInt(kI32, 1));
    k.at(body).yield({branch->result(), next});
  }
  k.at().store(out, loop->result(0));
  return k.finish();
}

/// Two ifs: one with results of two types, one without results.
std::unique_ptr<Func> buildIf() {
  Kernel k("branch");
  Value *x = k.param("x", Type::ptr(ScalarKind::F32));
  Value *n = k.param("n", kI32);
  Value *positive = k.at().binary(OpKind::Gt, n, k.at().constInt(kI32, 0));
  Op *withResults = k.at().ifOp(positive, {kI32, Type::tile({128}, ScalarKind::F32)});
  {
    Builder thenB(withResults->region(0));
    k.at(thenB).yield({n, k.floats(x, &thenB)});
    Builder elseB(withResults->region(1));
    k.at(elseB).yield({k.at(elseB).constInt(kI32, -1),
                       k.at(elseB).constFloat(Type::tile({128}, ScalarKind::F32), 0.25)});
  }
  Op *noResults = k.at().ifOp(positive, {});
  {
    Builder thenB(noResults->region(0));
    thenB.setLoc(Location("kernels.cpp", 90, 7));
    thenB.store(x, thenB.constFloat(kF32, 2.0));
    k.at(thenB).yield({});
    Builder elseB(noResults->region(1));
    k.at(elseB).yield({});
  }
  k.storeFloats(x, withResults->result(1));
  return k.finish();
}

/// A while loop whose body holds a for loop without carried values.
std::unique_ptr<Func> buildWhile() {
  Kernel k("spin");
  Value *x = k.param("x", Type::ptr(ScalarKind::F32));
  Value *n = k.param("n", kI32);
  Value *i0 = k.at().constInt(kI32, 0);
  Value *acc0 = k.at().constFloat(kF32, 0.0);
  Op *loop = k.at().whileOp({i0, acc0});
  {
    Builder cond(loop->region(0));
    k.at(cond).yield({k.at(cond).binary(OpKind::Lt, loop->region(0).arg(0), n)});
    Builder body(loop->region(1));
    Value *i = loop->region(1).arg(0), *acc = loop->region(1).arg(1);
    Op *inner = k.at(body).forOp(k.at(body).constInt(kI32, 0), i, k.at(body).constInt(kI32, 1), {});
    {
      Builder innerB(inner->region(0));
      k.at(innerB).store(x, acc);
      k.at(innerB).yield({});
    }
    k.at(body).yield({k.at(body).binary(OpKind::Add, i, k.at(body).constInt(kI32, 1)),
                      k.at(body).binary(OpKind::Add, acc, k.at(body).constFloat(kF32, 2.0))});
  }
  k.at().store(x, loop->result(1));
  return k.finish();
}

/// A small valid function that uses an op of kind `kind`.
std::unique_ptr<Func> buildFunctionUsing(OpKind kind) {
  const OpInfo &info = opInfo(kind);
  Kernel k(std::string("k_") + std::string(info.name));
  Value *x = k.param("x", Type::ptr(ScalarKind::F32));
  Value *out = k.param("out", Type::ptr(ScalarKind::F32));
  Value *n = k.param("n", kI32);
  const Type floatTile = Type::tile({128}, ScalarKind::F32);

  switch (kind) {
  case OpKind::ProgramId:
  case OpKind::NumPrograms:
    k.at().store(out, k.at().cast(k.at().value(kind, {}, {{"axis", Attr::integer(1)}}),
                                  ScalarKind::F32));
    break;
  case OpKind::Constant:
    k.at().constInt(Type::scalar(ScalarKind::I64), -7);
    k.at().constInt(Type::tile({4, 8}, ScalarKind::I8), 3);
    k.at().constFloat(Type::tile({2}, ScalarKind::BF16), 0.5);
    k.at().store(out, k.at().constFloat(kF32, 1.25));
    break;
  case OpKind::Arange:
    k.storeFloats(out, k.at().cast(k.at().arange(-64, 64), ScalarKind::F32));
    break;
  case OpKind::Splat:
    k.storeFloats(out, k.at().splat(k.at().constFloat(kF32, 3.0), {128}));
    break;
  case OpKind::Broadcast: {
    Value *row = k.at().expandDims(k.at().arange(0, 8), 0);  // tile<1x8xi32>
    k.at().broadcast(row, {4, 8});
    break;
  }
  case OpKind::ExpandDims:
    k.at().expandDims(k.offsets(), 1);
    break;
  case OpKind::Reshape:
    k.at().reshape(k.floats(x), {4, 32});
    break;
  case OpKind::Trans:
    k.at().trans(k.at().reshape(k.floats(x), {2, 4, 16}), {2, 0, 1});
    break;

  case OpKind::Not:
    k.at().unary(kind, k.mask(n));
    break;
  case OpKind::Neg: case OpKind::Abs: case OpKind::Exp: case OpKind::Exp2:
  case OpKind::Log: case OpKind::Log2: case OpKind::Sqrt: case OpKind::Rsqrt:
  case OpKind::Sin: case OpKind::Cos: case OpKind::Tanh: case OpKind::Sigmoid:
  case OpKind::Floor: case OpKind::Ceil: case OpKind::Erf: case OpKind::Log1p: case OpKind::Expm1:
  case OpKind::Round: case OpKind::Rint:
    k.storeFloats(out, k.at().unary(kind, k.floats(x)));
    break;

  case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div:
  case OpKind::Rem: case OpKind::Minimum: case OpKind::Maximum: case OpKind::Pow:
    k.storeFloats(out, k.at().binary(kind, k.floats(x), k.floats(out)));
    break;
  case OpKind::And: case OpKind::Or: case OpKind::Xor: case OpKind::Shl: case OpKind::Shr: case OpKind::Umulhi: {
    Value *a = k.offsets();
    Value *b = k.at().splat(n, {128});
    k.storeFloats(out, k.at().cast(k.at().binary(kind, a, b), ScalarKind::F32));
    break;
  }
  case OpKind::Eq: case OpKind::Ne: case OpKind::Lt: case OpKind::Le: case OpKind::Gt:
  case OpKind::Ge: {
    Value *v = k.floats(x);
    Value *m = k.at().binary(kind, v, k.at().constFloat(floatTile, 0.0));
    k.at().store(k.at().addptr(k.at().splat(out, {128}), k.offsets()), v, m);
    break;
  }

  case OpKind::Select: {
    Value *m = k.mask(n);
    k.storeFloats(out, k.at().select(m, k.floats(x), k.at().constFloat(floatTile, -1.0)));
    break;
  }
  case OpKind::Fma: {
    Value *v = k.floats(x);
    k.storeFloats(out, k.at().value(OpKind::Fma, {v, v, k.floats(out)}));
    break;
  }
  case OpKind::Cast:
    k.at().cast(k.at().cast(k.floats(x), ScalarKind::BF16), ScalarKind::I64);
    break;
  case OpKind::MultipleOf: case OpKind::MaxContiguous:
    k.storeFloats(out, k.at().cast(k.at().hint(kind, k.offsets(), {16}), ScalarKind::F32));
    break;
  case OpKind::DescriptorLoad:
  case OpKind::DescriptorStore: {  // a 32x8 block of an n x 16 tensor at row 8, through both
    Value *rows = n, *cols = k.at().constInt(kI32, 16), *r = k.at().constInt(kI32, 8), *c = k.at().constInt(kI32, 0);
    Value *pitch = k.at().constInt(Type::scalar(ScalarKind::I64), 16);
    Value *block = k.at().descriptor(x, {rows, cols}, {pitch}, {r, c}, {32, 8})->result();
    k.at().descriptor(out, {rows, cols}, {pitch}, {r, c}, {32, 8}, block);
    break;
  }
  case OpKind::Bitcast:
    k.storeFloats(out, k.at().bitcast(k.at().bitcast(k.floats(x), ScalarKind::I32), ScalarKind::F32));
    break;

  case OpKind::AddPtr:
    k.at().addptr(k.at().splat(x, {128}), k.offsets());
    k.at().addptr(x, n);  // a scalar pointer
    break;
  case OpKind::Load: {
    Value *ptrs = k.at().addptr(k.at().splat(x, {128}), k.offsets());
    Value *m = k.mask(n);
    Value *other = k.at().constFloat(floatTile, -std::numeric_limits<double>::infinity());
    k.storeFloats(out, k.at().load(ptrs, m, other));
    k.storeFloats(out, k.at().load(ptrs, m, other, "cg"));
    k.storeFloats(out, k.at().load(ptrs, nullptr, nullptr, "", "evict_last"));
    break;
  }
  case OpKind::Store: {
    Value *ptrs = k.at().addptr(k.at().splat(out, {128}), k.offsets());
    k.at().store(ptrs, k.floats(x), k.mask(n));
    k.at().store(ptrs, k.floats(x), k.mask(n), "wt");
    k.at().store(ptrs, k.floats(x), nullptr, "", "evict_first");
    break;
  }
  case OpKind::AtomicAdd: {
    Value *ptrs = k.at().addptr(k.at().splat(out, {128}), k.offsets());
    Value *old = k.at().atomicAdd(ptrs, k.floats(x), k.mask(n));
    k.at().atomicAdd(out, k.at().reduce(OpKind::Sum, old, 0));
    break;
  }
  case OpKind::AtomicMax: case OpKind::AtomicMin: case OpKind::AtomicAnd: case OpKind::AtomicOr:
  case OpKind::AtomicXor: case OpKind::AtomicXchg: case OpKind::AtomicCas: {
    Value *ints = k.at().addptr(k.at().splat(k.param("counts", Type::ptr(ScalarKind::I32)), {128}), k.offsets());
    Value *v = k.offsets();
    std::vector<Value *> ops{ints, v};
    if (kind == OpKind::AtomicCas) ops.insert(ops.begin() + 1, k.at().splat(n, {128}));
    else ops.push_back(k.mask(n));
    Value *old = k.at().atomic(kind, ops, "acq_rel", "cta");
    k.at().atomic(kind == OpKind::AtomicCas ? OpKind::AtomicXchg : kind, {ints, old});
    break;
  }

  case OpKind::Sum: case OpKind::Max: case OpKind::Min: case OpKind::Argmax:
  case OpKind::Argmin: case OpKind::Cumsum: {
    Value *m = k.at().reshape(k.floats(x), {16, 8});
    k.at().reduce(kind, m, 1);
    k.at().reduce(kind, k.floats(x), 0);
    break;
  }
  case OpKind::Reduce: case OpKind::Scan: {  // along each axis, with a constant in the region
    Value *m = k.at().reshape(k.floats(x), {16, 8});
    for (int64_t axis : {0, 1}) {
      Op *op = k.at().combine(kind, {m}, axis);
      Builder region(op->region(0));
      Value *best = k.at(region).binary(OpKind::Maximum, op->region(0).arg(0), op->region(0).arg(1));
      k.at(region).yield({k.at(region).binary(OpKind::Mul, best, k.at(region).constFloat(kF32, 2.0))});
    }
    {  // two tiles at once, an argmax-like (value, index) pair: two results
      Value *index = k.at().cast(m, ScalarKind::I32);
      Op *op = k.at().combine(kind, {m, index}, 1);
      Builder region(op->region(0));
      const Block &r = op->region(0);
      Value *later = k.at(region).binary(OpKind::Gt, r.arg(2), r.arg(0));  // a0 a1 | b0 b1
      k.at(region).yield({k.at(region).select(later, r.arg(2), r.arg(0)), k.at(region).select(later, r.arg(3), r.arg(1))});
    }
    break;
  }
  case OpKind::Dot: {
    Value *a = k.at().constFloat(Type::tile({16, 32}, ScalarKind::F16), 1.0);
    Value *b = k.at().constFloat(Type::tile({32, 8}, ScalarKind::F16), 0.5);
    Value *acc = k.at().constFloat(Type::tile({16, 8}, ScalarKind::F32), 0.0);
    k.at().dot(a, b, acc);
    break;
  }
  case OpKind::Print:
    k.at().print("pid = ", {k.at().programId(0), n});
    k.at().print("", {});
    break;
  case OpKind::Assert:
    k.at().assertTrue(k.at().binary(OpKind::Ge, n, k.at().constInt(kI32, 0)), "n must be >= 0");
    break;
  case OpKind::Barrier:
    k.storeFloats(out, k.floats(x));
    k.at().barrier();
    k.storeFloats(out, k.at().unary(OpKind::Neg, k.floats(out)));
    break;

  case OpKind::For: return buildFor();
  case OpKind::If:
  case OpKind::Yield: return buildIf();
  case OpKind::While: return buildWhile();
  case OpKind::Return: break;  // finish() adds it
  }
  return k.finish();
}

std::set<OpKind> kindsIn(const Func &f) {
  std::set<OpKind> kinds;
  walk(f.body, [&](const Op &op) { kinds.insert(op.kind); });
  return kinds;
}

std::string joined(const std::vector<Diagnostic> &diags) {
  std::string s;
  for (const Diagnostic &d : diags) s += d.str() + "\n";
  return s;
}

/// The locations of every op, in walk order.
std::vector<Location> locationsIn(const Func &f) {
  std::vector<Location> locs;
  walk(f.body, [&](const Op &op) { locs.push_back(op.loc); });
  return locs;
}

/// Parses `text`, which must hold exactly one function, and returns it.
std::unique_ptr<Module> parseOk(const std::string &text) {
  ParseResult r = parseModule(text, "roundtrip.tir");
  INFO(text);
  INFO((r.error ? r.error->str() : std::string("no error")));
  REQUIRE(r.module);
  REQUIRE_FALSE(r.error);
  return std::move(r.module);
}

/// Verifies `f`, then prints it with and without locations and checks that
/// each text parses back to a valid function printing the same text.
void checkRoundTrip(const Func &f) {
  std::vector<Diagnostic> diags = verify(f);
  INFO(toString(f));
  INFO(joined(diags));
  REQUIRE(diags.empty());

  for (bool locations : {true, false}) {
    std::string text = toString(f, {.locations = locations});
    INFO("locations: " << locations);
    std::unique_ptr<Module> m = parseOk(text);
    REQUIRE(m->funcs.size() == 1);
    const Func &g = *m->funcs[0];
    std::vector<Diagnostic> after = verify(g);
    INFO(joined(after));
    CHECK(after.empty());
    CHECK(toString(g, {.locations = locations}) == text);
    if (locations) {
      CHECK(locationsIn(g) == locationsIn(f));
      CHECK(g.loc == f.loc);
      // Dropping the locations afterwards gives the location-free text.
      CHECK(toString(g, {.locations = false}) == toString(f, {.locations = false}));
    } else {
      for (const Location &l : locationsIn(g)) CHECK_FALSE(l.known());
    }
  }
}

/// The first op of kind `kind` in `f`.
const Op *firstOp(const Func &f, OpKind kind) {
  const Op *found = nullptr;
  walk(f.body, [&](const Op &op) {
    if (!found && op.kind == kind) found = &op;
  });
  return found;
}

} // namespace

TEST_CASE("every op kind round trips through text", "[roundtrip]") {
  std::set<OpKind> all, covered;
  for (const OpInfo &info : allOps()) {
    all.insert(info.kind);
    INFO("function built for op '" << info.name << "'");
    std::unique_ptr<Func> f = buildFunctionUsing(info.kind);
    std::set<OpKind> kinds = kindsIn(*f);
    CHECK(kinds.count(info.kind) == 1);
    covered.insert(kinds.begin(), kinds.end());
    checkRoundTrip(*f);
  }
  REQUIRE(all.size() == allOps().size());
  REQUIRE(covered == all);
}

TEST_CASE("for with carried values and a nested if round trips", "[roundtrip]") {
  std::unique_ptr<Func> f = buildFor();
  checkRoundTrip(*f);
  std::string text = toString(*f);
  CHECK(text.find(" = for ") != std::string::npos);
  CHECK(text.find("^(") != std::string::npos);
  std::unique_ptr<Module> m = parseOk(text);
  const Op *loop = firstOp(*m->funcs[0], OpKind::For);
  REQUIRE(loop);
  CHECK(loop->results.size() == 2);
  CHECK(loop->region(0).args.size() == 3);
  REQUIRE(firstOp(*m->funcs[0], OpKind::If));
  CHECK(firstOp(*m->funcs[0], OpKind::If)->parent == &loop->region(0));
}

TEST_CASE("if with and without results round trips", "[roundtrip]") {
  std::unique_ptr<Func> f = buildIf();
  checkRoundTrip(*f);
  std::unique_ptr<Module> m = parseOk(toString(*f));
  const Op *branch = firstOp(*m->funcs[0], OpKind::If);
  REQUIRE(branch);
  REQUIRE(branch->results.size() == 2);
  CHECK(toString(branch->result(1)->type) == "tile<128xf32>");
  CHECK(branch->regions.size() == 2);
}

TEST_CASE("while with a nested for round trips", "[roundtrip]") {
  std::unique_ptr<Func> f = buildWhile();
  checkRoundTrip(*f);
  std::unique_ptr<Module> m = parseOk(toString(*f));
  const Op *loop = firstOp(*m->funcs[0], OpKind::While);
  REQUIRE(loop);
  CHECK(loop->region(0).args.size() == 2);
  CHECK(loop->region(1).args.size() == 2);
  const Op *inner = firstOp(*m->funcs[0], OpKind::For);
  REQUIRE(inner);
  CHECK(inner->parent == &loop->region(1));
}

TEST_CASE("locations with an inlined-at chain round trip", "[roundtrip]") {
  Kernel k("inlined");
  Value *n = k.param("n", kI32);
  Location loc("helpers/math.h", 12, 9);
  loc.inlinedAt = {SourcePos{"kernels/softmax.cpp", 40, 17}, SourcePos{"main.cpp", 7, 3}};
  k.b.setLoc(loc);
  k.b.binary(OpKind::Add, n, n);
  Location weird("dir with space/\"q\".cpp", 1, 0);  // column 0: unknown column
  k.b.setLoc(weird);
  k.b.binary(OpKind::Mul, n, n);
  k.b.setLoc(Location{});  // unknown: printed without loc(...)
  k.b.binary(OpKind::Sub, n, n);
  std::unique_ptr<Func> f = k.finish();

  std::string text = toString(*f);
  CHECK(text.find(R"(loc("helpers/math.h":12:9 from "kernels/softmax.cpp":40:17 from "main.cpp":7:3))") !=
        std::string::npos);
  checkRoundTrip(*f);
  std::unique_ptr<Module> m = parseOk(text);
  const Op *add = firstOp(*m->funcs[0], OpKind::Add);
  REQUIRE(add);
  CHECK(add->loc == loc);
  REQUIRE(add->loc.inlinedAt.size() == 2);
  CHECK(add->loc.inlinedAt[1].file == "main.cpp");
  REQUIRE(firstOp(*m->funcs[0], OpKind::Mul));
  CHECK(firstOp(*m->funcs[0], OpKind::Mul)->loc == weird);
  REQUIRE(firstOp(*m->funcs[0], OpKind::Sub));
  CHECK_FALSE(firstOp(*m->funcs[0], OpKind::Sub)->loc.known());
}

TEST_CASE("float constants round trip exactly", "[roundtrip]") {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> values = {0.1,
                                      1e-30,
                                      -inf,
                                      inf,
                                      std::numeric_limits<double>::quiet_NaN(),
                                      -0.0,
                                      0.0,
                                      3.0,
                                      -2.5e10,
                                      1.0 / 3.0,
                                      std::numeric_limits<double>::denorm_min(),
                                      std::numeric_limits<double>::max(),
                                      std::numeric_limits<double>::lowest()};
  Kernel k("floats");
  for (double v : values) k.at().constFloat(kF32, v);
  std::unique_ptr<Func> f = k.finish();
  checkRoundTrip(*f);

  std::string text = toString(*f);
  CHECK(text.find("{value = 0.1}") != std::string::npos);
  CHECK(text.find("{value = 1e-30}") != std::string::npos);
  CHECK(text.find("{value = -inf}") != std::string::npos);
  CHECK(text.find("{value = nan}") != std::string::npos);
  CHECK(text.find("{value = -0.0}") != std::string::npos);
  CHECK(text.find("{value = 3.0}") != std::string::npos);

  std::unique_ptr<Module> m = parseOk(text);
  std::vector<double> parsed;
  walk(m->funcs[0]->body, [&](const Op &op) {
    if (op.kind != OpKind::Constant) return;
    REQUIRE(op.attr("value").kind == Attr::Kind::Float);
    parsed.push_back(op.attr("value").f);
  });
  REQUIRE(parsed.size() == values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    INFO("value #" << i << " = " << values[i] << ", parsed " << parsed[i]);
    if (std::isnan(values[i])) {
      CHECK(std::isnan(parsed[i]));
      continue;
    }
    // Bit-exact: distinguishes -0.0 from 0.0.
    CHECK(std::memcmp(&values[i], &parsed[i], sizeof(double)) == 0);
  }
}

TEST_CASE("string attributes with quotes, newlines and non-ASCII round trip", "[roundtrip]") {
  const std::vector<std::string> strings = {
      "say \"hi\"",       "two\nlines\n",          "back\\slash \\n not a newline",
      "tab\there\r",      "caf\xc3\xa9 \xe2\x88\x91 \xf0\x9f\x98\x80",  // UTF-8
      std::string("nul\0inside", 10), "", "{braces} loc(\"x\":1:2) // not a comment"};
  Kernel k("strings");
  Value *n = k.param("n", kI32);
  Value *ok = k.at().binary(OpKind::Ge, n, n);
  for (const std::string &s : strings) {
    k.at().print(s, {n});
    k.at().assertTrue(ok, s);
  }
  std::unique_ptr<Func> f = k.finish();
  checkRoundTrip(*f);

  std::string text = toString(*f);
  CHECK(text.find(R"({prefix = "say \"hi\""})") != std::string::npos);
  CHECK(text.find(R"({prefix = "two\nlines\n"})") != std::string::npos);
  CHECK(text.find('\t') == std::string::npos);  // control bytes are escaped

  std::unique_ptr<Module> m = parseOk(text);
  std::vector<std::string> prefixes, msgs;
  walk(m->funcs[0]->body, [&](const Op &op) {
    if (op.kind == OpKind::Print) prefixes.push_back(op.attr("prefix").s);
    if (op.kind == OpKind::Assert) msgs.push_back(op.attr("msg").s);
  });
  CHECK(prefixes == strings);
  CHECK(msgs == strings);
}

TEST_CASE("parameter names are kept", "[roundtrip]") {
  Kernel k("names");
  Value *x = k.param("x_ptr", Type::ptr(ScalarKind::F16));
  k.param("n_cols", kI32);
  k.param("stride2", Type::scalar(ScalarKind::I64));
  k.at().load(x);
  std::unique_ptr<Func> f = k.finish();

  std::string text = toString(*f);
  CHECK(text.rfind("func @names(%x_ptr: ptr<f16>, %n_cols: i32, %stride2: i64)", 0) == 0);
  CHECK(text.find("load %x_ptr : f16") != std::string::npos);
  checkRoundTrip(*f);

  std::unique_ptr<Module> m = parseOk(text);
  const Func &g = *m->funcs[0];
  REQUIRE(g.numParams() == 3);
  CHECK(g.param(0)->name == "x_ptr");
  CHECK(g.param(1)->name == "n_cols");
  CHECK(g.param(2)->name == "stride2");
  CHECK(g.name == "names");
}

TEST_CASE("unprintable or duplicate parameter names are replaced and round trip", "[roundtrip]") {
  Kernel k("renamed");
  k.param("", kI32);
  k.param("has space", kI32);
  k.param("9lives", kI32);
  k.param("dup", kI32);
  k.param("dup", kI32);
  std::unique_ptr<Func> f = k.finish();
  std::string text = toString(*f);
  CHECK(text.rfind("func @renamed(%arg0: i32, %arg1: i32, %arg2: i32, %dup: i32, %arg4: i32)", 0) ==
        0);
  checkRoundTrip(*f);
}

TEST_CASE("meta attributes and num_warps round trip", "[roundtrip]") {
  Kernel k("meta");
  k.f->meta = {{"BLOCK", Attr::integer(1024)},
               {"T", Attr::string("f16")},
               {"EPS", Attr::floating(1e-5)},
               {"AXES", Attr::list({1, 0})},
               {"A_FIRST", Attr::integer(-3)}};  // not in alphabetical order
  k.f->numWarps = 8;
  std::unique_ptr<Func> f = k.finish();

  std::string text = toString(*f);
  CHECK(text.find(R"(meta {BLOCK = 1024, T = "f16", EPS = 1e-05, AXES = [1, 0], A_FIRST = -3})") !=
        std::string::npos);
  CHECK(text.find("options {num_warps = 8}") != std::string::npos);
  checkRoundTrip(*f);

  std::unique_ptr<Module> m = parseOk(text);
  const Func &g = *m->funcs[0];
  CHECK(g.meta == f->meta);
  CHECK(g.numWarps == 8);
  CHECK(g.numStages == 0);

  f->numStages = 3;  // printed only when the kernel asked for a depth
  std::string staged = toString(*f);
  CHECK(staged.find("options {num_warps = 8, num_stages = 3}") != std::string::npos);
  CHECK(parseOk(staged)->funcs[0]->numStages == 3);
}

TEST_CASE("printing is deterministic", "[roundtrip]") {
  for (OpKind kind : {OpKind::For, OpKind::While, OpKind::Print, OpKind::Dot}) {
    std::unique_ptr<Func> f = buildFunctionUsing(kind);
    std::unique_ptr<Func> again = buildFunctionUsing(kind);
    std::string first = toString(*f);
    CHECK(toString(*f) == first);
    CHECK(toString(*again) == first);
    CHECK(toString(*f, {.locations = false}) == toString(*again, {.locations = false}));
  }
}

TEST_CASE("a module of two functions round trips", "[roundtrip]") {
  Module m;
  m.funcs.push_back(buildFor());
  m.funcs.push_back(buildFunctionUsing(OpKind::Dot));
  for (bool locations : {true, false}) {
    std::string text = toString(m, {.locations = locations});
    ParseResult r = parseModule(text);
    INFO(text);
    INFO((r.error ? r.error->str() : std::string()));
    REQUIRE(r.module);
    REQUIRE(r.module->funcs.size() == 2);
    CHECK(r.module->lookup("loop") == r.module->funcs[0].get());
    CHECK(r.module->lookup("k_dot") == r.module->funcs[1].get());
    for (auto &g : r.module->funcs) CHECK(verify(*g).empty());
    CHECK(toString(*r.module, {.locations = locations}) == text);
  }
}

TEST_CASE("function names that are not identifiers are quoted and round trip", "[roundtrip]") {
  for (std::string name : {"vector_add<1024>", "ns::kernel", "with space", "", "quote\"d",
                           "softmax.f16", "9lives"}) {
    Kernel k(name);
    std::unique_ptr<Func> f = k.finish();
    INFO("name: " << name);
    checkRoundTrip(*f);
    std::unique_ptr<Module> m = parseOk(toString(*f));
    CHECK(m->funcs[0]->name == name);
  }
  Kernel k("vector_add<1024>");
  CHECK(toString(*k.finish()).rfind(R"(func @"vector_add<1024>"())", 0) == 0);
  Kernel plain("softmax.f16");
  CHECK(toString(*plain.finish()).rfind("func @softmax.f16()", 0) == 0);
}
