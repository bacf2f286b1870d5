//===- DiffAlign.h - front ends' texts aligned line by line, and within ---===//
//
// The diff page's model, apart from its HTML: N texts (one per front end)
// aligned against the first, row by row, and for a line that differs from
// the first column's, the part of it that differs.
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace twintile::driver {

/// A line as it is compared and shown: without loc(...), which differs in
/// columns between front ends, and the source line it names, if any.
struct DiffLine {
  std::string shown;
  int sourceLine = 0;
};

/// `text` as a DiffLine; `fileName` is the kernel file's name, whose lines
/// loc(...) and PTX .loc may name.
DiffLine readDiffLine(const std::string &text, const std::string &fileName);

/// One aligned row: a cell per column, null where that column has no line.
struct DiffRow {
  std::vector<const DiffLine *> cells;
  /// Over the columns with any line in this text: same, every one has the
  /// same line; changed, every one has a line, some another; partial, some
  /// has none.
  const char *kind = "same";
  size_t reference = 0;  // the column the others were aligned against
};

/// The columns aligned against the first with any line (the reference):
/// each other column by a longest common subsequence with it (past
/// kMaxCells, by position), the lines that fill the same gap before a line
/// of the reference sharing rows.
/// The rows point into `columns`, which must outlive them.
std::vector<DiffRow> alignColumns(const std::vector<std::vector<DiffLine>> &columns);

/// Where `line` and `other` differ: [begin, end) of `line` between their
/// common prefix and common suffix (empty where they are equal, or where
/// `other` only has more there), whole UTF-8 characters.
struct Span {
  size_t begin = 0, end = 0;
};
Span differingPart(const std::string &line, const std::string &other);

} // namespace twintile::driver
