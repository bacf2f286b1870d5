// Every corpus specialization, from both front ends, compiles for sm_90a and
// sm_80: the LLVM verifier passes (compile() checks it before and after the
// LLVM passes),
// ptxas accepts the PTX, and ptxas reports no stack frame and no spills.
// Where ptxas is absent (scripts/setup not run) the ptxas checks say they
// were skipped.
#include "backend/Backend.h"
#include "backend/Ptxas.h"
#include "frontends/parse/ParseFrontend.h"
#include "frontends/trace/Trace.h"
#include "ir/PassManager.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>

namespace ir = twintile::ir;
namespace be = twintile::backend;

namespace {

nlohmann::json corpus() {
  std::ifstream in(TWINTILE_CORPUS_DIR "/corpus.json");
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

/// The default cleanup, then the backend (with ptxas where `ptxas`).
be::CompileResult compileClean(ir::Func &f, const std::string &arch, std::vector<be::ParamAssumption> assume = {},
                               int numWarps = 0, int numStages = 0, bool ptxas = false) {
  ir::PassManager pm;
  pm.addDefaultPipeline();
  pm.run(f);
  be::CompileOptions o;
  o.arch = arch;
  o.useCache = false;
  o.assume = std::move(assume);
  o.numWarps = numWarps;
  o.numStages = numStages;
  o.runPtxas = ptxas;
  try {
    return be::compile(f, o);
  } catch (const be::BackendError &e) {
    FAIL(e.diag.str());
  }
  return {};
}

/// The PTX names the kernel and keeps nothing in local memory.
void checkPtx(const be::CompileResult &r, const std::string &what) {
  INFO(what);
  CHECK(r.ptx.find(".entry " + r.manifest.kernel + "(") != std::string::npos);
  CHECK(r.ptx.find(".local") == std::string::npos);
}

/// Whether ptxas is here; a test that needs it is otherwise a skipped test
/// (the "SKIPPED: " line is ctest's SKIP_REGULAR_EXPRESSION), never a pass.
bool havePtxas() {
  if (be::findPtxas()) return true;
  WARN("SKIPPED: ptxas not found (set TWINTILE_PTXAS, or run scripts/setup)");
  return false;
}

/// checkPtx, and ptxas accepted it: no stack, no spills, its shared memory.
void checkResources(const be::CompileResult &r, const std::string &what) {
  checkPtx(r, what);
  INFO(what);
  REQUIRE(r.ptxas.ran);
  INFO(r.ptxas.log);
  CHECK(r.ptxas.ok);
  CHECK(r.ptxas.stackBytes == 0);
  CHECK(r.ptxas.spillStoreBytes == 0);
  CHECK(r.ptxas.spillLoadBytes == 0);
  CHECK(r.ptxas.registers > 0);
  CHECK(r.ptxas.registers <= 255);
  // ptxas counts static shared memory; the launch provides the dynamic kind.
  CHECK(r.ptxas.sharedBytes == r.manifest.sharedBytes - r.manifest.dynamicSharedBytes);
  CHECK(!r.ptxas.cubin.empty());
}

/// Every corpus specialization of each front end, for both targets: `check`
/// sees each compiled result (with ptxas's report where `ptxas`) and the
/// target it was compiled for.
void forEachCorpusKernel(bool ptxas,
                         const std::function<void(const be::CompileResult &, const std::string &, const std::string &)> &check) {
  nlohmann::json c = corpus();
  size_t traced = 0;
  for (auto &kernel : c["kernels"]) {
    std::string file = std::string(TWINTILE_CORPUS_DIR) + "/" + kernel["file"].get<std::string>();
    std::vector<std::string> specs = kernel["specializations"].get<std::vector<std::string>>();
    auto parsed = twintile::ParsedFile::parse(file, specs);
    INFO(parsed->error());
    REQUIRE(parsed->ok());
    for (const std::string &spec : specs)
      for (const char *arch : {"sm_90a", "sm_80"}) {
        const twintile::RegisteredKernel *k = twintile::findRegistered(spec);
        REQUIRE(k);
        twintile::TraceResult t = k->trace({});
        REQUIRE(t.ok());
        check(compileClean(*t.func, arch, {}, 0, 0, ptxas), "trace " + spec + " " + arch, arch);
        twintile::FrontendResult p = parsed->walk(spec);
        REQUIRE(p.ok());
        check(compileClean(*p.func, arch, {}, 0, 0, ptxas), "parse " + spec + " " + arch, arch);
        ++traced;
      }
  }
  CHECK(traced == 2 * twintile::registry().size());
}

} // namespace

TEST_CASE("every corpus kernel compiles for sm_90a and sm_80 from both front ends", "[backend][corpus]") {
  forEachCorpusKernel(false, [](const be::CompileResult &r, const std::string &what, const std::string &arch) {
    checkPtx(r, what);
    INFO(what);
    CHECK(r.manifest.arch == arch);
    CHECK(r.ptx.find(".target " + arch) != std::string::npos);
    CHECK(r.manifest.threadsPerProgram == 32 * r.manifest.numWarps);
  });
}

TEST_CASE("ptxas accepts every corpus kernel for sm_90a and sm_80, without spills", "[backend][corpus]") {
  if (!havePtxas()) return;
  forEachCorpusKernel(true, [](const be::CompileResult &r, const std::string &what, const std::string &) {
    checkResources(r, what);
  });
}

namespace {

/// Every pointer aligned, every integer divisible by 16: what Triton's JIT
/// assumes of such arguments.
std::vector<be::ParamAssumption> assumeAll(const ir::Func &f) {
  std::vector<be::ParamAssumption> assume;
  for (size_t i = 0; i < f.numParams(); ++i) assume.push_back({f.param(i)->type.isPtr(), f.param(i)->type.isInt()});
  return assume;
}

/// Matmul and attention at Triton's usual configurations, with the alignment
/// and divisibility its JIT would infer from such arguments, pipelined 2 to
/// 4 stages deep (past 48 KiB in dynamic shared memory): `check` sees each.
/// `check` also learns whether the dot should be on wgmma: on sm_90a, where
/// the warps (4 or 8, along M) hold 16 rows of every 64-row block.
void forEachTensorCoreConfig(bool ptxas,
                             const std::function<void(const be::CompileResult &, const std::string &, int, bool)> &check) {
  for (auto [file, spec, bm] : {std::tuple{"matmul.cpp", "matmul<128,128,32>", 128}, {"matmul.cpp", "matmul<64,64,64>", 64},
                                {"flash_attention.cpp", "flash_attention<64,64,64>", 64},
                                {"flash_attention.cpp", "flash_attention<128,64,64>", 128}}) {
    auto parsed = twintile::ParsedFile::parse(std::string(TWINTILE_CORPUS_DIR) + "/" + file, {spec});
    INFO(parsed->error());
    REQUIRE(parsed->ok());
    for (int warps : {4, 8})
      for (const char *arch : {"sm_90a", "sm_80"})
        for (int stages : {2, 3, 4}) {
          if (std::string(spec) == "flash_attention<128,64,64>" && warps == 4) continue;  // Triton runs it with 8
          twintile::FrontendResult p = parsed->walk(spec);
          REQUIRE(p.ok());
          be::CompileResult r = compileClean(*p.func, arch, assumeAll(*p.func), warps, stages, ptxas);
          check(r, std::string(spec) + " " + std::to_string(warps) + " warps " + arch + " " + std::to_string(stages) +
                       " stages", stages, std::string(arch) == "sm_90a" && bm >= 16 * warps);
        }
  }
}

} // namespace

TEST_CASE("matmul and attention at Triton's tile sizes run on tensor cores, pipelined as deep as asked", "[backend][corpus]") {
  forEachTensorCoreConfig(false, [](const be::CompileResult &r, const std::string &what, int stages, bool wgmma) {
    INFO(what);
    if (wgmma) {
      CHECK(r.ptx.find("wgmma.mma_async.sync.aligned.m64n") != std::string::npos);
      CHECK(r.ptx.find("mma.sync") == std::string::npos);
      CHECK(r.ptx.find("ldmatrix") == std::string::npos);
    } else {
      CHECK(r.ptx.find("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32") != std::string::npos);
      CHECK(r.ptx.find("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16") != std::string::npos);
    }
    CHECK(r.ptx.find("cp.async.wait_group " + std::to_string(stages - 2) + ";") != std::string::npos);
    for (const std::string &n : r.notes) CHECK(n.find("num_stages") == std::string::npos);  // as many as asked
    checkPtx(r, what);
  });
}

TEST_CASE("matmul and attention at Triton's tile sizes do not spill (ptxas), on HGMMA where on wgmma", "[backend][corpus]") {
  if (!havePtxas()) return;
  forEachTensorCoreConfig(true, [](const be::CompileResult &r, const std::string &what, int, bool wgmma) {
    checkResources(r, what);
    // wgmma assembles to Hopper's HGMMA; mma.sync to HMMA (nvdisasm, where found).
    std::string why;
    std::optional<std::string> sass = r.ptxas.ok ? be::disassemble(r.ptxas.cubin, why) : std::nullopt;
    if (!sass) {
      WARN("SKIPPED: no SASS to read (" << why << ")");
      return;
    }
    INFO(what);
    CHECK((sass->find("HGMMA.64x") != std::string::npos) == wgmma);
    CHECK((sass->find("HMMA.16816.F32") != std::string::npos) == !wgmma);
    // ptxas's C7510: wgmma serialized (a call in the kernel, say), every group waited for.
    CHECK(r.ptxas.log.find("serialized") == std::string::npos);
  });
}

TEST_CASE("the descriptor matmul loads by TMA on sm_90a: HGMMA and UTMALDG, no spills, no serialized wgmma",
          "[backend][corpus][tma]") {
  if (!havePtxas()) return;
  const std::string file = TWINTILE_CORPUS_DIR "/matmul_desc.cpp";
  for (auto [spec, warps] : {std::pair{"matmul_desc<128,128,64>", 4}, std::pair{"matmul_desc<128,128,64>", 8},
                             std::pair{"matmul_desc<128,256,64>", 8}}) {
    auto parsed = twintile::ParsedFile::parse(file, {spec});
    INFO(parsed->error());
    REQUIRE(parsed->ok());
    twintile::FrontendResult walked = parsed->walk(spec);
    REQUIRE(walked.ok());
    std::vector<be::ParamAssumption> all(walked.func->numParams(), be::ParamAssumption{true, false});
    for (size_t i = 3; i < all.size(); ++i) all[i] = {false, true};  // M, N, K
    be::CompileResult r = compileClean(*walked.func, "sm_90a", all, warps, 3, true);
    std::string what = std::string(spec) + " at " + std::to_string(warps) + " warps";
    checkResources(r, what);
    INFO(what << "\n" << r.ptxas.log);
    CHECK(r.ptx.find("cp.async.bulk.tensor.2d") != std::string::npos);
    CHECK(r.ptxas.log.find("serialized") == std::string::npos);
    std::string why;
    std::optional<std::string> sass = r.ptxas.ok ? be::disassemble(r.ptxas.cubin, why) : std::nullopt;
    if (!sass) {
      WARN("SKIPPED: no SASS to read (" << why << ")");
      return;
    }
    CHECK(sass->find("HGMMA.64x") != std::string::npos);
    CHECK(sass->find("UTMALDG.2D") != std::string::npos);
  }
}

TEST_CASE("an elementwise kernel under the alignment assumptions uses 128-bit accesses", "[backend][corpus]") {
  for (const char *spec : {"vector_add<1024>", "swiglu<f32,1024>", "gelu<f32,1024>"}) {
    INFO(spec);
    twintile::TraceResult t = twintile::findRegistered(spec)->trace({});
    REQUIRE(t.ok());
    be::CompileResult r = compileClean(*t.func, "sm_90a", assumeAll(*t.func));
    CHECK(r.ptx.find("ld.global.v4.b32") != std::string::npos);
    CHECK(r.ptx.find("st.global.v4.b32") != std::string::npos);
    checkPtx(r, spec);
    // Without them, nothing proves the addresses aligned: no vector access.
    be::CompileResult plain = compileClean(*t.func, "sm_90a");
    CHECK(plain.ptx.find("ld.global.v4") == std::string::npos);
  }
}

TEST_CASE("softmax reduces with warp shuffles", "[backend][corpus]") {
  twintile::TraceResult t = twintile::findRegistered("softmax<f16,1024>")->trace({});
  REQUIRE(t.ok());
  be::CompileResult r = compileClean(*t.func, "sm_90a");
  CHECK(r.ptx.find("shfl.sync.bfly.b32") != std::string::npos);
  CHECK(r.ptx.find("bar.sync") != std::string::npos);
  CHECK(r.manifest.sharedBytes > 0);
}
