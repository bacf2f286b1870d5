//===- Diff.cpp - twintile diff: the two front ends, side by side ----------===//
//
// Both front ends compile the same specialization; their cleaned tile IR is
// compared structurally (ir/Equivalence.h) and the verdict says exactly what
// differs. --show prints both IRs in two columns (never cut); --html writes
// the page DiffHtml.cpp makes, with every stage of both.
//===----------------------------------------------------------------------===//
#include "ir/Equivalence.h"
#include "ir/Printer.h"
#include "tools/driver/DiffHtml.h"
#include "tools/driver/Driver.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <map>
#include <sstream>

namespace twintile::driver {

namespace {

std::vector<std::string> lines(const std::string &s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

/// Two texts in two columns, as wide as the left one's longest line.
void sideBySide(std::ostream &os, const std::string &left, const std::string &right) {
  std::vector<std::string> a = lines(left), b = lines(right);
  size_t width = 5;
  for (const std::string &l : a) width = std::max(width, l.size());
  auto pad = [&](const std::string &s) { return s + std::string(width - s.size(), ' '); };
  os << pad("parse") << " | trace\n" << std::string(width, '-') << "-+-" << std::string(width, '-') << "\n";
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i)
    os << pad(i < a.size() ? a[i] : "") << " | " << (i < b.size() ? b[i] : "") << "\n";
}

} // namespace

int diffCommand(const DiffFlags &f) {
  bool html = !f.html.empty();
  std::map<std::string, std::map<support::Stage, std::string>> stages;  // front end -> stage -> text
  std::map<std::string, pipeline::Result> results;
  pipeline::CompileRequest o = f.options;
  // The page shows every stage; the verdict needs only the cleaned IR.
  o.last = html ? support::Stage::SassInfo : support::Stage::TileOpt;
  // A front-end limit that ends the process: the report says it, as it says a failure below.
  if (f.json)
    o.reportOnLimit = [&](const std::string &error) {
      nlohmann::ordered_json j{{"command", "diff"}, {"file", f.file}, {"kernel", f.kernel}, {"equal", false},
                               {"verdict", "not compared: parse failed"}};
      if (html) j["html"] = f.html;  // (not written)
      j["errors"] = {{"parse", error}, {"trace", error}};  // Clang's one parse, or the first of two: both stop
      return jsonText(j);
    };
  auto observer = [&](const std::string &frontend) {
    pipeline::Observer observer;
    observer.wants = [&](support::Stage) { return html; };
    observer.take = [&, frontend](support::Stage s, const std::string &text) { stages[frontend][s] = text; };
    return observer;
  };
  // One Clang parse for both, where it can (pipeline::compileBoth).
  pipeline::BothResults both = pipeline::compileBoth(f.file, f.kernel, o, observer("parse"), observer("trace"));
  for (pipeline::Result *r : {&both.parse, &both.trace}) {
    // Without --html or --json a failure ends the command; the page still
    // shows what each front end got through, and the report the errors.
    if (!r->ok() && !html && !f.json) {
      std::cerr << r->error;
      return failureStatus(*r);
    }
  }
  results.emplace("parse", std::move(both.parse));
  results.emplace("trace", std::move(both.trace));
  const pipeline::Result &parsed = results.at("parse"), &traced = results.at("trace");
  std::string verdict;
  bool equal = false, compared = parsed.func && traced.func;
  if (compared) {
    std::optional<std::string> d = ir::firstDifference(*parsed.func, *traced.func);
    equal = !d;
    verdict = equal ? "equal: the parse and trace IR of " + f.kernel + " are structurally identical"
                    : "different: " + *d;
  } else {
    verdict = "not compared: " + std::string(parsed.func ? "trace" : "parse") + " failed";
  }
  if (html) {
    DiffPage page;
    page.file = f.file;
    page.kernel = f.kernel;
    page.verdict = verdict;
    page.equal = equal;
    for (const char *fe : {"parse", "trace"}) page.errors[fe] = results.at(fe).error;
    page.stages = stages;
    std::string error;
    if (!writeText(f.html, renderDiffPage(page), error)) return fail(error);
  }
  if (f.json) {
    nlohmann::ordered_json j{{"command", "diff"}, {"file", f.file}, {"kernel", f.kernel}, {"equal", equal},
                             {"verdict", verdict}};
    if (html) j["html"] = f.html;
    for (const char *fe : {"parse", "trace"})
      if (!results.at(fe).ok()) j["errors"][fe] = results.at(fe).error;
    for (const char *fe : {"parse", "trace"})
      if (results.at(fe).internal()) j["internal"] = true;
    std::cout << jsonText(j);
  } else {
    for (const char *fe : {"parse", "trace"})
      if (!results.at(fe).ok()) std::cerr << results.at(fe).error;
    if (f.show && compared)
      sideBySide(std::cout, ir::toString(*parsed.func, {.locations = false}),
                 ir::toString(*traced.func, {.locations = false}));
    std::cout << verdict << "\n";
    if (html) std::cout << "wrote " << f.html << "\n";
  }
  for (const char *fe : {"parse", "trace"})
    if (results.at(fe).internal()) return kExitInternal;
  return equal ? 0 : 1;
}

} // namespace twintile::driver
