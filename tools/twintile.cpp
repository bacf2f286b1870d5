//===- twintile.cpp - the twintile driver ------------------------------===//
//
//   twintile compile --frontend=trace|parse FILE --kernel 'softmax<f16,1024>'
//                    [--emit tile|llvm|ptx] [-O] [-o OUT] [--no-locs] [--no-cache] [--time]
//                    [--target sm_90a|sm_80] [--num-warps N] [--assume-aligned P,..]
//                    [--assume-divisible N,..] [--resources]
//   twintile diff FILE --kernel 'softmax<f16,1024>' [--show]
//   twintile run --frontend=trace|parse FILE --kernel 'vector_add<1024>' --grid 4
//                --arg x=4096 --arg y=4096 --arg out=4096 --arg n=4000 [--target ...] [--profile]
//
// compile takes a kernel source file through a front end to the requested
// stage and prints it: the tile IR, the LLVM IR the backend optimized, or
// PTX (then, with -o FILE, the launch manifest goes beside it as FILE's stem
// + .json). --assume-* name parameters (or '*' for all) the caller promises
// are 16-byte aligned pointers or integers divisible by 16; the code is
// specialized on it and the runtime checks it at launch. diff takes it through both front ends, cleans both up
// (canonicalize, cse, dce) and compares them structurally: it prints the
// verdict (and, with --show, the two IRs side by side) and exits 0 when they
// are equal, 1 when not. run compiles the kernel to PTX, runs it in the PTX
// emulator and the IR in the interpreter on the same random buffers (each
// pointer parameter's --arg gives its element count; scalars take values),
// and compares them: it exits 0 when they agree. Errors are reported as file:line:col: error: ...,
// with the source line and a caret; the exit status is 1 on any error.
//===----------------------------------------------------------------------===//
#include "backend/Backend.h"
#include "frontends/parse/ParseFrontend.h"
#include "frontends/trace/SourceTracer.h"
#include "ir/Equivalence.h"
#include "ir/Interpreter.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"
#include "runtime/Emulator.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <bit>
#include <map>
#include <span>
#include <cmath>
#include <fstream>
#include <random>
#include <iostream>
#include <sstream>
#include <vector>

namespace {

/// The diagnostic, as every tool prints it (ir/Diagnostic.h).
void report(const tt::ir::Diagnostic &d) { std::cerr << tt::ir::render(d); }

} // namespace

/// Runs one front end on `file`; reports its timings when asked.
twintile::FrontendResult runFrontend(const std::string &frontend, const std::string &file, const std::string &kernel,
                                     int numWarps, bool useCache, bool timing, std::string &clangErrors) {
  if (frontend == "parse") {
    twintile::ParseOptions opts;
    opts.numWarps = numWarps;
    auto parsed = twintile::ParsedFile::parse(file, {kernel}, opts);
    if (!parsed->ok()) {
      clangErrors = parsed->error();
      return {};
    }
    twintile::FrontendResult r = parsed->walk(kernel);
    if (timing) {
      std::cerr << "parse: " << parsed->parseSeconds() * 1e3 << " ms\n";
      std::cerr << "walk:  " << r.seconds * 1e3 << " ms\n";
    }
    return r;
  }
  twintile::SourceTraceOptions opts;
  opts.useCache = useCache;
  opts.numWarps = numWarps;
  twintile::SourceTraceResult r = twintile::traceSourceFile(file, kernel, opts);
  if (timing) {
    std::cerr << "host compile: " << (r.cacheHit ? "cached" : std::to_string(r.compileSeconds * 1e3) + " ms") << "\n";
    std::cerr << "trace:        " << r.trace.seconds * 1e3 << " ms\n";
  }
  return std::move(r.trace);
}

/// Reports a front end's failure; true if there was one.
bool failed(const twintile::FrontendResult &r, const std::string &clangErrors) {
  if (!clangErrors.empty()) {
    std::cerr << clangErrors;
    return true;
  }
  if (r.ok()) return false;
  report(*r.error);
  return true;
}

struct BackendFlags {
  std::string target;
  int numWarps;
  std::vector<std::string> aligned, divisible;
  bool useCache, timing, resources;
  bool profile = false;  // run: the emulator's dynamic counts
};

/// The per-parameter assumptions named on the command line; an error for a
/// name the kernel does not have.
bool assumptions(const tt::ir::Func &f, const BackendFlags &flags, std::vector<tt::backend::ParamAssumption> &out) {
  out.assign(f.numParams(), {});
  auto apply = [&](const std::vector<std::string> &names, bool aligned) {
    for (const std::string &n : names) {
      bool found = false;
      for (size_t i = 0; i < f.numParams(); ++i) {
        const tt::ir::Type &t = f.param(i)->type;
        bool fits = aligned ? t.isPtr() : t.isInt() && t.elem != tt::ir::ScalarKind::I1;
        if (n == "*" ? fits : f.param(i)->name == n) {
          (aligned ? out[i].aligned16 : out[i].divisible16) = true;
          found = true;
        }
      }
      if (!found && n != "*") {
        std::cerr << "twintile: error: kernel '" << f.name << "' has no parameter '" << n << "'\n";
        return false;
      }
    }
    return true;
  };
  return apply(flags.aligned, true) && apply(flags.divisible, false);
}

/// --emit llvm|ptx: the backend, after the tile IR's cleanup pipeline.
int emitBackend(tt::ir::Func &f, const std::string &emit, const std::string &output, std::ostream &os,
                const BackendFlags &flags) {
  tt::ir::PassManager pm;
  pm.addDefaultPipeline();
  pm.run(f);
  tt::backend::CompileOptions opts;
  opts.arch = flags.target;
  opts.numWarps = flags.numWarps;
  opts.useCache = flags.useCache;
  opts.runPtxas = flags.resources;  // ptxas only when its report is wanted
  if (!assumptions(f, flags, opts.assume)) return 1;
  tt::backend::CompileResult r;
  try {
    r = tt::backend::compile(f, opts);
  } catch (const tt::backend::BackendError &e) {
    report(e.diag);
    return 1;
  }
  for (const std::string &n : r.notes) std::cerr << "twintile: note: " << n << "\n";
  if (flags.timing) {
    for (const tt::backend::PhaseTime &p : r.phases) std::cerr << "  " << p.name << ": " << p.seconds * 1e3 << " ms\n";
    std::cerr << "backend:      " << (r.cacheHit ? "cached, " : "") << r.seconds * 1e3 << " ms\n";
  }
  if (flags.resources) {
    const tt::backend::PtxasReport &p = r.ptxas;
    if (!p.ran) std::cerr << "ptxas: skipped (" << p.skipped << ")\n";
    else
      std::cerr << "ptxas: " << p.registers << " registers, " << p.spillStoreBytes << " bytes spill stores, "
                << p.spillLoadBytes << " bytes spill loads, " << p.stackBytes << " bytes stack, " << p.sharedBytes
                << " bytes smem\n";
  }
  os << (emit == "llvm" ? r.llvmIR : r.ptx);
  if (emit == "ptx" && output != "-") {
    std::filesystem::path manifest = std::filesystem::path(output).replace_extension(".json");
    std::ofstream m(manifest);
    m << r.manifest.toJson();
    if (!m) {
      std::cerr << "twintile: error: cannot write '" << manifest.string() << "'\n";
      return 1;
    }
  }
  return 0;
}

/// The emulator's dynamic counts as one JSON line: `profile: {...}`.
void printProfile(std::ostream &os, const tt::runtime::EmuResult &run) {
  const tt::runtime::EmuProfile &p = run.profile;
  os << "profile: {\"thread_instructions\": " << run.instructions << ", \"global_requests\": " << p.globalRequests
     << ", \"global_sectors\": " << p.globalSectors << ", \"global_bytes\": " << p.globalBytes
     << ", \"shared_requests\": " << p.sharedRequests << ", \"shared_wavefronts\": " << p.sharedWavefronts
     << ", \"shared_ideal_wavefronts\": " << p.sharedIdealWavefronts << ", \"warp_instructions\": {";
  const char *sep = "";
  for (const auto &[op, n] : p.warpInstructions) {  // opcodes are PTX words: no character needs escaping
    os << sep << "\"" << op << "\": " << n;
    sep = ", ";
  }
  os << "}}\n";
}

/// twintile run: the kernel's PTX in the emulator against its IR in the
/// interpreter, on random buffers. 0 when they agree.
int runAndCheck(tt::ir::Func &f, const std::vector<int64_t> &gridDims, const std::vector<std::string> &argTexts,
                const BackendFlags &flags) {
  tt::ir::PassManager pm;
  pm.addDefaultPipeline();
  pm.run(f);
  std::map<std::string, std::string> given;
  for (const std::string &a : argTexts) {
    size_t eq = a.find('=');
    if (eq == std::string::npos) {
      std::cerr << "twintile: error: --arg takes NAME=VALUE, got '" << a << "'\n";
      return 1;
    }
    given[a.substr(0, eq)] = a.substr(eq + 1);
  }
  std::vector<tt::ir::Buffer> buffers;
  std::vector<tt::ir::KernelArg> args;
  std::vector<tt::runtime::EmuArg> eargs;
  std::mt19937 rng(1);
  for (size_t i = 0; i < f.numParams(); ++i) {
    const tt::ir::Value *p = f.param(i);
    auto it = given.find(p->name);
    if (it == given.end()) {
      std::cerr << "twintile: error: no --arg for parameter '" << p->name << "' (" << tt::ir::toString(p->type) << ")\n";
      return 1;
    }
    try {
      if (p->type.isPtr()) {
        size_t n = std::stoul(it->second);
        tt::ir::Buffer b(p->type.pointee, n, p->name);
        for (size_t e = 0; e < n; ++e) {
          if (tt::ir::isFloat(p->type.pointee)) b.set(e, std::uniform_real_distribution<double>(-2, 2)(rng));
          else b.setInt(e, std::uniform_int_distribution<int64_t>(-50, 50)(rng));
        }
        args.push_back(tt::ir::KernelArg::buf(buffers.size()));
        eargs.push_back(tt::runtime::EmuArg::buf(buffers.size()));
        buffers.push_back(std::move(b));
      } else if (p->type.isFloat()) {
        double v = std::stod(it->second);
        args.push_back(tt::ir::KernelArg::floating(v));
        eargs.push_back(tt::runtime::EmuArg::scalar(p->type.elem == tt::ir::ScalarKind::F64
                                                        ? std::bit_cast<uint64_t>(v)
                                                        : std::bit_cast<uint32_t>(static_cast<float>(v))));
      } else {
        int64_t v = std::stoll(it->second);
        args.push_back(tt::ir::KernelArg::integer(v));
        eargs.push_back(tt::runtime::EmuArg::scalar(static_cast<uint64_t>(v)));
      }
    } catch (const std::exception &) {
      std::cerr << "twintile: error: --arg " << p->name << "=" << it->second << " is not a "
                << (p->type.isPtr() ? "count of elements" : "number") << "\n";
      return 1;
    }
    given.erase(it);
  }
  if (!given.empty()) {
    std::cerr << "twintile: error: kernel '" << f.name << "' has no parameter '" << given.begin()->first << "'\n";
    return 1;
  }
  tt::ir::Grid grid{gridDims[0], gridDims.size() > 1 ? gridDims[1] : 1, gridDims.size() > 2 ? gridDims[2] : 1};
  std::vector<tt::ir::Buffer> want = buffers, got = buffers;
  tt::ir::RunResult ref = tt::ir::interpret(f, grid, args, want);
  if (!ref.ok()) {
    report(*ref.error);
    return 1;
  }
  tt::backend::CompileOptions opts;
  opts.arch = flags.target;
  opts.numWarps = flags.numWarps;
  opts.useCache = flags.useCache;
  if (!assumptions(f, flags, opts.assume)) return 1;
  // What the code was specialized on must hold for the launch.
  for (size_t i = 0; i < f.numParams(); ++i)
    if (opts.assume[i].divisible16 && args[i].i % 16 != 0) {
      std::cerr << "twintile: error: " << f.param(i)->name << " = " << args[i].i
                << " is not divisible by 16, as --assume-divisible promised\n";
      return 1;
    }
  tt::backend::CompileResult r;
  try {
    r = tt::backend::compile(f, opts);
  } catch (const tt::backend::BackendError &e) {
    report(e.diag);
    return 1;
  }
  std::vector<std::span<uint8_t>> spans;
  for (tt::ir::Buffer &b : got) spans.emplace_back(b.bytes());
  tt::runtime::EmuOptions emuOptions;
  emuOptions.profile = flags.profile;
  tt::runtime::EmuResult run = tt::runtime::emulate(
      tt::runtime::PtxModule::parse(r.ptx), r.manifest.kernel,
      {static_cast<uint32_t>(grid.x), static_cast<uint32_t>(grid.y), static_cast<uint32_t>(grid.z)},
      {static_cast<uint32_t>(r.manifest.threadsPerProgram), 1, 1}, eargs, spans, emuOptions);
  if (!run.ok()) {
    std::cerr << "twintile: error: the emulated PTX failed: " << run.error << "\n";
    return 1;
  }
  size_t elements = 0, bad = 0;
  for (size_t b = 0; b < got.size(); ++b) {
    tt::ir::ScalarKind k = got[b].elem();
    double rtol = k == tt::ir::ScalarKind::F16 ? 4e-3 : k == tt::ir::ScalarKind::BF16 ? 3e-2 : k == tt::ir::ScalarKind::F32 ? 1e-4 : 0;
    // A float is judged relative to itself, or to 1/32 of the largest finite
    // magnitude the kernel wrote to the buffer if that is larger: a sum that
    // cancels (attention's output, a layer norm's centred values) keeps the
    // absolute error of its terms, not a relative one, and its terms round
    // differently where PTX uses approximate instructions (ex2.approx) the
    // interpreter computes exactly. Elements the kernel left alone do not count.
    double scale = 0;
    for (size_t e = 0; e < want[b].size() && tt::ir::isFloat(k); ++e)
      if (double v = std::fabs(want[b].get(e)); std::isfinite(v) && want[b].get(e) != buffers[b].get(e))
        scale = std::max(scale, v);
    for (size_t e = 0; e < got[b].size(); ++e, ++elements) {
      double x = want[b].get(e), y = got[b].get(e);
      bool same = tt::ir::isFloat(k) ? (std::isnan(x) ? std::isnan(y)
                                                      : x == y || std::fabs(x - y) <=
                                                                      1e-5 + rtol * std::max(std::fabs(x), scale / 32))
                                     : want[b].getInt(e) == got[b].getInt(e);
      if (!same && bad++ < 10)
        std::cout << "mismatch: " << got[b].name() << "[" << e << "]: PTX " << y << ", interpreter " << x << "\n";
    }
  }
  std::cout << (bad ? "different" : "ok") << ": " << f.name << " on grid (" << grid.x << ", " << grid.y << ", "
            << grid.z << "), " << r.manifest.threadsPerProgram << " threads, " << flags.target << ": ";
  if (bad) std::cout << bad << " of " << elements << " elements differ\n";
  else std::cout << "the emulated PTX matches the interpreter on " << elements << " elements of " << got.size()
                 << " buffers\n";
  if (flags.profile) printProfile(std::cout, run);
  return bad ? 1 : 0;
}

/// Two texts in two columns.
void sideBySide(std::ostream &os, const std::string &left, const std::string &right, const std::string &leftTitle,
                const std::string &rightTitle) {
  auto lines = [](const std::string &s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  };
  std::vector<std::string> a = lines(left), b = lines(right);
  size_t width = 0;
  for (const std::string &l : a) width = std::max(width, l.size());
  width = std::min<size_t>(std::max(width, leftTitle.size()), 72);
  auto pad = [&](std::string s) {
    if (s.size() > width) s = s.substr(0, width - 1) + "~";
    return s + std::string(width - s.size(), ' ');
  };
  os << pad(leftTitle) << " | " << rightTitle << "\n" << std::string(width, '-') << "-+-" << std::string(width, '-') << "\n";
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i)
    os << pad(i < a.size() ? a[i] : "") << " | " << (i < b.size() ? b[i] : "") << "\n";
}

int main(int argc, char **argv) {
  CLI::App app{"twintile: a tile-kernel compiler with two front ends (parse, trace) and one IR"};
  app.require_subcommand(1);

  CLI::App *compile = app.add_subcommand("compile", "take a kernel through a front end and print a stage");
  std::string frontend = "trace", file, kernel, emit = "tile", output = "-";
  bool optimize = false, noLocs = false, noCache = false, timing = false;
  int numWarps = 4;
  compile->add_option("--frontend", frontend, "trace (run the kernel on abstract values) or parse (read its AST)")
      ->check(CLI::IsMember({"trace", "parse"}));
  compile->add_option("file", file, "kernel source file")->required();
  auto nonEmpty = [](const std::string &s) { return s.empty() ? std::string("must name a kernel") : std::string(); };
  compile->add_option("--kernel", kernel, "the specialization, e.g. 'softmax<f16,1024>'")->required()->check(nonEmpty);
  compile->add_option("--emit", emit, "the stage to print: tile (the tile IR), llvm (optimized LLVM IR), ptx")
      ->check(CLI::IsMember({"tile", "llvm", "ptx"}));
  std::string target = "sm_90a";
  std::vector<std::string> assumeAligned, assumeDivisible;
  bool resources = false;
  compile->add_option("--target", target, "GPU architecture for llvm/ptx: sm_90a (default) or sm_80")
      ->check(CLI::IsMember({"sm_90a", "sm_80"}));
  compile->add_option("--assume-aligned", assumeAligned, "pointer parameters promised 16-byte aligned ('*': all)")
      ->delimiter(',')
      ->allow_extra_args(false);
  compile->add_option("--assume-divisible", assumeDivisible, "integer parameters promised divisible by 16 ('*': all)")
      ->delimiter(',')
      ->allow_extra_args(false);
  compile->add_flag("--resources", resources, "run ptxas and print its report (registers, spills, stack, shared memory) to standard error");
  compile->add_option("-o", output, "output file (- for standard output)");
  compile->add_flag("-O", optimize, "run the cleanup pipeline (canonicalize, cse, dce) on the tile IR");
  compile->add_flag("--no-locs", noLocs, "print the IR without loc(...)");
  compile->add_flag("--no-cache", noCache, "recompile the kernel file (and the PTX) even if the cache has it");
  compile->add_flag("--time", timing, "print the time of each phase to standard error");
  compile->add_option("--num-warps", numWarps, "warps per program")->check(CLI::IsMember({1, 2, 4, 8, 16, 32}));

  CLI::App *diff = app.add_subcommand("diff", "compare the two front ends' IR for one kernel");
  std::string diffFile, diffKernel;
  bool show = false;
  diff->add_option("file", diffFile, "kernel source file")->required();
  diff->add_option("--kernel", diffKernel, "the specialization, e.g. 'softmax<f16,1024>'")->required()->check(nonEmpty);
  diff->add_flag("--show", show, "print the two IRs side by side");

  CLI::App *runCmd = app.add_subcommand("run", "run a kernel's PTX in the emulator and check it against the interpreter");
  std::string runFrontend_ = "trace", runFile, runKernel, runTarget = "sm_90a";
  std::vector<int64_t> runGrid{1};
  std::vector<std::string> runArgs, runAligned, runDivisible;
  int runWarps = 4;
  runCmd->add_option("--frontend", runFrontend_, "trace or parse")->check(CLI::IsMember({"trace", "parse"}));
  runCmd->add_option("file", runFile, "kernel source file")->required();
  runCmd->add_option("--kernel", runKernel, "the specialization, e.g. 'vector_add<1024>'")->required()->check(nonEmpty);
  runCmd->add_option("--grid", runGrid, "programs along x[,y[,z]]")->delimiter(',')->allow_extra_args(false)->expected(1, 3);
  runCmd->add_option("--arg", runArgs, "NAME=VALUE per parameter: an element count for a pointer, else the value")
      ->allow_extra_args(false);
  runCmd->add_option("--target", runTarget, "sm_90a (default) or sm_80")->check(CLI::IsMember({"sm_90a", "sm_80"}));
  runCmd->add_option("--num-warps", runWarps, "warps per program")->check(CLI::IsMember({1, 2, 4, 8, 16, 32}));
  runCmd->add_option("--assume-aligned", runAligned, "pointer parameters promised 16-byte aligned ('*': all)")
      ->delimiter(',')
      ->allow_extra_args(false);
  runCmd->add_option("--assume-divisible", runDivisible, "integer parameters promised divisible by 16 ('*': all)")
      ->delimiter(',')
      ->allow_extra_args(false);
  bool runProfile = false;
  runCmd->add_flag("--profile", runProfile,
                   "print the emulator's dynamic counts as one JSON line: warp-level instructions by opcode, global "
                   "requests and 32-byte sectors, shared-memory wavefronts");

  CLI11_PARSE(app, argc, argv);

  if (runCmd->parsed()) {
    std::string clangErrors;
    twintile::FrontendResult r = runFrontend(runFrontend_, runFile, runKernel, runWarps, true, false, clangErrors);
    if (failed(r, clangErrors)) return 1;
    return runAndCheck(*r.func, runGrid, runArgs,
                       {runTarget, runWarps, runAligned, runDivisible, true, false, false, runProfile});
  }

  if (diff->parsed()) {
    std::string clangErrors;
    twintile::FrontendResult parsed = runFrontend("parse", diffFile, diffKernel, 4, true, false, clangErrors);
    if (failed(parsed, clangErrors)) return 1;
    twintile::FrontendResult traced = runFrontend("trace", diffFile, diffKernel, 4, true, false, clangErrors);
    if (failed(traced, clangErrors)) return 1;
    for (tt::ir::Func *f : {parsed.func.get(), traced.func.get()}) {
      tt::ir::PassManager pm;
      pm.addDefaultPipeline();
      pm.run(*f);
    }
    if (show)
      sideBySide(std::cout, tt::ir::toString(*parsed.func, {.locations = false}),
                 tt::ir::toString(*traced.func, {.locations = false}), "parse", "trace");
    if (auto d = tt::ir::firstDifference(*parsed.func, *traced.func)) {
      std::cout << "different: " << *d << "\n";
      return 1;
    }
    std::cout << "equal: the parse and trace IR of " << diffKernel << " are structurally identical\n";
    return 0;
  }

  std::string clangErrors;
  twintile::FrontendResult result = runFrontend(frontend, file, kernel, numWarps, !noCache, timing, clangErrors);
  if (failed(result, clangErrors)) return 1;
  tt::ir::Func &f = *result.func;
  if (optimize) {
    tt::ir::PassManager pm;
    pm.addDefaultPipeline();
    pm.run(f);
    if (timing) pm.printTimings(std::cerr);
  }
  std::ofstream out;
  if (output != "-") {
    out.open(output);
    if (!out) {
      std::cerr << "twintile: error: cannot write '" << output << "'\n";
      return 1;
    }
  }
  std::ostream &os = output == "-" ? std::cout : out;
  if (emit == "tile") {
    tt::ir::print(os, f, {.locations = !noLocs});
    return 0;
  }
  return emitBackend(f, emit, output, os, {target, numWarps, assumeAligned, assumeDivisible, !noCache, timing, resources});
}
