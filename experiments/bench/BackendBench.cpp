//===- BackendBench.cpp - backend compile time of each corpus kernel -----===//
//
//   build/experiments/bench/backend_bench --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one command line)
//
// One benchmark per registered corpus specialization and phase: `lower` is
// the analyses, layouts and lowering to LLVM IR; `ptx` the whole compile to
// PTX (libdevice link, LLVM passes, NVPTX) without the cache and without
// ptxas, whose time is not ours. The tile IR is traced (and cleaned up) once,
// outside the timed loop.
//===----------------------------------------------------------------------===//
#include "backend/Backend.h"
#include "frontends/trace/Trace.h"
#include "ir/PassManager.h"

#include <benchmark/benchmark.h>

#include <memory>

int main(int argc, char **argv) {
  std::vector<std::shared_ptr<twintile::ir::Func>> funcs;
  for (const twintile::RegisteredKernel &k : twintile::registry()) {
    twintile::TraceResult r = k.trace({});
    if (!r.ok()) continue;
    twintile::ir::PassManager pm;
    pm.addDefaultPipeline();
    pm.run(*r.func);
    std::shared_ptr<twintile::ir::Func> f(std::move(r.func));
    twintile::backend::CompileOptions o;
    o.useCache = false;
    o.runPtxas = false;
    benchmark::RegisterBenchmark(("lower/" + k.spec).c_str(), [f, o](benchmark::State &state) {
      for (auto _ : state) benchmark::DoNotOptimize(twintile::backend::lowerToLLVMText(*f, o));
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("ptx/" + k.spec).c_str(), [f, o](benchmark::State &state) {
      for (auto _ : state) benchmark::DoNotOptimize(twintile::backend::compile(*f, o).ptx);
    })->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
