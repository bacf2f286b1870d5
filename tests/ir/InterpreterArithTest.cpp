// The reference interpreter's elementwise arithmetic (ir/Interpreter.h,
// ir/Semantics.cpp): unary and binary ops, comparisons, select and fma, each
// against plain C++ following IR.h (the kernels: OpKernels.h).
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
