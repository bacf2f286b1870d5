// Tests of the reference interpreter (ir/Interpreter.h), one op family at a
// time: each builds a tiny kernel with the Builder, runs it on host buffers
// and compares with values computed here by plain C++ loops, following the
// semantics written in IR.h.
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

using namespace tt::ir;
using namespace tt::ir::test;

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

//===-- Elementwise unary -------------------------------------------------===//

TEST_CASE("float unary ops compute in double and round once to f32", "[interpreter][ops]") {
  std::vector<double> xs{0.5, 1.0, 2.25, 3.0, 0.1, 7.5, 0.001, 10.0};
  struct Case {
    OpKind kind;
    double (*ref)(double);
  };
  std::vector<Case> cases{
      {OpKind::Neg, [](double x) { return -x; }},
      {OpKind::Abs, [](double x) { return std::fabs(x); }},
      {OpKind::Exp, [](double x) { return std::exp(x); }},
      {OpKind::Exp2, [](double x) { return std::exp2(x); }},
      {OpKind::Log, [](double x) { return std::log(x); }},
      {OpKind::Log2, [](double x) { return std::log2(x); }},
      {OpKind::Sqrt, [](double x) { return std::sqrt(x); }},
      {OpKind::Rsqrt, [](double x) { return 1 / std::sqrt(x); }},
      {OpKind::Sin, [](double x) { return std::sin(x); }},
      {OpKind::Cos, [](double x) { return std::cos(x); }},
      {OpKind::Tanh, [](double x) { return std::tanh(x); }},
      {OpKind::Sigmoid, [](double x) { return 1 / (1 + std::exp(-x)); }},
  };
  for (double sign : {1.0, -1.0})
    for (const Case &c : cases) {
      INFO(opInfo(c.kind).name << " sign " << sign);
      std::vector<double> in;
      for (double x : xs) in.push_back(sign * x);
      Buffer xb = Buffer::fromValues(ScalarKind::F32, in, "x");
      MapResult m = runOp(c.kind, {xb});
      REQUIRE(m.run.ok());
      for (size_t i = 0; i < in.size(); ++i) {
        double x = xb.get(i);  // the f32 input
        double want = static_cast<float>(c.ref(x));
        INFO("x = " << x);
        CHECK(sameFloat(m.out().get(i), want));
      }
    }
}

TEST_CASE("float unary ops on special values", "[interpreter][ops]") {
  Buffer x = Buffer::fromValues(ScalarKind::F32, {-1.0, 0.0, -0.0, kInf, -kInf, kNaN}, "x");
  MapResult sq = runOp(OpKind::Sqrt, {x});
  REQUIRE(sq.run.ok());
  CHECK(std::isnan(sq.out().get(0)));
  CHECK(sq.out().get(1) == 0.0);
  CHECK(sq.out().get(3) == kInf);
  CHECK(std::isnan(sq.out().get(5)));
  MapResult lg = runOp(OpKind::Log, {x});
  REQUIRE(lg.run.ok());
  CHECK(lg.out().get(1) == -kInf);
  CHECK(lg.out().get(3) == kInf);
  MapResult ex = runOp(OpKind::Exp, {x});
  REQUIRE(ex.run.ok());
  CHECK(ex.out().get(3) == kInf);
  CHECK(ex.out().get(4) == 0.0);
  MapResult ab = runOp(OpKind::Abs, {x});
  CHECK(ab.out().get(4) == kInf);
  CHECK(!std::signbit(ab.out().get(2)));
  MapResult ng = runOp(OpKind::Neg, {x});
  CHECK(std::signbit(ng.out().get(1)));  // -(+0) = -0
  // exp(100) overflows f32 but not double: it must round to f32 infinity.
  MapResult big = runOp(OpKind::Exp, {Buffer::fromValues(ScalarKind::F32, {100.0}, "x")});
  CHECK(big.out().get(0) == kInf);
}

TEST_CASE("f16 unary ops round their result to f16", "[interpreter][ops]") {
  std::vector<double> in{0.1, 0.7, 1.3, 2.0, 3.3};
  Buffer x = Buffer::fromValues(ScalarKind::F16, in, "x");
  MapResult m = runOp(OpKind::Exp, {x});
  REQUIRE(m.run.ok());
  for (size_t i = 0; i < in.size(); ++i) {
    double want = decodeF16(encodeF16(std::exp(x.get(i))));
    CHECK(m.out().get(i) == want);
  }
}

TEST_CASE("integer neg abs and not wrap in two's complement", "[interpreter][ops]") {
  std::vector<int64_t> in{0, 1, -1, 5, -7, kI32Max, kI32Min};
  Buffer x = ints(ScalarKind::I32, in, "x");
  MapResult neg = runOp(OpKind::Neg, {x}), abs = runOp(OpKind::Abs, {x}), nt = runOp(OpKind::Not, {x});
  REQUIRE((neg.run.ok() && abs.run.ok() && nt.run.ok()));
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t v = in[i];
    int64_t wantNeg = v == kI32Min ? kI32Min : -v;
    CHECK(neg.out().getInt(i) == wantNeg);
    CHECK(abs.out().getInt(i) == (v < 0 ? wantNeg : v));
    CHECK(nt.out().getInt(i) == -v - 1);
  }
  MapResult n8 = runOp(OpKind::Neg, {ints(ScalarKind::I8, {-128, 127, 3})});
  CHECK(intValues(n8.out()) == std::vector<int64_t>{-128, -127, -3});
  MapResult not1 = runOp(OpKind::Not, {ints(ScalarKind::I1, {0, 1})});
  CHECK(intValues(not1.out()) == std::vector<int64_t>{1, 0});
}

//===-- Elementwise binary ------------------------------------------------===//

TEST_CASE("f32 binary ops are rounded like C++ float arithmetic", "[interpreter][ops]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  std::vector<double> xs, ys;
  for (int i = 0; i < 64; ++i) {
    xs.push_back(dist(rng));
    ys.push_back(dist(rng));
  }
  Buffer x = Buffer::fromValues(ScalarKind::F32, xs, "x"), y = Buffer::fromValues(ScalarKind::F32, ys, "y");
  struct Case {
    OpKind kind;
    float (*ref)(float, float);
  };
  std::vector<Case> cases{
      {OpKind::Add, [](float a, float b) { return a + b; }},
      {OpKind::Sub, [](float a, float b) { return a - b; }},
      {OpKind::Mul, [](float a, float b) { return a * b; }},
      {OpKind::Div, [](float a, float b) { return a / b; }},
      {OpKind::Rem, [](float a, float b) { return std::fmod(a, b); }},
      {OpKind::Minimum, [](float a, float b) { return a < b ? a : b; }},
      {OpKind::Maximum, [](float a, float b) { return a > b ? a : b; }},
  };
  for (const Case &c : cases) {
    INFO(opInfo(c.kind).name);
    MapResult m = runOp(c.kind, {x, y});
    REQUIRE(m.run.ok());
    int bad = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      float want = c.ref(static_cast<float>(xs[i]), static_cast<float>(ys[i]));
      if (m.out().get(i) != static_cast<double>(want)) ++bad;
    }
    CHECK(bad == 0);
  }
}

TEST_CASE("float division by zero gives infinity or NaN and no error", "[interpreter][ops]") {
  Buffer x = Buffer::fromValues(ScalarKind::F32, {1.0, -1.0, 0.0}, "x");
  Buffer y = Buffer::fromValues(ScalarKind::F32, {0.0, 0.0, 0.0}, "y");
  MapResult m = runOp(OpKind::Div, {x, y});
  REQUIRE(m.run.ok());
  CHECK(m.out().get(0) == kInf);
  CHECK(m.out().get(1) == -kInf);
  CHECK(std::isnan(m.out().get(2)));
}

TEST_CASE("minimum and maximum ignore a NaN operand", "[interpreter][ops]") {
  Buffer x = Buffer::fromValues(ScalarKind::F32, {kNaN, 2.0, kNaN, -3.0}, "x");
  Buffer y = Buffer::fromValues(ScalarKind::F32, {1.0, kNaN, kNaN, 4.0}, "y");
  MapResult mn = runOp(OpKind::Minimum, {x, y}), mx = runOp(OpKind::Maximum, {x, y});
  REQUIRE((mn.run.ok() && mx.run.ok()));
  CHECK(mn.out().get(0) == 1.0);
  CHECK(mn.out().get(1) == 2.0);
  CHECK(std::isnan(mn.out().get(2)));
  CHECK(mn.out().get(3) == -3.0);
  CHECK(mx.out().get(0) == 1.0);
  CHECK(mx.out().get(1) == 2.0);
  CHECK(std::isnan(mx.out().get(2)));
  CHECK(mx.out().get(3) == 4.0);
}

TEST_CASE("f16 arithmetic is rounded to f16 after every op", "[interpreter][ops]") {
  // (2048 + 1) - 2048: in f16 the sum rounds to 2048 (ulp 2), so the result is 0;
  // computed in f32 throughout it would be 1.
  Buffer a = Buffer::fromValues(ScalarKind::F16, {2048.0, 1.0, 0.1}, "a");
  Buffer c = Buffer::fromValues(ScalarKind::F16, {1.0, std::ldexp(1.0, -11), 0.2}, "c");
  MapResult m = runMap({a, c}, ScalarKind::F16, [](Builder &b, const std::vector<Value *> &v) {
    return b.binary(OpKind::Sub, b.binary(OpKind::Add, v[0], v[1]), v[0]);
  });
  REQUIRE(m.run.ok());
  CHECK(m.out().get(0) == 0.0);
  CHECK(m.out().get(1) == 0.0);  // 1 + 2^-11 ties to 1
  auto r16 = [](double v) { return decodeF16(encodeF16(v)); };
  CHECK(m.out().get(2) == r16(r16(a.get(2) + c.get(2)) - a.get(2)));

  std::mt19937 rng(5);
  std::uniform_real_distribution<double> dist(-8.0, 8.0);
  std::vector<double> xs, ys;
  for (int i = 0; i < 128; ++i) {
    xs.push_back(dist(rng));
    ys.push_back(dist(rng));
  }
  Buffer x = Buffer::fromValues(ScalarKind::F16, xs, "x"), y = Buffer::fromValues(ScalarKind::F16, ys, "y");
  MapResult mul = runOp(OpKind::Mul, {x, y}), div = runOp(OpKind::Div, {x, y});
  REQUIRE((mul.run.ok() && div.run.ok()));
  int bad = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (mul.out().get(i) != r16(x.get(i) * y.get(i))) ++bad;
    if (div.out().get(i) != r16(x.get(i) / y.get(i))) ++bad;
  }
  CHECK(bad == 0);
}

TEST_CASE("bf16 arithmetic is rounded to bf16 after every op", "[interpreter][ops]") {
  Buffer a = Buffer::fromValues(ScalarKind::BF16, {256.0, 1.0, 3.0}, "a");
  Buffer c = Buffer::fromValues(ScalarKind::BF16, {1.0, 0.01, 0.7}, "c");
  MapResult m = runOp(OpKind::Add, {a, c});
  REQUIRE(m.run.ok());
  auto rb = [](double v) { return decodeBF16(encodeBF16(v)); };
  CHECK(m.out().get(0) == 256.0);  // 257 ties to 256 with 8 bits of precision
  for (size_t i = 0; i < 3; ++i) CHECK(m.out().get(i) == rb(a.get(i) + c.get(i)));
}

TEST_CASE("i32 add sub and mul wrap around", "[interpreter][ops]") {
  Buffer x = ints(ScalarKind::I32, {kI32Max, kI32Min, 65536, -3, 123456789}, "x");
  Buffer y = ints(ScalarKind::I32, {1, 1, 65536, 7, 1000}, "y");
  auto wrap32 = [](int64_t v) { return static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(v))); };
  MapResult add = runOp(OpKind::Add, {x, y}), sub = runOp(OpKind::Sub, {x, y}), mul = runOp(OpKind::Mul, {x, y});
  REQUIRE((add.run.ok() && sub.run.ok() && mul.run.ok()));
  CHECK(add.out().getInt(0) == kI32Min);
  CHECK(sub.out().getInt(1) == kI32Max);
  CHECK(mul.out().getInt(2) == 0);
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t a = x.getInt(i), b = y.getInt(i);
    CHECK(add.out().getInt(i) == wrap32(a + b));
    CHECK(sub.out().getInt(i) == wrap32(a - b));
    CHECK(mul.out().getInt(i) == wrap32(a * b));
  }
}

TEST_CASE("i8 and i16 arithmetic wraps at their width", "[interpreter][ops]") {
  MapResult add8 = runOp(OpKind::Add, {ints(ScalarKind::I8, {127, -128, 100}, "x"), ints(ScalarKind::I8, {1, -1, 100}, "y")});
  REQUIRE(add8.run.ok());
  CHECK(intValues(add8.out()) == std::vector<int64_t>{-128, 127, -56});
  MapResult mul16 = runOp(OpKind::Mul, {ints(ScalarKind::I16, {300, -32768, 181}, "x"), ints(ScalarKind::I16, {300, -1, 181}, "y")});
  REQUIRE(mul16.run.ok());
  // 90000 mod 2^16 = 24464; -32768 * -1 = 32768 wraps to -32768; 32761 fits
  CHECK(intValues(mul16.out()) == std::vector<int64_t>{24464, -32768, 32761});
}

TEST_CASE("i64 arithmetic wraps around", "[interpreter][ops]") {
  int64_t mx = std::numeric_limits<int64_t>::max(), mn = std::numeric_limits<int64_t>::min();
  MapResult add = runOp(OpKind::Add, {ints(ScalarKind::I64, {mx, mn, int64_t(1) << 62}, "x"),
                                      ints(ScalarKind::I64, {1, -1, int64_t(1) << 62}, "y")});
  REQUIRE(add.run.ok());
  CHECK(intValues(add.out()) == std::vector<int64_t>{mn, mx, mn});
  MapResult mul = runOp(OpKind::Mul, {ints(ScalarKind::I64, {int64_t(1) << 32, mx}, "x"),
                                      ints(ScalarKind::I64, {int64_t(1) << 32, 2}, "y")});
  REQUIRE(mul.run.ok());
  CHECK(intValues(mul.out()) == std::vector<int64_t>{0, -2});
}

TEST_CASE("integer div and rem truncate toward zero", "[interpreter][ops]") {
  std::vector<int64_t> xs{7, -7, 7, -7, 0, kI32Min, kI32Min, 5};
  std::vector<int64_t> ys{2, 2, -2, -2, 3, -1, 1, 7};
  Buffer x = ints(ScalarKind::I32, xs, "x"), y = ints(ScalarKind::I32, ys, "y");
  MapResult dv = runOp(OpKind::Div, {x, y}), rm = runOp(OpKind::Rem, {x, y});
  REQUIRE((dv.run.ok() && rm.run.ok()));
  CHECK(intValues(dv.out()) == std::vector<int64_t>{3, -3, -3, 3, 0, kI32Min, kI32Min, 0});
  CHECK(intValues(rm.out()) == std::vector<int64_t>{1, -1, 1, -1, 0, 0, 0, 5});
}

TEST_CASE("integer division by zero is reported as an error", "[interpreter][ops][errors]") {
  for (OpKind kind : {OpKind::Div, OpKind::Rem}) {
    INFO(opInfo(kind).name);
    MapResult m = runOp(kind, {ints(ScalarKind::I32, {4, 5}, "x"), ints(ScalarKind::I32, {2, 0}, "y")});
    REQUIRE_FALSE(m.run.ok());
    CHECK_THAT(m.run.error->message, Catch::Contains("division by zero"));
    CHECK_THAT(m.run.error->message, Catch::Contains("'" + std::string(opInfo(kind).name) + "'"));
  }
}

TEST_CASE("bitwise and or xor", "[interpreter][ops]") {
  std::vector<int64_t> xs{0x0f0f, -1, 0, 0x1234, kI32Min};
  std::vector<int64_t> ys{0x00ff, 0x55, -1, 0x4321, -1};
  Buffer x = ints(ScalarKind::I32, xs, "x"), y = ints(ScalarKind::I32, ys, "y");
  MapResult a = runOp(OpKind::And, {x, y}), o = runOp(OpKind::Or, {x, y}), e = runOp(OpKind::Xor, {x, y});
  REQUIRE((a.run.ok() && o.run.ok() && e.run.ok()));
  for (size_t i = 0; i < xs.size(); ++i) {
    int32_t p = static_cast<int32_t>(xs[i]), q = static_cast<int32_t>(ys[i]);
    CHECK(a.out().getInt(i) == (p & q));
    CHECK(o.out().getInt(i) == (p | q));
    CHECK(e.out().getInt(i) == (p ^ q));
  }
  MapResult x8 = runOp(OpKind::Xor, {ints(ScalarKind::I8, {0x7f, -1}, "x"), ints(ScalarKind::I8, {-1, 0x0f}, "y")});
  CHECK(intValues(x8.out()) == std::vector<int64_t>{-128, -16});
}

TEST_CASE("shift amounts at or beyond the width give 0 or the sign fill", "[interpreter][ops]") {
  std::vector<int64_t> xs{1, 1, 1, 1, -8, -8, -8, 8, 8, 1, 3};
  std::vector<int64_t> ys{0, 31, 32, 40, 1, 32, 100, 3, 32, -1, 30};
  Buffer x = ints(ScalarKind::I32, xs, "x"), y = ints(ScalarKind::I32, ys, "y");
  MapResult shl = runOp(OpKind::Shl, {x, y}), shr = runOp(OpKind::Shr, {x, y});
  REQUIRE((shl.run.ok() && shr.run.ok()));
  CHECK(intValues(shl.out()) == std::vector<int64_t>{1, kI32Min, 0, 0, -16, 0, 0, 64, 0, 0, kI32Min + (int64_t(1) << 30)});
  CHECK(intValues(shr.out()) == std::vector<int64_t>{1, 0, 0, 0, -4, -1, -1, 1, 0, 0, 0});
  MapResult shl8 = runOp(OpKind::Shl, {ints(ScalarKind::I8, {1, 1, 3}, "x"), ints(ScalarKind::I8, {7, 8, 6}, "y")});
  CHECK(intValues(shl8.out()) == std::vector<int64_t>{-128, 0, -64});
  MapResult shr8 = runOp(OpKind::Shr, {ints(ScalarKind::I8, {-128, -128, 127}, "x"), ints(ScalarKind::I8, {7, 8, 8}, "y")});
  CHECK(intValues(shr8.out()) == std::vector<int64_t>{-1, -1, 0});
  MapResult shl64 = runOp(OpKind::Shl, {ints(ScalarKind::I64, {1, 1}, "x"), ints(ScalarKind::I64, {63, 64}, "y")});
  CHECK(intValues(shl64.out()) == std::vector<int64_t>{std::numeric_limits<int64_t>::min(), 0});
}

TEST_CASE("integer minimum and maximum are signed", "[interpreter][ops]") {
  Buffer x = ints(ScalarKind::I32, {-1, 5, kI32Min}, "x"), y = ints(ScalarKind::I32, {1, -5, kI32Max}, "y");
  MapResult mn = runOp(OpKind::Minimum, {x, y}), mx = runOp(OpKind::Maximum, {x, y});
  CHECK(intValues(mn.out()) == std::vector<int64_t>{-1, -5, kI32Min});
  CHECK(intValues(mx.out()) == std::vector<int64_t>{1, 5, kI32Max});
}

//===-- Comparisons, select, fma ------------------------------------------===//

TEST_CASE("float comparisons are ordered except ne", "[interpreter][ops]") {
  std::vector<double> xs{1.0, 2.0, 2.0, kNaN, 1.0, kNaN, -0.0, -kInf};
  std::vector<double> ys{2.0, 1.0, 2.0, 1.0, kNaN, kNaN, 0.0, 1.0};
  Buffer x = Buffer::fromValues(ScalarKind::F32, xs, "x"), y = Buffer::fromValues(ScalarKind::F32, ys, "y");
  struct Case {
    OpKind kind;
    bool (*ref)(double, double);
  };
  std::vector<Case> cases{
      {OpKind::Eq, [](double a, double b) { return a == b; }}, {OpKind::Ne, [](double a, double b) { return a != b; }},
      {OpKind::Lt, [](double a, double b) { return a < b; }},  {OpKind::Le, [](double a, double b) { return a <= b; }},
      {OpKind::Gt, [](double a, double b) { return a > b; }},  {OpKind::Ge, [](double a, double b) { return a >= b; }},
  };
  for (const Case &c : cases) {
    INFO(opInfo(c.kind).name);
    MapResult m = runOp(c.kind, {x, y});
    REQUIRE(m.run.ok());
    REQUIRE(m.out().elem() == ScalarKind::I1);
    for (size_t i = 0; i < xs.size(); ++i) {
      INFO(xs[i] << " vs " << ys[i]);
      CHECK(m.out().getInt(i) == (c.ref(xs[i], ys[i]) ? 1 : 0));
    }
  }
  MapResult ne = runOp(OpKind::Ne, {x, y});
  CHECK(ne.out().getInt(3) == 1);  // NaN != 1
  CHECK(ne.out().getInt(5) == 1);  // NaN != NaN
  MapResult eq = runOp(OpKind::Eq, {x, y});
  CHECK(eq.out().getInt(6) == 1);  // -0 == 0
}

TEST_CASE("integer comparisons are signed", "[interpreter][ops]") {
  std::vector<int64_t> xs{-1, 0, 5, kI32Min, 7};
  std::vector<int64_t> ys{0, -1, 5, kI32Max, 7};
  Buffer x = ints(ScalarKind::I32, xs, "x"), y = ints(ScalarKind::I32, ys, "y");
  MapResult lt = runOp(OpKind::Lt, {x, y}), ge = runOp(OpKind::Ge, {x, y}), eq = runOp(OpKind::Eq, {x, y}),
            ne = runOp(OpKind::Ne, {x, y}), le = runOp(OpKind::Le, {x, y}), gt = runOp(OpKind::Gt, {x, y});
  for (size_t i = 0; i < xs.size(); ++i) {
    CHECK(lt.out().getInt(i) == (xs[i] < ys[i]));
    CHECK(le.out().getInt(i) == (xs[i] <= ys[i]));
    CHECK(gt.out().getInt(i) == (xs[i] > ys[i]));
    CHECK(ge.out().getInt(i) == (xs[i] >= ys[i]));
    CHECK(eq.out().getInt(i) == (xs[i] == ys[i]));
    CHECK(ne.out().getInt(i) == (xs[i] != ys[i]));
  }
}

TEST_CASE("select picks per element by an i1 condition", "[interpreter][ops]") {
  Buffer c = ints(ScalarKind::I1, {1, 0, 0, 1}, "c");
  Buffer a = Buffer::fromValues(ScalarKind::F32, {1, 2, 3, 4}, "a");
  Buffer b = Buffer::fromValues(ScalarKind::F32, {-1, -2, -3, -4}, "b");
  MapResult m = runMap({c, a, b}, ScalarKind::F32,
                       [](Builder &bl, const std::vector<Value *> &v) { return bl.select(v[0], v[1], v[2]); });
  REQUIRE(m.run.ok());
  CHECK(m.out().values() == std::vector<double>{1, -2, -3, 4});
}

TEST_CASE("fma rounds once", "[interpreter][ops]") {
  double e = std::ldexp(1.0, -23);
  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: the separate product rounds away the 2^-46.
  std::vector<double> as{1 + e, 2.0, -1.5}, bs{1 + e, 3.0, 4.0}, cs{-(1 + 2 * e), 1.0, 0.25};
  MapResult m = runMap({Buffer::fromValues(ScalarKind::F32, as, "a"), Buffer::fromValues(ScalarKind::F32, bs, "b"),
                        Buffer::fromValues(ScalarKind::F32, cs, "c")},
                       ScalarKind::F32, [](Builder &b, const std::vector<Value *> &v) { return b.value(OpKind::Fma, v); });
  REQUIRE(m.run.ok());
  CHECK(m.out().get(0) == std::ldexp(1.0, -46));
  for (size_t i = 0; i < 3; ++i)
    CHECK(m.out().get(i) == static_cast<double>(std::fma(static_cast<float>(as[i]), static_cast<float>(bs[i]),
                                                         static_cast<float>(cs[i]))));
  // f16: (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 exactly (an f16 subnormal); a separate
  // product would round to 1 + 2^-9 first and give 0.
  double h10 = 1.0 + std::ldexp(1.0, -10);
  MapResult h = runMap({Buffer::fromValues(ScalarKind::F16, {h10}, "a"), Buffer::fromValues(ScalarKind::F16, {h10}, "b"),
                        Buffer::fromValues(ScalarKind::F16, {-(1.0 + std::ldexp(1.0, -9))}, "c")},
                       ScalarKind::F16, [](Builder &b, const std::vector<Value *> &v) { return b.value(OpKind::Fma, v); });
  REQUIRE(h.run.ok());
  CHECK(h.out().get(0) == std::ldexp(1.0, -20));
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

//===-- Reductions and scans ----------------------------------------------===//

namespace {
/// A rows x cols matrix of small integers (as doubles, so float sums are exact).
std::vector<double> smallInts(int64_t rows, int64_t cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-9, 9);
  std::vector<double> v(rows * cols);
  for (double &x : v) x = d(rng);
  return v;
}

/// Reference reductions of one line of values: sum, max, min, argmax, argmin.
double refReduce(OpKind kind, const std::vector<double> &line) {
  double best = line[0];
  size_t bi = 0;
  double sum = 0;
  for (size_t j = 0; j < line.size(); ++j) {
    sum += line[j];
    bool better = (kind == OpKind::Max || kind == OpKind::Argmax) ? line[j] > best : line[j] < best;
    if (better) {
      best = line[j];
      bi = j;
    }
  }
  if (kind == OpKind::Sum) return sum;
  if (kind == OpKind::Argmax || kind == OpKind::Argmin) return static_cast<double>(bi);
  return best;
}
} // namespace

TEST_CASE("sum max min argmax argmin along axis 0 and 1 of a 2-D tile", "[interpreter][ops][reduce]") {
  const int64_t rows = 5, cols = 7;
  std::vector<double> v = smallInts(rows, cols, 3);
  for (ScalarKind elem : {ScalarKind::F32, ScalarKind::I32, ScalarKind::F16})
    for (OpKind kind : {OpKind::Sum, OpKind::Max, OpKind::Min, OpKind::Argmax, OpKind::Argmin})
      for (int64_t axis : {0, 1}) {
        INFO(opInfo(kind).name << " axis " << axis << " " << scalarName(elem));
        MapResult m = runReduce(kind, Buffer::fromValues(elem, v, "x"), rows, cols, axis);
        REQUIRE(m.run.ok());
        int64_t outLen = axis == 0 ? cols : rows, lineLen = axis == 0 ? rows : cols;
        for (int64_t o = 0; o < outLen; ++o) {
          std::vector<double> line;
          for (int64_t j = 0; j < lineLen; ++j) line.push_back(axis == 0 ? v[j * cols + o] : v[o * cols + j]);
          CHECK(m.out().get(o) == refReduce(kind, line));
        }
      }
}

TEST_CASE("cumsum is inclusive along axis 0 and 1", "[interpreter][ops][reduce]") {
  const int64_t rows = 4, cols = 6;
  std::vector<double> v = smallInts(rows, cols, 8);
  for (ScalarKind elem : {ScalarKind::F32, ScalarKind::I32})
    for (int64_t axis : {0, 1}) {
      INFO("axis " << axis << " " << scalarName(elem));
      MapResult m = runReduce(OpKind::Cumsum, Buffer::fromValues(elem, v, "x"), rows, cols, axis);
      REQUIRE(m.run.ok());
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
          double want = 0;
          if (axis == 0)
            for (int64_t j = 0; j <= r; ++j) want += v[j * cols + c];
          else
            for (int64_t j = 0; j <= c; ++j) want += v[r * cols + j];
          CHECK(m.out().get(r * cols + c) == want);
        }
    }
}

TEST_CASE("sum and max along the middle axis of a 3-D tile", "[interpreter][ops][reduce]") {
  const int64_t d0 = 2, d1 = 3, d2 = 4;
  std::vector<double> v = smallInts(d0, d1 * d2, 12);
  for (OpKind kind : {OpKind::Sum, OpKind::Max}) {
    INFO(opInfo(kind).name);
    Kernel k;
    Value *x = k.ptrParam(ScalarKind::F32, "x");
    Value *out = k.ptrParam(ScalarKind::F32, "out");
    Value *t = k.b.reshape(k.b.load(ptrsAt(k.b, x, k.b.arange(0, d0 * d1 * d2))), {d0, d1, d2});
    Value *r = k.b.reduce(kind, t, 1);  // [d0, d2]
    REQUIRE(r->type.shape == Shape{d0, d2});
    k.b.store(ptrsAt(k.b, out, k.b.arange(0, d0 * d2)), k.b.reshape(r, {d0 * d2}));
    k.b.ret();
    std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F32, v, "x"), Buffer(ScalarKind::F32, d0 * d2, "out")};
    REQUIRE(interpret(k.f, {}, bufferArgs(2), bufs).ok());
    for (int64_t i = 0; i < d0; ++i)
      for (int64_t l = 0; l < d2; ++l) {
        std::vector<double> line;
        for (int64_t j = 0; j < d1; ++j) line.push_back(v[(i * d1 + j) * d2 + l]);
        CHECK(bufs[1].get(i * d2 + l) == refReduce(kind, line));
      }
  }
}

TEST_CASE("cumsum of a 1-D tile", "[interpreter][ops][reduce]") {
  MapResult m = runMap({Buffer::fromValues(ScalarKind::I32, {3, -1, 4, 1, -5}, "x")}, ScalarKind::I32,
                       [](Builder &b, const std::vector<Value *> &v) { return b.reduce(OpKind::Cumsum, v[0], 0); });
  REQUIRE(m.run.ok());
  CHECK(intValues(m.out()) == std::vector<int64_t>{3, 2, 6, 7, 2});
}

TEST_CASE("integer sum wraps around", "[interpreter][ops][reduce]") {
  MapResult m = runReduce(OpKind::Sum, ints(ScalarKind::I8, {100, 100, 100, 1, 2, 3}, "x"), 2, 3, 0);
  REQUIRE(m.run.ok());
  CHECK(intValues(m.out()) == std::vector<int64_t>{101, 102, 103});
  MapResult w = runReduce(OpKind::Sum, ints(ScalarKind::I8, {100, 100, 100, 1, 2, 3}, "x"), 2, 3, 1);
  CHECK(intValues(w.out()) == std::vector<int64_t>{300 - 256, 6});
}

TEST_CASE("a 1-D reduction gives a scalar and f16 sums accumulate in f32", "[interpreter][ops][reduce]") {
  // 3000 ones: an f16 accumulator would stop at 2048 (2048 + 1 rounds to 2048).
  const int64_t n = 3000;
  Kernel k;
  Value *x = k.ptrParam(ScalarKind::F16, "x");
  Value *out = k.ptrParam(ScalarKind::F16, "out");
  Value *s = k.b.reduce(OpKind::Sum, k.b.load(ptrsAt(k.b, x, k.b.arange(0, n))), 0);
  REQUIRE(s->type == Type::scalar(ScalarKind::F16));
  k.b.store(out, s);
  k.b.ret();
  std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F16, std::vector<double>(n, 1.0), "x"),
                           Buffer(ScalarKind::F16, 1, "out")};
  REQUIRE(interpret(k.f, {}, bufferArgs(2), bufs).ok());
  CHECK(bufs[1].get(0) == 3000.0);
}

TEST_CASE("max and min reductions ignore NaN", "[interpreter][ops][reduce]") {
  // rows: [NaN, 1, 5], [2, NaN, -1], [NaN, NaN, NaN]
  std::vector<double> v{kNaN, 1, 5, 2, kNaN, -1, kNaN, kNaN, kNaN};
  MapResult mx = runReduce(OpKind::Max, Buffer::fromValues(ScalarKind::F32, v, "x"), 3, 3, 1);
  MapResult mn = runReduce(OpKind::Min, Buffer::fromValues(ScalarKind::F32, v, "x"), 3, 3, 1);
  MapResult amx = runReduce(OpKind::Argmax, Buffer::fromValues(ScalarKind::F32, v, "x"), 3, 3, 1);
  MapResult amn = runReduce(OpKind::Argmin, Buffer::fromValues(ScalarKind::F32, v, "x"), 3, 3, 1);
  REQUIRE((mx.run.ok() && mn.run.ok() && amx.run.ok() && amn.run.ok()));
  CHECK(mx.out().get(0) == 5);
  CHECK(mx.out().get(1) == 2);
  CHECK(std::isnan(mx.out().get(2)));  // nothing but NaN
  CHECK(mn.out().get(0) == 1);
  CHECK(mn.out().get(1) == -1);
  CHECK(amx.out().getInt(0) == 2);
  CHECK(amx.out().getInt(1) == 0);
  CHECK(amn.out().getInt(0) == 1);
  CHECK(amn.out().getInt(1) == 2);
}

TEST_CASE("argmax and argmin give the first index on ties", "[interpreter][ops][reduce]") {
  // columns of a 4 x 3 tile: [1, 3, 3, 0], [2, 2, 2, 2], [-1, 5, -1, 5]
  std::vector<double> v{1, 2, -1, 3, 2, 5, 3, 2, -1, 0, 2, 5};
  MapResult amx = runReduce(OpKind::Argmax, Buffer::fromValues(ScalarKind::F32, v, "x"), 4, 3, 0);
  MapResult amn = runReduce(OpKind::Argmin, Buffer::fromValues(ScalarKind::I32, v, "x"), 4, 3, 0);
  REQUIRE((amx.run.ok() && amn.run.ok()));
  CHECK(intValues(amx.out()) == std::vector<int64_t>{1, 0, 1});
  CHECK(intValues(amn.out()) == std::vector<int64_t>{3, 0, 0});
}

//===-- dot ---------------------------------------------------------------===//

namespace {
/// C[M,N] = acc + A[M,K] @ B[K,N] with A, B of kind `in` and acc, C of kind `accKind`.
MapResult runDot(ScalarKind in, ScalarKind accKind, int64_t M, int64_t N, int64_t K, const std::vector<double> &a,
                 const std::vector<double> &bv, const std::vector<double> &acc) {
  Kernel k;
  Value *pa = k.ptrParam(in, "a");
  Value *pb = k.ptrParam(in, "b");
  Value *pc = k.ptrParam(accKind, "c");
  Value *ta = k.b.load(ptrsAt(k.b, pa, offsets2d(k.b, M, K)));
  Value *tb = k.b.load(ptrsAt(k.b, pb, offsets2d(k.b, K, N)));
  Value *cOffs = offsets2d(k.b, M, N);
  Value *tc = k.b.load(ptrsAt(k.b, pc, cOffs));
  k.b.store(ptrsAt(k.b, pc, cOffs), k.b.dot(ta, tb, tc));
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  std::vector<Buffer> bufs{Buffer::fromValues(in, a, "a"), Buffer::fromValues(in, bv, "b"),
                           Buffer::fromValues(accKind, acc, "c")};
  RunResult r = interpret(k.f, {}, bufferArgs(3), bufs);
  return {std::move(r), std::move(bufs)};
}
} // namespace

TEST_CASE("dot of f16 into f32 with exactly representable sums", "[interpreter][ops][dot]") {
  const int64_t M = 4, N = 5, K = 6;
  std::vector<double> a = smallInts(M, K, 21), b = smallInts(K, N, 22), acc = smallInts(M, N, 23);
  MapResult m = runDot(ScalarKind::F16, ScalarKind::F32, M, N, K, a, b, acc);
  REQUIRE(m.run.ok());
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double want = acc[i * N + j];
      for (int64_t l = 0; l < K; ++l) want += a[i * K + l] * b[l * N + j];
      CHECK(m.buffers[2].get(i * N + j) == want);
    }
}

TEST_CASE("dot of f16 into f32 on random values keeps f32 accuracy", "[interpreter][ops][dot]") {
  const int64_t M = 8, N = 8, K = 64;
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<double> a(M * K), b(K * N), acc(M * N, 0.0);
  for (double &x : a) x = decodeF16(encodeF16(d(rng)));
  for (double &x : b) x = decodeF16(encodeF16(d(rng)));
  MapResult m = runDot(ScalarKind::F16, ScalarKind::F32, M, N, K, a, b, acc);
  REQUIRE(m.run.ok());
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double want = 0, mag = 0;
      for (int64_t l = 0; l < K; ++l) {
        want += a[i * K + l] * b[l * N + j];
        mag += std::fabs(a[i * K + l] * b[l * N + j]);
      }
      // an f32 accumulation: error bounded by K ulps of the magnitude, far below f16's
      CHECK(std::fabs(m.buffers[2].get(i * N + j) - want) <= mag * K * std::ldexp(1.0, -24));
    }
}

TEST_CASE("dot of i8 into i32 is exact", "[interpreter][ops][dot]") {
  const int64_t M = 3, N = 4, K = 16;
  std::mt19937 rng(4);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<double> a(M * K), b(K * N), acc(M * N);
  for (double &x : a) x = d(rng);
  for (double &x : b) x = d(rng);
  for (double &x : acc) x = d(rng) * 1000;
  a[0] = -128;
  b[0] = -128;  // the largest product, 16384
  MapResult m = runDot(ScalarKind::I8, ScalarKind::I32, M, N, K, a, b, acc);
  REQUIRE(m.run.ok());
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      int64_t want = static_cast<int64_t>(acc[i * N + j]);
      for (int64_t l = 0; l < K; ++l)
        want += static_cast<int64_t>(a[i * K + l]) * static_cast<int64_t>(b[l * N + j]);
      CHECK(m.buffers[2].getInt(i * N + j) == want);
    }
}

//===-- Debugging ops -----------------------------------------------------===//

TEST_CASE("device_print writes the program id then the prefix and the values", "[interpreter][ops][debug]") {
  Kernel k;
  Value *pid = k.b.programId(0);
  Value *t = k.b.binary(OpKind::Add, k.b.arange(0, 3), k.b.splat(pid, {3}));
  Value *f = k.b.constFloat(Type::scalar(ScalarKind::F32), 1.5);
  k.b.print("x =", {pid, t, f});
  k.b.ret();
  std::vector<Buffer> bufs;
  RunResult r = interpret(k.f, {2, 1, 1}, {}, bufs);
  REQUIRE(r.ok());
  CHECK(r.printed == "pid (0, 0, 0) x = 0 [0, 1, 2] 1.5\n"
                     "pid (1, 0, 0) x = 1 [1, 2, 3] 1.5\n");
}

TEST_CASE("device_assert passes silently when every element holds", "[interpreter][ops][debug]") {
  Kernel k;
  Value *offs = k.b.arange(0, 8);
  k.b.assertTrue(k.b.binary(OpKind::Lt, offs, k.b.splat(i32(k.b, 8), {8})), "in range");
  k.b.ret();
  std::vector<Buffer> bufs;
  RunResult r = interpret(k.f, {}, {}, bufs);
  CHECK(r.ok());
  CHECK(r.printed.empty());
}

TEST_CASE("device_assert failure is a located error with its message", "[interpreter][ops][debug][errors]") {
  Kernel k;
  Value *n = k.param(ScalarKind::I32, "n");
  Value *offs = k.b.arange(0, 8);
  k.b.setLoc(Location("assert.cpp", 12, 5));
  k.b.assertTrue(k.b.binary(OpKind::Lt, offs, k.b.splat(n, {8})), "offs < n");
  k.b.ret();
  std::vector<Buffer> bufs;
  RunResult r = interpret(k.f, {}, {KernelArg::integer(5)}, bufs);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error->message, Catch::Contains("offs < n"));
  CHECK_THAT(r.error->message, Catch::Contains("element 5"));  // the first failing element
  CHECK_THAT(r.error->str(), Catch::StartsWith("assert.cpp:12:5: error:"));
}

//===-- Control flow ------------------------------------------------------===//

TEST_CASE("for runs from lo by step below hi with carried values", "[interpreter][ops][control]") {
  Kernel k;
  Value *lo = k.param(ScalarKind::I32, "lo");
  Value *hi = k.param(ScalarKind::I32, "hi");
  Value *step = k.param(ScalarKind::I32, "step");
  Value *out = k.ptrParam(ScalarKind::I32, "out");
  // carried: sum of iv, iteration count, a tile doubled each iteration
  Op *loop = k.b.forOp(lo, hi, step, {i32(k.b, 0), i32(k.b, 0), k.b.constInt(Type::tile({2}, ScalarKind::I32), 1)});
  {
    Block &body = loop->region(0);
    Builder fb(body);
    Value *iv = body.arg(0);
    fb.yield({fb.binary(OpKind::Add, body.arg(1), iv), fb.binary(OpKind::Add, body.arg(2), i32(fb, 1)),
              fb.binary(OpKind::Add, body.arg(3), body.arg(3))});
  }
  k.b.store(k.b.addptr(out, i32(k.b, 0)), loop->result(0));
  k.b.store(k.b.addptr(out, i32(k.b, 1)), loop->result(1));
  k.b.store(ptrsAt(k.b, out, k.b.arange(2, 4)), loop->result(2));
  k.b.ret();
  REQUIRE(verify(k.f).empty());

  struct Case {
    int64_t lo, hi, step;
  };
  for (Case c : {Case{0, 10, 3}, Case{0, 10, 1}, Case{5, 5, 1}, Case{7, 2, 1}, Case{-4, 4, 4}}) {
    INFO(c.lo << ".." << c.hi << " step " << c.step);
    int64_t sum = 0, count = 0;
    for (int64_t iv = c.lo; iv < c.hi; iv += c.step) {
      sum += iv;
      ++count;
    }
    std::vector<Buffer> bufs{Buffer(ScalarKind::I32, 4, "out")};
    RunResult r = interpret(k.f, {}, {KernelArg::integer(c.lo), KernelArg::integer(c.hi), KernelArg::integer(c.step),
                                      KernelArg::buf(0)}, bufs);
    REQUIRE(r.ok());
    CHECK(bufs[0].getInt(0) == sum);
    CHECK(bufs[0].getInt(1) == count);
    CHECK(bufs[0].getInt(2) == (int64_t(1) << count));
    CHECK(bufs[0].getInt(3) == (int64_t(1) << count));
  }
}

TEST_CASE("for with a nonpositive step is an error", "[interpreter][ops][control][errors]") {
  Kernel k;
  Value *step = k.param(ScalarKind::I32, "step");
  k.b.setLoc(Location("loop.cpp", 3, 1));
  Op *loop = k.b.forOp(i32(k.b, 0), i32(k.b, 10), step, {});
  Builder(loop->region(0)).yield({});
  k.b.ret();
  std::vector<Buffer> bufs;
  RunResult r = interpret(k.f, {}, {KernelArg::integer(0)}, bufs);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error->message, Catch::Contains("step"));
  CHECK_THAT(r.error->str(), Catch::StartsWith("loop.cpp:3:1: error:"));
}

TEST_CASE("if yields the results of the branch taken", "[interpreter][ops][control]") {
  Kernel k;
  Value *out = k.ptrParam(ScalarKind::I32, "out");
  Value *pid = k.b.programId(0);
  Value *even = k.b.binary(OpKind::Eq, k.b.binary(OpKind::Rem, pid, i32(k.b, 2)), i32(k.b, 0));
  Op *ifOp = k.b.ifOp(even, {Type::scalar(ScalarKind::I32), Type::tile({2}, ScalarKind::I32)});
  {
    Builder tb(ifOp->region(0));
    tb.yield({tb.binary(OpKind::Mul, pid, i32(tb, 10)), tb.arange(0, 2)});
    Builder eb(ifOp->region(1));
    eb.yield({eb.binary(OpKind::Add, pid, i32(eb, 100)), eb.arange(7, 9)});
  }
  Value *base = k.b.binary(OpKind::Mul, pid, i32(k.b, 3));
  k.b.store(k.b.addptr(out, base), ifOp->result(0));
  Value *offs = k.b.binary(OpKind::Add, k.b.splat(k.b.binary(OpKind::Add, base, i32(k.b, 1)), {2}), k.b.arange(0, 2));
  k.b.store(ptrsAt(k.b, out, offs), ifOp->result(1));
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  std::vector<Buffer> bufs{Buffer(ScalarKind::I32, 12, "out")};
  REQUIRE(interpret(k.f, {4, 1, 1}, bufferArgs(1), bufs).ok());
  for (int p = 0; p < 4; ++p) {
    bool isEven = p % 2 == 0;
    CHECK(bufs[0].getInt(3 * p) == (isEven ? p * 10 : p + 100));
    CHECK(bufs[0].getInt(3 * p + 1) == (isEven ? 0 : 7));
    CHECK(bufs[0].getInt(3 * p + 2) == (isEven ? 1 : 8));
  }
}

TEST_CASE("if without results runs only the branch taken", "[interpreter][ops][control]") {
  Kernel k;
  Value *flag = k.param(ScalarKind::I1, "flag");
  Value *out = k.ptrParam(ScalarKind::I32, "out");
  Op *ifOp = k.b.ifOp(flag, {});
  {
    Builder tb(ifOp->region(0));
    tb.store(tb.addptr(out, i32(tb, 0)), i32(tb, 1));
    tb.yield({});
    Builder eb(ifOp->region(1));
    eb.store(eb.addptr(out, i32(eb, 1)), i32(eb, 2));
    eb.yield({});
  }
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  for (int flagValue : {0, 1}) {
    std::vector<Buffer> bufs{Buffer(ScalarKind::I32, 2, "out")};
    REQUIRE(interpret(k.f, {}, {KernelArg::integer(flagValue), KernelArg::buf(0)}, bufs).ok());
    CHECK(intValues(bufs[0]) == (flagValue ? std::vector<int64_t>{1, 0} : std::vector<int64_t>{0, 2}));
  }
}

namespace {
/// while (i < n) { s += i; i += 1; } with i, s carried; stores s and i.
void buildCountingWhile(Kernel &k) {
  Value *n = k.param(ScalarKind::I32, "n");
  Value *out = k.ptrParam(ScalarKind::I32, "out");
  Op *w = k.b.whileOp({i32(k.b, 0), i32(k.b, 0)});
  {
    Builder cb(w->region(0));
    cb.yield({cb.binary(OpKind::Lt, w->region(0).arg(0), n)});
    Builder bb(w->region(1));
    Value *i = w->region(1).arg(0), *s = w->region(1).arg(1);
    bb.yield({bb.binary(OpKind::Add, i, i32(bb, 1)), bb.binary(OpKind::Add, s, i)});
  }
  k.b.store(k.b.addptr(out, i32(k.b, 0)), w->result(1));
  k.b.store(k.b.addptr(out, i32(k.b, 1)), w->result(0));
  k.b.ret();
}
} // namespace

TEST_CASE("while runs its body while the condition yields true", "[interpreter][ops][control]") {
  Kernel k;
  buildCountingWhile(k);
  REQUIRE(verify(k.f).empty());
  for (int64_t n : {0, 1, 10, 1000, -5}) {
    INFO("n = " << n);
    std::vector<Buffer> bufs{Buffer(ScalarKind::I32, 2, "out")};
    REQUIRE(interpret(k.f, {}, {KernelArg::integer(n), KernelArg::buf(0)}, bufs).ok());
    int64_t want = 0, i = 0;
    for (; i < n; ++i) want += i;
    CHECK(bufs[0].getInt(0) == want);
    CHECK(bufs[0].getInt(1) == i);
  }
}

TEST_CASE("a while loop that never ends stops at maxSteps with an error", "[interpreter][ops][control][errors]") {
  Kernel k;
  k.b.setLoc(Location("spin.cpp", 4, 2));
  Op *w = k.b.whileOp({i32(k.b, 0)});
  {
    Builder cb(w->region(0));
    cb.setLoc(Location("spin.cpp", 4, 2));
    cb.yield({cb.constInt(Type::scalar(ScalarKind::I1), 1)});
    Builder bb(w->region(1));
    bb.setLoc(Location("spin.cpp", 4, 2));
    bb.yield({bb.binary(OpKind::Add, w->region(1).arg(0), i32(bb, 1))});
  }
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  std::vector<Buffer> bufs;
  InterpretOptions opts;
  opts.maxSteps = 10000;
  RunResult r = interpret(k.f, {}, {}, bufs, opts);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error->message, Catch::Contains("10000"));
  CHECK_THAT(r.error->message, Catch::Contains("step limit"));
  CHECK_THAT(r.error->str(), Catch::StartsWith("spin.cpp:4:2: error:"));
}

TEST_CASE("maxSteps does not stop a kernel that finishes within it", "[interpreter][ops][control]") {
  Kernel k;
  buildCountingWhile(k);
  std::vector<Buffer> bufs{Buffer(ScalarKind::I32, 2, "out")};
  InterpretOptions opts;
  opts.maxSteps = 100000;
  RunResult r = interpret(k.f, {}, {KernelArg::integer(100), KernelArg::buf(0)}, bufs, opts);
  REQUIRE(r.ok());
  CHECK(bufs[0].getInt(0) == 4950);
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
