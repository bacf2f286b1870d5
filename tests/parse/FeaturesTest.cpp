// The feature cases (experiments/features/features.json): each small kernel
// goes through both front ends, from its file. Where a front end is expected
// to accept it, the interpreter runs its IR and the result must match the
// reference (experiments/features/references.h); where it is expected to refuse it, the message must say so
// at the line marked in the file (`// trace-error`, `// parse-error`). The
// hybrid front end's expectations are checked by tests/experiments/
// check_hybrid_features.py, through the pipeline.
#include "frontends/parse/ParseFrontend.h"
#include "frontends/trace/SourceTracer.h"
#include "ir/Interpreter.h"
#include "ir/Printer.h"

#include "Markers.h"
#include "references.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <random>

namespace ir = twintile::ir;
using twintile::features::Vec;

namespace {

using twintile::features::kBlock;
using twintile::features::references;

int markedLine(const std::string &file, const std::string &marker) { return twintile::test::markedLine(file, marker, ""); }

twintile::FrontendResult run(const std::string &frontend, const std::string &file, const std::string &spec) {
  if (frontend == "parse") return twintile::parseKernel(file, spec);
  twintile::SourceTraceOptions opts;
  opts.cacheDir = TWINTILE_TEST_CACHE_DIR;
  return twintile::traceSourceFile(file, spec, opts).trace;
}

void checkFeature(const nlohmann::json &feature, const std::string &frontend) {
  std::string name = feature["name"], spec = feature["kernel"], expect = feature[frontend];
  std::string file = std::string(TWINTILE_FEATURES_DIR) + "/" + name + ".cpp";
  INFO(frontend << " front end, feature " << name);
  twintile::FrontendResult r = run(frontend, file, spec);
  if (expect != "accepted") {
    REQUIRE_FALSE(r.ok());
    INFO(r.error->str());
    CHECK(r.error->message.find(expect) != std::string::npos);
    CHECK(r.error->loc.pos.line == markedLine(file, frontend + "-error"));
    return;
  }
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r.ok());
  auto ref = references().find(name);
  REQUIRE(ref != references().end());
  int n = 100;  // two programs, the second ragged
  std::mt19937 rng(static_cast<unsigned>(name.size()));
  std::uniform_real_distribution<double> dist(-2, 2);
  Vec x(n);
  for (double &v : x) v = static_cast<float>(dist(rng));
  std::vector<ir::Buffer> bufs{ir::Buffer::fromValues(ir::ScalarKind::F32, x, "x"), ir::Buffer(ir::ScalarKind::F32, n, "y")};
  ir::RunResult run = ir::interpret(*r.func, {(n + kBlock - 1) / kBlock},
                                    {ir::KernelArg::buf(0), ir::KernelArg::buf(1), ir::KernelArg::integer(n)}, bufs);
  INFO((run.error ? run.error->str() : std::string()) << ir::toString(*r.func, {.locations = false}));
  REQUIRE(run.ok());
  Vec want = ref->second(x), got = bufs[1].values();
  for (int i = 0; i < n; ++i) {
    INFO("element " << i);
    CHECK(got[i] == Approx(want[i]).epsilon(1e-5).margin(1e-6));
  }
}

nlohmann::json features() {
  std::ifstream in(TWINTILE_FEATURES_DIR "/features.json");
  REQUIRE(in);
  return nlohmann::json::parse(in)["features"];
}

} // namespace

TEST_CASE("feature cases through the tracing front end", "[features][trace]") {
  nlohmann::json all = features();
  CHECK(all.size() >= 25);
  for (const nlohmann::json &f : all) checkFeature(f, "trace");
}

TEST_CASE("feature cases through the parsing front end", "[features][parse]") {
  for (const nlohmann::json &f : features()) checkFeature(f, "parse");
}

TEST_CASE("every feature has a kernel file with its markers", "[features]") {
  for (const nlohmann::json &f : features()) {
    std::string file = std::string(TWINTILE_FEATURES_DIR) + "/" + f["name"].get<std::string>() + ".cpp";
    INFO(file);
    CHECK(std::ifstream(file).good());
    for (const char *fe : {"trace", "parse", "hybrid"})
      if (f.value(fe, "accepted") != "accepted") CHECK(markedLine(file, std::string(fe) + "-error") > 0);
  }
}
