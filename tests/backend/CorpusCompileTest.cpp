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

namespace ir = tt::ir;
namespace be = tt::backend;

namespace {

nlohmann::json corpus() {
  std::ifstream in(TWINTILE_CORPUS_DIR "/corpus.json");
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

be::CompileResult compileClean(ir::Func &f, const std::string &arch, std::vector<be::ParamAssumption> assume = {},
                               int numWarps = 0, int numStages = 0) {
  ir::PassManager pm;
  pm.addDefaultPipeline();
  pm.run(f);
  be::CompileOptions o;
  o.arch = arch;
  o.useCache = false;
  o.assume = std::move(assume);
  o.numWarps = numWarps;
  o.numStages = numStages;
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

} // namespace

TEST_CASE("every traced corpus kernel compiles for sm_90a and sm_80 and ptxas accepts it", "[backend][corpus]") {
  if (!havePtxas()) return;
  size_t n = 0;
  nlohmann::json c = corpus();
  for (auto &kernel : c["kernels"])
    for (auto &spec : kernel["specializations"]) {
      const twintile::RegisteredKernel *k = twintile::findRegistered(spec.get<std::string>());
      REQUIRE(k);
      for (const char *arch : {"sm_90a", "sm_80"}) {
        twintile::TraceResult t = k->trace({});
        REQUIRE(t.ok());
        be::CompileResult r = compileClean(*t.func, arch);
        checkResources(r, "trace " + spec.get<std::string>() + " " + arch);
        CHECK(r.manifest.arch == arch);
        CHECK(r.manifest.threadsPerProgram == 32 * r.manifest.numWarps);
        CHECK(r.ptx.find(std::string(".target ") + arch) != std::string::npos);
        ++n;
      }
    }
  CHECK(n == 2 * twintile::registry().size());
}

TEST_CASE("every parsed corpus kernel compiles for sm_90a and sm_80 and ptxas accepts it", "[backend][corpus]") {
  if (!havePtxas()) return;
  nlohmann::json c = corpus();
  for (auto &kernel : c["kernels"]) {
    std::string file = std::string(TWINTILE_CORPUS_DIR) + "/" + kernel["file"].get<std::string>();
    std::vector<std::string> specs = kernel["specializations"].get<std::vector<std::string>>();
    auto parsed = twintile::ParsedFile::parse(file, specs);
    INFO(parsed->error());
    REQUIRE(parsed->ok());
    for (const std::string &spec : specs)
      for (const char *arch : {"sm_90a", "sm_80"}) {
        twintile::FrontendResult p = parsed->walk(spec);
        REQUIRE(p.ok());
        checkResources(compileClean(*p.func, arch), "parse " + spec + " " + arch);
      }
  }
}

/// Every pointer aligned, every integer divisible by 16: what Triton's JIT
/// assumes of such arguments.
static std::vector<be::ParamAssumption> assumeAll(const ir::Func &f) {
  std::vector<be::ParamAssumption> assume;
  for (size_t i = 0; i < f.numParams(); ++i) assume.push_back({f.param(i)->type.isPtr(), f.param(i)->type.isInt()});
  return assume;
}

TEST_CASE("matmul and attention at Triton's tile sizes run on tensor cores without spilling", "[backend][corpus]") {
  if (!havePtxas()) return;
  // Triton's usual configurations, with the alignment and divisibility its
  // JIT would infer from such arguments, pipelined 2 to 4 stages deep (past
  // 48 KiB in dynamic shared memory).
  for (auto [file, spec] : {std::pair{"matmul.cpp", "matmul<128,128,32>"}, {"matmul.cpp", "matmul<64,64,64>"},
                            {"flash_attention.cpp", "flash_attention<64,64,64>"},
                            {"flash_attention.cpp", "flash_attention<128,64,64>"}}) {
    auto parsed = twintile::ParsedFile::parse(std::string(TWINTILE_CORPUS_DIR) + "/" + file, {spec});
    INFO(parsed->error());
    REQUIRE(parsed->ok());
    for (int warps : {4, 8})
      for (const char *arch : {"sm_90a", "sm_80"})
        for (int stages : {2, 3, 4}) {
          if (std::string(spec) == "flash_attention<128,64,64>" && warps == 4) continue;  // Triton runs it with 8
          twintile::FrontendResult p = parsed->walk(spec);
          REQUIRE(p.ok());
          be::CompileResult r = compileClean(*p.func, arch, assumeAll(*p.func), warps, stages);
          std::string what = std::string(spec) + " " + std::to_string(warps) + " warps " + arch + " " +
                             std::to_string(stages) + " stages";
          INFO(what);
          CHECK(r.ptx.find("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32") != std::string::npos);
          CHECK(r.ptx.find("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16") != std::string::npos);
          CHECK(r.ptx.find("cp.async.wait_group " + std::to_string(stages - 2) + ";") != std::string::npos);
          for (const std::string &n : r.notes) CHECK(n.find("num_stages") == std::string::npos);  // as many as asked
          checkResources(r, what);
        }
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
