// Tests of the reference interpreter (ir/Interpreter.h), one op family at a
// time: each builds a tiny kernel with the Builder (OpKernels.h), runs it on
// host buffers and compares with values computed here by plain C++ loops,
// following the semantics written in IR.h. This file: program identity,
// constants, shapes, casts, --math=fast; InterpreterArithTest.cpp the
// elementwise arithmetic, InterpreterMemoryTest.cpp memory and launch
// arguments, InterpreterRegionsTest.cpp reductions, dot and control flow.
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

//===-- Program identity, constants, arange -------------------------------===//

TEST_CASE("program_id and num_programs give each program's coordinates", "[interpreter][ops]") {
  Kernel k;
  Value *out = k.ptrParam(ScalarKind::I32, "out");
  Value *p0 = k.b.programId(0), *p1 = k.b.programId(1), *p2 = k.b.programId(2);
  Value *n0 = k.b.numPrograms(0), *n1 = k.b.numPrograms(1), *n2 = k.b.numPrograms(2);
  // linear = p0 + n0 * (p1 + n1 * p2); out[6 * linear + j] = (p0, p1, p2, n0, n1, n2)[j]
  Value *lin = k.b.binary(OpKind::Add, p0,
                          k.b.binary(OpKind::Mul, n0, k.b.binary(OpKind::Add, p1, k.b.binary(OpKind::Mul, n1, p2))));
  Value *base = k.b.binary(OpKind::Mul, lin, i32(k.b, 6));
  Value *vals[6] = {p0, p1, p2, n0, n1, n2};
  for (int j = 0; j < 6; ++j)
    k.b.store(k.b.addptr(out, k.b.binary(OpKind::Add, base, i32(k.b, j))), vals[j]);
  k.b.ret();
  REQUIRE(verify(k.f).empty());

  Grid g{3, 2, 4};
  std::vector<Buffer> bufs{Buffer(ScalarKind::I32, 6 * 24, "out")};
  RunResult r = interpret(k.f, g, {KernelArg::buf(0)}, bufs);
  REQUIRE(r.ok());
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 3; ++x) {
        size_t base6 = 6 * static_cast<size_t>(x + 3 * (y + 2 * z));
        std::vector<int64_t> want{x, y, z, 3, 2, 4};
        for (size_t j = 0; j < 6; ++j) CHECK(bufs[0].getInt(base6 + j) == want[j]);
      }
}

TEST_CASE("constant fills a tile and rounds or wraps to its type", "[interpreter][ops]") {
  Kernel k;
  Value *of = k.ptrParam(ScalarKind::F32, "of");
  Value *oh = k.ptrParam(ScalarKind::F16, "oh");
  Value *oi = k.ptrParam(ScalarKind::I8, "oi");
  Value *offs = k.b.arange(0, 4);
  k.b.store(ptrsAt(k.b, of, offs), k.b.constFloat(Type::tile({4}, ScalarKind::F32), 0.1));
  k.b.store(ptrsAt(k.b, oh, offs), k.b.constFloat(Type::tile({4}, ScalarKind::F16), 0.1));
  k.b.store(ptrsAt(k.b, oi, offs), k.b.constInt(Type::tile({4}, ScalarKind::I8), 300));
  k.b.ret();
  std::vector<Buffer> bufs{Buffer(ScalarKind::F32, 4, "of"), Buffer(ScalarKind::F16, 4, "oh"),
                           Buffer(ScalarKind::I8, 4, "oi")};
  REQUIRE(interpret(k.f, {}, bufferArgs(3), bufs).ok());
  for (size_t i = 0; i < 4; ++i) {
    CHECK(bufs[0].get(i) == static_cast<double>(0.1f));
    CHECK(bufs[1].get(i) == 0.0999755859375);  // the f16 nearest to 0.1
    CHECK(bufs[2].getInt(i) == 300 - 256);
  }
}

TEST_CASE("arange counts from start to end - 1", "[interpreter][ops]") {
  Kernel k;
  Value *out = k.ptrParam(ScalarKind::I32, "out");
  Value *r = k.b.arange(5, 13);
  k.b.store(ptrsAt(k.b, out, k.b.arange(0, 8)), r);
  k.b.ret();
  std::vector<Buffer> bufs{Buffer(ScalarKind::I32, 8, "out")};
  REQUIRE(interpret(k.f, {}, bufferArgs(1), bufs).ok());
  for (int i = 0; i < 8; ++i) CHECK(bufs[0].getInt(i) == 5 + i);
}

//===-- Shapes ------------------------------------------------------------===//

TEST_CASE("splat copies a scalar into every element", "[interpreter][ops]") {
  Kernel k;
  Value *n = k.param(ScalarKind::I32, "n");
  Value *out = k.ptrParam(ScalarKind::I32, "out");
  k.b.store(ptrsAt(k.b, out, offsets2d(k.b, 2, 3)), k.b.splat(n, {2, 3}));
  k.b.ret();
  std::vector<Buffer> bufs{Buffer(ScalarKind::I32, 6, "out")};
  REQUIRE(interpret(k.f, {}, {KernelArg::integer(-42), KernelArg::buf(0)}, bufs).ok());
  CHECK(intValues(bufs[0]) == std::vector<int64_t>(6, -42));
}

TEST_CASE("broadcast repeats size-1 dimensions along rows and columns", "[interpreter][ops]") {
  Kernel k;
  Value *rowsOut = k.ptrParam(ScalarKind::I32, "rows");
  Value *colsOut = k.ptrParam(ScalarKind::I32, "cols");
  Value *offs = offsets2d(k.b, 3, 4);
  // [1, 4] -> [3, 4]: every row is 10, 11, 12, 13
  Value *row = k.b.expandDims(k.b.arange(10, 14), 0);
  k.b.store(ptrsAt(k.b, rowsOut, offs), k.b.broadcast(row, {3, 4}));
  // [3, 1] -> [3, 4]: every column is 20, 21, 22
  Value *col = k.b.expandDims(k.b.arange(20, 23), 1);
  k.b.store(ptrsAt(k.b, colsOut, offs), k.b.broadcast(col, {3, 4}));
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  std::vector<Buffer> bufs{Buffer(ScalarKind::I32, 12, "rows"), Buffer(ScalarKind::I32, 12, "cols")};
  REQUIRE(interpret(k.f, {}, bufferArgs(2), bufs).ok());
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) {
      CHECK(bufs[0].getInt(r * 4 + c) == 10 + c);
      CHECK(bufs[1].getInt(r * 4 + c) == 20 + r);
    }
}

TEST_CASE("expand_dims and reshape keep the row-major element order", "[interpreter][ops]") {
  Kernel k;
  Value *out = k.ptrParam(ScalarKind::I32, "out");
  Value *v = k.b.arange(0, 12);                  // 0..11
  Value *e = k.b.expandDims(v, 0);               // [1, 12]
  Value *r = k.b.reshape(e, {3, 4});             // [3, 4]
  Value *r2 = k.b.reshape(r, {2, 2, 3});         // [2, 2, 3]
  Value *flat = k.b.reshape(r2, {12});
  Value *plus = k.b.binary(OpKind::Add, flat, k.b.splat(i32(k.b, 100), {12}));
  k.b.store(ptrsAt(k.b, out, k.b.arange(0, 12)), plus);
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  std::vector<Buffer> bufs{Buffer(ScalarKind::I32, 12, "out")};
  REQUIRE(interpret(k.f, {}, bufferArgs(1), bufs).ok());
  for (int i = 0; i < 12; ++i) CHECK(bufs[0].getInt(i) == 100 + i);
}

TEST_CASE("trans of a 2-D tile swaps rows and columns", "[interpreter][ops]") {
  Kernel k;
  Value *x = k.ptrParam(ScalarKind::F32, "x");
  Value *out = k.ptrParam(ScalarKind::F32, "out");
  Value *t = k.b.load(ptrsAt(k.b, x, offsets2d(k.b, 2, 3)));
  k.b.store(ptrsAt(k.b, out, offsets2d(k.b, 3, 2)), k.b.trans(t, {1, 0}));
  k.b.ret();
  std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F32, {1, 2, 3, 4, 5, 6}, "x"),
                           Buffer(ScalarKind::F32, 6, "out")};
  REQUIRE(interpret(k.f, {}, bufferArgs(2), bufs).ok());
  // x = [[1 2 3] [4 5 6]] -> out = [[1 4] [2 5] [3 6]]
  CHECK(bufs[1].values() == std::vector<double>{1, 4, 2, 5, 3, 6});
}

TEST_CASE("trans of a 3-D tile follows its permutation", "[interpreter][ops]") {
  const int64_t d0 = 2, d1 = 3, d2 = 4;
  Kernel k;
  Value *out = k.ptrParam(ScalarKind::I32, "out");
  Value *v = k.b.reshape(k.b.arange(0, d0 * d1 * d2), {d0, d1, d2});
  // perm [2, 0, 1]: result[i][j][l] = v[j][l][i], shape [d2, d0, d1]
  Value *t = k.b.trans(v, {2, 0, 1});
  REQUIRE(t->type.shape == Shape{d2, d0, d1});
  k.b.store(ptrsAt(k.b, out, k.b.arange(0, d0 * d1 * d2)), k.b.reshape(t, {d0 * d1 * d2}));
  k.b.ret();
  std::vector<Buffer> bufs{Buffer(ScalarKind::I32, d0 * d1 * d2, "out")};
  REQUIRE(interpret(k.f, {}, bufferArgs(1), bufs).ok());
  for (int64_t i = 0; i < d2; ++i)
    for (int64_t j = 0; j < d0; ++j)
      for (int64_t l = 0; l < d1; ++l)
        CHECK(bufs[0].getInt((i * d0 + j) * d1 + l) == (j * d1 + l) * d2 + i);
}

//===-- Casts -------------------------------------------------------------===//

TEST_CASE("cast float to int truncates toward zero", "[interpreter][ops][cast]") {
  MapResult m = runCast(Buffer::fromValues(ScalarKind::F32, {2.7, -2.7, 0.5, -0.5, 100.0, -0.0}, "x"), ScalarKind::I32);
  REQUIRE(m.run.ok());
  CHECK(intValues(m.out()) == std::vector<int64_t>{2, -2, 0, 0, 100, 0});
}

TEST_CASE("cast float to int saturates and maps NaN to 0", "[interpreter][ops][cast]") {
  Buffer x = Buffer::fromValues(ScalarKind::F32, {1e10, -1e10, kInf, -kInf, kNaN, 2147483520.0}, "x");
  MapResult m = runCast(x, ScalarKind::I32);
  REQUIRE(m.run.ok());
  CHECK(intValues(m.out()) == std::vector<int64_t>{kI32Max, kI32Min, kI32Max, kI32Min, 0, 2147483520});
  MapResult m8 = runCast(Buffer::fromValues(ScalarKind::F32, {300.0, -300.0, 127.9, -128.9, kNaN}, "x"), ScalarKind::I8);
  REQUIRE(m8.run.ok());
  CHECK(intValues(m8.out()) == std::vector<int64_t>{127, -128, 127, -128, 0});
  MapResult m64 = runCast(Buffer::fromValues(ScalarKind::F64, {1e30, -1e30, kNaN}, "x"), ScalarKind::I64);
  REQUIRE(m64.run.ok());
  CHECK(intValues(m64.out()) == std::vector<int64_t>{std::numeric_limits<int64_t>::max(),
                                                    std::numeric_limits<int64_t>::min(), 0});
}

TEST_CASE("cast int to float rounds to nearest even", "[interpreter][ops][cast]") {
  MapResult m = runCast(ints(ScalarKind::I32, {16777217, 16777219, -16777217, 3, kI32Max}, "x"), ScalarKind::F32);
  REQUIRE(m.run.ok());
  CHECK(m.out().values() == std::vector<double>{16777216.0, 16777220.0, -16777216.0, 3.0, 2147483648.0});
  MapResult h = runCast(ints(ScalarKind::I32, {2049, 2051, 70000, -70000, 65519}, "x"), ScalarKind::F16);
  REQUIRE(h.run.ok());
  CHECK(h.out().values() == std::vector<double>{2048.0, 2052.0, kInf, -kInf, 65504.0});
}

TEST_CASE("cast i64 to f32 rounds once and not through double", "[interpreter][ops][cast]") {
  // 2^60 + 2^36 + 1 lies just above the midpoint of two f32 neighbours (ulp 2^37):
  // correct rounding goes up. Rounding to double first lands exactly on the
  // midpoint, and the second rounding then goes to the even neighbour, 2^60.
  int64_t v = (int64_t(1) << 60) + (int64_t(1) << 36) + 1;
  MapResult m = runCast(ints(ScalarKind::I64, {v, -v}, "x"), ScalarKind::F32);
  REQUIRE(m.run.ok());
  CHECK(m.out().get(0) == static_cast<double>(static_cast<float>(v)));
  CHECK(m.out().get(0) == std::ldexp(1.0, 60) + std::ldexp(1.0, 37));
  CHECK(m.out().get(1) == -(std::ldexp(1.0, 60) + std::ldexp(1.0, 37)));
}

TEST_CASE("cast of random wide i64 values to f32 and bf16 is correctly rounded", "[interpreter][ops][cast]") {
  std::mt19937_64 rng(64);
  std::vector<int64_t> vs;
  for (int i = 0; i < 256; ++i) {
    int shift = static_cast<int>(rng() % 40);  // 24..63 significant bits
    vs.push_back(static_cast<int64_t>(rng() >> shift) * (i % 2 ? -1 : 1));
  }
  MapResult f = runCast(ints(ScalarKind::I64, vs, "x"), ScalarKind::F32);
  MapResult h = runCast(ints(ScalarKind::I64, vs, "x"), ScalarKind::BF16);
  REQUIRE((f.run.ok() && h.run.ok()));
  int bad = 0;
  for (size_t i = 0; i < vs.size(); ++i) {
    // The C++ integer-to-float conversion rounds correctly.
    if (f.out().get(i) != static_cast<double>(static_cast<float>(vs[i]))) ++bad;
    // bf16 by hand: keep the top 8 significant bits, round to nearest even.
    uint64_t mag = vs[i] < 0 ? 0 - static_cast<uint64_t>(vs[i]) : static_cast<uint64_t>(vs[i]);
    int bits = 64 - __builtin_clzll(mag);
    uint64_t want = mag;
    if (bits > 8) {
      int drop = bits - 8;
      uint64_t q = mag >> drop, r = mag & ((uint64_t(1) << drop) - 1), half = uint64_t(1) << (drop - 1);
      if (r > half || (r == half && (q & 1))) ++q;
      want = q << drop;  // may carry into one more bit; still exact in double
    }
    double w = vs[i] < 0 ? -static_cast<double>(want) : static_cast<double>(want);
    if (h.out().get(i) != w) ++bad;
  }
  CHECK(bad == 0);
}

TEST_CASE("cast to i1 is != 0", "[interpreter][ops][cast]") {
  MapResult f = runCast(Buffer::fromValues(ScalarKind::F32, {0.0, -0.0, 0.5, -2.0, kNaN, kInf}, "x"), ScalarKind::I1);
  REQUIRE(f.run.ok());
  CHECK(intValues(f.out()) == std::vector<int64_t>{0, 0, 1, 1, 1, 1});
  MapResult i = runCast(ints(ScalarKind::I32, {0, 2, -1, 256}, "x"), ScalarKind::I1);
  REQUIRE(i.run.ok());
  CHECK(intValues(i.out()) == std::vector<int64_t>{0, 1, 1, 1});  // 2 and 256 are not truncated to bit 0
}

TEST_CASE("cast from i1 zero-extends", "[interpreter][ops][cast]") {
  Buffer b = ints(ScalarKind::I1, {1, 0, 1}, "x");
  MapResult i = runCast(b, ScalarKind::I32);
  REQUIRE(i.run.ok());
  CHECK(intValues(i.out()) == std::vector<int64_t>{1, 0, 1});
  MapResult i8 = runCast(b, ScalarKind::I8);
  CHECK(intValues(i8.out()) == std::vector<int64_t>{1, 0, 1});
  MapResult f = runCast(b, ScalarKind::F32);
  CHECK(f.out().values() == std::vector<double>{1.0, 0.0, 1.0});
}

TEST_CASE("cast between ints truncates or sign-extends", "[interpreter][ops][cast]") {
  MapResult down = runCast(ints(ScalarKind::I32, {300, 200, -129, 127, 65535}, "x"), ScalarKind::I8);
  REQUIRE(down.run.ok());
  CHECK(intValues(down.out()) == std::vector<int64_t>{44, -56, 127, 127, -1});
  MapResult up = runCast(ints(ScalarKind::I8, {-5, 127, -128}, "x"), ScalarKind::I64);
  REQUIRE(up.run.ok());
  CHECK(intValues(up.out()) == std::vector<int64_t>{-5, 127, -128});
}

TEST_CASE("cast between float kinds rounds to the target", "[interpreter][ops][cast]") {
  double u = std::ldexp(1.0, -11);
  Buffer x = Buffer::fromValues(ScalarKind::F32, {1.0 + u, 1.0 + 3 * u, 65520.0, 0.1, -0.0}, "x");
  MapResult h = runCast(x, ScalarKind::F16);
  REQUIRE(h.run.ok());
  CHECK(h.out().get(0) == 1.0);
  CHECK(h.out().get(1) == 1.0 + std::ldexp(1.0, -9));
  CHECK(h.out().get(2) == kInf);
  CHECK(h.out().get(3) == decodeF16(0x2e66));
  CHECK(std::signbit(h.out().get(4)));
  MapResult back = runCast(h.out(), ScalarKind::F32);  // f16 -> f32 is exact
  REQUIRE(back.run.ok());
  for (size_t i = 0; i < 5; ++i) CHECK(back.out().get(i) == h.out().get(i));
  MapResult bf = runCast(Buffer::fromValues(ScalarKind::F32, {1.0 + std::ldexp(1.0, -8), 3.0}, "x"), ScalarKind::BF16);
  CHECK(bf.out().values() == std::vector<double>{1.0, 3.0});
  MapResult d = runCast(Buffer::fromValues(ScalarKind::F64, {0.1}, "x"), ScalarKind::F32);
  CHECK(d.out().get(0) == static_cast<double>(0.1f));
}

//===-- --math=fast: rsqrt's flush ----------------------------------------===//

TEST_CASE("fastMath flushes rsqrt's subnormal f32 and bf16 operands to a zero of their sign", "[interpreter][ops]") {
  // As the GPU's rsqrt.approx.ftz (IR.h): +inf and -inf where precise gives
  // a large finite value and NaN; normal operands, and f64, unchanged.
  const double values[] = {1e-40, -1e-40, 4.0, 0x1p-126};
  for (ScalarKind e : {ScalarKind::F32, ScalarKind::BF16, ScalarKind::F64}) {
    INFO(scalarName(e));
    Kernel k;
    Value *x = k.ptrParam(e, "x"), *out = k.ptrParam(e, "out");
    Value *offs = k.b.arange(0, 4);
    k.b.store(ptrsAt(k.b, out, offs), k.b.unary(OpKind::Rsqrt, k.b.load(ptrsAt(k.b, x, offs))));
    k.b.ret();
    REQUIRE(verify(k.f).empty());
    for (bool fast : {false, true}) {
      INFO("fastMath " << fast);
      std::vector<Buffer> bufs{Buffer(e, 4, "x"), Buffer(e, 4, "out")};
      for (size_t i = 0; i < 4; ++i) bufs[0].set(i, values[i]);
      InterpretOptions opts;
      opts.fastMath = fast;
      REQUIRE(interpret(k.f, {}, {KernelArg::buf(0), KernelArg::buf(1)}, bufs, opts).ok());
      bool flushed = fast && e != ScalarKind::F64;
      if (flushed) CHECK(bufs[1].get(0) == INFINITY);
      else CHECK((std::isfinite(bufs[1].get(0)) && bufs[1].get(0) > 1e19));
      if (flushed) CHECK(bufs[1].get(1) == -INFINITY);
      else CHECK(std::isnan(bufs[1].get(1)));
      CHECK(bufs[1].get(2) == 0.5);
      CHECK(std::isfinite(bufs[1].get(3)));  // the smallest normal is not flushed
    }
  }
}
