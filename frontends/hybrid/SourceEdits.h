//===- SourceEdits.h - text edits to a source file, and the way back -----===//
//
// The hybrid front end rewrites a kernel file by inserting and replacing
// text at offsets of the original. Applying the edits gives the rewritten
// text and a PositionMap: for every line and column of the rewritten text,
// the line and column of the original it came from (an inserted character
// maps to the place of its insertion), so that whatever the tracer records
// or reports against the rewritten file is said at the user's own line.
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace twintile::hybrid {

/// One edit at an offset of the original text. At one offset, closing text
/// (the end of a statement that ends there) comes first, innermost first;
/// then opening text (a statement that begins there), outermost first; then
/// a replacement of the original text from the offset.
struct Edit {
  enum class Kind { Close, Open, Replace };
  Kind kind = Kind::Open;
  size_t begin = 0, end = 0;  // Replace: [begin, end) of the original; else end == begin
  std::string text;
  int depth = 0;  // the rewritten statement's nesting: orders Close and Open at one offset
};

/// The rewritten text's positions, back in the original.
class PositionMap {
public:
  PositionMap() = default;
  PositionMap(const std::string &original, const std::vector<size_t> &origins, const std::string &rewritten);
  /// The original's (line, column) of the rewritten text's (line, column),
  /// all 1-based; a position past what is known is returned as it is.
  std::pair<int, int> original(int line, int column) const;

private:
  std::vector<size_t> lineStarts_;          // of the rewritten text
  std::vector<size_t> origins_;             // an original offset per rewritten character
  std::vector<size_t> originalLineStarts_;  // of the original text
};

struct Rewritten {
  std::string text;
  PositionMap map;
};

/// `original` with `edits` applied. Replacements must not overlap each
/// other; an edit inside a replaced range is a bug of the caller's (the
/// returned error, for an internal error).
Rewritten applyEdits(const std::string &original, std::vector<Edit> edits, std::string &error);

} // namespace twintile::hybrid
