//===- PassBench.cpp - the cleanup passes against the size of a kernel ----===//
//
//   build/experiments/bench/pass_bench --benchmark_repetitions=3
//       --benchmark_report_aggregates_only=true   (one command line)
//
// The shape a host loop unrolled N times gives: a chain of N steps, each a
// splat of two constants (duplicates CSE removes), a multiply by 1 and an add
// of 0 (identities canonicalize removes), and a dead value (DCE's), so every
// pass has work proportional to N. From 1k to 64k steps (5 ops each, so 5k
// to 320k ops); Google Benchmark fits N log N and reports how well (RMS):
// near-linear is the goal. Once it was quadratic (a host loop of 5,000
// iterations, 20k ops, took 15 s to clean up; now 0.1 s).
//===----------------------------------------------------------------------===//
#include "ir/Parser.h"
#include "ir/Passes.h"

#include <benchmark/benchmark.h>

#include <cassert>
#include <string>

namespace {

std::string chain(int64_t steps) {
  std::string s = "func @chain(%x: ptr<f32>) {\n  %a0 = arange {end = 16, start = 0} : tile<16xi32>\n"
                  "  %p = splat %x : tile<16xptr<f32>>\n  %q = addptr %p, %a0 : tile<16xptr<f32>>\n"
                  "  %v0 = load %q : tile<16xf32>\n";
  for (int64_t i = 0; i < steps; ++i) {
    std::string n = std::to_string(i), m = std::to_string(i + 1);
    s += "  %one" + n + " = constant {value = 1.0} : tile<16xf32>\n";
    s += "  %k" + n + " = constant {value = 0.5} : tile<16xf32>\n";
    s += "  %t" + n + " = mul %v" + n + ", %one" + n + " : tile<16xf32>\n";
    s += "  %d" + n + " = sub %t" + n + ", %k" + n + " : tile<16xf32>\n";  // dead
    s += "  %v" + m + " = add %t" + n + ", %k" + n + " : tile<16xf32>\n";
  }
  s += "  store %q, %v" + std::to_string(steps) + "\n  return\n}\n";
  return s;
}

void cleanup(benchmark::State &state, bool (*pass)(twintile::ir::Func &)) {
  std::string text = chain(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    twintile::ir::ParseResult r = twintile::ir::parseModule(text);
    assert(r.module && "the chain parses");
    state.ResumeTiming();
    benchmark::DoNotOptimize(pass(*r.module->funcs.front()));
  }
  state.SetComplexityN(state.range(0));
}

} // namespace

BENCHMARK_CAPTURE(cleanup, canonicalize, twintile::ir::canonicalize)
    ->RangeMultiplier(4)->Range(1024, 65536)->Unit(benchmark::kMillisecond)->Complexity(benchmark::oNLogN);
BENCHMARK_CAPTURE(cleanup, cse, twintile::ir::cse)
    ->RangeMultiplier(4)->Range(1024, 65536)->Unit(benchmark::kMillisecond)->Complexity(benchmark::oNLogN);
BENCHMARK_CAPTURE(cleanup, dce, twintile::ir::dce)
    ->RangeMultiplier(4)->Range(1024, 65536)->Unit(benchmark::kMillisecond)->Complexity(benchmark::oNLogN);

BENCHMARK_MAIN();
