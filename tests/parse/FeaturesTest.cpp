// The feature cases (experiments/features/features.json): each small kernel
// goes through both front ends, from its file. Where a front end is expected
// to accept it, the interpreter runs its IR and the result must match the
// reference below; where it is expected to refuse it, the message must say so
// at the line marked in the file (`// trace-error`, `// parse-error`).
#include "frontends/parse/ParseFrontend.h"
#include "frontends/trace/SourceTracer.h"
#include "ir/Interpreter.h"
#include "ir/Printer.h"

#include "Markers.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <random>

namespace ir = tt::ir;
using Vec = std::vector<double>;

namespace {

constexpr int kBlock = 64;

/// y = f(x) for every feature that some front end accepts (n elements; the
/// first program's sums use the first 64 elements).
const std::map<std::string, std::function<Vec(const Vec &)>> &references() {
  auto each = [](double (*f)(double)) {
    return [f](const Vec &x) {
      Vec y(x.size());
      for (size_t i = 0; i < x.size(); ++i) y[i] = f(x[i]);
      return y;
    };
  };
  // Per program of 64: whether the program's sum is positive.
  auto perBlock = [](double (*pos)(double), double (*neg)(double)) {
    return [pos, neg](const Vec &x) {
      Vec y(x.size());
      for (size_t start = 0; start < x.size(); start += kBlock) {
        double s = 0;
        for (size_t i = start; i < std::min(x.size(), start + kBlock); ++i) s += x[i];
        for (size_t i = start; i < std::min(x.size(), start + kBlock); ++i) y[i] = s > 0 ? pos(x[i]) : neg(x[i]);
      }
      return y;
    };
  };
  static const std::map<std::string, std::function<Vec(const Vec &)>> refs = {
      {"native_if", perBlock([](double v) { return 2 * v; }, [](double v) { return v - 1; })},
      {"combinator_if_else", perBlock([](double v) { return 2 * v; }, [](double v) { return v - 1; })},
      {"native_if_no_else", [](const Vec &x) {
         Vec y = x;
         for (size_t i = 0; i < std::min<size_t>(x.size(), kBlock); ++i) y[i] = x[i] + 10;
         return y;
       }},
      {"native_for", each([](double v) { return 3 * v; })},
      {"native_while", each([](double v) { return v / 16; })},
      {"native_break", each([](double v) { return v + 4; })},      // k = 0..3, then break
      {"native_continue", each([](double v) { return v + 3; })},   // k = 0..3 but 1
      {"native_break_while", each([](double v) { return v * 4; })},  // k = 1, 2 double; 3 breaks
      {"member_of_temporary", each([](double v) { return v > 0 ? v : 0; })},
      {"struct_assignment", each([](double v) { return 2 * v; })},
      {"reference_parameter", each([](double v) { return 2 * v + 1; })},
      {"unsigned_host_loop", each([](double v) { return v + 3; })},   // i = 2, 1, 0, then it wraps
      {"block_scope", perBlock([](double v) { return v / 4; }, [](double v) { return v; })},
      {"loop_bound_changes", each([](double v) { return v + 50; })},  // n = 100: k < 100 - k, 50 times
      {"break_index", each([](double v) { return v + 3; })},
      {"native_nested_break", each([](double v) { return 8 * v + 28; })},  // ((v+2)*2 ...) three times
      {"combinator_while_loop", each([](double v) { return v / 16; })},
      {"host_unroll", each([](double v) { return v + v * 1 + v * 2; })},
      {"host_if", each([](double v) { return -v; })},
      {"helper_function", each([](double v) { return v * v + (v + 1) * (v + 1); })},
      {"function_template", each([](double v) { return 2 * v; })},
      {"lambda", each([](double v) { return 3 * v + 1; })},
      {"functor", each([](double v) { return 2 * v - 1; })},
      {"higher_order", each([](double v) { return v + 2; })},
      {"recursion_host", each([](double v) { return v * v * v; })},
      {"struct_of_tiles", each([](double v) { return v > 0 ? 2 * v : v; })},
      {"early_return_host", each([](double v) { return 2 * v; })},
      {"device_print", each([](double v) { return v; })},
      {"device_assert", each([](double v) { return v; })},
      {"combinator_for_range", each([](double v) { return v / 8 + (v + v / 2 + v / 4); })},
      {"mask_combination", each([](double v) { return v > 0 ? v : 0.1 * v; })},
      {"std_array_of_tiles", each([](double v) { return 6 * v; })},
      {"std_vector_of_tiles", each([](double v) { return v * (v + 1); })},
      {"runtime_block_size", each([](double v) { return v + 1; })},
      {"virtual_call", each([](double v) { return v + 1; })},
      {"exceptions", each([](double v) { return v; })},
      {"goto_statement", each([](double v) { return v; })},
      {"static_local", each([](double v) { return v; })},
      {"host_pointer", each([](double v) { return 6 * v; })},
  };
  return refs;
}

int markedLine(const std::string &file, const std::string &marker) { return tt::test::markedLine(file, marker, ""); }

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
    for (const char *fe : {"trace", "parse"})
      if (f[fe] != "accepted") CHECK(markedLine(file, std::string(fe) + "-error") > 0);
  }
}
