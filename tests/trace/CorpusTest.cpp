// The kernel corpus through the tracing front end: every specialization that
// corpus.json lists traces, verifies, and prints and parses back; and the
// interpreter running the traced IR matches the plain C++ reference on random
// inputs of several sizes, ragged ones included.
#include "frontends/trace/Trace.h"

// The corpus is linked in (twintile_corpus, generated from corpus.json): every
// specialization is registered for tracing by name.
#include "references.h"

#include "ir/Interpreter.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <random>

namespace ir = twintile::ir;
using ir::Buffer;
using ir::KernelArg;
using ir::ScalarKind;
using twintile::reference::Vec;

namespace {

std::unique_ptr<ir::Func> traced(const std::string &spec) {
  const twintile::RegisteredKernel *k = twintile::findRegistered(spec);
  INFO(spec);
  REQUIRE(k);
  twintile::TraceResult r = k->trace({});
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r.ok());
  return std::move(r.func);
}

Vec randomVec(std::mt19937 &rng, size_t n, double lo = -2, double hi = 2) {
  std::uniform_real_distribution<double> d(lo, hi);
  Vec v(n);
  for (double &x : v) x = d(rng);
  return v;
}

/// Relative tolerance of a result stored in `k`, a few units in its last place.
double tolerance(ScalarKind k) {
  switch (k) {
  case ScalarKind::F16: return 4e-3;
  case ScalarKind::BF16: return 3e-2;
  case ScalarKind::F32: return 2e-5;
  default: return 0;
  }
}

void checkClose(const Vec &got, const Vec &want, ScalarKind k, double atol = 1e-6) {
  REQUIRE(got.size() == want.size());
  double rtol = tolerance(k);
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= atol + rtol * std::fabs(want[i]))) {
      if (bad++ < 5) UNSCOPED_INFO("element " << i << ": got " << got[i] << ", want " << want[i]);
    }
  CHECK(bad == 0);
}

void run(const ir::Func &f, ir::Grid grid, const std::vector<KernelArg> &args, std::vector<Buffer> &bufs) {
  ir::RunResult r = ir::interpret(f, grid, args, bufs);
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r.ok());
}


int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Values as stored in `k` (so references see what the kernel sees).
Vec stored(ScalarKind k, const Vec &v) { return Buffer::fromValues(k, v).values(); }

} // namespace

TEST_CASE("every corpus specialization traces, verifies and round-trips", "[trace][corpus]") {
  std::ifstream in(TWINTILE_CORPUS_DIR "/corpus.json");
  REQUIRE(in);
  nlohmann::json corpus = nlohmann::json::parse(in);
  size_t count = 0;
  for (auto &kernel : corpus["kernels"])
    for (auto &spec : kernel["specializations"]) {
      std::unique_ptr<ir::Func> f = traced(spec.get<std::string>());
      INFO(spec.get<std::string>());
      CHECK(f->name == kernel["name"].get<std::string>());
      CHECK(ir::verify(*f).empty());
      for (bool locations : {true, false}) {
        std::string text = ir::toString(*f, {.locations = locations});
        ir::ParseResult p = ir::parseModule(text);
        REQUIRE(p.module);
        CHECK(ir::toString(*p.module->funcs[0], {.locations = locations}) == text);
      }
      ++count;
    }
  CHECK(count == twintile::registry().size());
}

TEST_CASE("traced ops carry the kernel file's lines", "[trace][corpus]") {
  auto f = traced("vector_add<1024>");
  bool sawStore = false;
  ir::walk(f->body, [&](const ir::Op &op) {
    if (op.kind == ir::OpKind::Return) return;
    CHECK(op.loc.pos.file.find("vector_add.cpp") != std::string::npos);
    if (op.kind == ir::OpKind::Store) {
      sawStore = true;
      CHECK(op.loc.pos.line == 10);  // store(out + offs, ...) in vector_add.cpp
    }
  });
  CHECK(sawStore);
}

TEST_CASE("vector_add matches the reference", "[trace][corpus]") {
  std::mt19937 rng(1);
  for (int block : {128, 256, 1024}) {
    auto f = traced("vector_add<" + std::to_string(block) + ">");
    for (int n : {1, 100, 1024, 1500, 4099}) {
      INFO("BLOCK " << block << ", n " << n);
      Vec x = randomVec(rng, n), y = randomVec(rng, n);
      std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F32, x, "x"),
                               Buffer::fromValues(ScalarKind::F32, y, "y"), Buffer(ScalarKind::F32, n, "out")};
      run(*f, {cdiv(n, block)}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::integer(n)}, bufs);
      checkClose(bufs[2].values(), twintile::reference::vector_add(bufs[0].values(), bufs[1].values()), ScalarKind::F32);
    }
  }
}

TEST_CASE("softmax matches the reference in all 12 specializations", "[trace][corpus]") {
  std::mt19937 rng(2);
  for (auto [dtype, kind] : {std::pair{"f16", ScalarKind::F16}, {"bf16", ScalarKind::BF16}, {"f32", ScalarKind::F32}})
    for (int block : {128, 256, 512, 1024}) {
      auto f = traced(std::string("softmax<") + dtype + "," + std::to_string(block) + ">");
      for (int cols : {1, block / 2 + 3, block}) {
        INFO(dtype << " BLOCK " << block << ", n_cols " << cols);
        int rows = 3, stride = cols + 5;
        Vec x = stored(kind, randomVec(rng, rows * stride, -4, 4));
        std::vector<Buffer> bufs{Buffer::fromValues(kind, x, "x"), Buffer(kind, rows * stride, "y")};
        run(*f, {rows}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::integer(cols), KernelArg::integer(stride)}, bufs);
        Vec want(rows * stride, 0.0);
        twintile::reference::softmax(x, want, rows, cols, stride);
        checkClose(bufs[1].values(), want, kind);
      }
    }
}

TEST_CASE("layernorm matches the reference", "[trace][corpus]") {
  std::mt19937 rng(3);
  for (auto [dtype, kind] : {std::pair{"f16", ScalarKind::F16}, {"f32", ScalarKind::F32}})
    for (int block : {256, 1024}) {
      auto f = traced(std::string("layernorm<") + dtype + "," + std::to_string(block) + ">");
      for (int cols : {1, 200, block}) {
        INFO(dtype << " BLOCK " << block << ", n_cols " << cols);
        int rows = 2, stride = cols;
        Vec x = stored(kind, randomVec(rng, rows * stride)), w = stored(ScalarKind::F32, randomVec(rng, cols)),
            b = stored(ScalarKind::F32, randomVec(rng, cols));
        std::vector<Buffer> bufs{Buffer::fromValues(kind, x, "x"), Buffer(kind, rows * stride, "y"),
                                 Buffer::fromValues(ScalarKind::F32, w, "w"), Buffer::fromValues(ScalarKind::F32, b, "b")};
        double eps = 1e-5;
        run(*f, {rows},
            {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::buf(3), KernelArg::integer(cols),
             KernelArg::integer(stride), KernelArg::floating(eps)},
            bufs);
        Vec want(rows * stride);
        twintile::reference::layernorm(x, want, w, b, rows, cols, stride, static_cast<float>(eps));
        checkClose(bufs[1].values(), want, kind, 1e-3);
      }
    }
}

TEST_CASE("rmsnorm matches the reference", "[trace][corpus]") {
  std::mt19937 rng(4);
  for (auto [spec, kind] : {std::pair{"rmsnorm<f16,256>", ScalarKind::F16}, {"rmsnorm<bf16,1024>", ScalarKind::BF16},
                            {"rmsnorm<f32,256>", ScalarKind::F32}, {"rmsnorm<f32,1024>", ScalarKind::F32}}) {
    auto f = traced(spec);
    for (int cols : {1, 77, 256}) {
      INFO(spec << ", n_cols " << cols);
      int rows = 3, stride = cols + 1;
      Vec x = stored(kind, randomVec(rng, rows * stride)), w = stored(ScalarKind::F32, randomVec(rng, cols));
      std::vector<Buffer> bufs{Buffer::fromValues(kind, x, "x"), Buffer(kind, rows * stride, "y"),
                               Buffer::fromValues(ScalarKind::F32, w, "w")};
      run(*f, {rows},
          {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::integer(cols), KernelArg::integer(stride),
           KernelArg::floating(1e-6)},
          bufs);
      Vec want(rows * stride, 0.0);
      twintile::reference::rmsnorm(x, want, w, rows, cols, stride, static_cast<float>(1e-6));
      checkClose(bufs[1].values(), want, kind, 1e-4);
    }
  }
}

TEST_CASE("matmul matches the reference, ragged sizes included", "[trace][corpus]") {
  std::mt19937 rng(5);
  for (auto [spec, bm, bn] : {std::tuple{"matmul<16,16,16>", 16, 16}, {"matmul<32,32,16>", 32, 32}, {"matmul<64,64,32>", 64, 64}}) {
    auto f = traced(spec);
    for (auto [M, N, K] : {std::tuple{33, 17, 50}, {64, 64, 64}, {5, 7, 3}}) {
      INFO(spec << " " << M << "x" << N << "x" << K);
      Vec a = stored(ScalarKind::F16, randomVec(rng, M * K, -1, 1)), b = stored(ScalarKind::F16, randomVec(rng, K * N, -1, 1));
      std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F16, a, "a"), Buffer::fromValues(ScalarKind::F16, b, "b"),
                               Buffer(ScalarKind::F16, M * N, "c")};
      run(*f, {cdiv(M, bm), cdiv(N, bn)},
          {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::integer(M), KernelArg::integer(N),
           KernelArg::integer(K)},
          bufs);
      checkClose(bufs[2].values(), twintile::reference::matmul(a, b, M, N, K), ScalarKind::F16, 1e-3);
    }
  }
}

TEST_CASE("flash_attention matches the reference", "[trace][corpus]") {
  std::mt19937 rng(6);
  for (auto [spec, bm, d] : {std::tuple{"flash_attention<16,16,16>", 16, 16}, {"flash_attention<32,32,32>", 32, 32},
                             {"flash_attention<64,64,64>", 64, 64}}) {
    auto f = traced(spec);
    for (int seq : {1, 37, 80}) {
      INFO(spec << ", seq " << seq);
      int heads = 2;
      size_t n = static_cast<size_t>(heads) * seq * d;
      Vec q = stored(ScalarKind::F16, randomVec(rng, n, -1, 1)), k = stored(ScalarKind::F16, randomVec(rng, n, -1, 1)),
          v = stored(ScalarKind::F16, randomVec(rng, n, -1, 1));
      double scale = 1 / std::sqrt(static_cast<double>(d));
      std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F16, q, "q"), Buffer::fromValues(ScalarKind::F16, k, "k"),
                               Buffer::fromValues(ScalarKind::F16, v, "v"), Buffer(ScalarKind::F16, n, "o")};
      run(*f, {cdiv(seq, bm), heads},
          {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::buf(3), KernelArg::integer(seq),
           KernelArg::floating(scale)},
          bufs);
      // p is rounded to f16 before the second dot, as on the GPU: a few f16 ulps.
      checkClose(bufs[3].values(), twintile::reference::attention(q, k, v, heads, seq, d, static_cast<float>(scale)),
                 ScalarKind::F16, 4e-3);
    }
  }
}

TEST_CASE("row_argmax matches the reference, first index on ties", "[trace][corpus]") {
  std::mt19937 rng(7);
  for (int block : {128, 1024}) {
    auto f = traced("row_argmax<" + std::to_string(block) + ">");
    for (int cols : {1, 100, block}) {
      INFO("BLOCK " << block << ", n_cols " << cols);
      int rows = 4, stride = cols;
      Vec x = stored(ScalarKind::F32, randomVec(rng, rows * stride));
      for (int c = 0; c < cols; c += 7) x[c] = 5.0;  // ties in row 0
      std::vector<Buffer> bufs{Buffer::fromValues(ScalarKind::F32, x, "x"), Buffer(ScalarKind::I32, rows, "index"),
                               Buffer(ScalarKind::F32, rows, "value")};
      run(*f, {rows}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::integer(cols), KernelArg::integer(stride)},
          bufs);
      std::vector<int> index(rows);
      Vec value(rows);
      twintile::reference::row_argmax(x, index, value, rows, cols, stride);
      for (int r = 0; r < rows; ++r) {
        CHECK(bufs[1].getInt(r) == index[r]);
        CHECK(bufs[2].get(r) == value[r]);
      }
    }
  }
}

TEST_CASE("row_cumsum matches the reference for i32 and f32", "[trace][corpus]") {
  std::mt19937 rng(8);
  for (auto [spec, kind] : {std::pair{"row_cumsum<i32,128>", ScalarKind::I32}, {"row_cumsum<f32,128>", ScalarKind::F32},
                            {"row_cumsum<f32,1024>", ScalarKind::F32}}) {
    auto f = traced(spec);
    for (int cols : {1, 100, 128}) {
      INFO(spec << ", n_cols " << cols);
      int rows = 3, stride = cols + 2;
      Vec x = randomVec(rng, rows * stride, -50, 50);
      if (kind == ScalarKind::I32)
        for (double &v : x) v = std::round(v);
      x = stored(kind, x);
      std::vector<Buffer> bufs{Buffer::fromValues(kind, x, "x"), Buffer(kind, rows * stride, "y")};
      run(*f, {rows}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::integer(cols), KernelArg::integer(stride)}, bufs);
      Vec want(rows * stride, 0.0);
      twintile::reference::row_cumsum(x, want, rows, cols, stride);
      checkClose(bufs[1].values(), want, kind, 1e-3);
    }
  }
}

TEST_CASE("gelu and swiglu match the reference", "[trace][corpus]") {
  std::mt19937 rng(9);
  for (auto [spec, kind, block] : {std::tuple{"gelu<f16,256>", ScalarKind::F16, 256}, {"gelu<f32,1024>", ScalarKind::F32, 1024}}) {
    auto f = traced(spec);
    for (int n : {1, 700, 2048}) {
      INFO(spec << ", n " << n);
      Vec x = stored(kind, randomVec(rng, n, -5, 5));
      std::vector<Buffer> bufs{Buffer::fromValues(kind, x, "x"), Buffer(kind, n, "y")};
      run(*f, {cdiv(n, block)}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::integer(n)}, bufs);
      checkClose(bufs[1].values(), twintile::reference::gelu(x), kind, 1e-5);
    }
  }
  for (auto [spec, kind, block] : {std::tuple{"swiglu<f16,256>", ScalarKind::F16, 256}, {"swiglu<bf16,1024>", ScalarKind::BF16, 1024},
                                   {"swiglu<f32,1024>", ScalarKind::F32, 1024}}) {
    auto f = traced(spec);
    for (int n : {3, 1000, 1024}) {
      INFO(spec << ", n " << n);
      Vec a = stored(kind, randomVec(rng, n, -6, 6)), b = stored(kind, randomVec(rng, n));
      std::vector<Buffer> bufs{Buffer::fromValues(kind, a, "a"), Buffer::fromValues(kind, b, "b"), Buffer(kind, n, "out")};
      run(*f, {cdiv(n, block)}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::integer(n)}, bufs);
      checkClose(bufs[2].values(), twintile::reference::swiglu(a, b), kind, 1e-5);
    }
  }
}
