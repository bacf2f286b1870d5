//===- SourceEdits.cpp - text edits to a source file, and the way back ---===//
#include "frontends/hybrid/SourceEdits.h"

#include <algorithm>

namespace twintile::hybrid {

namespace {

std::vector<size_t> lineStarts(const std::string &text) {
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts.push_back(i + 1);
  return starts;
}

/// 1-based (line, column) of `offset` in text whose lines begin at `starts`.
std::pair<int, int> lineColumn(const std::vector<size_t> &starts, size_t offset) {
  auto it = std::upper_bound(starts.begin(), starts.end(), offset);
  size_t line = static_cast<size_t>(it - starts.begin());  // >= 1: starts[0] == 0
  return {static_cast<int>(line), static_cast<int>(offset - starts[line - 1] + 1)};
}

} // namespace

PositionMap::PositionMap(const std::string &original, const std::vector<size_t> &origins, const std::string &rewritten)
    : lineStarts_(lineStarts(rewritten)), origins_(origins), originalLineStarts_(lineStarts(original)) {}

std::pair<int, int> PositionMap::original(int line, int column) const {
  if (line < 1 || column < 1 || static_cast<size_t>(line) > lineStarts_.size()) return {line, column};
  size_t at = lineStarts_[static_cast<size_t>(line) - 1] + static_cast<size_t>(column) - 1;
  if (at >= origins_.size()) return {line, column};
  return lineColumn(originalLineStarts_, origins_[at]);
}

Rewritten applyEdits(const std::string &original, std::vector<Edit> edits, std::string &error) {
  // Sorted by place; at one place as Edit says, else in the order given.
  std::vector<size_t> order(edits.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t i, size_t j) {
    const Edit &a = edits[i], &b = edits[j];
    if (a.begin != b.begin) return a.begin < b.begin;
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.depth != b.depth)
      return a.kind == Edit::Kind::Close ? a.depth > b.depth  // the innermost statement closes first
                                         : a.depth < b.depth; // the outermost opens first
    return i < j;
  });
  std::string out;
  std::vector<size_t> origins;
  size_t at = 0;  // the original's next offset to copy
  auto emit = [&](const std::string &text, size_t origin) {
    out += text;
    origins.insert(origins.end(), text.size(), origin);
  };
  auto copyTo = [&](size_t end) {  // the original's own text, each character from itself
    out.append(original, at, end - at);
    for (; at < end; ++at) origins.push_back(at);
  };
  for (size_t i : order) {
    const Edit &e = edits[i];
    if (e.begin < at || e.end < e.begin || e.end > original.size()) {
      error = "rewrite: an edit at offset " + std::to_string(e.begin) + " falls inside text already replaced";
      return {};
    }
    copyTo(e.begin);
    emit(e.text, e.begin);
    at = e.end;
  }
  copyTo(original.size());
  PositionMap map(original, origins, out);
  return {std::move(out), std::move(map)};
}

} // namespace twintile::hybrid
