// What the backend refuses, each with a located message, and the checks of
// its options. Never a crash.
#include "backend/Backend.h"
#include "ir/Parser.h"

#include <catch2/catch.hpp>

namespace ir = twintile::ir;
namespace be = twintile::backend;

namespace {

std::unique_ptr<ir::Module> parse(const std::string &text) {
  ir::ParseResult p = ir::parseModule(text);
  INFO((p.error ? p.error->str() : std::string()));
  REQUIRE(p.module);
  return std::move(p.module);
}

std::string refusal(const ir::Func &f, be::CompileOptions o) {
  o.useCache = false;
  o.runPtxas = false;
  try {
    be::compile(f, o);
  } catch (const be::BackendError &e) {
    return e.diag.str();
  }
  return "(compiled)";
}

const char *kExp64 = R"(
func @exp64(%p: ptr<f64>) options {num_warps = 4} {
  %0 = arange {end = 128, start = 0} : tile<128xi32> loc("k.cpp":3:5)
  %1 = splat %p : tile<128xptr<f64>> loc("k.cpp":4:5)
  %2 = addptr %1, %0 : tile<128xptr<f64>> loc("k.cpp":4:5)
  %3 = load %2 : tile<128xf64> loc("k.cpp":5:5)
  %4 = exp %3 : tile<128xf64> loc("k.cpp":6:12)
  store %2, %4 loc("k.cpp":7:3)
  return loc("k.cpp":8:1)
}
)";

} // namespace

TEST_CASE("f64 math without libdevice is refused at the op", "[backend][refusals]") {
  auto m = parse(kExp64);
  be::CompileOptions o;
  o.useLibdevice = false;
  CHECK(refusal(*m->funcs[0], o) ==
        "k.cpp:6:12: error: 'exp' on f64 needs libdevice, which was not found (run scripts/setup or set "
        "TWINTILE_LIBDEVICE)");
}

TEST_CASE("f32 math without libdevice uses the fast approximations and says so", "[backend][refusals]") {
  std::string text = kExp64;
  for (auto [from, to] : {std::pair{"f64", "f32"}}) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) text.replace(at, 3, to);
  }
  auto m = parse(text);
  be::CompileOptions o;
  o.useLibdevice = false;
  o.useCache = false;
  o.runPtxas = false;
  be::CompileResult r = be::compile(*m->funcs[0], o);
  CHECK(r.ptx.find("ex2.approx") != std::string::npos);
  REQUIRE_FALSE(r.notes.empty());
  CHECK(r.notes[0].find("fast approximations") != std::string::npos);
}

TEST_CASE("the backend's options are checked against the kernel", "[backend][refusals]") {
  auto m = parse(R"(
func @k(%p: ptr<f32>, %n: i32) options {num_warps = 4} {
  return
}
)");
  const ir::Func &f = *m->funcs[0];
  be::CompileOptions arch;
  arch.arch = "sm_70";
  CHECK(refusal(f, arch).find("unsupported target 'sm_70' (expected sm_90a or sm_80)") != std::string::npos);
  be::CompileOptions warps;
  warps.numWarps = 3;
  CHECK(refusal(f, warps).find("num_warps must be a power of two from 1 to 32, got 3") != std::string::npos);
  be::CompileOptions stages;
  stages.numStages = 9;
  CHECK(refusal(f, stages).find("num_stages must be from 1 to 8, got 9") != std::string::npos);
  stages.numStages = -1;
  CHECK(refusal(f, stages).find("num_stages must be from 1 to 8, got -1") != std::string::npos);
  be::CompileOptions count;
  count.assume.resize(1);
  CHECK(refusal(f, count).find("assumptions given for 1 parameters, the kernel has 2") != std::string::npos);
  be::CompileOptions aligned;
  aligned.assume.resize(2);
  aligned.assume[1].aligned16 = true;
  CHECK(refusal(f, aligned).find("'n' is i32, not a pointer: it cannot be assumed aligned") != std::string::npos);
  be::CompileOptions fine;
  CHECK(refusal(f, fine) == "(compiled)");
}

TEST_CASE("IR that does not verify is refused with the verifier's message", "[backend][refusals]") {
  auto m = parse(R"(
func @k(%p: ptr<f32>) options {num_warps = 4} {
  return
}
)");
  ir::Func &f = *m->funcs[0];
  // Break it after parsing: a store of a value of the wrong type.
  f.body.ops.clear();
  CHECK(refusal(f, {}).find("error:") != std::string::npos);
}

TEST_CASE("float rem without libdevice is refused at the op (frem is not exact on NVPTX)", "[backend][refusals]") {
  std::string text = kExp64;
  text.replace(text.find("exp %3"), 6, "rem %3, %3");
  auto m = parse(text);
  be::CompileOptions o;
  o.useLibdevice = false;
  CHECK(refusal(*m->funcs[0], o) ==
        "k.cpp:6:12: error: 'rem' of floats needs libdevice's exact fmod, which was not found (run scripts/setup "
        "or set TWINTILE_LIBDEVICE)");
}

TEST_CASE("a tile too large for the program's registers is refused at the op making it", "[backend][refusals]") {
  auto m = parse(R"(
func @huge(%p: ptr<f32>) options {num_warps = 1} {
  %0 = arange {end = 65536, start = 0} : tile<65536xi32> loc("k.cpp":2:12)
  return loc("k.cpp":3:1)
}
)");
  CHECK(refusal(*m->funcs[0], {}) ==
        "k.cpp:2:12: error: tile<65536xi32> needs 2048 registers per thread with 1 warps; the backend allows 1024 "
        "(use smaller tiles or more warps)");
  be::CompileOptions more;
  more.numWarps = 4;  // 512 per thread: compiles
  CHECK(refusal(*m->funcs[0], more) == "(compiled)");
}

TEST_CASE("device_print of tiles of different shapes is refused at the op", "[backend][refusals]") {
  auto m = parse(R"(
func @show() options {num_warps = 4} {
  %0 = arange {end = 8, start = 0} : tile<8xi32> loc("k.cpp":2:3)
  %1 = arange {end = 16, start = 0} : tile<16xi32> loc("k.cpp":3:3)
  device_print {prefix = "x"} %0, %1 loc("k.cpp":4:3)
  return loc("k.cpp":5:1)
}
)");
  CHECK(refusal(*m->funcs[0], {}) ==
        "k.cpp:4:3: error: 'device_print' of tiles of different shapes is not supported by the backend");
}

TEST_CASE("reshape of a tile to a scalar never reaches the backend: the IR refuses it", "[backend][refusals]") {
  ir::ParseResult p = ir::parseModule(R"(
func @flat(%p: ptr<i32>) options {num_warps = 4} {
  %0 = arange {end = 1, start = 0} : tile<1xi32>
  %1 = reshape %0 : i32
  store %p, %1
  return
}
)");
  REQUIRE_FALSE(p.module);
  CHECK(p.error->loc.pos.line == 4);
}
