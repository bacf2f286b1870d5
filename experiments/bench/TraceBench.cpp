//===- TraceBench.cpp - in-process trace time of each corpus kernel ------===//
//
//   build/experiments/bench/trace_bench --benchmark_repetitions=10
//       --benchmark_report_aggregates_only=true   (one command line)
//
// One benchmark per registered corpus specialization: the time to run the
// kernel on abstract values and record (and verify) its tile IR, in-process,
// with the kernel already compiled into this program.
//===----------------------------------------------------------------------===//
#include "frontends/trace/Trace.h"

#include <benchmark/benchmark.h>

#include <cstdio>

int main(int argc, char **argv) {
  for (const twintile::RegisteredKernel &k : twintile::registry()) {
    benchmark::RegisterBenchmark(("trace/" + k.spec).c_str(), [&k](benchmark::State &state) {
      for (auto _ : state) {
        twintile::TraceResult r = k.trace({});
        if (!r.ok()) {
          state.SkipWithError(r.error->str().c_str());
          break;
        }
        benchmark::DoNotOptimize(r.func.get());
      }
    })->Unit(benchmark::kMicrosecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
