//===- ParseBench.cpp - parse and walk time of the parsing front end -----===//
//
//   build/experiments/bench/parse_bench --benchmark_repetitions=10
//       --benchmark_report_aggregates_only=true   (one command line)
//
// parse+walk/KERNEL: Clang parses the kernel file (with the language header)
// for one specialization and the walker emits its IR, in-process.
// walk/SPEC: the walk alone, from a parse that already holds the
// specialization (what each further specialization of one parse costs).
//===----------------------------------------------------------------------===//
#include "frontends/parse/ParseFrontend.h"

#include <benchmark/benchmark.h>

#include <memory>
#include <string>

namespace {

const std::string kCorpus = TWINTILE_CORPUS_DIR;

struct Case {
  std::string file, spec;
};

const Case kCases[] = {
    {"softmax.cpp", "softmax<f16,1024>"},        {"vector_add.cpp", "vector_add<1024>"},
    {"layernorm.cpp", "layernorm<f16,1024>"},    {"matmul.cpp", "matmul<64,64,32>"},
    {"flash_attention.cpp", "flash_attention<64,64,64>"},
};

} // namespace

int main(int argc, char **argv) {
  for (const Case &c : kCases) {
    std::string file = kCorpus + "/" + c.file;
    benchmark::RegisterBenchmark(("parse+walk/" + c.spec).c_str(), [file, c](benchmark::State &state) {
      for (auto _ : state) {
        auto parsed = twintile::ParsedFile::parse(file, {c.spec});
        twintile::FrontendResult r = parsed->walk(c.spec);
        if (!r.ok()) {
          state.SkipWithError("the kernel did not parse");
          break;
        }
        benchmark::DoNotOptimize(r.func.get());
      }
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("walk/" + c.spec).c_str(), [file, c](benchmark::State &state) {
      std::shared_ptr<twintile::ParsedFile> parsed = twintile::ParsedFile::parse(file, {c.spec});
      for (auto _ : state) {
        twintile::FrontendResult r = parsed->walk(c.spec);
        benchmark::DoNotOptimize(r.func.get());
      }
    })->Unit(benchmark::kMicrosecond);
  }
  // Twelve softmax specializations from one parse.
  benchmark::RegisterBenchmark("parse+walk/softmax x12", [](benchmark::State &state) {
    std::vector<std::string> specs;
    for (const char *t : {"f16", "bf16", "f32"})
      for (int b : {128, 256, 512, 1024}) specs.push_back(std::string("softmax<") + t + "," + std::to_string(b) + ">");
    for (auto _ : state) {
      auto parsed = twintile::ParsedFile::parse(kCorpus + "/softmax.cpp", specs);
      for (const std::string &s : specs) benchmark::DoNotOptimize(parsed->walk(s).func.get());
    }
  })->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
