// The reference interpreter's ops with regions or across a tile
// (ir/Interpreter.h): reductions and scans, dot, device_print and
// device_assert, for/if/while (the kernels: OpKernels.h).
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
