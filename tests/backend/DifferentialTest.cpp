// The generated code against the reference interpreter: every corpus kernel,
// traced and compiled to PTX, runs in the PTX emulator (runtime/) on random
// inputs, ragged sizes included, and must write what the interpreter writes
// (exactly for integers; within a few units in the last place for floats,
// whose reductions associate differently and whose exp is approximate).
// Compiled both plainly and under the alignment assumptions, so that the
// scalar and the 128-bit paths of the memory lowering are both run.
#include "Differential.h"

#include "backend/Backend.h"
#include "frontends/parse/ParseFrontend.h"
#include "frontends/trace/Trace.h"
#include "ir/Interpreter.h"
#include "ir/PassManager.h"
#include "runtime/Emulator.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <span>

namespace ir = twintile::ir;
namespace be = twintile::backend;
namespace rt = twintile::runtime;
using ir::ScalarKind;

namespace {

/// One kernel argument: a buffer of `count` random elements, or a scalar.
struct Arg {
  enum class Kind { Buffer, Int, Float } kind;
  size_t count = 0;
  int64_t i = 0;
  double f = 0;
  static Arg buffer(size_t n) { return {Kind::Buffer, n, 0, 0}; }
  static Arg integer(int64_t v) { return {Kind::Int, 0, v, 0}; }
  static Arg floating(double v) { return {Kind::Float, 0, 0, v}; }
};

struct Case {
  std::string spec;
  ir::Grid grid;
  std::vector<Arg> args;
  double atol = 1e-5;  // absolute slack for floats
};

std::unique_ptr<ir::Func> traced(const std::string &spec) {
  const twintile::RegisteredKernel *k = twintile::findRegistered(spec);
  INFO(spec);
  REQUIRE(k);
  twintile::TraceResult r = k->trace({});
  REQUIRE(r.ok());
  ir::PassManager pm;
  pm.addDefaultPipeline();
  pm.run(*r.func);
  return std::move(r.func);
}

/// `spec` of a parsed file, walked anew and through the default pipeline.
std::unique_ptr<ir::Func> walked(twintile::ParsedFile &parsed, const std::string &spec) {
  twintile::FrontendResult r = parsed.walk(spec);
  REQUIRE(r.ok());
  ir::PassManager pm;
  pm.addDefaultPipeline();
  pm.run(*r.func);
  return std::move(r.func);
}

/// Runs `c` (the kernel `f`, else the traced `c.spec`) in the interpreter and,
/// compiled for `arch` (with every assumption the arguments satisfy when
/// `assumeAll`), in the emulator; compares every buffer afterwards.
void differential(const Case &c, bool assumeAll, const std::string &arch = "sm_90a",
                  std::unique_ptr<ir::Func> f = nullptr, int numStages = 0, std::vector<std::string> mustEmit = {},
                  int numWarps = 0) {
  INFO(c.spec << " " << arch << (assumeAll ? " (aligned, divisible)" : "") << " num_stages " << numStages
              << " num_warps " << numWarps);
  if (!f) f = traced(c.spec);
  std::mt19937 rng(static_cast<unsigned>(std::hash<std::string>{}(c.spec)));
  std::vector<ir::Buffer> buffers;
  std::vector<ir::KernelArg> args;
  twintile::test::DiffOptions o;
  o.arch = arch;
  o.atol = c.atol;
  o.numStages = numStages;
  o.numWarps = numWarps;
  o.mustEmit = std::move(mustEmit);
  REQUIRE(c.args.size() == f->numParams());
  for (size_t p = 0; p < c.args.size(); ++p) {
    const Arg &a = c.args[p];
    const ir::Type &t = f->param(p)->type;
    switch (a.kind) {
    case Arg::Kind::Buffer: {
      ir::Buffer buf(t.pointee, a.count, f->param(p)->name);
      for (size_t i = 0; i < a.count; ++i) {
        if (ir::isFloat(t.pointee)) buf.set(i, std::uniform_real_distribution<double>(-2, 2)(rng));
        else buf.setInt(i, std::uniform_int_distribution<int64_t>(-50, 50)(rng));
      }
      args.push_back(ir::KernelArg::buf(buffers.size()));
      buffers.push_back(std::move(buf));
      o.assume.push_back({true, false});  // the emulator's buffers are 16-byte aligned
      break;
    }
    case Arg::Kind::Int:
      args.push_back(ir::KernelArg::integer(a.i));
      o.assume.push_back({false, a.i % 16 == 0});
      break;
    case Arg::Kind::Float:
      args.push_back(ir::KernelArg::floating(a.f));
      o.assume.push_back({});
      break;
    }
  }
  if (!assumeAll) o.assume.clear();
  twintile::test::runsLikeInterpreter(*f, c.grid, buffers, args, o);
}

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

std::vector<Case> cases() {
  std::vector<Case> out;
  for (int block : {128, 1024})
    for (int n : {1000, 4096}) out.push_back({"vector_add<" + std::to_string(block) + ">", {cdiv(n, block)},
                                              {Arg::buffer(n), Arg::buffer(n), Arg::buffer(n), Arg::integer(n)}});
  for (const char *t : {"f16", "bf16", "f32"})
    for (int block : {128, 1024}) {
      int cols = block / 2 + 3, rows = 3, stride = cols + 5;
      out.push_back({std::string("softmax<") + t + "," + std::to_string(block) + ">", {rows},
                     {Arg::buffer(rows * stride), Arg::buffer(rows * stride), Arg::integer(cols), Arg::integer(stride)}});
    }
  for (const char *t : {"f16", "f32"}) {
    int cols = 200, rows = 2;
    out.push_back({std::string("layernorm<") + t + ",256>", {rows},
                   {Arg::buffer(rows * cols), Arg::buffer(rows * cols), Arg::buffer(cols), Arg::buffer(cols),
                    Arg::integer(cols), Arg::integer(cols), Arg::floating(1e-5)}});
  }
  for (const char *spec : {"rmsnorm<bf16,1024>", "rmsnorm<f32,256>"}) {
    int cols = 77, rows = 3, stride = 80;
    out.push_back({spec, {rows},
                   {Arg::buffer(rows * stride), Arg::buffer(rows * stride), Arg::buffer(cols), Arg::integer(cols),
                    Arg::integer(stride), Arg::floating(1e-6)}});
  }
  for (auto [spec, bm, bn] : {std::tuple{"matmul<16,16,16>", 16, 16}, {"matmul<32,32,16>", 32, 32}}) {
    int M = 40, N = 33, K = 48;
    out.push_back({spec, {cdiv(M, bm), cdiv(N, bn)},
                   {Arg::buffer(M * K), Arg::buffer(K * N), Arg::buffer(M * N), Arg::integer(M), Arg::integer(N),
                    Arg::integer(K)}});
  }
  for (auto [spec, bm, d] : {std::tuple{"flash_attention<16,16,16>", 16, 16}, {"flash_attention<32,32,32>", 32, 32}}) {
    int seq = 40, heads = 2;
    out.push_back({spec, {cdiv(seq, bm), heads},
                   {Arg::buffer(heads * seq * d), Arg::buffer(heads * seq * d), Arg::buffer(heads * seq * d),
                    Arg::buffer(heads * seq * d), Arg::integer(seq), Arg::floating(0.25)}});
  }
  for (int block : {128, 1024}) {
    int cols = block == 128 ? 100 : 1024, rows = 3, stride = cols + 4;
    out.push_back({"row_argmax<" + std::to_string(block) + ">", {rows},
                   {Arg::buffer(rows * stride), Arg::buffer(rows), Arg::buffer(rows), Arg::integer(cols),
                    Arg::integer(stride)}});
  }
  for (const char *spec : {"row_cumsum<i32,128>", "row_cumsum<f32,1024>"}) {
    int cols = 100, rows = 2, stride = 104;
    out.push_back({spec, {rows},
                   {Arg::buffer(rows * stride), Arg::buffer(rows * stride), Arg::integer(cols), Arg::integer(stride)}});
  }
  for (const char *spec : {"gelu<f16,256>", "gelu<f32,1024>"}) {
    int n = 3000;
    out.push_back({spec, {cdiv(n, std::string(spec).find("256") != std::string::npos ? 256 : 1024)},
                   {Arg::buffer(n), Arg::buffer(n), Arg::integer(n)}});
  }
  for (const char *spec : {"swiglu<f16,256>", "swiglu<bf16,1024>", "swiglu<f32,1024>"}) {
    int n = 2500;
    out.push_back({spec, {cdiv(n, std::string(spec).find("256") != std::string::npos ? 256 : 1024)},
                   {Arg::buffer(n), Arg::buffer(n), Arg::buffer(n), Arg::integer(n)}});
  }
  return out;
}

} // namespace

TEST_CASE("every corpus kernel's PTX computes what the interpreter computes", "[differential]") {
  for (const char *arch : {"sm_90a", "sm_80"})
    for (const Case &c : cases()) differential(c, false, arch);
}

TEST_CASE("and so does it under the alignment assumptions (the 128-bit paths)", "[differential]") {
  for (const char *arch : {"sm_90a", "sm_80"})
    for (const Case &c : cases()) differential(c, true, arch);
}

TEST_CASE("matmul and attention pipelined 2 to 4 stages deep compute what the interpreter computes",
          "[differential]") {
  // Sizes divisible by 16 (so every load qualifies for cp.async) but ragged
  // against the tiles: the last k step and the last key block are masked,
  // and the copies issued past the end fetch nothing.
  std::vector<Case> pipelined;
  for (auto [spec, bm, bn] : {std::tuple{"matmul<32,32,16>", 32, 32}, {"matmul<64,64,32>", 64, 64}}) {
    int M = 80, N = 48, K = 80;
    pipelined.push_back({spec, {cdiv(M, bm), cdiv(N, bn)},
                         {Arg::buffer(M * K), Arg::buffer(K * N), Arg::buffer(M * N), Arg::integer(M), Arg::integer(N),
                          Arg::integer(K)}});
  }
  // Attention rounds its probabilities to f16 before the second dot: where
  // the tensor cores' order of summation moves a score by an ulp, p may round
  // the other way, an f16 ulp (2^-11) of one term of the output's sum.
  for (auto [spec, bm, d] : {std::tuple{"flash_attention<32,32,32>", 32, 32}, {"flash_attention<64,64,64>", 64, 64}}) {
    int seq = 80, heads = 2;
    pipelined.push_back({spec, {cdiv(seq, bm), heads},
                         {Arg::buffer(heads * seq * d), Arg::buffer(heads * seq * d), Arg::buffer(heads * seq * d),
                          Arg::buffer(heads * seq * d), Arg::integer(seq), Arg::floating(0.25)},
                         1e-3});
  }
  for (const Case &c : pipelined)
    for (int stages : {1, 2, 3, 4})
      for (const char *arch : {"sm_90a", "sm_80"}) {
        // 64-row tiles at 4 warps are whole warpgroup blocks: wgmma on sm_90a.
        bool wgmma = std::string(arch) == "sm_90a" && c.spec.find("<64,") != std::string::npos;
        std::vector<std::string> emits = {wgmma ? "wgmma.mma_async.sync.aligned.m64n64k16" : "mma.sync.aligned"};
        if (stages > 1) emits.push_back("cp.async.wait_group " + std::to_string(stages - 2) + ";");
        // Attention at 64 with 3 or 4 stages (56 and 72 KiB) needs more than
        // the 48 KiB a kernel may declare statically: dynamic shared memory,
        // aligned for wgmma's swizzle on sm_90a.
        if (stages > 2 && c.spec == "flash_attention<64,64,64>")
          emits.push_back(std::string(".extern .shared .align ") + (wgmma ? "1024" : "16") + " .b8 twintile_smem[];");
        differential(c, true, arch, nullptr, stages, emits);
      }
}

TEST_CASE("on sm_90a, matmul and attention on wgmma: ragged sizes, 1 to 4 stages, 4 and 8 warps", "[differential]") {
  // Specializations outside the corpus's registry, parsed: matmul at Triton's
  // Hopper tiles (128x128x64 at 4 and 8 warps, 128x256x64 at 8: one m64n256
  // per k step and warpgroup) and attention with head dims 64 and 128. Sizes
  // divisible by 16 (the loads qualify for cp.async) but ragged against the
  // tiles. On sm_80 the same kernels stay on mma.sync.
  struct Hopper {
    const char *file, *spec;
    int warps;
    Case c;
  };
  std::vector<Hopper> all;
  for (auto [spec, bm, bn, warps] : {std::tuple{"matmul<128,128,64>", 128, 128, 4}, {"matmul<128,128,64>", 128, 128, 8},
                                     {"matmul<128,256,64>", 128, 256, 8}, {"matmul<64,128,32>", 64, 128, 4}}) {
    int M = 208, N = 272, K = 144;
    all.push_back({"matmul.cpp", spec, warps,
                   {spec, {cdiv(M, bm), cdiv(N, bn)},
                    {Arg::buffer(M * K), Arg::buffer(K * N), Arg::buffer(M * N), Arg::integer(M), Arg::integer(N),
                     Arg::integer(K)}}});
  }
  for (auto [spec, bm, d, warps] : {std::tuple{"flash_attention<64,64,64>", 64, 64, 4}, {"flash_attention<128,64,64>", 128, 64, 8},
                                    {"flash_attention<64,64,128>", 64, 128, 4}}) {
    int seq = 144, heads = 2;
    all.push_back({"flash_attention.cpp", spec, warps,
                   {spec, {cdiv(seq, bm), heads},
                    {Arg::buffer(heads * seq * d), Arg::buffer(heads * seq * d), Arg::buffer(heads * seq * d),
                     Arg::buffer(heads * seq * d), Arg::integer(seq), Arg::floating(0.25)},
                    1e-3}});
  }
  for (const Hopper &h : all) {
    auto parsed = twintile::ParsedFile::parse(std::string(TWINTILE_CORPUS_DIR) + "/" + h.file, {h.spec});
    INFO(parsed->error());
    REQUIRE(parsed->ok());
    auto func = [&] { return walked(*parsed, h.spec); };
    for (int stages : {1, 2, 3, 4}) {
      // 128x256x64 at 4 stages would take 5 buffers of 48 KiB (the async MMAs' extra one): more
      // than a block may use; the backend plans 3 (4 buffers), which the case at 3 runs.
      if (std::string(h.spec) == "matmul<128,256,64>" && stages == 4) continue;
      std::vector<std::string> emits = {"wgmma.mma_async.sync.aligned.m64n", "fence.proxy.async.shared::cta",
                                        "wgmma.wait_group.sync.aligned 0;"};
      // A matmul's MMAs stay in flight from one iteration into the next when pipelined.
      if (stages > 1 && std::string(h.file) == "matmul.cpp") emits.push_back("wgmma.wait_group.sync.aligned 1;");
      if (stages > 1) emits.push_back("cp.async.wait_group " + std::to_string(stages - 2) + ";");
      differential(h.c, true, "sm_90a", func(), stages, emits, h.warps);
    }
    differential(h.c, true, "sm_80", func(), 3, {"mma.sync.aligned", "ldmatrix.sync.aligned"}, h.warps);
  }
}

TEST_CASE("on sm_90a, descriptor matmuls load by TMA: ragged sizes, 2 to 4 stages, 4 and 8 warps", "[differential][tma]") {
  // Triton's persistent matmul (a test kernel: tests/lit/backend/persistent.cpp):
  // 3 programs over every tile, its K loop's descriptor loads copied by TMA
  // where the strides are known to be multiples of 16 bytes (K and N
  // divisible by 16, which the arguments promise), M ragged against every
  // tile; with N not a multiple of 16, b is loaded as a masked load beside a's
  // TMA; with one stage nothing is copied ahead. On sm_80, masked loads.
  const std::string file = std::string(TWINTILE_LIT_DIR) + "/backend/persistent.cpp";
  struct Config {
    const char *spec;
    int warps, M, N, K;
  };
  for (Config c : {Config{"persistent_matmul<128, 128, 64, 8>", 8, 200, 272, 144},
                   Config{"persistent_matmul<64, 64, 32, 4>", 4, 100, 80, 96},
                   Config{"persistent_matmul<128, 256, 64, 8>", 8, 150, 272, 208},
                   Config{"persistent_matmul<64, 128, 64, 4>", 4, 65, 144, 48},
                   Config{"persistent_matmul<128, 128, 64, 8>", 8, 130, 270, 80}}) {
    auto parsed = twintile::ParsedFile::parse(file, {c.spec});
    INFO(parsed->error());
    REQUIRE(parsed->ok());
    auto func = [&] { return walked(*parsed, c.spec); };
    Case k{c.spec, {3, 1, 1},
           {Arg::buffer(c.M * c.K), Arg::buffer(c.K * c.N), Arg::buffer(c.M * c.N), Arg::integer(c.M),
            Arg::integer(c.N), Arg::integer(c.K)}};
    for (int stages : {1, 2, 3, 4}) {
      if (std::string(c.spec) == "persistent_matmul<128, 256, 64, 8>" && stages == 4) continue;  // as above
      std::vector<std::string> emits = {"wgmma.mma_async.sync.aligned.m64n"};
      if (c.N % 16 == 0) {  // C by TMA, staged by stmatrix from the accumulator's layout
        emits.push_back("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group");
        emits.push_back("stmatrix.sync.aligned.m8n8.x4.shared.b16");
      }
      if (stages > 1)
        for (const char *tma : {"tensormap.cp_fenceproxy.global.shared::cta", "mbarrier.arrive.expect_tx.shared::cta.b64",
                                "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes",
                                "mbarrier.try_wait.parity.shared::cta.b64", "mbarrier.inval.shared::cta.b64"})
          emits.push_back(tma);
      differential(k, true, "sm_90a", func(), stages, emits, c.warps);
    }
    differential(k, true, "sm_80", func(), 3, {"mma.sync.aligned"}, c.warps);
  }
  // Causal attention through descriptors (tests/lit/backend/attention_descriptors.cpp):
  // k's tiles staged transposed and v's, both by TMA; head dims 64 and 128.
  const std::string attention = std::string(TWINTILE_LIT_DIR) + "/backend/attention_descriptors.cpp";
  for (auto [spec, bm, d, warps] : {std::tuple{"attention_desc<64, 64, 64>", 64, 64, 4},
                                    std::tuple{"attention_desc<128, 64, 128>", 128, 128, 8}}) {
    auto parsed = twintile::ParsedFile::parse(attention, {spec});
    INFO(parsed->error());
    REQUIRE(parsed->ok());
    int seq = 176, heads = 2;
    Case c{spec, {cdiv(seq, bm), heads},
           {Arg::buffer(heads * seq * d), Arg::buffer(heads * seq * d), Arg::buffer(heads * seq * d),
            Arg::buffer(heads * seq * d), Arg::integer(seq), Arg::floating(0.09)},
           1e-2};
    for (int stages : {2, 3})
      differential(c, true, "sm_90a", walked(*parsed, spec), stages,
                   {"cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes",
                    "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16",
                    "stmatrix.sync.aligned.m8n8.x4.shared.b16"},  // p staged for the second dot
                   warps);
  }
}

TEST_CASE("on sm_90a, descriptor stores write by TMA: every element type, 1 or 2 panels, shifted, ragged, empty",
          "[differential][tma]") {
  // tests/lit/backend/tma_stores.cpp: each program's block of x moved by
  // (r0, c0), plus one, stored through a descriptor; N a multiple of 16 (the
  // map's row stride), M, r0 and c0 anything, M = 0 an empty tensor.
  const std::string file = std::string(TWINTILE_LIT_DIR) + "/backend/tma_stores.cpp";
  struct Config {
    const char *spec;
    int bm, bn, M, N, r0, c0;
  };
  for (Config c : {Config{"shifted_copy<f16, 64, 64>", 64, 64, 150, 96, -9, 3},
                   Config{"shifted_copy<f32, 32, 64>", 32, 64, 70, 112, 5, -20},
                   Config{"shifted_copy<bf16, 16, 16>", 16, 16, 37, 48, 0, 7},
                   Config{"shifted_copy<f32, 16, 8>", 16, 8, 33, 32, -1, -1},
                   Config{"shifted_copy<f16, 16, 32>", 16, 32, 40, 64, 1, -5},
                   Config{"shifted_copy<f16, 8, 128>", 8, 128, 30, 160, -3, 9},
                   Config{"shifted_copy<i8, 16, 256>", 16, 256, 40, 160, 3, -100},
                   Config{"shifted_copy<i64, 8, 32>", 8, 32, 20, 48, 2, 0},
                   Config{"shifted_copy<f16, 64, 64>", 64, 64, 0, 64, 0, 0}}) {
    auto parsed = twintile::ParsedFile::parse(file, {c.spec});
    INFO(parsed->error());
    REQUIRE(parsed->ok());
    int rows = std::max(c.M, 1);
    Case k{c.spec, {cdiv(rows, c.bm) + 1, cdiv(c.N, c.bn) + 1},
           {Arg::buffer(rows * c.N), Arg::buffer(rows * c.N), Arg::integer(c.M), Arg::integer(c.N), Arg::integer(c.r0),
            Arg::integer(c.c0)}};
    differential(k, true, "sm_90a", walked(*parsed, c.spec), 0,
                 {"tensormap.cp_fenceproxy.global.shared::cta", "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group",
                  "cp.async.bulk.wait_group 0;"});
    differential(k, true, "sm_80", walked(*parsed, c.spec), 0, {"st.global"});
  }
}

TEST_CASE("every feature kernel the parser accepts computes in PTX what it computes in the interpreter",
          "[differential]") {
  // Native if, for, while, break and continue, helpers, lambdas, structs of
  // tiles, prints and assertions: the feature cases (experiments/features).
  std::ifstream in(TWINTILE_FEATURES_DIR "/features.json");
  REQUIRE(in);
  size_t ran = 0;
  nlohmann::json features = nlohmann::json::parse(in)["features"];
  for (const nlohmann::json &feature : features) {
    if (feature["parse"] != "accepted") continue;
    std::string file = std::string(TWINTILE_FEATURES_DIR) + "/" + feature["name"].get<std::string>() + ".cpp";
    twintile::FrontendResult r = twintile::parseKernel(file, feature["kernel"]);
    INFO(feature["name"].get<std::string>() << (r.error ? r.error->str() : std::string()));
    REQUIRE(r.ok());
    ir::PassManager pm;
    pm.addDefaultPipeline();
    pm.run(*r.func);
    int n = 100;  // two programs of 64, the second ragged
    Case c{feature["kernel"], {2}, {Arg::buffer(n), Arg::buffer(n), Arg::integer(n)}};
    differential(c, false, "sm_90a", std::move(r.func));
    ++ran;
  }
  CHECK(ran >= 30);
}
