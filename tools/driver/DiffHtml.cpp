//===- DiffHtml.cpp - the front ends' stages as one HTML page -------------===//
//
// A column per front end, aligned against the first that reached the stage
// (DiffAlign.h); a row is "same", "changed" (every column has a line, some
// another) or "partial" (some column has none), and each cell "same",
// "changed" (the part that differs from the reference column's line
// marked), "only" or "absent". The page counts the rows that are not "same"
// per stage in a data-differences attribute, which the Chromium test reads
// back.
//===----------------------------------------------------------------------===//
#include "tools/driver/DiffHtml.h"
#include "tools/driver/DiffAlign.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace twintile::driver {

namespace {

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  return out;
}

std::vector<std::string> lines(const std::string &s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

/// One cell: its source link and its line, the part that differs from
/// `other` (the row's line it is compared with) marked.
std::string cell(const DiffLine *l, const DiffLine *other, const std::string &frontend) {
  std::string state = !l ? "absent" : !other ? "only" : l->shown == other->shown ? "same" : "changed";
  std::string out = "<td class=\"col-" + escape(frontend) + " " + state + "\">";
  if (!l) return out + "</td>";
  if (l->sourceLine > 0)
    out += "<a class=\"src\" href=\"#L" + std::to_string(l->sourceLine) + "\" data-line=\"" +
           std::to_string(l->sourceLine) + "\">" + std::to_string(l->sourceLine) + "</a>";
  Span d = state == "changed" ? differingPart(l->shown, other->shown) : Span{};
  std::string_view text = l->shown;
  out += "<code>" + escape(text.substr(0, d.begin));
  if (state == "changed")  // where it differs; an empty mark where the other line has more here
    out += d.end > d.begin ? "<mark>" + escape(text.substr(d.begin, d.end - d.begin)) + "</mark>"
                           : std::string("<mark class=\"gap\"></mark>");
  return out + escape(text.substr(std::max(d.begin, d.end))) + "</code></td>";
}

/// What a row's cell in column `c` is compared with: the reference
/// column's line, or, for the reference, the first other line that
/// differs from it (else any).
const DiffLine *comparedWith(const DiffRow &r, size_t c) {
  if (c != r.reference) return r.cells[r.reference];
  const DiffLine *any = nullptr;
  for (size_t k = 0; k < r.cells.size(); ++k) {
    if (k == c || !r.cells[k]) continue;
    if (r.cells[c] && r.cells[k]->shown != r.cells[c]->shown) return r.cells[k];
    any = any ? any : r.cells[k];
  }
  return any;
}

constexpr const char *kStyle = R"css(
body { font: 14px system-ui, sans-serif; margin: 0; color: #1d1d1f; }
header { padding: 12px 20px; border-bottom: 1px solid #ccc; position: sticky; top: 0; background: #fff; z-index: 2; }
h1 { font-size: 18px; margin: 0 0 6px; }
.verdict { font-weight: 600; padding: 6px 10px; border-radius: 4px; display: inline-block; margin: 0; }
.verdict.equal { background: #e3f6e5; color: #135b1c; }
.verdict.different { background: #fde8e8; color: #8a1111; }
nav a { margin-right: 10px; }
main { display: flex; align-items: flex-start; }
aside { width: 38%; position: sticky; top: 90px; max-height: calc(100vh - 100px); overflow: auto; border-right: 1px solid #ccc; }
#stages { width: 62%; overflow-x: auto; }
pre, code { font: 12px ui-monospace, monospace; white-space: pre; }
aside pre { margin: 0; padding: 8px; }
aside .ln { display: block; }
aside .ln.hot { background: #fff3b0; }
aside .ln::before { content: attr(data-n); display: inline-block; width: 3em; color: #888; }
section { padding: 8px 12px; border-bottom: 1px solid #eee; }
h2 { font-size: 15px; margin: 6px 0; }
h2 small { font-weight: normal; color: #666; }
.count { font-size: 12px; color: #8a1111; margin-left: 8px; }
table.diff { border-collapse: collapse; width: 100%; table-layout: fixed; }
table.diff th { text-align: left; background: #f4f4f6; padding: 2px 6px; }
table.diff td { vertical-align: top; padding: 0 6px; overflow-x: auto; border-left: 1px solid #eee; }
td.changed { background: #fff4d6; }
td.only { background: #fde2e2; }
td.absent { background: #f6f6f8; }
mark { background: #ffd166; color: inherit; border-radius: 2px; }
mark.gap { border-left: 2px solid #e09f00; margin: 0 1px; }
tr.changed code, tr.partial code { white-space: pre-wrap; overflow-wrap: anywhere; }
a.src { color: #3556b8; text-decoration: none; font-size: 11px; margin-right: 6px; }
.error { color: #8a1111; white-space: pre-wrap; }
)css";

constexpr const char *kScript = R"js(
for (const a of document.querySelectorAll('a.src')) {
  const target = () => document.getElementById('L' + a.dataset.line);
  a.addEventListener('mouseenter', () => { const t = target(); if (t) t.classList.add('hot'); });
  a.addEventListener('mouseleave', () => { const t = target(); if (t) t.classList.remove('hot'); });
}
document.body.dataset.ready = 'yes';
)js";

} // namespace

std::string renderDiffPage(const DiffPage &page) {
  std::string fileName = std::filesystem::path(page.file).filename().string();
  // The stages the page shows: the rewritten file is the hybrid front end's alone.
  bool hybrid = std::find(page.frontends.begin(), page.frontends.end(), "hybrid") != page.frontends.end();
  std::vector<support::Stage> stages;
  for (support::Stage s : support::allStages())
    if (s != support::Stage::Rewritten || hybrid) stages.push_back(s);
  std::ostringstream os;
  os << "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>twintile diff: "
     << escape(page.kernel) << "</title>\n<style>" << kStyle << "</style></head>\n<body>\n<header>\n"
     << "<h1>twintile diff <code>" << escape(page.kernel) << "</code> in <code>" << escape(fileName)
     << "</code></h1>\n<p id=\"verdict\" class=\"verdict " << (page.equal ? "equal" : "different") << "\">"
     << escape(page.verdict) << "</p>\n<nav>";
  for (support::Stage s : stages)
    os << "<a href=\"#stage-" << support::name(s) << "\">" << support::name(s) << "</a>";
  os << "</nav>\n";
  for (const auto &[fe, error] : page.errors)
    if (!error.empty()) os << "<pre class=\"error\">" << escape(fe) << ": " << escape(error) << "</pre>\n";
  os << "</header>\n<main>\n<aside><h2>source</h2><pre>";
  std::ifstream in(page.file);
  int n = 0;
  for (std::string l; std::getline(in, l);) {
    ++n;
    os << "<span class=\"ln\" id=\"L" << n << "\" data-n=\"" << n << "\">" << escape(l) << "</span>";
  }
  os << "</pre></aside>\n<div id=\"stages\">\n";
  auto textOf = [&](const std::string &fe, support::Stage s) -> std::string {
    auto f = page.stages.find(fe);
    if (f == page.stages.end()) return {};
    auto t = f->second.find(s);
    return t == f->second.end() ? std::string() : t->second;
  };
  for (support::Stage s : stages) {
    std::vector<std::vector<DiffLine>> columns;
    for (const std::string &fe : page.frontends) {
      columns.emplace_back();
      for (const std::string &l : lines(textOf(fe, s))) columns.back().push_back(readDiffLine(l, fileName));
    }
    std::vector<DiffRow> rows = alignColumns(columns);
    size_t marks = std::count_if(rows.begin(), rows.end(), [](const DiffRow &r) { return std::string(r.kind) != "same"; });
    bool empty = std::all_of(columns.begin(), columns.end(), [](const auto &c) { return c.empty(); });
    os << "<section class=\"stage\" id=\"stage-" << support::name(s) << "\" data-differences=\"" << marks
       << "\">\n<h2>" << support::name(s) << " <small>" << escape(support::describe(s)) << "</small>";
    if (empty) os << "<span class=\"count\">not reached</span>";
    else if (marks) os << "<span class=\"count\">" << marks << " lines differ</span>";
    os << "</h2>\n<table class=\"diff\"><thead><tr>";
    for (size_t c = 0; c < page.frontends.size(); ++c)
      os << "<th class=\"col-" << escape(page.frontends[c]) << "\">" << escape(page.frontends[c])
         << (columns[c].empty() && !empty ? " <small>(nothing at this stage)</small>" : "") << "</th>";
    os << "</tr></thead><tbody>\n";
    for (const DiffRow &r : rows) {
      os << "<tr class=\"" << r.kind << "\">";
      for (size_t c = 0; c < r.cells.size(); ++c) os << cell(r.cells[c], comparedWith(r, c), page.frontends[c]);
      os << "</tr>\n";
    }
    os << "</tbody></table>\n</section>\n";
  }
  os << "</div>\n</main>\n<script>" << kScript << "</script>\n</body></html>\n";
  return os.str();
}

} // namespace twintile::driver
