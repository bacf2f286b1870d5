//===- Diff.cpp - twintile diff: front ends, side by side ------------------===//
//
// Two or three front ends (parse and trace, or --frontends) compile the
// same specialization; the cleaned tile IR of each is compared structurally
// with the first's (ir/Equivalence.h) and the verdict says exactly what
// differs. --show prints the IRs in columns (never cut); --html writes the
// page DiffHtml.cpp makes, with every stage of each.
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

/// Texts in columns, each but the last as wide as its longest line.
void sideBySide(std::ostream &os, const std::vector<std::string> &names, const std::vector<std::string> &texts) {
  std::vector<std::vector<std::string>> columns;
  std::vector<size_t> widths;
  size_t rows = 0;
  for (size_t c = 0; c < texts.size(); ++c) {
    columns.push_back(lines(texts[c]));
    size_t width = std::max<size_t>(5, names[c].size());
    for (const std::string &l : columns.back()) width = std::max(width, l.size());
    widths.push_back(width);
    rows = std::max(rows, columns.back().size());
  }
  auto row = [&](auto &&at, const char *gap) {
    for (size_t c = 0; c < columns.size(); ++c) {
      std::string s = at(c);
      os << (c ? gap : "") << (c + 1 < columns.size() ? s + std::string(widths[c] - s.size(), ' ') : s);
    }
    os << "\n";
  };
  row([&](size_t c) { return names[c]; }, " | ");
  row([&](size_t c) { return std::string(widths[c], '-'); }, "-+-");
  for (size_t i = 0; i < rows; ++i)
    row([&](size_t c) { return i < columns[c].size() ? columns[c][i] : std::string(); }, " | ");
}

} // namespace

int diffCommand(const DiffFlags &f) {
  bool html = !f.html.empty();
  std::vector<std::string> names;
  for (pipeline::Frontend fe : f.frontends) names.emplace_back(pipeline::name(fe));
  std::map<std::string, std::map<support::Stage, std::string>> stages;  // front end -> stage -> text
  std::map<std::string, pipeline::Result> results;
  pipeline::CompileRequest o = f.options;
  // The page shows every stage; the verdict needs only the cleaned IR.
  o.last = html ? support::Stage::SassInfo : support::Stage::TileOpt;
  // A front-end limit that ends the process while `stopped` compiles (the
  // front ends before it done): the report says it, as it says a failure below.
  auto limitReport = [&](size_t stopped, std::vector<std::string> also) {
    return [&, stopped, also](const std::string &error) {
      nlohmann::ordered_json errors;
      for (size_t done = 0; done < stopped; ++done)
        if (auto r = results.find(names[done]); r != results.end() && !r->second.ok())
          errors[names[done]] = r->second.error;
      errors[names[stopped]] = error;
      for (const std::string &fe : also) errors[fe] = error;
      std::string which;  // every front end that failed so far, this one last
      for (auto it = errors.begin(); it != errors.end(); ++it)
        which += (which.empty() ? "" : std::next(it) == errors.end() ? " and " : ", ") + it.key();
      nlohmann::ordered_json j{{"command", "diff"}, {"file", f.file}, {"kernel", f.kernel}, {"equal", false},
                               {"verdict", "not compared: " + which + " failed"}};
      if (html) j["html"] = f.html;  // (not written)
      j["errors"] = errors;
      return jsonText(j);
    };
  };
  auto observer = [&](const std::string &frontend) {
    pipeline::Observer observer;
    observer.wants = [&](support::Stage) { return html; };
    observer.take = [&, frontend](support::Stage s, const std::string &text) { stages[frontend][s] = text; };
    return observer;
  };
  // Parse and trace: one Clang parse for both, where it can (pipeline::compileBoth).
  if (names == std::vector<std::string>{"parse", "trace"}) {
    if (f.json) o.reportOnLimit = limitReport(0, {"trace"});  // Clang's one parse: both stop
    pipeline::BothResults both = pipeline::compileBoth(f.file, f.kernel, o, observer("parse"), observer("trace"));
    results.emplace("parse", std::move(both.parse));
    results.emplace("trace", std::move(both.trace));
  } else {
    for (size_t k = 0; k < names.size(); ++k) {
      pipeline::CompileRequest each = o;
      each.frontend = f.frontends[k];
      if (f.json) each.reportOnLimit = limitReport(k, {});
      results.emplace(names[k], pipeline::compileSource(f.file, f.kernel, each, observer(names[k])));
    }
  }
  // Each front end against the first that compiled (its IR, and no error:
  // a pass's internal error can leave IR); equal only where all did and agree.
  std::vector<std::string> compiled, failed, differences;
  for (const std::string &fe : names) (results.at(fe).ok() && results.at(fe).func ? compiled : failed).push_back(fe);
  // Without --html or --json a failure that leaves nothing to compare ends
  // the command, every error said (the first's status; an internal error's
  // if any); the page still shows what each front end got through, and the
  // report the errors.
  if (compiled.size() < 2 && !html && !f.json) {
    const pipeline::Result *status = nullptr;
    for (const std::string &fe : failed) {
      const pipeline::Result &r = results.at(fe);
      std::cerr << r.error;
      if (!status || (r.internal() && !status->internal())) status = &r;
    }
    return failureStatus(*status);
  }
  for (size_t k = 1; k < compiled.size(); ++k)
    if (std::optional<std::string> d = ir::firstDifference(*results.at(compiled[0]).func, *results.at(compiled[k]).func))
      differences.push_back(names.size() == 2 ? *d : compiled[k] + " against " + compiled[0] + ": " + *d);
  auto listed = [](const std::vector<std::string> &v) {
    std::string out;
    for (size_t k = 0; k < v.size(); ++k) out += (k == 0 ? "" : k + 1 == v.size() ? " and " : ", ") + v[k];
    return out;
  };
  bool compared = compiled.size() >= 2, equal = failed.empty() && differences.empty();
  std::string verdict;
  if (!compared) {
    verdict = "not compared: " + listed(failed) + " failed";
  } else if (differences.empty()) {
    verdict = "equal: the " + listed(compiled) + " IR of " + f.kernel + " are structurally identical";
  } else {
    verdict = "different: ";
    for (size_t k = 0; k < differences.size(); ++k) verdict += (k ? "; " : "") + differences[k];
  }
  if (compared && !failed.empty()) verdict = "not compared: " + listed(failed) + " failed; of the others, " + verdict;
  if (html) {
    DiffPage page;
    page.file = f.file;
    page.kernel = f.kernel;
    page.frontends = names;
    page.verdict = verdict;
    page.equal = equal;
    for (const std::string &fe : names) page.errors[fe] = results.at(fe).error;
    page.stages = stages;
    std::string error;
    if (!writeText(f.html, renderDiffPage(page), error)) return fail(error);
  }
  if (f.json) {
    nlohmann::ordered_json j{{"command", "diff"}, {"file", f.file}, {"kernel", f.kernel}, {"equal", equal},
                             {"verdict", verdict}};
    if (html) j["html"] = f.html;
    for (const std::string &fe : names)
      if (!results.at(fe).ok()) j["errors"][fe] = results.at(fe).error;
    for (const std::string &fe : names)
      if (results.at(fe).internal()) j["internal"] = true;
    std::cout << jsonText(j);
  } else {
    for (const std::string &fe : names)
      if (!results.at(fe).ok()) std::cerr << results.at(fe).error;
    if (f.show && compared) {
      std::vector<std::string> texts;
      for (const std::string &fe : compiled) texts.push_back(ir::toString(*results.at(fe).func, {.locations = false}));
      sideBySide(std::cout, compiled, texts);
    }
    std::cout << verdict << "\n";
    if (html) std::cout << "wrote " << f.html << "\n";
  }
  for (const std::string &fe : names)
    if (results.at(fe).internal()) return kExitInternal;
  return equal ? 0 : 1;
}

} // namespace twintile::driver
