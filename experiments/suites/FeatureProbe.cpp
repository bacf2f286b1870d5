//===- FeatureProbe.cpp - what each front end makes of each feature case --===//
//
//   feature_probe FEATURES_DIR [--frontend parse|trace|hybrid]
//
// The expressiveness suite's instrument (experiments/suites/expressiveness.py).
// For every case of FEATURES_DIR/features.json and each front end: does it
// accept the kernel, and if so does the interpreter compute the reference
// (experiments/features/references.h) on 100 elements; if it refuses, where
// (the line of its message against the line the case marks with
// `// trace-error`, `// parse-error` or `// hybrid-error`) and with what
// message. Prints one JSON object per case and front end per line (all three
// front ends unless one is named; the hybrid through the pipeline):
//   {"feature", "frontend", "expected", "outcome": "accepted"|"refused",
//    "correct": true|false|null, "message", "line", "marked_line", "seconds"}
// The suite judges them; this tool only observes. Exit status 0 unless the
// features file cannot be read.
//===----------------------------------------------------------------------===//
#include "frontends/parse/ParseFrontend.h"
#include "frontends/trace/SourceTracer.h"
#include "ir/Interpreter.h"
#include "pipeline/Pipeline.h"

#include "references.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <random>
#include <string>

namespace ir = twintile::ir;
using json = nlohmann::json;
using twintile::features::Vec;

namespace {

/// The first line of `file` with a comment holding `marker`; 0 if none.
int markedLine(const std::string &file, const std::string &marker) {
  std::ifstream in(file);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (auto c = line.find("// "); c != std::string::npos && line.find(marker, c) != std::string::npos) return n;
  return 0;
}

twintile::FrontendResult run(const std::string &frontend, const std::string &file, const std::string &spec) {
  if (frontend == "parse") return twintile::parseKernel(file, spec);
  if (frontend == "trace") return twintile::traceSourceFile(file, spec).trace;
  // The hybrid front end is the pipeline's: its tile IR as recorded.
  twintile::pipeline::CompileRequest request;
  request.frontend = twintile::pipeline::Frontend::Hybrid;
  request.last = twintile::support::Stage::Tile;
  twintile::pipeline::Result r = twintile::pipeline::compileSource(file, spec, request);
  twintile::FrontendResult out;
  if (r.ok()) out.func = std::move(r.func);
  else out.error = r.diag ? *r.diag : ir::Diagnostic{{}, r.error};
  return out;
}

/// Whether the interpreter computes the case's reference; null when it has none.
json correct(const std::string &name, const ir::Func &f) {
  auto ref = twintile::features::references().find(name);
  if (ref == twintile::features::references().end()) return nullptr;
  const int n = 100, block = twintile::features::kBlock;
  std::mt19937 rng(static_cast<unsigned>(name.size()));
  std::uniform_real_distribution<double> dist(-2, 2);
  Vec x(n);
  for (double &v : x) v = static_cast<float>(dist(rng));
  std::vector<ir::Buffer> bufs{ir::Buffer::fromValues(ir::ScalarKind::F32, x, "x"), ir::Buffer(ir::ScalarKind::F32, n, "y")};
  ir::RunResult r = ir::interpret(f, {(n + block - 1) / block},
                                  {ir::KernelArg::buf(0), ir::KernelArg::buf(1), ir::KernelArg::integer(n)}, bufs);
  if (!r.ok()) return false;
  Vec want = ref->second(x), got = bufs[1].values();
  for (int i = 0; i < n; ++i)
    if (std::abs(got[i] - want[i]) > 1e-6 + 1e-5 * std::abs(want[i])) return false;
  return true;
}

} // namespace

int run(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: feature_probe FEATURES_DIR [--frontend parse|trace|hybrid]\n";
    return 2;
  }
  std::string dir = argv[1];
  std::vector<std::string> frontends{"parse", "trace", "hybrid"};
  if (argc == 4 && std::string(argv[2]) == "--frontend") frontends = {argv[3]};
  std::ifstream in(dir + "/features.json");
  if (!in) {
    std::cerr << "feature_probe: cannot read " << dir << "/features.json\n";
    return 2;
  }
  json features = json::parse(in, nullptr, false);
  if (features.is_discarded() || !features.contains("features")) {
    std::cerr << "feature_probe: " << dir << "/features.json is not a features file\n";
    return 2;
  }
  for (const json &f : features["features"]) {
    std::string name = f["name"], spec = f["kernel"];
    std::string file = dir + "/" + name + ".cpp";
    for (const std::string &fe : frontends) {
      auto start = std::chrono::steady_clock::now();
      twintile::FrontendResult r = run(fe, file, spec);
      json row = {{"feature", name}, {"frontend", fe}, {"expected", f.value(fe, json())},
                  {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()}};
      if (r.ok()) {
        row["outcome"] = "accepted";
        row["correct"] = correct(name, *r.func);
      } else {
        row["outcome"] = "refused";
        row["correct"] = nullptr;
        row["message"] = r.error ? r.error->message : "";
        row["line"] = r.error ? r.error->loc.pos.line : 0;
        row["marked_line"] = markedLine(file, fe + "-error");
      }
      std::cout << row.dump() << std::endl;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const json::exception &e) {
    std::cerr << "feature_probe: features.json is not a features file: " << e.what() << "\n";
    return 2;
  }
}
