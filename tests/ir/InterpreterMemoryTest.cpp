// The reference interpreter's memory ops (ir/Interpreter.h): pointers,
// masked loads and stores, atomics, out-of-bounds accesses, and the launch
// arguments it checks (the kernels: OpKernels.h).
#include "OpKernels.h"
#include "ir/Float16.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace twintile::ir;
using namespace twintile::ir::test;

//===-- Pointers and memory -----------------------------------------------===//

TEST_CASE("addptr steps in elements of the pointee", "[interpreter][ops][memory]") {
  for (ScalarKind k : {ScalarKind::I8, ScalarKind::F16, ScalarKind::F32, ScalarKind::F64}) {
    INFO(scalarName(k));
    Kernel kr;
    Value *x = kr.ptrParam(k, "x");
    Value *out = kr.ptrParam(k, "out");
    // gather x[5 + (offs - 3)] for offs = 0..3 through two addptrs (one scalar, one tile)
    Value *base = kr.b.addptr(x, i32(kr.b, 5));
    Value *offs = kr.b.binary(OpKind::Sub, kr.b.arange(0, 4), kr.b.splat(i32(kr.b, 3), {4}));
    Value *v = kr.b.load(ptrsAt(kr.b, base, offs));
    kr.b.store(ptrsAt(kr.b, out, kr.b.arange(0, 4)), v);
    kr.b.ret();
    std::vector<Buffer> bufs{Buffer::fromValues(k, {0, 1, 2, 3, 4, 5, 6, 7}, "x"), Buffer(k, 4, "out")};
    RunResult r = interpret(kr.f, {}, bufferArgs(2), bufs);
    REQUIRE(r.ok());
    CHECK(bufs[1].values() == std::vector<double>{2, 3, 4, 5});
  }
}

TEST_CASE("addptr with i64 offsets", "[interpreter][ops][memory]") {
  Kernel k;
  Value *x = k.ptrParam(ScalarKind::F32, "x");
  Value *out = k.ptrParam(ScalarKind::F32, "out");
  Value *offs = k.b.cast(k.b.arange(0, 4), ScalarKind::I64);
  Value *rev = k.b.binary(OpKind::Sub, k.b.splat(k.b.constInt(Type::scalar(ScalarKind::I64), 3), {4}), offs);
  k.b.store(ptrsAt(k.b, out, offs), k.b.load(ptrsAt(k.b, x, rev)));
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F32, {1, 2, 3, 4}, "x"), Buffer(ScalarKind::F32, 4, "out")};
  REQUIRE(interpret(k.f, {}, bufferArgs(2), bufs).ok());
  CHECK(bufs[1].values() == std::vector<double>{4, 3, 2, 1});
}

namespace {
/// out[i] = load(x + i, i < n, other) over a tile of `block` lanes; with
/// `withOther` false, the masked lanes read 0.
MapResult runMaskedLoad(int64_t block, int64_t n, std::vector<double> xs, bool withOther, double other) {
  Kernel k;
  Value *x = k.ptrParam(ScalarKind::F32, "x");
  Value *nParam = k.param(ScalarKind::I32, "n");
  Value *out = k.ptrParam(ScalarKind::F32, "out");
  Value *offs = k.b.arange(0, block);
  Value *mask = k.b.binary(OpKind::Lt, offs, k.b.splat(nParam, {block}));
  Value *o = withOther ? k.b.constFloat(Type::tile({block}, ScalarKind::F32), other) : nullptr;
  Value *v = k.b.load(ptrsAt(k.b, x, offs), mask, o);
  k.b.store(ptrsAt(k.b, out, offs), v);
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F32, xs, "x"), Buffer(ScalarKind::F32, block, "out")};
  RunResult r = interpret(k.f, {}, {KernelArg::buf(0), KernelArg::integer(n), KernelArg::buf(1)}, bufs);
  return {std::move(r), std::move(bufs)};
}
} // namespace

TEST_CASE("masked load yields other on masked-off lanes", "[interpreter][ops][memory]") {
  MapResult m = runMaskedLoad(8, 5, {1, 2, 3, 4, 5}, true, -kInf);
  REQUIRE(m.run.ok());
  CHECK(m.out().values() == std::vector<double>{1, 2, 3, 4, 5, -kInf, -kInf, -kInf});
}

TEST_CASE("masked load without other yields 0 on masked-off lanes", "[interpreter][ops][memory]") {
  MapResult m = runMaskedLoad(8, 3, {7, 8, 9}, false, 0);
  REQUIRE(m.run.ok());
  CHECK(m.out().values() == std::vector<double>{7, 8, 9, 0, 0, 0, 0, 0});
}

TEST_CASE("masked-off out-of-bounds load lanes are not errors", "[interpreter][ops][memory]") {
  // The buffer has 1 element; lanes 1..1023 are out of bounds but masked off.
  MapResult m = runMaskedLoad(1024, 1, {42}, true, 0.5);
  REQUIRE(m.run.ok());
  CHECK(m.out().get(0) == 42);
  CHECK(m.out().get(1023) == 0.5);
}

TEST_CASE("masked store writes only masked-on lanes", "[interpreter][ops][memory]") {
  Kernel k;
  Value *out = k.ptrParam(ScalarKind::I32, "out");
  Value *n = k.param(ScalarKind::I32, "n");
  Value *offs = k.b.arange(0, 16);
  // store offs * 10 where offs is odd and offs < n; buffer holds only 6 elements
  Value *odd = k.b.binary(OpKind::Eq, k.b.binary(OpKind::And, offs, k.b.splat(i32(k.b, 1), {16})),
                          k.b.splat(i32(k.b, 1), {16}));
  Value *inb = k.b.binary(OpKind::Lt, offs, k.b.splat(n, {16}));
  Value *mask = k.b.binary(OpKind::And, odd, inb);
  k.b.store(ptrsAt(k.b, out, offs), k.b.binary(OpKind::Mul, offs, k.b.splat(i32(k.b, 10), {16})), mask);
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  std::vector<Buffer> bufs{ints(ScalarKind::I32, {-1, -1, -1, -1, -1, -1}, "out")};
  RunResult r = interpret(k.f, {}, {KernelArg::buf(0), KernelArg::integer(6)}, bufs);
  REQUIRE(r.ok());
  CHECK(intValues(bufs[0]) == std::vector<int64_t>{-1, 10, -1, 30, -1, 50});
}

TEST_CASE("store of a scalar through a scalar pointer", "[interpreter][ops][memory]") {
  Kernel k;
  Value *out = k.ptrParam(ScalarKind::F64, "out");
  Value *p = k.b.addptr(out, i32(k.b, 2));
  k.b.store(p, k.b.constFloat(Type::scalar(ScalarKind::F64), 0.1));
  Value *back = k.b.load(p);
  k.b.store(k.b.addptr(out, i32(k.b, 0)), k.b.binary(OpKind::Add, back, back));
  k.b.ret();
  std::vector<Buffer> bufs{Buffer(ScalarKind::F64, 3, "out")};
  REQUIRE(interpret(k.f, {}, bufferArgs(1), bufs).ok());
  CHECK(bufs[0].values() == std::vector<double>{0.2, 0.0, 0.1});
}

TEST_CASE("atomic_add accumulates across programs and returns old values", "[interpreter][ops][memory]") {
  const int programs = 4, n = 8;
  Kernel k;
  Value *acc = k.ptrParam(ScalarKind::I32, "acc");
  Value *olds = k.ptrParam(ScalarKind::I32, "olds");
  Value *offs = k.b.arange(0, n);
  Value *pid = k.b.programId(0);
  // each program adds (offs + 1) to acc[offs] and records the old values at olds[pid * n + offs]
  Value *inc = k.b.binary(OpKind::Add, offs, k.b.splat(i32(k.b, 1), {n}));
  Value *old = k.b.atomicAdd(ptrsAt(k.b, acc, offs), inc);
  Value *dst = k.b.binary(OpKind::Add, k.b.splat(k.b.binary(OpKind::Mul, pid, i32(k.b, n)), {n}), offs);
  k.b.store(ptrsAt(k.b, olds, dst), old);
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  std::vector<Buffer> bufs{ints(ScalarKind::I32, std::vector<int64_t>(n, 100), "acc"),
                           Buffer(ScalarKind::I32, programs * n, "olds")};
  REQUIRE(interpret(k.f, {programs, 1, 1}, bufferArgs(2), bufs).ok());
  for (int i = 0; i < n; ++i) {
    CHECK(bufs[0].getInt(i) == 100 + programs * (i + 1));
    // The old values seen by the programs are the partial sums, in some order.
    std::vector<int64_t> seen, want;
    for (int p = 0; p < programs; ++p) {
      seen.push_back(bufs[1].getInt(p * n + i));
      want.push_back(100 + p * (i + 1));
    }
    std::sort(seen.begin(), seen.end());
    CHECK(seen == want);
  }
}

TEST_CASE("atomic_add adds every lane even when lanes share an address", "[interpreter][ops][memory]") {
  Kernel k;
  Value *acc = k.ptrParam(ScalarKind::F32, "acc");
  Value *zeros = k.b.constInt(Type::tile({6}, ScalarKind::I32), 0);
  Value *vals = k.b.cast(k.b.arange(1, 7), ScalarKind::F32);  // 1..6
  Value *mask = k.b.binary(OpKind::Ne, k.b.arange(0, 6), k.b.splat(i32(k.b, 2), {6}));  // lane 2 (value 3) off
  k.b.atomicAdd(ptrsAt(k.b, acc, zeros), vals, mask);
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F32, {0.5}, "acc")};
  REQUIRE(interpret(k.f, {}, bufferArgs(1), bufs).ok());
  CHECK(bufs[0].get(0) == 0.5 + 1 + 2 + 4 + 5 + 6);
}

TEST_CASE("bitcast reads an element's bits as another type of its width", "[interpreter][ops]") {
  Kernel k;
  Value *out32 = k.ptrParam(ScalarKind::I32, "out32");
  Value *out16 = k.ptrParam(ScalarKind::I16, "out16");
  Value *outf = k.ptrParam(ScalarKind::F32, "outf");
  Value *one = k.b.constFloat(Type::scalar(ScalarKind::F32), 1.0);
  k.b.store(out32, k.b.bitcast(one, ScalarKind::I32));
  k.b.store(k.b.addptr(out16, i32(k.b, 0)), k.b.bitcast(k.b.constFloat(Type::scalar(ScalarKind::F16), 1.0), ScalarKind::I16));
  k.b.store(k.b.addptr(out16, i32(k.b, 1)), k.b.bitcast(k.b.constFloat(Type::scalar(ScalarKind::BF16), -2.0), ScalarKind::I16));
  k.b.store(outf, k.b.bitcast(k.b.constInt(Type::scalar(ScalarKind::I32), 0x40490fdb), ScalarKind::F32));  // pi
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  std::vector<Buffer> bufs{Buffer(ScalarKind::I32, 1, "out32"), Buffer(ScalarKind::I16, 2, "out16"),
                           Buffer(ScalarKind::F32, 1, "outf")};
  REQUIRE(interpret(k.f, {}, bufferArgs(3), bufs).ok());
  CHECK(bufs[0].getInt(0) == 0x3f800000);
  CHECK(bufs[1].getInt(0) == 0x3c00);
  CHECK(bufs[1].getInt(1) == static_cast<int16_t>(0xc000));
  CHECK(bufs[2].get(0) == Approx(3.14159274101257324));
}

TEST_CASE("every read-modify-write atomic and compare-and-swap, worked by hand", "[interpreter][ops][memory]") {
  // Six lanes 1..6, lane 2 masked off, all at element 0 holding 12 (0b1100);
  // the old values come back per lane, in lane order.
  struct Case {
    OpKind kind;
    int64_t final;
  } cases[] = {{OpKind::AtomicMax, 12}, {OpKind::AtomicMin, 1},  {OpKind::AtomicAnd, 0},
               {OpKind::AtomicOr, 15},  {OpKind::AtomicXor, 12 ^ 1 ^ 2 ^ 4 ^ 5 ^ 6}, {OpKind::AtomicXchg, 6}};
  for (const Case &c : cases) {
    INFO(opInfo(c.kind).name);
    Kernel k;
    Value *acc = k.ptrParam(ScalarKind::I32, "acc");
    Value *olds = k.ptrParam(ScalarKind::I32, "olds");
    Value *zeros = k.b.constInt(Type::tile({6}, ScalarKind::I32), 0);
    Value *mask = k.b.binary(OpKind::Ne, k.b.arange(0, 6), k.b.splat(i32(k.b, 2), {6}));
    Value *old = k.b.atomic(c.kind, {ptrsAt(k.b, acc, zeros), k.b.arange(1, 7), mask}, "acq_rel", "cta");
    k.b.store(ptrsAt(k.b, olds, k.b.arange(0, 6)), old, mask);
    k.b.ret();
    REQUIRE(verify(k.f).empty());
    std::vector<Buffer> bufs{ints(ScalarKind::I32, {12}, "acc"), Buffer(ScalarKind::I32, 6, "olds")};
    REQUIRE(interpret(k.f, {}, bufferArgs(2), bufs).ok());
    CHECK(bufs[0].getInt(0) == c.final);
    CHECK(bufs[1].getInt(0) == 12);  // the first lane sees the initial value
  }
  // atomic_cas writes where the element equals cmp, and returns the old value either way.
  Kernel k;
  Value *acc = k.ptrParam(ScalarKind::I64, "acc");
  Value *olds = k.ptrParam(ScalarKind::I64, "olds");
  Value *offs = k.b.arange(0, 4);
  Value *cmp = k.b.cast(k.b.binary(OpKind::Mul, offs, k.b.splat(i32(k.b, 10), {4})), ScalarKind::I64);  // 0 10 20 30
  Value *old = k.b.atomic(OpKind::AtomicCas, {ptrsAt(k.b, acc, offs), cmp, k.b.constInt(Type::tile({4}, ScalarKind::I64), -1)});
  k.b.store(ptrsAt(k.b, olds, offs), old);
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  std::vector<Buffer> bufs{ints(ScalarKind::I64, {0, 11, 20, 29}, "acc"), Buffer(ScalarKind::I64, 4, "olds")};
  REQUIRE(interpret(k.f, {}, bufferArgs(2), bufs).ok());
  for (int i = 0; i < 4; ++i) CHECK(bufs[1].getInt(i) == std::vector<int64_t>{0, 11, 20, 29}[static_cast<size_t>(i)]);
  CHECK(bufs[0].getInt(0) == -1);
  CHECK(bufs[0].getInt(1) == 11);
  CHECK(bufs[0].getInt(2) == -1);
  CHECK(bufs[0].getInt(3) == 29);
}

TEST_CASE("atomics refuse what they do not apply to, with the reason", "[interpreter][ops][memory]") {
  Type fp = Type::ptrTile({4}, ScalarKind::F32), f = Type::tile({4}, ScalarKind::F32);
  CHECK(inferResultTypes(OpKind::AtomicAnd, {fp, f}, {}, {}).error == "'atomic_and' applies to integers, got tile<4xf32>");
  CHECK(inferResultTypes(OpKind::AtomicCas, {fp, f, f}, {}, {}).error == "'atomic_cas' applies to 32- and 64-bit integers, got tile<4xf32>");
  CHECK(inferResultTypes(OpKind::AtomicMax, {fp, f}, {{"sem", Attr::string("seq_cst")}}, {}).error ==
        "'atomic_max' sem must be one of relaxed, acquire, release, acq_rel, got 'seq_cst'");
  CHECK(inferResultTypes(OpKind::AtomicMax, {fp, f}, {{"scope", Attr::string("sys")}}, {}).error ==
        "'atomic_max' at sys scope is not supported: atomics are GPU-wide (gpu or cta)");
  CHECK(inferResultTypes(OpKind::AtomicMax, {fp, f}, {{"order", Attr::string("x")}}, {}).error ==
        "'atomic_max' has unknown attribute 'order'");
}

TEST_CASE("bitcast and the hints refuse what they do not apply to, with the reason", "[interpreter][ops]") {
  Type f = Type::tile({4}, ScalarKind::F32), i = Type::tile({4}, ScalarKind::I32);
  CHECK(inferResultTypes(OpKind::Bitcast, {f}, {}, {Type::tile({4}, ScalarKind::I16)}).error ==
        "'bitcast' needs two element types of one width (not i1, not pointers): tile<4xf32> to tile<4xi16>");
  CHECK(inferResultTypes(OpKind::MultipleOf, {f}, {{"values", Attr::list({4})}}, {}).error ==
        "'multiple_of' applies to integers, got tile<4xf32>");
  CHECK(inferResultTypes(OpKind::MaxContiguous, {i}, {{"values", Attr::list({3})}}, {}).error ==
        "'max_contiguous' values must be powers of two, got 3");
  CHECK(inferResultTypes(OpKind::MultipleOf, {i}, {{"values", Attr::list({4, 4})}}, {}).error ==
        "'multiple_of' needs one value per dimension of tile<4xi32>, got 2");
}

TEST_CASE("atomic_add on f16 rounds each addition", "[interpreter][ops][memory]") {
  Kernel k;
  Value *acc = k.ptrParam(ScalarKind::F16, "acc");
  Value *zeros = k.b.constInt(Type::tile({4}, ScalarKind::I32), 0);
  k.b.atomicAdd(ptrsAt(k.b, acc, zeros), k.b.constFloat(Type::tile({4}, ScalarKind::F16), 1.0));
  k.b.ret();
  std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F16, {2048.0}, "acc")};
  REQUIRE(interpret(k.f, {}, bufferArgs(1), bufs).ok());
  CHECK(bufs[0].get(0) == 2048.0);  // 2048 + 1 rounds back to 2048 four times
}

//===-- Out-of-bounds accesses ---------------------------------------------===//

namespace {
/// Each program loads (or stores) x[pid * 4 + 0..3] without a mask.
RunResult runUnmasked(bool isStore, size_t bufferSize, int64_t programs) {
  Kernel k;
  Value *x = k.ptrParam(ScalarKind::F32, "x");
  Value *offs = k.b.binary(OpKind::Add, k.b.splat(k.b.binary(OpKind::Mul, k.b.programId(0), i32(k.b, 4)), {4}),
                           k.b.arange(0, 4));
  Value *ptrs = ptrsAt(k.b, x, offs);
  k.b.setLoc(Location("k.cpp", 7, 3));
  if (isStore) {
    k.b.store(ptrs, k.b.constFloat(Type::tile({4}, ScalarKind::F32), 1.0));
  } else {
    Value *v = k.b.load(ptrs);
    k.b.setLoc(Location("k.cpp", 8, 3));
    k.b.store(ptrs, v);
  }
  k.b.ret();
  std::vector<Buffer> bufs{Buffer(ScalarKind::F32, bufferSize, "xbuf")};
  return interpret(k.f, {programs, 1, 1}, bufferArgs(1), bufs);
}
} // namespace

TEST_CASE("an unmasked out-of-bounds load is a located error", "[interpreter][errors][memory]") {
  RunResult r = runUnmasked(false, 10, 3);  // program 2 reads 8..11; 10 is the first outside
  REQUIRE_FALSE(r.ok());
  const std::string &msg = r.error->message;
  CHECK_THAT(msg, Catch::Contains("'load'"));
  CHECK_THAT(msg, Catch::Contains("element offset 10"));
  CHECK_THAT(msg, Catch::Contains("'xbuf'"));
  CHECK_THAT(msg, Catch::Contains("program (2, 0, 0)"));
  CHECK(r.error->loc == Location("k.cpp", 7, 3));
  CHECK_THAT(r.error->str(), Catch::StartsWith("k.cpp:7:3: error:"));
}

TEST_CASE("an unmasked out-of-bounds store is a located error", "[interpreter][errors][memory]") {
  RunResult r = runUnmasked(true, 6, 2);  // program 1 writes 4..7; 6 is the first outside
  REQUIRE_FALSE(r.ok());
  const std::string &msg = r.error->message;
  CHECK_THAT(msg, Catch::Contains("'store'"));
  CHECK_THAT(msg, Catch::Contains("element offset 6"));
  CHECK_THAT(msg, Catch::Contains("'xbuf'"));
  CHECK_THAT(msg, Catch::Contains("program (1, 0, 0)"));
  CHECK_THAT(r.error->str(), Catch::StartsWith("k.cpp:7:3: error:"));
}

TEST_CASE("in-bounds unmasked accesses are not errors", "[interpreter][errors][memory]") {
  CHECK(runUnmasked(false, 12, 3).ok());
  CHECK(runUnmasked(true, 8, 2).ok());
}

TEST_CASE("a negative offset is out of bounds", "[interpreter][errors][memory]") {
  Kernel k;
  Value *x = k.ptrParam(ScalarKind::I32, "x");
  k.b.setLoc(Location("neg.cpp", 2, 9));
  k.b.load(k.b.addptr(x, i32(k.b, -1)));
  k.b.ret();
  std::vector<Buffer> bufs{Buffer(ScalarKind::I32, 4, "x")};
  RunResult r = interpret(k.f, {}, bufferArgs(1), bufs);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error->message, Catch::Contains("-1"));
  CHECK_THAT(r.error->str(), Catch::StartsWith("neg.cpp:2:9: error:"));
}

//===-- Launch arguments --------------------------------------------------===//

namespace {
struct LaunchFixture {
  Kernel k{"saxpy"};
  LaunchFixture() {
    Value *x = k.ptrParam(ScalarKind::F32, "x");
    Value *n = k.param(ScalarKind::I32, "n");
    Value *offs = k.b.arange(0, 4);
    k.b.load(ptrsAt(k.b, x, offs), k.b.binary(OpKind::Lt, offs, k.b.splat(n, {4})));
    k.b.ret();
  }
  RunResult run(Grid g, std::vector<KernelArg> args, std::vector<Buffer> bufs) {
    return interpret(k.f, g, args, bufs);
  }
  static std::vector<Buffer> f32Buffer() { return {Buffer(ScalarKind::F32, 4, "xs")}; }
};
} // namespace

TEST_CASE("correct launch arguments run", "[interpreter][errors][launch]") {
  LaunchFixture fx;
  CHECK(fx.run({}, {KernelArg::buf(0), KernelArg::integer(4)}, LaunchFixture::f32Buffer()).ok());
}

TEST_CASE("a wrong argument count is a launch error", "[interpreter][errors][launch]") {
  LaunchFixture fx;
  RunResult r = fx.run({}, {KernelArg::buf(0)}, LaunchFixture::f32Buffer());
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error->message, Catch::Contains("'saxpy'"));
  CHECK_THAT(r.error->message, Catch::Contains("2 arguments, got 1"));
  RunResult more = fx.run({}, {KernelArg::buf(0), KernelArg::integer(1), KernelArg::integer(2)},
                          LaunchFixture::f32Buffer());
  REQUIRE_FALSE(more.ok());
  CHECK_THAT(more.error->message, Catch::Contains("got 3"));
}

TEST_CASE("a buffer of the wrong element type is a launch error", "[interpreter][errors][launch]") {
  LaunchFixture fx;
  RunResult r = fx.run({}, {KernelArg::buf(0), KernelArg::integer(4)}, {Buffer(ScalarKind::I32, 4, "ints")});
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error->message, Catch::Contains("'x'"));
  CHECK_THAT(r.error->message, Catch::Contains("'ints'"));
  CHECK_THAT(r.error->message, Catch::Contains("i32"));
  CHECK_THAT(r.error->message, Catch::Contains("ptr<f32>"));
}

TEST_CASE("an integer for a pointer parameter is a launch error", "[interpreter][errors][launch]") {
  LaunchFixture fx;
  RunResult r = fx.run({}, {KernelArg::integer(0), KernelArg::integer(4)}, LaunchFixture::f32Buffer());
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error->message, Catch::Contains("argument 0"));
  CHECK_THAT(r.error->message, Catch::Contains("needs a buffer"));
}

TEST_CASE("a missing buffer index is a launch error", "[interpreter][errors][launch]") {
  LaunchFixture fx;
  RunResult r = fx.run({}, {KernelArg::buf(3), KernelArg::integer(4)}, LaunchFixture::f32Buffer());
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error->message, Catch::Contains("does not exist"));
}

TEST_CASE("a float or a buffer for an integer parameter is a launch error", "[interpreter][errors][launch]") {
  LaunchFixture fx;
  RunResult r = fx.run({}, {KernelArg::buf(0), KernelArg::floating(4.0)}, LaunchFixture::f32Buffer());
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error->message, Catch::Contains("argument 1 ('n')"));
  CHECK_THAT(r.error->message, Catch::Contains("needs an integer"));
  CHECK_FALSE(fx.run({}, {KernelArg::buf(0), KernelArg::buf(0)}, LaunchFixture::f32Buffer()).ok());
}

TEST_CASE("an integer argument that does not fit its parameter is a launch error", "[interpreter][errors][launch]") {
  LaunchFixture fx;
  RunResult r = fx.run({}, {KernelArg::buf(0), KernelArg::integer(int64_t(1) << 40)}, LaunchFixture::f32Buffer());
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error->message, Catch::Contains("does not fit"));
}

TEST_CASE("a nonpositive grid is a launch error", "[interpreter][errors][launch]") {
  LaunchFixture fx;
  for (Grid g : {Grid{0, 1, 1}, Grid{1, -2, 1}, Grid{1, 1, 0}}) {
    RunResult r = fx.run(g, {KernelArg::buf(0), KernelArg::integer(4)}, LaunchFixture::f32Buffer());
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error->message, Catch::Contains("grid"));
    CHECK_THAT(r.error->message, Catch::Contains("positive"));
  }
}

TEST_CASE("scalar float parameters are rounded to their type", "[interpreter][ops]") {
  Kernel k;
  Value *a = k.param(ScalarKind::F16, "a");
  Value *b = k.param(ScalarKind::F32, "b");
  Value *out = k.ptrParam(ScalarKind::F32, "out");
  k.b.store(k.b.addptr(out, i32(k.b, 0)), k.b.cast(a, ScalarKind::F32));
  k.b.store(k.b.addptr(out, i32(k.b, 1)), b);
  k.b.ret();
  std::vector<Buffer> bufs{Buffer(ScalarKind::F32, 2, "out")};
  REQUIRE(interpret(k.f, {}, {KernelArg::floating(0.1), KernelArg::integer(3), KernelArg::buf(0)}, bufs).ok());
  CHECK(bufs[0].get(0) == decodeF16(encodeF16(0.1)));
  CHECK(bufs[0].get(1) == 3.0);
}
