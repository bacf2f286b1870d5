//===- twintile.cpp - the twintile driver: its command line ---------------===//
//
//   twintile compile FILE --kernel SPEC... [--frontend trace|parse|hybrid] [--emit STAGE] [-o OUT] [-j N]
//                    [--print-after-all] [--time] [--json] [--resources] [target options]
//   twintile run     FILE --kernel SPEC --grid X[,Y[,Z]] [--device emu|interp|cuda]
//                    [--arg NAME=VALUE]... [--input NAME=FILE.npy]... [--save DIR] [--seed N]
//                    [--no-check] [--time] [--profile] [--interleave N] [--json] [target options]
//   twintile diff    FILE --kernel SPEC [--frontends A,B[,C]] [--show] [--html OUT.html] [--json]
//   twintile dump    FILE --kernel SPEC --dir DIR [--frontends A,B,...] [--json]
//   twintile library FILE --name NAME --kernel [FUNCTION=]SPEC... -o DIR [--target T]...
//                    [--depfile FILE] [-j N] [target options]
//   twintile tune    FILE --kernel 'TEMPLATE<{META}>' --config META=V,num_warps=N... --grid EXPR[,EXPR[,EXPR]]
//                    [--arg NAME=VALUE]... [--key NAME]... [--device cuda] [--json] [target options]
//
// Stages (support/Stage.h): rewritten (hybrid), source, tile, tile-opt, axes, layouts, pipelines,
// shared, barriers, llvm-raw, llvm, ptx, sass-info. Each command lives in
// tools/driver/; this file only declares the command line. Errors are
// file:line:col: error: ..., with the source line and a caret; the exit
// status is 1 on any error (and from diff when the front ends differ, from
// run when the device disagrees with the interpreter).
//===----------------------------------------------------------------------===//
#include "tools/driver/Driver.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <iostream>

namespace {

using twintile::driver::KernelFlags;

const auto nonEmpty = [](const std::string &s) { return s.empty() ? std::string("must name a kernel") : std::string(); };

namespace pl = twintile::pipeline;

/// An option whose value is one of an enum's names (its namespace's name()), set in `field`.
template <class E, class Field>
CLI::Option *enumOption(CLI::App *cmd, const std::string &flag, Field &field, std::optional<E> (*named)(std::string_view),
                        std::vector<E> values, const std::string &help) {
  std::vector<std::string> names;
  for (E v : values) names.emplace_back(name(v));
  return cmd->add_option_function<std::string>(flag, [&field, named](const std::string &s) { field = *named(s); }, help)
      ->check(CLI::IsMember(names));
}

void frontendOption(CLI::App *cmd, pl::Frontend &frontend) {
  enumOption(cmd, "--frontend", frontend, pl::frontendNamed, {pl::Frontend::Trace, pl::Frontend::Parse, pl::Frontend::Hybrid},
             "trace (run the kernel on abstract values, the default), parse (read its AST) or hybrid (rewrite its "
             "native device if/for/while into combinators, then trace)");
}

/// The distinct front ends "A,B,..." names, or nothing.
std::optional<std::vector<pl::Frontend>> frontendsNamed(const std::string &s) {
  std::vector<pl::Frontend> out;
  for (size_t at = 0;;) {
    size_t comma = s.find(',', at);
    std::optional<pl::Frontend> f = pl::frontendNamed(s.substr(at, comma == std::string::npos ? comma : comma - at));
    if (!f || std::find(out.begin(), out.end(), *f) != out.end()) return std::nullopt;
    out.push_back(*f);
    if (comma == std::string::npos) return out;
    at = comma + 1;
  }
}

/// --frontends A,B,...: from `least` to `most` distinct front ends.
void frontendsOption(CLI::App *cmd, std::vector<pl::Frontend> &field, size_t least, size_t most, const std::string &help) {
  cmd->add_option_function<std::string>("--frontends", [&field](const std::string &s) { field = *frontendsNamed(s); }, help)
      ->check([least, most](const std::string &s) -> std::string {
        std::optional<std::vector<pl::Frontend>> f = frontendsNamed(s);
        if (f && f->size() >= least && f->size() <= most) return "";
        std::string count = least == most ? std::to_string(least) : std::to_string(least) + " to " + std::to_string(most);
        return "--frontends takes " + count + " different front ends of parse, trace and hybrid, comma-separated "
               "(e.g. parse,hybrid)";
      });
}

/// FILE, --kernel, --frontend: what every command starts from.
void kernelOptions(CLI::App *cmd, std::string &file, std::string &kernel, pl::Frontend *frontend) {
  cmd->add_option("file", file, "kernel source file")->required();
  cmd->add_option("--kernel", kernel, "the specialization, e.g. 'softmax<f16,1024>'")->required()->check(nonEmpty);
  if (frontend) frontendOption(cmd, *frontend);
}

/// --target, --math, --num-warps, --assume-*, --no-cache, --trace-host.
void targetOptions(CLI::App *cmd, pl::CompileRequest &o) {
  enumOption(cmd, "--target", o.target, pl::targetNamed, {pl::Target::Sm90a, pl::Target::Sm80},
             "GPU architecture: sm_90a (default) or sm_80");
  enumOption(cmd, "--math", o.math, pl::mathNamed, {pl::MathMode::Precise, pl::MathMode::Fast},
         "precise (default: the IR's semantics, libdevice) or fast (Triton's defaults: f32 exp, log, rsqrt, sin, "
         "cos, tanh by the GPU's approximations, division in f32 as div.full, an f32 multiply fused into the add "
         "that uses it; bounds in ir/IR.h)");
  cmd->add_option("--num-warps", o.numWarps, "warps per program (default: the kernel's kernel_options, else 4)")->check(CLI::IsMember({1, 2, 4, 8, 16, 32}));
  cmd->add_option("--num-stages", o.numStages,
                  "software-pipelining depth of loops that load a tensor-core dot's tiles: cp.async copies num_stages - 1 iterations ahead, 1 none (default: the kernel's kernel_options, else 3, or fewer where shared memory is short)")
      ->check(CLI::Range(1, 8));
  cmd->add_option("--assume-aligned", o.alignedNames, "pointer parameters promised 16-byte aligned ('*': all)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--assume-divisible", o.divisibleNames, "integer parameters promised divisible by 16 ('*': all)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_flag("--no-cache", [&o](int64_t) { o.useCache = false; },
                "recompile the kernel file (and the PTX) even if the cache has them");
  enumOption(cmd, "--trace-host", o.traceHost, twintile::traceHostNamed,
             {twintile::TraceHost::Jit, twintile::TraceHost::ClangProcess},
             "how the tracing front end compiles the kernel file to run it: jit (Clang in process, the default) or "
             "clang++ (a clang++-19 process; $TWINTILE_HOST_CXX names another); default $TWINTILE_TRACE_HOST, "
             "else jit");
}

/// twintile library: its flags into `library`.
CLI::App *declareLibrary(CLI::App &app, twintile::driver::LibraryFlags &library) {
  CLI::App *libraryCmd = app.add_subcommand(
      "library", "compile kernels into C++ for a program to link: NAME.h, a typed function per specialization, and "
                 "NAME.cpp, its variants (runtime/KernelLibrary.h)");
  libraryCmd->add_option("file", library.k.file, "kernel source file")->required();
  libraryCmd->add_option("--kernel", library.kernels,
                         "the specialization, e.g. 'softmax<f16,1024>' (its function: softmax_f16_1024), or "
                         "FUNCTION=SPEC; one or more, unless --tuned is given")
      ->check(nonEmpty)
      ->allow_extra_args(false);
  libraryCmd->add_option("--tuned", library.tuned,
                         "[FUNCTION=]TABLE: a function that runs the configuration a tuned table (twintile tune "
                         "--table) gives the call's key; its name: the template's, or FUNCTION")
      ->check(nonEmpty)
      ->allow_extra_args(false);
  libraryCmd->add_option("--name", library.name, "the library's name: NAME.h, NAME.cpp, namespace NAME")->required();
  libraryCmd->add_option("-o", library.output, "the directory to write NAME.h and NAME.cpp to")->required();
  frontendOption(libraryCmd, library.k.options.frontend);
  targetOptions(libraryCmd, library.k.options);
  // --target, several times here: replaces the one targetOptions declares.
  libraryCmd->remove_option(libraryCmd->get_option("--target"));
  libraryCmd->add_option("--target", library.targets,
                         "GPU architectures to compile for, the preferred first (default: sm_90a sm_80)")
      ->check(CLI::IsMember({"sm_90a", "sm_80"}))
      ->allow_extra_args(false);
  libraryCmd->add_option("--depfile", library.depfile,
                         "also write the files the kernel file reads, as a Makefile rule (for the build's dependencies)");
  libraryCmd->add_option("-j,--jobs", library.jobs, "threads for the variants (default: one per core)")
      ->check(CLI::Range(1, 256));
  return libraryCmd;
}

/// twintile tune: its flags into `tune`.
CLI::App *declareTune(CLI::App &app, twintile::driver::TuneFlags &tune) {
  CLI::App *tuneCmd = app.add_subcommand(
      "tune", "time a kernel's configurations on a GPU and keep the best (the launch API's autotuner)");
  tuneCmd->add_option("file", tune.k.file, "kernel source file")->required();
  tuneCmd->add_option("--kernel", tune.k.kernel,
                      "the specialization with each meta-parameter in braces, e.g. 'rowsum<{BLOCK}>'")
      ->required()
      ->check(nonEmpty);
  frontendOption(tuneCmd, tune.k.options.frontend);
  targetOptions(tuneCmd, tune.k.options);
  // The promises are each launch's, from its arguments, as in the launch API.
  for (const char *promise : {"--assume-aligned", "--assume-divisible"})
    tuneCmd->remove_option(tuneCmd->get_option(promise));
  tuneCmd->add_option("--config", tune.configs,
                      "a configuration: META=VALUE,... and num_warps=N, num_stages=N; one or more")
      ->required()
      ->allow_extra_args(false);
  tuneCmd->add_option("--grid", tune.grid,
                      "programs along x[,y[,z]], each an expression of the configuration's meta-parameters and the "
                      "integer arguments: + - * / ( ) cdiv(a, b)")
      ->required();
  tuneCmd->add_option("--arg", tune.args, "NAME=VALUE: a pointer's element count, or a scalar's value")
      ->allow_extra_args(false);
  tuneCmd->add_option("--key", tune.key, "parameters whose values key the cached winner")->allow_extra_args(false);
  tuneCmd->add_option("--device", tune.device, "cuda (default); emu and interp are refused: they time no kernel")
      ->check(CLI::IsMember({"emu", "interp", "cuda"}));
  tuneCmd->add_option("--warmup-ms", tune.warmupMs, "untimed launches' budget per configuration (default 25)")
      ->check(CLI::Range(0.0, 1e5));
  tuneCmd->add_option("--rep-ms", tune.repMs, "timed launches' budget per configuration (default 100)")
      ->check(CLI::Range(1e-6, 1e5));
  tuneCmd->add_option("--seed", tune.seed, "seed of the random buffer contents (default 1)")
      ->check(CLI::Range(uint64_t(0), uint64_t(INT64_MAX)));
  tuneCmd->add_option("--table", tune.table,
                      "add the winner to this tuned table, a row per value of --key (twintile library --tuned)");
  tuneCmd->add_flag("--json", tune.json, "print a JSON report (on an error too: its \"ok\" false)");
  return tuneCmd;
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"twintile: a tile-kernel compiler with three front ends (parse, trace, hybrid), one IR, PTX\n"
               "stages: " + twintile::support::stageNames()};
  app.require_subcommand(1);
  app.footer("Exit status: 0 success; 1 an error in the input (or diff: the front ends differ); "
             "70 an internal error, a bug in twintile (docs/driver.md).");

  twintile::driver::CompileFlags compile;
  CLI::App *compileCmd = app.add_subcommand("compile", "take a kernel through a front end and print one stage");
  compileCmd->add_option("file", compile.k.file, "kernel source file")->required();
  compileCmd->add_option("--kernel", compile.kernels,
                         "the specialization, e.g. 'softmax<f16,1024>'; several compile in one process (one parse "
                         "or host compile, the backend in parallel), -o then naming a directory")
      ->required()
      ->check(nonEmpty)
      ->allow_extra_args(false);
  frontendOption(compileCmd, compile.k.options.frontend);
  compileCmd->add_option("-j,--jobs", compile.jobs, "threads for several specializations (default: one per core)")
      ->check(CLI::Range(1, 256));
  targetOptions(compileCmd, compile.k.options);
  std::vector<std::string> stageNames;
  for (twintile::support::Stage s : twintile::support::allStages()) stageNames.emplace_back(twintile::support::name(s));
  compileCmd->add_option("--emit", compile.emit, "the stage to print: " + twintile::support::stageNames() + " (default tile)")
      ->check(CLI::IsMember(stageNames));
  compileCmd->add_option("-o", compile.output, "output file (- for standard output); beside a .ptx, its manifest as .json");
  compileCmd->add_flag("--print-after-all", compile.printAfterAll, "print every stage up to --emit to standard error");
  compileCmd->add_flag("--time", compile.time, "print the time of each phase to standard error");
  compileCmd->add_flag("--json", compile.json, "print a JSON report (phases, notes, ptxas; the text when -o is -)");
  compileCmd->add_flag("--resources", compile.resources,
                       "run ptxas and print its report (registers, spills, stack, shared memory) to standard error");
  bool noLocs = false, optimize = false;
  compileCmd->add_flag("--no-locs", noLocs, "print the IR without loc(...)");
  compileCmd->add_flag("-O", optimize, "the tile IR after cleanup: the same as --emit tile-opt");

  twintile::driver::RunFlags run;
  CLI::App *runCmd = app.add_subcommand("run", "run a kernel on a device and check it against the IR interpreter");
  kernelOptions(runCmd, run.k.file, run.k.kernel, &run.k.options.frontend);
  targetOptions(runCmd, run.k.options);
  runCmd->add_option("--device", run.device, "emu (the PTX emulator, default), interp (the IR interpreter) or cuda")
      ->check(CLI::IsMember({"emu", "interp", "cuda"}));
  runCmd->add_option("--grid", run.grid, "programs along x[,y[,z]]")->delimiter(',')->allow_extra_args(false)->expected(1, 3);
  runCmd->add_option("--arg", run.args, "NAME=VALUE: a pointer's element count, or a scalar's value")->allow_extra_args(false);
  runCmd->add_option("--input", run.inputs, "NAME=FILE.npy: a buffer's contents (its dtype must match)")
      ->allow_extra_args(false);
  runCmd->add_option("--save", run.saveDir, "write every buffer to DIR as NAME.in.npy (before) and NAME.out.npy (after)");
  runCmd->add_option("--seed", run.seed, "seed of the random buffer contents (default 1)")
      ->check(CLI::Range(uint64_t(0), uint64_t(INT64_MAX)));
  runCmd->add_flag("--no-check", [&run](int64_t) { run.check = false; }, "do not run the interpreter to check the result");
  runCmd->add_flag("--time", run.time, "time repeated launches (cuda: CUDA events) and print the median");
  CLI::Option *repeat =
      runCmd->add_option("--repeat", run.repeat, "timed launches with --time (default 20)")->check(CLI::Range(1, 100000));
  runCmd->add_flag("--profile", run.profile,
                   "emu: print the emulator's dynamic counts as one JSON line: warp-level instructions by opcode, "
                   "global requests and 32-byte sectors, shared-memory wavefronts");
  runCmd->add_option("--interleave", run.interleave,
                     "emu: run up to N programs at once, switching between them at global atomics and volatile "
                     "loads in an order drawn from --seed, so programs that wait for each other (spin locks, "
                     "look-backs) contend; programs that wait forever are reported as a deadlock (default 0: one "
                     "program after another)")
      ->check(CLI::Range(0, 1024));
  runCmd->add_flag("--json", run.json, "print a JSON report (on an error too: its verdict \"error\")");

  twintile::driver::DiffFlags diff;
  CLI::App *diffCmd = app.add_subcommand("diff", "compare front ends' IR for one kernel (parse and trace, or two or three --frontends)");
  kernelOptions(diffCmd, diff.file, diff.kernel, nullptr);
  targetOptions(diffCmd, diff.options);
  frontendsOption(diffCmd, diff.frontends, 2, 3, "the front ends to compare, each with the first, in columns (default parse,trace; e.g. parse,hybrid or parse,trace,hybrid)");
  diffCmd->add_flag("--show", diff.show, "print the cleaned IRs side by side");
  diffCmd->add_option("--html", diff.html, "write one self-contained page with every stage of each front end");
  diffCmd->add_flag("--json", diff.json, "print a JSON report");

  twintile::driver::DumpFlags dump;
  CLI::App *dumpCmd = app.add_subcommand("dump", "write every stage of the front ends (parse and trace, or --frontends) to a directory, with an index");
  kernelOptions(dumpCmd, dump.file, dump.kernel, nullptr);
  targetOptions(dumpCmd, dump.options);
  dumpCmd->add_option("--dir", dump.dir, "the directory to write")->required();
  frontendsOption(dumpCmd, dump.frontends, 1, 3, "the front ends to dump, in order (default parse,trace; e.g. parse,trace,hybrid)");
  dumpCmd->add_flag("--json", dump.json, "print the index as JSON");

  twintile::driver::LibraryFlags library;
  CLI::App *libraryCmd = declareLibrary(app, library);
  twintile::driver::TuneFlags tune;
  CLI::App *tuneCmd = declareTune(app, tune);

  // A command-line error is a message and exit status 1, like every other
  // error; plain text whatever --json says, since the command line was not read.
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e) == 0 ? 0 : 1;
  }
  compile.k.options.locations = !noLocs;
  // The driver is one compile: past the front end's limits it may end itself.
  for (pl::CompileRequest *o : {&compile.k.options, &run.k.options, &diff.options, &dump.options, &library.k.options,
                               &tune.k.options})
    o->endProcessOnLimits = true;
  if (optimize && compile.emit == "tile") compile.emit = "tile-opt";
  run.repeatGiven = repeat->count() > 0;
  return twintile::driver::guarded(
      [&] {
        if (compileCmd->parsed()) return twintile::driver::compileCommand(compile);
        if (runCmd->parsed()) return twintile::driver::runCommand(run);
        if (diffCmd->parsed()) return twintile::driver::diffCommand(diff);
        if (libraryCmd->parsed()) return twintile::driver::libraryCommand(library);
        if (tuneCmd->parsed()) return twintile::driver::tuneCommand(tune);
        return twintile::driver::dumpCommand(dump);
      },
      [](const std::string &text, int status) {
        std::cerr << text;
        return status;
      });
}
