//===- DiffHtml.cpp - the two front ends' stages as one HTML page ----------===//
//
// Lines are aligned by a longest common subsequence over their comparison
// keys (the line without its loc(...) and trailing blanks); a pair of lines
// that fills the same gap on both sides is "changed", a line on one side
// alone is "only-parse" or "only-trace". The page counts the marks per stage
// in a data-differences attribute, which the Chromium test reads back.
//===----------------------------------------------------------------------===//
#include "tools/driver/DiffHtml.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
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

/// A line as it is compared and shown: without loc(...), which differs in
/// columns between front ends, and the source line it names, if any.
struct Line {
  std::string shown;
  int sourceLine = 0;
};

Line readLine(const std::string &text, const std::string &fileName) {
  static const std::regex loc(R"re( loc\("([^"]*)":(\d+):\d+[^)]*\))re");
  static const std::regex ptxLoc(R"re(^\s*\.loc\s+\d+\s+(\d+)\s+\d+)re");
  Line l{text, 0};
  std::smatch m;
  if (std::regex_search(text, m, loc)) {
    if (std::filesystem::path(m[1].str()).filename() == fileName) l.sourceLine = std::stoi(m[2].str());
    l.shown = m.prefix().str() + m.suffix().str();
  } else if (std::regex_search(text, m, ptxLoc)) {
    l.sourceLine = std::stoi(m[1].str());
  }
  while (!l.shown.empty() && (l.shown.back() == ' ' || l.shown.back() == '\r')) l.shown.pop_back();
  return l;
}

struct Row {
  const Line *left = nullptr, *right = nullptr;
  const char *kind = "same";  // same, changed, only-parse, only-trace
};

/// The two sides aligned. Beyond kMaxCells of table the sides are paired
/// by position (each unequal pair marked changed).
std::vector<Row> align(const std::vector<Line> &a, const std::vector<Line> &b) {
  constexpr size_t kMaxCells = size_t(16) << 20;
  std::vector<Row> rows;
  size_t n = a.size(), m = b.size();
  if (n * m > kMaxCells) {
    for (size_t i = 0; i < std::max(n, m); ++i) {
      Row r{i < n ? &a[i] : nullptr, i < m ? &b[i] : nullptr};
      r.kind = !r.left ? "only-trace" : !r.right ? "only-parse" : r.left->shown == r.right->shown ? "same" : "changed";
      rows.push_back(r);
    }
    return rows;
  }
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  std::vector<std::vector<uint32_t>> lcs(n + 1, std::vector<uint32_t>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[i].shown == b[j].shown ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<const Line *> gapA, gapB;
  auto flush = [&] {
    size_t k = 0;
    for (; k < std::min(gapA.size(), gapB.size()); ++k) rows.push_back({gapA[k], gapB[k], "changed"});
    for (size_t i = k; i < gapA.size(); ++i) rows.push_back({gapA[i], nullptr, "only-parse"});
    for (size_t j = k; j < gapB.size(); ++j) rows.push_back({nullptr, gapB[j], "only-trace"});
    gapA.clear();
    gapB.clear();
  };
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i].shown == b[j].shown) {
      flush();
      rows.push_back({&a[i++], &b[j++], "same"});
    } else if (j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) {
      gapA.push_back(&a[i++]);
    } else {
      gapB.push_back(&b[j++]);
    }
  }
  flush();
  return rows;
}

std::string cell(const Line *l, const char *side) {
  std::string out = std::string("<td class=\"col-") + side + "\">";
  if (l) {
    if (l->sourceLine > 0)
      out += "<a class=\"src\" href=\"#L" + std::to_string(l->sourceLine) + "\" data-line=\"" +
             std::to_string(l->sourceLine) + "\">" + std::to_string(l->sourceLine) + "</a>";
    out += "<code>" + escape(l->shown) + "</code>";
  }
  return out + "</td>";
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
tr.changed td { background: #fff4d6; }
tr.only-parse td.col-parse, tr.only-trace td.col-trace { background: #fde2e2; }
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
  std::vector<support::Stage> stages;
  for (support::Stage s : support::allStages())
    if (s != support::Stage::Rewritten || page.left == "hybrid" || page.right == "hybrid") stages.push_back(s);
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
    std::vector<Line> a, b;
    for (const std::string &l : lines(textOf(page.left, s))) a.push_back(readLine(l, fileName));
    for (const std::string &l : lines(textOf(page.right, s))) b.push_back(readLine(l, fileName));
    std::vector<Row> rows = align(a, b);
    size_t marks = std::count_if(rows.begin(), rows.end(), [](const Row &r) { return std::string(r.kind) != "same"; });
    os << "<section class=\"stage\" id=\"stage-" << support::name(s) << "\" data-differences=\"" << marks
       << "\">\n<h2>" << support::name(s) << " <small>" << escape(support::describe(s)) << "</small>";
    if (a.empty() && b.empty()) os << "<span class=\"count\">not reached</span>";
    else if (marks) os << "<span class=\"count\">" << marks << " lines differ</span>";
    os << "</h2>\n<table class=\"diff\"><thead><tr><th class=\"col-parse\">" << escape(page.left) << "</th>"
       << "<th class=\"col-trace\">" << escape(page.right) << "</th></tr></thead><tbody>\n";
    for (const Row &r : rows)
      os << "<tr class=\"" << r.kind << "\">" << cell(r.left, "parse") << cell(r.right, "trace") << "</tr>\n";
    os << "</tbody></table>\n</section>\n";
  }
  os << "</div>\n</main>\n<script>" << kScript << "</script>\n</body></html>\n";
  return os.str();
}

} // namespace twintile::driver
