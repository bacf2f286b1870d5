//===- DiffAlign.cpp - front ends' texts aligned line by line, and within -===//
//
// Each column is aligned with the reference (the first with any line) by a
// longest common subsequence over the lines as shown; the pairwise
// alignments are then merged on the reference's lines: before each of them,
// the lines the other columns have that it lacks (the k-th of each column
// in the k-th row), then the line itself beside what each column paired
// with it.
//===----------------------------------------------------------------------===//
#include "tools/driver/DiffAlign.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <regex>

namespace twintile::driver {

DiffLine readDiffLine(const std::string &text, const std::string &fileName) {
  static const std::regex loc(R"re( loc\("([^"]*)":(\d+):\d+[^)]*\))re");
  static const std::regex ptxLoc(R"re(^\s*\.loc\s+\d+\s+(\d+)\s+\d+)re");
  DiffLine l{text, 0};
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

namespace {

/// Column `b` against the first, `a`: for each line of `a`, the line of `b`
/// beside it (or none), and the lines of `b` alone before it (`before[n]`:
/// those after the last line of `a`).
struct Pairing {
  std::vector<const DiffLine *> beside;
  std::vector<std::vector<const DiffLine *>> before;
};

Pairing pair(const std::vector<DiffLine> &a, const std::vector<DiffLine> &b) {
  constexpr size_t kMaxCells = size_t(16) << 20;
  size_t n = a.size(), m = b.size();
  Pairing p{std::vector<const DiffLine *>(n, nullptr), std::vector<std::vector<const DiffLine *>>(n + 1)};
  if (n * m > kMaxCells) {  // too large to align: by position
    for (size_t i = 0; i < std::min(n, m); ++i) p.beside[i] = &b[i];
    for (size_t j = n; j < m; ++j) p.before[n].push_back(&b[j]);
    return p;
  }
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  std::vector<std::vector<uint32_t>> lcs(n + 1, std::vector<uint32_t>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[i].shown == b[j].shown ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  // A gap: lines of a and of b between two matches; paired by position, the
  // rest of b's before the match that ends the gap (in b's order after the
  // paired ones).
  std::vector<size_t> gapA;
  std::vector<const DiffLine *> gapB;
  auto flush = [&](size_t next) {
    size_t k = 0;
    for (; k < std::min(gapA.size(), gapB.size()); ++k) p.beside[gapA[k]] = gapB[k];
    for (; k < gapB.size(); ++k) p.before[next].push_back(gapB[k]);
    gapA.clear();
    gapB.clear();
  };
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i].shown == b[j].shown) {
      flush(i);
      p.beside[i++] = &b[j++];
    } else if (j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) {
      gapA.push_back(i++);
    } else {
      gapB.push_back(&b[j++]);
    }
  }
  flush(n);
  return p;
}

/// The row's kind over the columns that have any line in this text (a
/// front end that failed, or stopped before it, is not a difference).
const char *kindOf(const DiffRow &r, const std::vector<bool> &present) {
  const DiffLine *first = nullptr;
  bool partial = false, same = true;
  for (size_t c = 0; c < r.cells.size(); ++c) {
    if (!present[c]) continue;
    if (!r.cells[c]) {
      partial = true;
      continue;
    }
    first = first ? first : r.cells[c];
    same = same && r.cells[c]->shown == first->shown;
  }
  return partial ? "partial" : same ? "same" : "changed";
}

} // namespace

std::vector<DiffRow> alignColumns(const std::vector<std::vector<DiffLine>> &columns) {
  std::vector<DiffRow> rows;
  if (columns.empty()) return rows;
  // The reference: the first column with any line (a front end that failed
  // before this text has none, and is no place to align against).
  size_t ref = 0;
  while (ref + 1 < columns.size() && columns[ref].empty()) ++ref;
  const std::vector<DiffLine> &first = columns[ref];
  std::vector<Pairing> pairings(columns.size());
  for (size_t c = 0; c < columns.size(); ++c)
    if (c != ref) pairings[c] = pair(first, columns[c]);
  std::vector<bool> present;
  for (const std::vector<DiffLine> &column : columns) present.push_back(!column.empty());
  auto add = [&](DiffRow r) {
    r.reference = ref;
    r.kind = kindOf(r, present);
    rows.push_back(std::move(r));
  };
  for (size_t i = 0; i <= first.size(); ++i) {
    size_t alone = 0;  // the lines the other columns have before this one of the reference
    for (size_t c = 0; c < columns.size(); ++c)
      if (c != ref) alone = std::max(alone, pairings[c].before[i].size());
    for (size_t k = 0; k < alone; ++k) {
      DiffRow r;
      for (size_t c = 0; c < columns.size(); ++c) {
        const auto &before = pairings[c].before;
        r.cells.push_back(c != ref && k < before[i].size() ? before[i][k] : nullptr);
      }
      add(std::move(r));
    }
    if (i == first.size()) break;
    DiffRow r;
    for (size_t c = 0; c < columns.size(); ++c) r.cells.push_back(c == ref ? &first[i] : pairings[c].beside[i]);
    add(std::move(r));
  }
  return rows;
}

Span differingPart(const std::string &line, const std::string &other) {
  if (line == other) return {};
  size_t prefix = 0, limit = std::min(line.size(), other.size());
  while (prefix < limit && line[prefix] == other[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < limit - prefix && line[line.size() - 1 - suffix] == other[other.size() - 1 - suffix]) ++suffix;
  // Whole UTF-8 characters: neither end inside one (a continuation byte is 10xxxxxx).
  auto continuation = [&](size_t at) { return at < line.size() && (static_cast<unsigned char>(line[at]) & 0xC0) == 0x80; };
  while (prefix > 0 && continuation(prefix)) --prefix;
  size_t end = line.size() - suffix;
  while (continuation(end)) ++end;
  return {prefix, end};
}

} // namespace twintile::driver
