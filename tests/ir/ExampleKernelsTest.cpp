// The three example kernels of the design (vector_add, a row softmax, a tiled
// matmul), built by hand with the Builder as a front end would build them.
// Each must verify, print and parse back to the same text, and compute the
// same results in the interpreter as a plain C++ reference.
#include "ir/Builder.h"
#include "ir/Float16.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace twintile::ir;

namespace {

Value *i32(Builder &b, int64_t v) { return b.constInt(Type::scalar(ScalarKind::I32), v); }

Value *ptrsAt(Builder &b, Value *base, Value *offs) {
  return b.addptr(b.splat(base, offs->type.shape), offs);
}

/// expand_dims(v, axis) broadcast to `shape`.
Value *expandTo(Builder &b, Value *v, int64_t axis, Shape shape) {
  return b.broadcast(b.expandDims(v, axis), std::move(shape));
}

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

std::string diagnostics(const std::vector<Diagnostic> &ds) {
  std::string s;
  for (const Diagnostic &d : ds) s += d.str() + "\n";
  return s;
}

/// Verifies `f`, and checks that printing and parsing it back gives a function
/// that prints identically, with and without locations.
void checkVerifiesAndRoundTrips(const Func &f) {
  INFO(diagnostics(verify(f)));
  CHECK(verify(f).empty());
  for (bool locations : {true, false}) {
    INFO("locations " << locations);
    PrintOptions opts;
    opts.locations = locations;
    std::string text = toString(f, opts);
    ParseResult parsed = parseModule(text, "roundtrip.tir");
    INFO(text);
    INFO((parsed.error ? parsed.error->str() : std::string()));
    REQUIRE(parsed.module);
    REQUIRE(parsed.module->funcs.size() == 1);
    const Func &g = *parsed.module->funcs[0];
    CHECK(toString(g, opts) == text);
    CHECK(g.name == f.name);
    CHECK(verify(g).empty());
  }
}

//===-- vector_add --------------------------------------------------------===//

// template <int BLOCK>
// TT_KERNEL void vector_add(Ptr<f32> x, Ptr<f32> y, Ptr<f32> out, i32 n) {
//   auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
//   auto mask = offs < n;
//   store(out + offs, load(x + offs, mask) + load(y + offs, mask), mask);
// }
std::unique_ptr<Func> buildVectorAdd(int64_t block) {
  auto f = std::make_unique<Func>();
  f->name = "vector_add";
  f->meta.push_back({"BLOCK", Attr::integer(block)});
  f->loc = Location("vector_add.cpp", 4, 1);
  Value *x = f->body.addArg(Type::ptr(ScalarKind::F32), "x");
  Value *y = f->body.addArg(Type::ptr(ScalarKind::F32), "y");
  Value *out = f->body.addArg(Type::ptr(ScalarKind::F32), "out");
  Value *n = f->body.addArg(Type::scalar(ScalarKind::I32), "n");
  Builder b(f->body);
  Shape s{block};
  b.setLoc(Location("vector_add.cpp", 5, 15));
  Value *offs = b.binary(OpKind::Add, b.splat(b.binary(OpKind::Mul, b.programId(0), i32(b, block)), s),
                         b.arange(0, block));
  b.setLoc(Location("vector_add.cpp", 6, 20));
  Value *mask = b.binary(OpKind::Lt, offs, b.splat(n, s));
  b.setLoc(Location("vector_add.cpp", 7, 3));
  Value *sum = b.binary(OpKind::Add, b.load(ptrsAt(b, x, offs), mask), b.load(ptrsAt(b, y, offs), mask));
  b.store(ptrsAt(b, out, offs), sum, mask);
  b.ret();
  return f;
}

void runVectorAdd(int64_t n, int64_t block, unsigned seed) {
  INFO("n = " << n << ", BLOCK = " << block);
  std::unique_ptr<Func> f = buildVectorAdd(block);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-10.0f, 10.0f);
  std::vector<double> xs(n), ys(n);
  for (int64_t i = 0; i < n; ++i) {
    xs[i] = d(rng);
    ys[i] = d(rng);
  }
  std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F32, xs, "x"), Buffer::fromValues(ScalarKind::F32, ys, "y"),
                           Buffer::fromValues(ScalarKind::F32, std::vector<double>(n, -1.0), "out")};
  RunResult r = interpret(*f, {cdiv(n, block), 1, 1},
                          {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::integer(n)}, bufs);
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r.ok());
  int bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    float want = static_cast<float>(xs[i]) + static_cast<float>(ys[i]);
    if (bufs[2].get(i) != static_cast<double>(want)) ++bad;
  }
  CHECK(bad == 0);
}

//===-- softmax -----------------------------------------------------------===//

// template <typename T, int BLOCK>
// TT_KERNEL void softmax(Ptr<T> x, Ptr<T> y, i32 n_cols, i32 stride) {
//   auto cols = arange(0, BLOCK);
//   auto row = program_id(0) * stride;
//   auto v = cast<f32>(load(x + row + cols, cols < n_cols, -inf));
//   auto e = exp(v - max(v, 0));
//   store(y + row + cols, cast<T>(e / sum(e, 0)), cols < n_cols);
// }
std::unique_ptr<Func> buildSoftmax(ScalarKind t, int64_t block) {
  auto f = std::make_unique<Func>();
  f->name = "softmax";
  f->meta.push_back({"T", Attr::string(std::string(scalarName(t)))});
  f->meta.push_back({"BLOCK", Attr::integer(block)});
  f->loc = Location("softmax.cpp", 2, 1);
  Value *x = f->body.addArg(Type::ptr(t), "x");
  Value *y = f->body.addArg(Type::ptr(t), "y");
  Value *nCols = f->body.addArg(Type::scalar(ScalarKind::I32), "n_cols");
  Value *stride = f->body.addArg(Type::scalar(ScalarKind::I32), "stride");
  Builder b(f->body);
  Shape s{block};
  b.setLoc(Location("softmax.cpp", 3, 15));
  Value *cols = b.arange(0, block);
  b.setLoc(Location("softmax.cpp", 4, 14));
  Value *row = b.binary(OpKind::Mul, b.programId(0), stride);
  Value *offs = b.binary(OpKind::Add, b.splat(row, s), cols);
  b.setLoc(Location("softmax.cpp", 5, 12));
  Value *mask = b.binary(OpKind::Lt, cols, b.splat(nCols, s));
  Value *minusInf = b.constFloat(Type::tile(s, t), -std::numeric_limits<double>::infinity());
  Value *v = b.cast(b.load(ptrsAt(b, x, offs), mask, minusInf), ScalarKind::F32);
  b.setLoc(Location("softmax.cpp", 6, 12));
  Value *m = b.reduce(OpKind::Max, v, 0);
  Value *e = b.unary(OpKind::Exp, b.binary(OpKind::Sub, v, b.splat(m, s)));
  b.setLoc(Location("softmax.cpp", 7, 3));
  Value *sum = b.reduce(OpKind::Sum, e, 0);
  Value *res = b.cast(b.binary(OpKind::Div, e, b.splat(sum, s)), t);
  b.store(ptrsAt(b, y, offs), res, mask);
  b.ret();
  return f;
}

int64_t nextPow2(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

void runSoftmax(ScalarKind t, int64_t rows, int64_t nCols, unsigned seed) {
  int64_t block = nextPow2(nCols), stride = nCols + 3;
  INFO(scalarName(t) << " rows " << rows << " n_cols " << nCols << " BLOCK " << block);
  std::unique_ptr<Func> f = buildSoftmax(t, block);
  std::mt19937 rng(seed);
  std::normal_distribution<double> d(0.0, 3.0);
  std::vector<double> xs(rows * stride);
  for (double &v : xs) v = d(rng);
  std::vector<Buffer> bufs{Buffer::fromValues(t, xs, "x"),
                           Buffer::fromValues(t, std::vector<double>(rows * stride, 7.0), "y")};
  RunResult r = interpret(*f, {rows, 1, 1},
                          {KernelArg::buf(0), KernelArg::buf(1), KernelArg::integer(nCols), KernelArg::integer(stride)},
                          bufs);
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r.ok());
  // f32: a few ulps of f32 (exp is rounded once, the sum accumulates in f32);
  // f16: the output's half-ulp rounding dominates.
  double rel = t == ScalarKind::F32 ? 1e-5 : std::ldexp(1.0, -10);
  double abs = t == ScalarKind::F32 ? 1e-12 : std::ldexp(1.0, -24);
  int bad = 0;
  for (int64_t rIdx = 0; rIdx < rows; ++rIdx) {
    // the reference: in double, from the inputs as stored (rounded to T)
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t c = 0; c < nCols; ++c) mx = std::max(mx, bufs[0].get(rIdx * stride + c));
    double total = 0;
    for (int64_t c = 0; c < nCols; ++c) total += std::exp(bufs[0].get(rIdx * stride + c) - mx);
    double rowSum = 0;
    for (int64_t c = 0; c < nCols; ++c) {
      double want = std::exp(bufs[0].get(rIdx * stride + c) - mx) / total;
      double got = bufs[1].get(rIdx * stride + c);
      rowSum += got;
      if (!(std::fabs(got - want) <= rel * want + abs)) ++bad;
    }
    CHECK(rowSum == Approx(1.0).epsilon(t == ScalarKind::F32 ? 1e-4 : 2e-3));
    // the padding between rows (stride > n_cols) is untouched
    for (int64_t c = nCols; c < stride; ++c) CHECK(bufs[1].get(rIdx * stride + c) == 7.0);
  }
  CHECK(bad == 0);
}

//===-- matmul ------------------------------------------------------------===//

// template <int BM, int BN, int BK>
// TT_KERNEL void matmul(Ptr<f16> a, Ptr<f16> b, Ptr<f16> c, i32 M, i32 N, i32 K) {
//   auto rm = program_id(0) * BM + arange(0, BM);
//   auto rn = program_id(1) * BN + arange(0, BN);
//   auto rk = arange(0, BK);
//   auto acc = zeros<f32>({BM, BN});
//   acc = for_range(0, K, BK, acc, [&](i32 k, Tile<f32> acc) {
//     auto ta = load(a + rm[:, None] * K + (rk + k)[None, :], mask);
//     auto tb = load(b + (rk + k)[:, None] * N + rn[None, :], mask);
//     return dot(ta, tb, acc);
//   });
//   store(c + rm[:, None] * N + rn[None, :], cast<f16>(acc), mask);
// }
// (with masks on every access, so that M, N, K need not be multiples of the blocks)
std::unique_ptr<Func> buildMatmul(int64_t bm, int64_t bn, int64_t bk) {
  auto f = std::make_unique<Func>();
  f->name = "matmul";
  f->meta = {{"BM", Attr::integer(bm)}, {"BN", Attr::integer(bn)}, {"BK", Attr::integer(bk)}};
  f->loc = Location("matmul.cpp", 2, 1);
  Value *a = f->body.addArg(Type::ptr(ScalarKind::F16), "a");
  Value *bp = f->body.addArg(Type::ptr(ScalarKind::F16), "b");
  Value *c = f->body.addArg(Type::ptr(ScalarKind::F16), "c");
  Value *M = f->body.addArg(Type::scalar(ScalarKind::I32), "M");
  Value *N = f->body.addArg(Type::scalar(ScalarKind::I32), "N");
  Value *K = f->body.addArg(Type::scalar(ScalarKind::I32), "K");
  Builder b(f->body);
  b.setLoc(Location("matmul.cpp", 3, 13));
  Value *rm = b.binary(OpKind::Add, b.splat(b.binary(OpKind::Mul, b.programId(0), i32(b, bm)), {bm}), b.arange(0, bm));
  b.setLoc(Location("matmul.cpp", 4, 13));
  Value *rn = b.binary(OpKind::Add, b.splat(b.binary(OpKind::Mul, b.programId(1), i32(b, bn)), {bn}), b.arange(0, bn));
  b.setLoc(Location("matmul.cpp", 5, 13));
  Value *rk = b.arange(0, bk);
  b.setLoc(Location("matmul.cpp", 6, 14));
  Value *acc0 = b.constFloat(Type::tile({bm, bn}, ScalarKind::F32), 0.0);
  Value *mOk = b.binary(OpKind::Lt, rm, b.splat(M, {bm}));
  Value *nOk = b.binary(OpKind::Lt, rn, b.splat(N, {bn}));
  b.setLoc(Location("matmul.cpp", 7, 9));
  Op *loop = b.forOp(i32(b, 0), K, i32(b, bk), {acc0});
  {
    Block &body = loop->region(0);
    Builder lb(body);
    Value *k = body.arg(0), *acc = body.arg(1);
    lb.setLoc(Location("matmul.cpp", 8, 15));
    Value *rkk = lb.binary(OpKind::Add, rk, lb.splat(k, {bk}));
    Value *kOk = lb.binary(OpKind::Lt, rkk, lb.splat(K, {bk}));
    Shape sa{bm, bk}, sb{bk, bn};
    Value *aOffs = lb.binary(OpKind::Add, lb.binary(OpKind::Mul, expandTo(lb, rm, 1, sa), lb.splat(K, sa)),
                             expandTo(lb, rkk, 0, sa));
    Value *aMask = lb.binary(OpKind::And, expandTo(lb, mOk, 1, sa), expandTo(lb, kOk, 0, sa));
    Value *ta = lb.load(ptrsAt(lb, a, aOffs), aMask);
    lb.setLoc(Location("matmul.cpp", 9, 15));
    Value *bOffs = lb.binary(OpKind::Add, lb.binary(OpKind::Mul, expandTo(lb, rkk, 1, sb), lb.splat(N, sb)),
                             expandTo(lb, rn, 0, sb));
    Value *bMask = lb.binary(OpKind::And, expandTo(lb, kOk, 1, sb), expandTo(lb, nOk, 0, sb));
    Value *tb = lb.load(ptrsAt(lb, bp, bOffs), bMask);
    lb.setLoc(Location("matmul.cpp", 10, 12));
    lb.yield({lb.dot(ta, tb, acc)});
  }
  b.setLoc(Location("matmul.cpp", 12, 3));
  Shape sc{bm, bn};
  Value *cOffs = b.binary(OpKind::Add, b.binary(OpKind::Mul, expandTo(b, rm, 1, sc), b.splat(N, sc)),
                          expandTo(b, rn, 0, sc));
  Value *cMask = b.binary(OpKind::And, expandTo(b, mOk, 1, sc), expandTo(b, nOk, 0, sc));
  b.store(ptrsAt(b, c, cOffs), b.cast(loop->result(0), ScalarKind::F16), cMask);
  b.ret();
  return f;
}

void runMatmul(int64_t M, int64_t N, int64_t K, int64_t bm, int64_t bn, int64_t bk, unsigned seed) {
  INFO(M << "x" << N << "x" << K << " blocks " << bm << "x" << bn << "x" << bk);
  std::unique_ptr<Func> f = buildMatmul(bm, bn, bk);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<double> av(M * K), bv(K * N);
  for (double &v : av) v = d(rng);
  for (double &v : bv) v = d(rng);
  std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F16, av, "a"), Buffer::fromValues(ScalarKind::F16, bv, "b"),
                           Buffer::fromValues(ScalarKind::F16, std::vector<double>(M * N, 99.0), "c")};
  RunResult r = interpret(*f, {cdiv(M, bm), cdiv(N, bn), 1},
                          {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::integer(M),
                           KernelArg::integer(N), KernelArg::integer(K)},
                          bufs);
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r.ok());
  int bad = 0;
  double worst = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double want = 0, mag = 0;
      for (int64_t k = 0; k < K; ++k) {
        double p = bufs[0].get(i * K + k) * bufs[1].get(k * N + j);  // the f16 inputs, exactly
        want += p;
        mag += std::fabs(p);
      }
      // rounding the result to f16 (half an ulp, 2^-11 relative) plus an f32
      // accumulation error of at most K ulps of f32 on the magnitude
      double tol = std::ldexp(std::fabs(want), -11) * 1.01 + mag * K * std::ldexp(1.0, -24) + std::ldexp(1.0, -24);
      double err = std::fabs(bufs[2].get(i * N + j) - want);
      worst = std::max(worst, err);
      if (!(err <= tol)) ++bad;
    }
  INFO("worst error " << worst);
  CHECK(bad == 0);
}

} // namespace

//===-- vector_add tests --------------------------------------------------===//

TEST_CASE("vector_add verifies and round-trips through text", "[interpreter][examples]") {
  std::unique_ptr<Func> f = buildVectorAdd(256);
  checkVerifiesAndRoundTrips(*f);
  std::string text = toString(*f);
  CHECK_THAT(text, Catch::Contains("meta {BLOCK = 256}"));
  CHECK_THAT(text, Catch::Contains("vector_add.cpp"));
  CHECK_THAT(toString(*f, PrintOptions{false}), !Catch::Contains("loc("));
}

TEST_CASE("vector_add computes x + y for sizes that are not multiples of the block", "[interpreter][examples]") {
  for (int64_t n : {1, 1000, 1024, 1500}) runVectorAdd(n, 256, static_cast<unsigned>(n));
}

TEST_CASE("vector_add with one block covering everything and with tiny blocks", "[interpreter][examples]") {
  runVectorAdd(1000, 1024, 1);
  runVectorAdd(37, 4, 2);
}

TEST_CASE("vector_add leaves elements beyond n untouched", "[interpreter][examples]") {
  std::unique_ptr<Func> f = buildVectorAdd(64);
  const int64_t n = 70, size = 128;  // two programs; the second covers 64..127, of which 70.. are masked
  std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F32, std::vector<double>(size, 1.0), "x"),
                           Buffer::fromValues(ScalarKind::F32, std::vector<double>(size, 2.0), "y"),
                           Buffer::fromValues(ScalarKind::F32, std::vector<double>(size, -5.0), "out")};
  RunResult r = interpret(*f, {2, 1, 1}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::integer(n)},
                          bufs);
  REQUIRE(r.ok());
  for (int64_t i = 0; i < size; ++i) CHECK(bufs[2].get(i) == (i < n ? 3.0 : -5.0));
}

TEST_CASE("vector_add parsed back from text computes the same result", "[interpreter][examples]") {
  std::unique_ptr<Func> f = buildVectorAdd(128);
  ParseResult parsed = parseModule(toString(*f));
  REQUIRE(parsed.module);
  const Func &g = *parsed.module->funcs.at(0);
  const int64_t n = 300;
  std::vector<double> xs(n), ys(n);
  for (int64_t i = 0; i < n; ++i) {
    xs[i] = 0.5 * static_cast<double>(i);
    ys[i] = 1.0 / static_cast<double>(i + 1);
  }
  auto run = [&](const Func &fn) {
    std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F32, xs, "x"), Buffer::fromValues(ScalarKind::F32, ys, "y"),
                             Buffer(ScalarKind::F32, n, "out")};
    RunResult r = interpret(fn, {cdiv(n, 128), 1, 1},
                            {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::integer(n)}, bufs);
    REQUIRE(r.ok());
    return bufs[2].values();
  };
  std::vector<double> fromBuilt = run(*f), fromParsed = run(g);
  CHECK(fromBuilt == fromParsed);
  CHECK(fromBuilt[299] == static_cast<double>(149.5f + 1.0f / 300.0f));
}

TEST_CASE("vector_add with too small a grid leaves the tail unwritten", "[interpreter][examples]") {
  // A launch bug, not a kernel bug: one program of 256 for 300 elements.
  std::unique_ptr<Func> f = buildVectorAdd(256);
  std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F32, std::vector<double>(300, 1.0), "x"),
                           Buffer::fromValues(ScalarKind::F32, std::vector<double>(300, 1.0), "y"),
                           Buffer(ScalarKind::F32, 300, "out")};
  REQUIRE(interpret(*f, {1, 1, 1}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::integer(300)},
                    bufs)
              .ok());
  CHECK(bufs[2].get(255) == 2.0);
  CHECK(bufs[2].get(256) == 0.0);
}

//===-- softmax tests -----------------------------------------------------===//

TEST_CASE("softmax verifies and round-trips through text", "[interpreter][examples]") {
  for (ScalarKind t : {ScalarKind::F32, ScalarKind::F16}) {
    INFO(scalarName(t));
    std::unique_ptr<Func> f = buildSoftmax(t, 1024);
    checkVerifiesAndRoundTrips(*f);
    CHECK_THAT(toString(*f), Catch::Contains("-inf"));
  }
}

TEST_CASE("softmax of f32 rows matches a double reference", "[interpreter][examples]") {
  for (int64_t n : {1, 1000, 1024, 1500}) runSoftmax(ScalarKind::F32, 3, n, static_cast<unsigned>(n) + 10);
}

TEST_CASE("softmax of f16 rows matches a double reference within f16 rounding", "[interpreter][examples]") {
  for (int64_t n : {1, 1000, 1024, 1500}) runSoftmax(ScalarKind::F16, 3, n, static_cast<unsigned>(n) + 20);
}

TEST_CASE("softmax of a row of equal values is uniform", "[interpreter][examples]") {
  const int64_t n = 100;
  std::unique_ptr<Func> f = buildSoftmax(ScalarKind::F32, 128);
  std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F32, std::vector<double>(n, 3.5), "x"),
                           Buffer(ScalarKind::F32, n, "y")};
  REQUIRE(interpret(*f, {1, 1, 1}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::integer(n), KernelArg::integer(n)},
                    bufs)
              .ok());
  for (int64_t i = 0; i < n; ++i) CHECK(bufs[1].get(i) == static_cast<double>(1.0f / 100.0f));
}

TEST_CASE("softmax is stable for large inputs thanks to the max subtraction", "[interpreter][examples]") {
  // exp(1000) overflows; exp(x - max) does not.
  std::unique_ptr<Func> f = buildSoftmax(ScalarKind::F32, 4);
  std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F32, {1000.0, 1000.0, 999.0}, "x"),
                           Buffer(ScalarKind::F32, 3, "y")};
  REQUIRE(interpret(*f, {1, 1, 1}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::integer(3), KernelArg::integer(3)},
                    bufs)
              .ok());
  double e = std::exp(-1.0), total = 2 + e;
  CHECK(bufs[1].get(0) == Approx(1 / total).epsilon(1e-6));
  CHECK(bufs[1].get(2) == Approx(e / total).epsilon(1e-6));
}

//===-- matmul tests ------------------------------------------------------===//

TEST_CASE("matmul verifies and round-trips through text", "[interpreter][examples]") {
  std::unique_ptr<Func> f = buildMatmul(16, 16, 16);
  checkVerifiesAndRoundTrips(*f);
  std::string text = toString(*f);
  CHECK_THAT(text, Catch::Contains("meta {BM = 16, BN = 16, BK = 16}"));
  CHECK_THAT(text, Catch::Contains("dot"));
  CHECK_THAT(text, Catch::Contains("for"));
}

TEST_CASE("matmul of ragged 33x17x50 matches a double reference", "[interpreter][examples]") {
  runMatmul(33, 17, 50, 16, 16, 16, 1);
}

TEST_CASE("matmul of 64x64x64 matches a double reference", "[interpreter][examples]") {
  runMatmul(64, 64, 64, 32, 32, 16, 2);
}

TEST_CASE("matmul with blocks larger than the problem and K smaller than BK", "[interpreter][examples]") {
  runMatmul(5, 3, 7, 16, 16, 16, 3);
  runMatmul(1, 1, 1, 16, 16, 16, 4);
}

TEST_CASE("matmul with K = 0 stores zeros", "[interpreter][examples]") {
  std::unique_ptr<Func> f = buildMatmul(16, 16, 16);
  std::vector<Buffer> bufs{Buffer(ScalarKind::F16, 1, "a"), Buffer(ScalarKind::F16, 1, "b"),
                           Buffer::fromValues(ScalarKind::F16, std::vector<double>(4 * 4, 9.0), "c")};
  RunResult r = interpret(*f, {1, 1, 1},
                          {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::integer(4),
                           KernelArg::integer(4), KernelArg::integer(0)},
                          bufs);
  REQUIRE(r.ok());
  CHECK(bufs[2].values() == std::vector<double>(16, 0.0));
}
