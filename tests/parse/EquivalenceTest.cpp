// The two front ends agree: every corpus specialization, parsed from its file
// and traced from the same file, gives structurally equal IR after cleanup,
// and the interpreter computes the same bits from both.
#include "frontends/parse/ParseFrontend.h"
#include "frontends/trace/SourceTracer.h"
#include "ir/Equivalence.h"
#include "ir/Interpreter.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <random>

namespace ir = twintile::ir;

namespace {

void cleanup(ir::Func &f) {
  ir::PassManager pm;
  pm.addDefaultPipeline();
  pm.run(f);
}

twintile::FrontendResult traceFromFile(const std::string &file, const std::string &spec) {
  twintile::SourceTraceOptions opts;
  opts.cacheDir = TWINTILE_TEST_CACHE_DIR;
  return twintile::traceSourceFile(file, spec, opts).trace;
}

} // namespace

TEST_CASE("parse and trace give equal IR for every corpus specialization", "[parse][equivalence]") {
  std::ifstream in(TWINTILE_CORPUS_DIR "/corpus.json");
  REQUIRE(in);
  nlohmann::json corpus = nlohmann::json::parse(in);
  size_t compared = 0;
  for (auto &kernel : corpus["kernels"]) {
    std::string file = std::string(TWINTILE_CORPUS_DIR) + "/" + kernel["file"].get<std::string>();
    std::vector<std::string> specs = kernel["specializations"].get<std::vector<std::string>>();
    auto parsed = twintile::ParsedFile::parse(file, specs);  // one parse serves every specialization
    INFO(parsed->error());
    REQUIRE(parsed->ok());
    for (const std::string &spec : specs) {
      INFO(spec);
      twintile::FrontendResult p = parsed->walk(spec);
      INFO((p.error ? p.error->str() : std::string()));
      REQUIRE(p.ok());
      twintile::FrontendResult t = traceFromFile(file, spec);
      INFO((t.error ? t.error->str() : std::string()));
      REQUIRE(t.ok());
      cleanup(*p.func);
      cleanup(*t.func);
      std::optional<std::string> d = ir::firstDifference(*p.func, *t.func);
      INFO("parse:\n" << ir::toString(*p.func, {.locations = false}) << "trace:\n"
                      << ir::toString(*t.func, {.locations = false}));
      CHECK_FALSE(d.has_value());
      ++compared;
    }
  }
  CHECK(compared >= 39);
}

TEST_CASE("parse and trace give equal IR for a kernel using every operation", "[parse][equivalence]") {
  std::string file = TWINTILE_TESTS_DIR "/parse/all_ops.cpp";
  for (const char *spec : {"all_ops<64>", "all_ops<16>"}) {
    INFO(spec);
    twintile::FrontendResult p = twintile::parseKernel(file, spec), t = traceFromFile(file, spec);
    INFO((p.error ? p.error->str() : std::string()) << (t.error ? t.error->str() : std::string()));
    REQUIRE(p.ok());
    REQUIRE(t.ok());
    cleanup(*p.func);
    cleanup(*t.func);
    INFO("parse:\n" << ir::toString(*p.func, {.locations = false}));
    CHECK_FALSE(ir::firstDifference(*p.func, *t.func).has_value());
    // Every kind of op the language makes appears.
    std::set<ir::OpKind> kinds;
    ir::walk(p.func->body, [&](const ir::Op &op) { kinds.insert(op.kind); });
    for (ir::OpKind k : {ir::OpKind::Rem, ir::OpKind::Shl, ir::OpKind::Shr, ir::OpKind::Xor, ir::OpKind::Not,
                         ir::OpKind::Neg, ir::OpKind::Fma, ir::OpKind::Exp2, ir::OpKind::Log2, ir::OpKind::Rsqrt,
                         ir::OpKind::Sigmoid, ir::OpKind::Select, ir::OpKind::Trans, ir::OpKind::Reshape,
                         ir::OpKind::Broadcast, ir::OpKind::Argmin, ir::OpKind::Cumsum, ir::OpKind::Reduce, ir::OpKind::Scan, ir::OpKind::Dot,
                         ir::OpKind::AtomicAdd, ir::OpKind::NumPrograms, ir::OpKind::Print, ir::OpKind::Assert})
      CHECK(kinds.count(k) == 1);
  }
}

TEST_CASE("both front ends' IR compute the same bits", "[parse][equivalence]") {
  std::string file = TWINTILE_CORPUS_DIR "/softmax.cpp";
  for (const char *spec : {"softmax<f16,256>", "softmax<f32,1024>"}) {
    twintile::FrontendResult p = twintile::parseKernel(file, spec), t = traceFromFile(file, spec);
    REQUIRE(p.ok());
    REQUIRE(t.ok());
    bool f16 = std::string(spec).find("f16") != std::string::npos;
    ir::ScalarKind kind = f16 ? ir::ScalarKind::F16 : ir::ScalarKind::F32;
    int rows = 3, cols = 200, stride = 211;
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> dist(-3, 3);
    std::vector<double> x(rows * stride);
    for (double &v : x) v = dist(rng);
    std::vector<std::vector<uint8_t>> outputs;
    for (ir::Func *f : {p.func.get(), t.func.get()}) {
      std::vector<ir::Buffer> bufs{ir::Buffer::fromValues(kind, x, "x"), ir::Buffer(kind, rows * stride, "y")};
      ir::RunResult r = ir::interpret(*f, {rows}, {ir::KernelArg::buf(0), ir::KernelArg::buf(1),
                                                   ir::KernelArg::integer(cols), ir::KernelArg::integer(stride)},
                                      bufs);
      REQUIRE(r.ok());
      outputs.push_back(bufs[1].bytes());
    }
    CHECK(outputs[0] == outputs[1]);
  }
}

TEST_CASE("one parse serves several specializations, and names the ones it has not", "[parse]") {
  std::string file = TWINTILE_CORPUS_DIR "/vector_add.cpp";
  auto parsed = twintile::ParsedFile::parse(file, {"vector_add<128>", "vector_add<1024>"});
  REQUIRE(parsed->ok());
  auto a = parsed->walk("vector_add<128>"), b = parsed->walk("vector_add< 1024 >");
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a.func->meta[0].second.i == 128);
  CHECK(b.func->meta[0].second.i == 1024);
  auto c = parsed->walk("vector_add<256>");
  REQUIRE_FALSE(c.ok());
  CHECK(c.error->message == "'vector_add<256>' was not among the specializations parsed");
}

TEST_CASE("both front ends spell meta-parameters alike", "[parse][equivalence]") {
  const std::string file = TWINTILE_TESTS_DIR "/parse/meta_spellings.cpp";
  struct Case {
    std::string spec;
    std::vector<std::pair<std::string, ir::Attr>> meta;
  };
  const Case cases[] = {
      {"activated<Silu, 64>", {{"Act", ir::Attr::string("Silu")}, {"B", ir::Attr::integer(64)}}},
      {"activated<act::Gelu, 64>", {{"Act", ir::Attr::string("act::Gelu")}, {"B", ir::Attr::integer(64)}}},
      {"activated<Silu, 32+2*16>", {{"Act", ir::Attr::string("Silu")}, {"B", ir::Attr::integer(64)}}},
      {"scaled<0.5f, 64>", {{"S", ir::Attr::floating(0.5)}, {"B", ir::Attr::integer(64)}}},
      {"scaled<1.1f, (128-64)>", {{"S", ir::Attr::floating(static_cast<float>(1.1))}, {"B", ir::Attr::integer(64)}}},
  };
  for (const Case &c : cases) {
    INFO(c.spec);
    twintile::FrontendResult p = twintile::parseKernel(file, c.spec);
    INFO((p.error ? p.error->str() : std::string()));
    REQUIRE(p.ok());
    twintile::FrontendResult t = traceFromFile(file, c.spec);
    INFO((t.error ? t.error->str() : std::string()));
    REQUIRE(t.ok());
    CHECK(p.func->meta == c.meta);
    CHECK(t.func->meta == c.meta);
    std::optional<std::string> d = ir::firstDifference(*p.func, *t.func);
    CHECK_FALSE(d.has_value());
  }
}
