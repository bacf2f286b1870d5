//===- Diff.cpp - twintile diff: two front ends, side by side --------------===//
//
// Two front ends (parse and trace, or --frontends) compile the same
// specialization; their cleaned tile IR is compared structurally
// (ir/Equivalence.h) and the verdict says exactly what differs. --show
// prints both IRs in two columns (never cut); --html writes the page
// DiffHtml.cpp makes, with every stage of both.
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
void sideBySide(std::ostream &os, const std::string &leftName, const std::string &rightName, const std::string &left,
                const std::string &right) {
  std::vector<std::string> a = lines(left), b = lines(right);
  size_t width = 5;
  for (const std::string &l : a) width = std::max(width, l.size());
  auto pad = [&](const std::string &s) { return s + std::string(width - s.size(), ' '); };
  os << pad(leftName) << " | " << rightName << "\n" << std::string(width, '-') << "-+-" << std::string(width, '-') << "\n";
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i)
    os << pad(i < a.size() ? a[i] : "") << " | " << (i < b.size() ? b[i] : "") << "\n";
}

} // namespace

int diffCommand(const DiffFlags &f) {
  bool html = !f.html.empty();
  const std::string left(pipeline::name(f.frontends[0])), right(pipeline::name(f.frontends[1]));
  std::map<std::string, std::map<support::Stage, std::string>> stages;  // front end -> stage -> text
  std::map<std::string, pipeline::Result> results;
  pipeline::CompileRequest o = f.options;
  // The page shows every stage; the verdict needs only the cleaned IR.
  o.last = html ? support::Stage::SassInfo : support::Stage::TileOpt;
  // A front-end limit that ends the process: the report says it, as it says a failure below.
  if (f.json)
    o.reportOnLimit = [&](const std::string &error) {
      nlohmann::ordered_json j{{"command", "diff"}, {"file", f.file}, {"kernel", f.kernel}, {"equal", false},
                               {"verdict", "not compared: " + left + " failed"}};
      if (html) j["html"] = f.html;  // (not written)
      j["errors"] = {{left, error}, {right, error}};  // Clang's one parse, or the first of two: both stop
      return jsonText(j);
    };
  auto observer = [&](const std::string &frontend) {
    pipeline::Observer observer;
    observer.wants = [&](support::Stage) { return html; };
    observer.take = [&, frontend](support::Stage s, const std::string &text) { stages[frontend][s] = text; };
    return observer;
  };
  // Parse and trace: one Clang parse for both, where it can (pipeline::compileBoth).
  pipeline::BothResults both;
  if (left == "parse" && right == "trace") {
    both = pipeline::compileBoth(f.file, f.kernel, o, observer(left), observer(right));
  } else {
    pipeline::CompileRequest a = o, b = o;
    a.frontend = f.frontends[0];
    b.frontend = f.frontends[1];
    both.parse = pipeline::compileSource(f.file, f.kernel, a, observer(left));
    both.trace = pipeline::compileSource(f.file, f.kernel, b, observer(right));
  }
  for (pipeline::Result *r : {&both.parse, &both.trace}) {
    // Without --html or --json a failure ends the command; the page still
    // shows what each front end got through, and the report the errors.
    if (!r->ok() && !html && !f.json) {
      std::cerr << r->error;
      return failureStatus(*r);
    }
  }
  results.emplace(left, std::move(both.parse));
  results.emplace(right, std::move(both.trace));
  const pipeline::Result &parsed = results.at(left), &traced = results.at(right);
  std::string verdict;
  bool equal = false, compared = parsed.func && traced.func;
  if (compared) {
    std::optional<std::string> d = ir::firstDifference(*parsed.func, *traced.func);
    equal = !d;
    verdict = equal ? "equal: the " + left + " and " + right + " IR of " + f.kernel + " are structurally identical"
                    : "different: " + *d;
  } else {
    verdict = "not compared: " + (parsed.func ? right : left) + " failed";
  }
  if (html) {
    DiffPage page;
    page.file = f.file;
    page.kernel = f.kernel;
    page.left = left;
    page.right = right;
    page.verdict = verdict;
    page.equal = equal;
    for (const std::string &fe : {left, right}) page.errors[fe] = results.at(fe).error;
    page.stages = stages;
    std::string error;
    if (!writeText(f.html, renderDiffPage(page), error)) return fail(error);
  }
  if (f.json) {
    nlohmann::ordered_json j{{"command", "diff"}, {"file", f.file}, {"kernel", f.kernel}, {"equal", equal},
                             {"verdict", verdict}};
    if (html) j["html"] = f.html;
    for (const std::string &fe : {left, right})
      if (!results.at(fe).ok()) j["errors"][fe] = results.at(fe).error;
    for (const std::string &fe : {left, right})
      if (results.at(fe).internal()) j["internal"] = true;
    std::cout << jsonText(j);
  } else {
    for (const std::string &fe : {left, right})
      if (!results.at(fe).ok()) std::cerr << results.at(fe).error;
    if (f.show && compared)
      sideBySide(std::cout, left, right, ir::toString(*parsed.func, {.locations = false}),
                 ir::toString(*traced.func, {.locations = false}));
    std::cout << verdict << "\n";
    if (html) std::cout << "wrote " << f.html << "\n";
  }
  for (const std::string &fe : {left, right})
    if (results.at(fe).internal()) return kExitInternal;
  return equal ? 0 : 1;
}

} // namespace twintile::driver
