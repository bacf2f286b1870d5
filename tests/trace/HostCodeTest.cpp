// Host-level C++ simply runs under the tracing front end (docs/design.md, "The
// kernel language"): helper functions and function templates, lambdas and
// functors, containers of tiles, recursion, unrolled host loops, runtime
// block sizes, structs of tiles, early returns, the combinators with several
// carried values, device_print and device_assert. Each kernel is traced,
// verified and run by the interpreter against values computed here. Lines are
// found by their marker comments (`// <- name`), as in RefusalsTest.cpp.
#include "frontends/trace/Trace.h"

#include "ir/Interpreter.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include "Markers.h"

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

using namespace tt;
namespace ir = twintile::ir;
using ir::Buffer;
using ir::KernelArg;
using ir::ScalarKind;

namespace {

using Vec = std::vector<double>;

int markedLine(const std::string &marker) {
  int line = twintile::test::markedLine(__FILE__, marker);
  if (line == 0) FAIL("no marker " << marker);
  return line;
}

/// The traced function; requires that the trace succeeded and verifies.
std::unique_ptr<ir::Func> traced(twintile::TraceResult r) {
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r.ok());
  std::vector<ir::Diagnostic> diags = ir::verify(*r.func);
  INFO((diags.empty() ? std::string() : diags[0].str()) << "\n" << ir::toString(*r.func));
  REQUIRE(diags.empty());
  return std::move(r.func);
}

/// Runs `f` over one program; requires success and returns what it printed.
std::string run(const ir::Func &f, const std::vector<KernelArg> &args, std::vector<Buffer> &bufs) {
  ir::RunResult r = ir::interpret(f, {1}, args, bufs);
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r.ok());
  return r.printed;
}

/// Inputs that are exact in f32 and keep every test's arithmetic exact.
Vec inputs(size_t n, double offset = 0) {
  Vec v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<double>(static_cast<int>(i % 13) - 6) * 0.5 + offset;
  return v;
}

Buffer f32s(const Vec &v, const std::string &name) { return Buffer::fromValues(ScalarKind::F32, v, name); }

void checkEqual(const Vec &got, const Vec &want) {
  REQUIRE(got.size() == want.size());
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= 1e-6 * (1 + std::fabs(want[i])))) {
      if (bad++ < 5) UNSCOPED_INFO("element " << i << ": got " << got[i] << ", want " << want[i]);
    }
  CHECK(bad == 0);
}

/// Runs a kernel (Ptr<f32> x, Ptr<f32> y) over `n` inputs and checks y = want(x).
template <class F> void checkUnary(const ir::Func &f, size_t n, F want, size_t outN = 0) {
  Vec x = inputs(n);
  std::vector<Buffer> bufs{f32s(x, "x"), Buffer(ScalarKind::F32, outN ? outN : n, "y")};
  run(f, {KernelArg::buf(0), KernelArg::buf(1)}, bufs);
  Vec expect(outN ? outN : n);
  for (size_t i = 0; i < expect.size(); ++i) expect[i] = want(x, i);
  checkEqual(bufs[1].values(), expect);
}

size_t count(const ir::Func &f, ir::OpKind kind) {
  size_t n = 0;
  ir::walk(f.body, [&](const ir::Op &op) { n += op.kind == kind; });
  return n;
}

const ir::Attr *meta(const ir::Func &f, const std::string &key) {
  for (auto &[k, v] : f.meta)
    if (k == key) return &v;
  return nullptr;
}

} // namespace

//===-- 1. A helper function on device values -----------------------------===//

Tile<f32> square(Tile<f32> v) {
  return v * v;  // <- square-mul
}

template <int B> TT_KERNEL void squareTwice(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  auto v = load(x + offs);
  store(y + offs, square(square(v)) + square(v + 1.0f));
}

TEST_CASE("a helper function on device values is called twice", "[trace][host]") {
  auto f = traced(twintile::trace(&squareTwice<32>, "squareTwice<32>"));
  CHECK(count(*f, ir::OpKind::Mul) == 3);
  checkUnary(*f, 32, [](const Vec &x, size_t i) { return x[i] * x[i] * x[i] * x[i] + (x[i] + 1) * (x[i] + 1); });
}

TEST_CASE("ops created in a helper carry the helper line", "[trace][host]") {
  auto f = traced(twintile::trace(&squareTwice<32>, "squareTwice<32>"));
  int line = markedLine("square-mul");
  size_t inHelper = 0;
  ir::walk(f->body, [&](const ir::Op &op) {
    if (op.kind != ir::OpKind::Mul) return;
    INFO(ir::toString(op.loc.pos));
    CHECK(op.loc.pos.file == __FILE__);
    CHECK(op.loc.pos.line == line);
    ++inHelper;
  });
  CHECK(inHelper == 3);
}

//===-- 2. Function templates ---------------------------------------------===//

template <class T> Tile<T> cube(Tile<T> v) { return v * v * v; }

template <int B> Tile<i32> blockOffsets(i32 pid) { return pid * B + arange(0, B); }

template <int B> TT_KERNEL void cubes(Ptr<f32> x, Ptr<f32> y, Ptr<i32> a, Ptr<i32> b) {
  auto offs = blockOffsets<B>(program_id(0));
  store(y + offs, cube(load(x + offs)));
  store(b + offs, cube<i32>(load(a + offs)) + 1);
}

TEST_CASE("function templates on element type and block size", "[trace][host]") {
  auto f = traced(twintile::trace(&cubes<16>, "cubes<16>"));
  CHECK(count(*f, ir::OpKind::Arange) == 1);
  Vec x = inputs(16), a(16);
  for (int i = 0; i < 16; ++i) a[i] = i - 5;
  std::vector<Buffer> bufs{f32s(x, "x"), Buffer(ScalarKind::F32, 16, "y"), Buffer::fromValues(ScalarKind::I32, a, "a"),
                           Buffer(ScalarKind::I32, 16, "b")};
  run(*f, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::buf(3)}, bufs);
  Vec wantY(16);
  for (int i = 0; i < 16; ++i) {
    wantY[i] = x[i] * x[i] * x[i];
    CHECK(bufs[3].getInt(i) == (i - 5) * (i - 5) * (i - 5) + 1);
  }
  checkEqual(bufs[1].values(), wantY);
}

//===-- 3. Lambdas ---------------------------------------------------------===//

template <class F> Tile<f32> applyTwice(F f, Tile<f32> v) { return f(f(v)); }

template <int B> TT_KERNEL void lambdas(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  float k = 3.0f;  // a host value captured by the lambdas
  auto axpy = [&](Tile<f32> t) { return t * k + 1.0f; };
  auto halve = [](auto t) { return t * 0.5f; };  // a generic lambda
  auto v = load(x + offs);
  store(y + offs, applyTwice(axpy, v) + applyTwice(halve, v) + axpy(v));
}

TEST_CASE("lambdas inside a kernel and passed to a higher order helper", "[trace][host]") {
  auto f = traced(twintile::trace(&lambdas<32>, "lambdas<32>"));
  checkUnary(*f, 32, [](const Vec &x, size_t i) {
    double v = x[i];
    return ((v * 3 + 1) * 3 + 1) + v * 0.25 + (v * 3 + 1);
  });
}

//===-- 4. Functors --------------------------------------------------------===//

struct Affine {
  float scale;
  float shift;
  Tile<f32> operator()(const Tile<f32> &v) const { return v * scale + shift; }
};

TT_KERNEL void functor(Ptr<f32> x, Ptr<f32> y, float scale) {
  auto offs = arange(0, 16);
  Affine f{scale, 2.0f};
  store(y + offs, f(f(load(x + offs))));
}

TEST_CASE("a functor holding host state from a meta parameter", "[trace][host]") {
  for (float scale : {0.5f, -4.0f}) {
    INFO("scale " << scale);
    auto f = traced(twintile::trace(&functor, "functor", scale));
    const ir::Attr *m = meta(*f, "arg0");
    REQUIRE(m);
    CHECK(m->kind == ir::Attr::Kind::Float);
    CHECK(m->f == scale);
    checkUnary(*f, 16, [&](const Vec &x, size_t i) { return (x[i] * scale + 2) * scale + 2; });
  }
}

//===-- 5. Containers of tiles ---------------------------------------------===//

template <int B, int N> TT_KERNEL void containers(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  std::array<Tile<f32>, N> parts;
  for (int i = 0; i < N; ++i) parts[i] = load(x + i * B + offs);
  std::vector<Tile<f32>> scaled;
  for (const Tile<f32> &p : parts) scaled.push_back(p * static_cast<float>(scaled.size() + 1));
  Tile<f32> acc = zeros<f32>({B});
  for (const Tile<f32> &p : parts) acc = acc + p;
  for (const Tile<f32> &s : scaled) acc += s;
  store(y + offs, acc);
}

TEST_CASE("std array and std vector of tiles built in a host loop", "[trace][host]") {
  auto f = traced(twintile::trace(&containers<8, 3>, "containers<8,3>"));
  CHECK(count(*f, ir::OpKind::Load) == 3);
  checkUnary(
      *f, 24,
      [](const Vec &x, size_t i) {
        double s = 0;
        for (size_t k = 0; k < 3; ++k) s += x[k * 8 + i] * (1 + static_cast<double>(k + 1));
        return s;
      },
      8);
}

//===-- 6. Recursion over host values --------------------------------------===//

/// The sum of chunks [lo, hi) of x, as a balanced tree.
Tile<f32> treeSum(Ptr<f32> x, int lo, int hi, int block) {
  if (hi - lo == 1) return load(x + lo * block + arange(0, block));
  int mid = (lo + hi) / 2;
  return treeSum(x, lo, mid, block) + treeSum(x, mid, hi, block);
}

/// v to the power 2^N, by a recursive template.
template <int N> Tile<f32> pow2(const Tile<f32> &v) {
  if constexpr (N == 0) return v;
  else {
    auto h = pow2<N - 1>(v);
    return h * h;
  }
}

template <int B, int CHUNKS> TT_KERNEL void recursion(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  store(y + offs, treeSum(x, 0, CHUNKS, B) + pow2<2>(load(x + offs)));
}

TEST_CASE("recursion over host values builds a tree of tiles", "[trace][host]") {
  auto f = traced(twintile::trace(&recursion<8, 5>, "recursion<8,5>"));
  CHECK(count(*f, ir::OpKind::Load) == 6);
  CHECK(count(*f, ir::OpKind::Add) == 5);  // four in the tree, one in the kernel
  CHECK(count(*f, ir::OpKind::Mul) == 2);
  checkUnary(
      *f, 40,
      [](const Vec &x, size_t i) {
        double s = 0;
        for (size_t k = 0; k < 5; ++k) s += x[k * 8 + i];
        return s + std::pow(x[i], 4);
      },
      8);
}

//===-- 7. Host loops unroll; host if on a template parameter --------------===//

template <int B, bool DOUBLE> TT_KERNEL void unrolled(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  auto acc = zeros<f32>({B});
  for (int i = 0; i < 4; ++i) acc = acc + load(x + i * B + offs) * static_cast<float>(i);
  if (DOUBLE) acc = acc * 2.0f;
  store(y + offs, acc);
}

TEST_CASE("a host loop unrolls and a host if specializes", "[trace][host]") {
  for (bool twice : {false, true}) {
    INFO("DOUBLE " << twice);
    auto f = twice ? traced(twintile::trace(&unrolled<8, true>, "unrolled<8,true>"))
                   : traced(twintile::trace(&unrolled<8, false>, "unrolled<8,false>"));
    CHECK(count(*f, ir::OpKind::Load) == 4);
    CHECK(count(*f, ir::OpKind::For) == 0);
    CHECK(count(*f, ir::OpKind::If) == 0);
    CHECK(count(*f, ir::OpKind::Mul) == (twice ? 5u : 4u));
    const ir::Attr *m = meta(*f, "arg1");
    REQUIRE(m);
    CHECK(m->i == (twice ? 1 : 0));
    checkUnary(
        *f, 32,
        [&](const Vec &x, size_t i) {
          double s = 0;
          for (size_t k = 0; k < 4; ++k) s += x[k * 8 + i] * static_cast<double>(k);
          return twice ? 2 * s : s;
        },
        8);
  }
}

//===-- 8. A runtime-chosen block size --------------------------------------===//

TT_KERNEL void runtimeBlock(Ptr<f32> x, Ptr<f32> y, i32 n, int block) {
  auto offs = program_id(0) * block + arange(0, block);
  auto mask = offs < n;
  store(y + offs, load(x + offs, mask, 0.0f) * 2.0f, mask);
}

TEST_CASE("a block size chosen at run time by a plain host parameter", "[trace][host]") {
  std::vector<ir::Shape> shapes;
  for (int block : {64, 16}) {
    INFO("block " << block);
    twintile::TraceOptions opts;
    opts.metaNames = {"block"};
    auto f = traced(twintile::traceWith(&runtimeBlock, "runtimeBlock", opts, block));
    CHECK(f->numParams() == 3);
    const ir::Attr *m = meta(*f, "block");
    REQUIRE(m);
    CHECK(m->kind == ir::Attr::Kind::Int);
    CHECK(m->i == block);
    ir::walk(f->body, [&](const ir::Op &op) {
      if (op.kind == ir::OpKind::Arange) shapes.push_back(op.result()->type.shape);
    });
    // Without names the value is still recorded, as arg0.
    auto g = traced(twintile::trace(&runtimeBlock, "runtimeBlock", block));
    REQUIRE(meta(*g, "arg0"));
    CHECK(meta(*g, "arg0")->i == block);

    int n = 40;
    Vec x = inputs(n);
    std::vector<Buffer> bufs{f32s(x, "x"), Buffer(ScalarKind::F32, n, "y")};
    ir::RunResult r = ir::interpret(*f, {(n + block - 1) / block}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::integer(n)}, bufs);
    INFO((r.error ? r.error->str() : std::string()));
    REQUIRE(r.ok());
    Vec want(n);
    for (int i = 0; i < n; ++i) want[i] = 2 * x[i];
    checkEqual(bufs[1].values(), want);
  }
  REQUIRE(shapes.size() == 2);
  CHECK(shapes[0] == ir::Shape{64});
  CHECK(shapes[1] == ir::Shape{16});
}

//===-- 9. A struct of tiles ------------------------------------------------===//

struct Pair {
  Tile<f32> a, b;
};

Pair splitSigns(const Tile<f32> &v) { return {maximum(v, 0.0f), minimum(v, 0.0f)}; }

template <int B> TT_KERNEL void structOfTiles(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  Pair p = splitSigns(load(x + offs));
  auto [pos, neg] = splitSigns(p.a - p.b + 0.5f);
  store(y + offs, pos * 3.0f + p.b + neg);
}

TEST_CASE("a struct of tiles returned from a helper", "[trace][host]") {
  auto f = traced(twintile::trace(&structOfTiles<32>, "structOfTiles<32>"));
  checkUnary(*f, 32, [](const Vec &x, size_t i) {
    double a = std::max(x[i], 0.0), b = std::min(x[i], 0.0);
    double w = a - b + 0.5;
    return std::max(w, 0.0) * 3 + b + std::min(w, 0.0);
  });
}

//===-- 10. Combinators with several carried values -------------------------===//
// (and with none: a for_range without carried values once made g++ warn,
// -Wunused-but-set-parameter in detail::argsOf.)

template <int B> TT_KERNEL void loops(Ptr<f32> x, Ptr<f32> y, Ptr<i32> z, i32 n) {
  auto offs = arange(0, B);
  auto v = load(x + offs);
  // Two carried values: a running sum and a running product.
  auto [s, p] = for_range(0, n, 1, v, full<f32>({B}, 1.0f), [&](i32, Tile<f32> s, Tile<f32> p) {
    return carry(s + v, p * 2.0f);
  });
  // Three carried values, one a scalar counter and one using the induction variable.
  auto [t, c, k] = for_range(0, n, 2, zeros<f32>({B}), i32(0), f32(0.0f), [&](i32 iv, Tile<f32> t, i32 c, f32 k) {
    return carry(t + 1.0f, c + iv, k + 0.5f);
  });
  // while_loop with a counter and an accumulator.
  auto [i, acc] = while_loop([&](i32 i, Tile<f32>) { return i < n; },
                             [&](i32 i, Tile<f32> acc) { return carry(i + 1, acc + v * 3.0f); }, i32(0), zeros<f32>({B}));
  // if_else with two results, and one with none that stores in each branch.
  auto [q, r] = if_else(n > 2, [&] { return carry(s + 100.0f, p); }, [&] { return carry(s - 100.0f, -p); });
  if_else(
      c > 4, [&] { store(y + 4 * B + offs, acc + 1.0f); }, [&] { store(y + 4 * B + offs, acc - 1.0f); });
  store(y + offs, q);
  store(y + B + offs, r);
  store(y + 2 * B + offs, t + k);
  store(z, c);
  store(z + 1, i);
  // No carried value: the body only stores (each iteration its own element).
  for_range(0, n, 1, [&](i32 iv) { store(z + 2 + iv, iv * 10); });
}

TEST_CASE("combinators carry several values through structured bindings", "[trace][host]") {
  auto f = traced(twintile::trace(&loops<8>, "loops<8>"));
  CHECK(count(*f, ir::OpKind::For) == 3);
  CHECK(count(*f, ir::OpKind::While) == 1);
  CHECK(count(*f, ir::OpKind::If) == 2);
  for (int n : {0, 1, 3, 6}) {
    INFO("n " << n);
    Vec x = inputs(8);
    std::vector<Buffer> bufs{f32s(x, "x"), Buffer(ScalarKind::F32, 5 * 8, "y"), Buffer(ScalarKind::I32, 2 + 6, "z")};
    run(*f, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::integer(n)}, bufs);
    int c = 0, iters = 0;
    for (int iv = 0; iv < n; iv += 2) c += iv, ++iters;
    Vec want(5 * 8, 0.0);
    for (int e = 0; e < 8; ++e) {
      double s = x[e] * (n + 1), p = std::pow(2.0, n);
      want[e] = n > 2 ? s + 100 : s - 100;
      want[8 + e] = n > 2 ? p : -p;
      want[16 + e] = iters + 0.5 * iters;
      double acc = 3 * x[e] * n;
      want[32 + e] = c > 4 ? acc + 1 : acc - 1;
    }
    Vec got = bufs[1].values();
    checkEqual(got, want);
    CHECK(bufs[2].getInt(0) == c);
    CHECK(bufs[2].getInt(1) == n);
    for (int e = 0; e < 6; ++e) CHECK(bufs[2].getInt(2 + e) == (e < n ? 10 * e : 0));
  }
}

//===-- 11. Early return on a host-decided path -----------------------------===//

template <int BLOCK> TT_KERNEL void earlyReturn(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, BLOCK);
  auto v = load(x + offs);
  if (BLOCK > 64) {
    store(y + offs, v * 2.0f);
    return;
  }
  store(y + offs, v + 1.0f);
}

TEST_CASE("an early return on a host decided path", "[trace][host]") {
  auto big = traced(twintile::trace(&earlyReturn<128>, "earlyReturn<128>"));
  auto small = traced(twintile::trace(&earlyReturn<32>, "earlyReturn<32>"));
  for (const ir::Func *f : {big.get(), small.get()}) {
    CHECK(count(*f, ir::OpKind::Store) == 1);
    CHECK(count(*f, ir::OpKind::Return) == 1);
  }
  CHECK(count(*big, ir::OpKind::Mul) == 1);
  CHECK(count(*big, ir::OpKind::Add) == 0);
  CHECK(count(*small, ir::OpKind::Add) == 1);
  checkUnary(*big, 128, [](const Vec &x, size_t i) { return 2 * x[i]; });
  checkUnary(*small, 32, [](const Vec &x, size_t i) { return x[i] + 1; });
}

//===-- 12. device_print and device_assert ----------------------------------===//

template <int B> TT_KERNEL void debugging(Ptr<f32> x, Ptr<f32> y, f32 limit) {
  auto offs = arange(0, B);
  auto v = load(x + offs);
  device_print("host-code-probe: ", v, sum(v, 0));
  device_assert(v < limit, "every value is below the limit");  // <- assert
  store(y + offs, v);
}

TEST_CASE("device print and device assert through the trace", "[trace][host]") {
  auto f = traced(twintile::trace(&debugging<4>, "debugging<4>"));
  CHECK(count(*f, ir::OpKind::Print) == 1);
  CHECK(count(*f, ir::OpKind::Assert) == 1);
  ir::walk(f->body, [&](const ir::Op &op) {
    if (op.kind == ir::OpKind::Assert) CHECK(op.loc.pos.line == markedLine("assert"));
  });
  Vec x{1, 2, 3, 4};
  {
    std::vector<Buffer> bufs{f32s(x, "x"), Buffer(ScalarKind::F32, 4, "y")};
    std::string printed = run(*f, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::floating(10)}, bufs);
    INFO(printed);
    CHECK(printed.find("host-code-probe: ") != std::string::npos);
    CHECK(printed.find("10") != std::string::npos);  // the sum
    checkEqual(bufs[1].values(), x);
  }
  {
    std::vector<Buffer> bufs{f32s(x, "x"), Buffer(ScalarKind::F32, 4, "y")};
    ir::RunResult r = ir::interpret(*f, {1}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::floating(3)}, bufs);
    REQUIRE(r.error);
    INFO(r.error->str());
    CHECK(r.error->message.find("every value is below the limit") != std::string::npos);
    CHECK(r.error->loc.pos.line == markedLine("assert"));
  }
}
