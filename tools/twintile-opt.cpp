//===- twintile-opt.cpp - parse, verify, transform and print tile IR -----===//
//
//   twintile-opt FILE.tir [--passes expand-descriptors,canonicalize,cse,dce | -O]
//                [--print-after-all] [--time-passes] [--no-locs]
//                [--compare OTHER.tir] [-o OUT]
//
// Reads tile IR text (FILE, or - for standard input), verifies it, runs the
// passes in order, verifies again, and prints the result. Errors are located
// as file:line:col with the offending line and a caret; the exit status is 1
// on any error. With --compare, prints whether the (transformed) input is
// structurally equal to OTHER (up to value names and locations) and exits 0
// when equal, 1 when not.
//===----------------------------------------------------------------------===//
#include "ir/Equivalence.h"
#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

using namespace twintile::ir;

namespace {

bool readFile(const std::string &path, std::string &out) {
  if (path == "-") {
    out.assign(std::istreambuf_iterator<char>(std::cin), {});
    return true;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), {});
  return true;
}

void report(const Diagnostic &d, const std::string &text) { std::cerr << render(d, text); }

std::unique_ptr<Module> load(const std::string &path, std::string &text) {
  if (!readFile(path, text)) {
    std::cerr << "twintile-opt: error: cannot read '" << path << "'\n";
    return nullptr;
  }
  ParseResult r = parseModule(text, path == "-" ? "<stdin>" : path);
  if (r.error) {
    report(*r.error, text);
    return nullptr;
  }
  bool ok = true;
  for (auto &f : r.module->funcs)
    for (const Diagnostic &d : verify(*f)) {
      report(d, text);
      ok = false;
    }
  return ok ? std::move(r.module) : nullptr;
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"twintile-opt: parse, verify, transform and print twintile's tile IR"};
  app.footer("Exit status: 0 success; 1 an error in the input; 70 an internal error, a bug in twintile.");
  std::string input = "-", output = "-", compare, passList;
  bool optimize = false, printAfterAll = false, timePasses = false, noLocs = false;
  app.add_option("input", input, "tile IR file (- for standard input)");
  app.add_option("-o", output, "output file (- for standard output)");
  app.add_option("--passes", passList, "comma-separated passes to run in order: expand-descriptors, canonicalize, cse, dce");
  app.add_flag("-O", optimize, "run the default pipeline (expand-descriptors, canonicalize, cse, dce)");
  app.add_flag("--print-after-all", printAfterAll, "print the IR after each pass to standard error");
  app.add_flag("--time-passes", timePasses, "print each pass's time to standard error");
  app.add_flag("--no-locs", noLocs, "print without loc(...)");
  app.add_option("--compare", compare, "report whether the result equals this IR file structurally");
  // A command-line error is a message and exit status 1, like every other error.
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e) == 0 ? 0 : 1;
  }

  PassManager pm;
  if (optimize) pm.addDefaultPipeline();
  std::stringstream names(passList);
  for (std::string name; std::getline(names, name, ',');) {
    if (name.empty()) continue;
    if (!pm.addByName(name)) {
      std::cerr << "twintile-opt: error: unknown pass '" << name << "' (known:";
      for (const std::string &k : PassManager::knownPasses()) std::cerr << " " << k;
      std::cerr << ")\n";
      return 1;
    }
  }
  pm.setPrintAfterEach(printAfterAll ? &std::cerr : nullptr, !noLocs);

  std::string text;
  std::unique_ptr<Module> m = load(input, text);
  if (!m) return 1;
  for (auto &f : m->funcs) {
    try {
      pm.run(*f);
    } catch (const InternalError &e) {
      std::cerr << render(e.diag(), text);
      return 70;  // a bug in twintile, not in the input (sysexits.h's EX_SOFTWARE)
    }
    if (timePasses) {
      std::cerr << "@" << f->name << ":\n";
      pm.printTimings(std::cerr);
    }
  }

  if (!compare.empty()) {
    std::string otherText;
    std::unique_ptr<Module> other = load(compare, otherText);
    if (!other) return 1;
    if (other->funcs.size() != m->funcs.size()) {
      std::cout << "different: " << m->funcs.size() << " vs " << other->funcs.size() << " functions\n";
      return 1;
    }
    for (size_t i = 0; i < m->funcs.size(); ++i)
      if (auto d = firstDifference(*m->funcs[i], *other->funcs[i], {.compareNames = false})) {
        std::cout << "different: @" << m->funcs[i]->name << ": " << *d << "\n";
        return 1;
      }
    std::cout << "equal\n";
    return 0;
  }

  std::ofstream file;
  if (output != "-") {
    file.open(output);
    if (!file) {
      std::cerr << "twintile-opt: error: cannot write '" << output << "'\n";
      return 1;
    }
  }
  print(output == "-" ? std::cout : file, *m, {.locations = !noLocs});
  return 0;
}
