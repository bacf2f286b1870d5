// The backend's differential check, shared by its tests: compile a kernel,
// run the PTX in the emulator and the IR in the interpreter on copies of the
// same buffers, and require the same contents afterwards (exact for integers,
// within a few units in the last place for floats).
#pragma once

#include "backend/Backend.h"
#include "ir/Interpreter.h"
#include "ir/Printer.h"
#include "runtime/Device.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <span>
#include <vector>

namespace twintile::test {

inline bool closeEnough(double want, double have, ir::ScalarKind k, double atol) {
  if (std::isnan(want)) return std::isnan(have);
  if (std::isinf(want)) return have == want;
  double rtol = k == ir::ScalarKind::F16 ? 2e-3 : k == ir::ScalarKind::BF16 ? 1.6e-2 : k == ir::ScalarKind::F32 ? 2e-5 : 1e-12;
  return std::fabs(have - want) <= rtol * std::fabs(want) + atol;
}

struct DiffOptions {
  std::string arch = "sm_90a";
  int numWarps = 0;  // 0: the kernel's
  std::vector<backend::ParamAssumption> assume;
  double atol = 1e-6;  // absolute slack for floats (sums reassociate)
  std::vector<std::string> mustEmit;  // text the PTX must contain
  int numStages = 0;                  // 0: the kernel's
};

/// Compiles `f`, runs it in the emulator and in the interpreter over `grid`
/// on copies of `buffers`, and compares them.
inline void runsLikeInterpreter(const ir::Func &f, ir::Grid grid, const std::vector<ir::Buffer> &buffers,
                                const std::vector<ir::KernelArg> &args, const DiffOptions &o = {}) {
  INFO(ir::toString(f, {.locations = false}));
  std::vector<ir::Buffer> want = buffers, got = buffers;
  ir::RunResult ref = ir::interpret(f, grid, args, want);
  INFO((ref.error ? ref.error->str() : std::string()));
  REQUIRE(ref.ok());

  backend::CompileOptions co;
  co.arch = o.arch;
  co.numWarps = o.numWarps;
  co.numStages = o.numStages;
  co.assume = o.assume;
  co.useCache = false;
  co.runPtxas = false;
  backend::CompileResult r;
  try {
    r = backend::compile(f, co);
  } catch (const backend::BackendError &e) {
    FAIL(e.diag.str());
  }
  for (const std::string &text : o.mustEmit) {
    INFO("the PTX must contain '" << text << "'");
    CHECK(r.ptx.find(text) != std::string::npos);
  }
  std::vector<runtime::EmuArg> eargs;
  for (size_t i = 0; i < args.size(); ++i) {
    const ir::KernelArg &a = args[i];
    const ir::Type &t = f.param(i)->type;
    if (a.kind == ir::KernelArg::Kind::Buffer) eargs.push_back(runtime::EmuArg::buf(a.buffer));
    else if (a.kind == ir::KernelArg::Kind::Int) eargs.push_back(runtime::EmuArg::scalar(static_cast<uint64_t>(a.i)));
    else if (t.elem == ir::ScalarKind::F64) eargs.push_back(runtime::EmuArg::scalar(std::bit_cast<uint64_t>(a.f)));
    else eargs.push_back(runtime::EmuArg::scalar(std::bit_cast<uint32_t>(static_cast<float>(a.f))));
  }
  std::vector<std::span<uint8_t>> spans;
  for (ir::Buffer &b : got) spans.emplace_back(b.bytes());
  runtime::Dim3 g{static_cast<uint32_t>(grid.x), static_cast<uint32_t>(grid.y), static_cast<uint32_t>(grid.z)};
  std::vector<uint8_t> scratch(runtime::launchScratchBytes(r.manifest, g));
  if (!scratch.empty()) {
    spans.emplace_back(scratch);
    eargs.push_back(runtime::EmuArg::buf(spans.size() - 1));
  }
  runtime::EmuOptions eo;
  eo.dynamicSharedBytes = static_cast<uint32_t>(r.manifest.dynamicSharedBytes);
  runtime::EmuResult run = runtime::emulate(runtime::PtxModule::parse(r.ptx), r.manifest.kernel, g,
                                            {static_cast<uint32_t>(r.manifest.threadsPerProgram), 1, 1}, eargs, spans,
                                            eo);
  INFO(run.error);
  REQUIRE(run.ok());
  for (size_t b = 0; b < got.size(); ++b) {
    size_t bad = 0;
    for (size_t i = 0; i < got[b].size(); ++i) {
      bool same = ir::isFloat(got[b].elem()) ? closeEnough(want[b].get(i), got[b].get(i), got[b].elem(), o.atol)
                                             : want[b].getInt(i) == got[b].getInt(i);
      if (!same && bad++ < 4)
        UNSCOPED_INFO("buffer " << got[b].name() << "[" << i << "]: emulated " << got[b].get(i) << ", interpreted "
                                << want[b].get(i));
    }
    CHECK(bad == 0);
  }
}

} // namespace twintile::test
