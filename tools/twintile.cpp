//===- twintile.cpp - the twintile driver ------------------------------===//
//
//   twintile compile --frontend=trace FILE --kernel 'softmax<f16,1024>'
//                    [--emit tile] [-O] [-o OUT] [--no-locs] [--no-cache] [--time]
//
// Takes a kernel source file through a front end to the requested stage and
// prints it. Errors are reported as file:line:col: error: ..., with the
// source line and a caret; the exit status is 1 on any error.
//===----------------------------------------------------------------------===//
#include "frontends/parse/ParseFrontend.h"
#include "frontends/trace/SourceTracer.h"
#include "ir/Equivalence.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

namespace {

/// The diagnostic, then the line it names and a caret, clang-style.
void report(const tt::ir::Diagnostic &d) {
  std::cerr << d.str() << "\n";
  if (!d.loc.known()) return;
  std::ifstream in(d.loc.pos.file);
  std::string line;
  for (int i = 0; i < d.loc.pos.line && std::getline(in, line); ++i) {}
  if (!in || line.size() > 300) return;
  std::cerr << line << "\n";
  if (d.loc.pos.col > 0) std::cerr << std::string(d.loc.pos.col - 1, ' ') << "^\n";
}

} // namespace

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
  compile->add_option("--kernel", kernel, "the specialization, e.g. 'softmax<f16,1024>'")->required();
  compile->add_option("--emit", emit, "the stage to print: tile (the tile IR)")->check(CLI::IsMember({"tile"}));
  compile->add_option("-o", output, "output file (- for standard output)");
  compile->add_flag("-O", optimize, "run the cleanup pipeline (canonicalize, cse, dce) on the tile IR");
  compile->add_flag("--no-locs", noLocs, "print the IR without loc(...)");
  compile->add_flag("--no-cache", noCache, "recompile the kernel file even if the cache has it");
  compile->add_flag("--time", timing, "print the time of each phase to standard error");
  compile->add_option("--num-warps", numWarps, "warps per program")->check(CLI::IsMember({1, 2, 4, 8, 16, 32}));

  CLI11_PARSE(app, argc, argv);

  twintile::FrontendResult result;
  if (frontend == "parse") {
    twintile::ParseOptions opts;
    opts.numWarps = numWarps;
    auto parsed = twintile::ParsedFile::parse(file, {kernel}, opts);
    if (!parsed->ok()) {
      std::cerr << parsed->error();
      return 1;
    }
    result = parsed->walk(kernel);
    if (timing) {
      std::cerr << "parse: " << parsed->parseSeconds() * 1e3 << " ms\n";
      std::cerr << "walk:  " << result.seconds * 1e3 << " ms\n";
    }
  } else {
    twintile::SourceTraceOptions opts;
    opts.useCache = !noCache;
    opts.numWarps = numWarps;
    twintile::SourceTraceResult r = twintile::traceSourceFile(file, kernel, opts);
    if (timing) {
      std::cerr << "host compile: " << (r.cacheHit ? "cached" : std::to_string(r.compileSeconds * 1e3) + " ms") << "\n";
      std::cerr << "trace:        " << r.trace.seconds * 1e3 << " ms\n";
    }
    result = std::move(r.trace);
  }
  if (!result.ok()) {
    report(*result.error);
    return 1;
  }
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
  tt::ir::print(output == "-" ? std::cout : out, f, {.locations = !noLocs});
  return 0;
}
