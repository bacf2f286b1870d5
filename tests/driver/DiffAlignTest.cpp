// The diff page's alignment (tools/driver/DiffAlign.h): every column's lines
// come back once each, in order; rows are marked by what differs; the part
// of a line that differs is whole characters between the common ends.
#include "tools/driver/DiffAlign.h"

#include <catch2/catch.hpp>

#include <random>

using namespace twintile::driver;

namespace {

std::vector<DiffLine> column(const std::vector<std::string> &texts) {
  std::vector<DiffLine> out;
  for (const std::string &t : texts) out.push_back({t, 0});
  return out;
}

/// Column `c` read back from the rows.
std::vector<std::string> readBack(const std::vector<DiffRow> &rows, size_t c) {
  std::vector<std::string> out;
  for (const DiffRow &r : rows)
    if (r.cells[c]) out.push_back(r.cells[c]->shown);
  return out;
}

} // namespace

TEST_CASE("every column's lines come back once each and in order", "[driver][diff]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::vector<std::string>> texts(1 + rng() % 3);
    for (auto &t : texts)
      for (size_t n = rng() % 9; n-- > 0;) t.push_back(std::string(1, static_cast<char>('a' + rng() % 4)));
    std::vector<std::vector<DiffLine>> columns;
    for (const auto &t : texts) columns.push_back(column(t));
    std::vector<DiffRow> rows = alignColumns(columns);
    for (size_t c = 0; c < texts.size(); ++c) CHECK(readBack(rows, c) == texts[c]);
    for (const DiffRow &r : rows) CHECK(r.cells.size() == texts.size());
  }
}

TEST_CASE("rows are marked same, changed or partial against the columns that have lines", "[driver][diff]") {
  std::vector<std::vector<DiffLine>> columns{column({"a", "b", "c"}), column({"a", "x", "c"}), column({"a", "c"})};
  std::vector<DiffRow> rows = alignColumns(columns);
  REQUIRE(rows.size() == 3);
  CHECK(std::string(rows[0].kind) == "same");
  CHECK(std::string(rows[1].kind) == "partial");  // b beside x, nothing in the third
  CHECK(rows[1].cells[1]->shown == "x");
  CHECK(std::string(rows[2].kind) == "same");
  // A column with no line at all (a front end that failed) is no difference.
  std::vector<std::vector<DiffLine>> failed{column({"a", "b"}), column({}), column({"a", "c"})};
  std::vector<DiffRow> two = alignColumns(failed);  // (the rows point into the columns: they must outlive them)
  REQUIRE(two.size() == 2);
  CHECK(std::string(two[0].kind) == "same");
  CHECK(std::string(two[1].kind) == "changed");
}

TEST_CASE("a first column without lines is not what the others are aligned against", "[driver][diff]") {
  // The parse front end refused the kernel: trace's and hybrid's lines align with each other.
  std::vector<std::vector<DiffLine>> columns{column({}), column({"a", "b", "c"}), column({"a", "x", "b", "c"})};
  std::vector<DiffRow> rows = alignColumns(columns);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].reference == 1);
  CHECK(std::string(rows[0].kind) == "same");
  CHECK(std::string(rows[1].kind) == "partial");  // x, which trace lacks
  CHECK(rows[1].cells[2]->shown == "x");
  CHECK(std::string(rows[2].kind) == "same");
  CHECK(std::string(rows[3].kind) == "same");
  CHECK(!rows[3].cells[0]);
}

TEST_CASE("the part of a line that differs lies between the common ends", "[driver][diff]") {
  auto part = [](const std::string &a, const std::string &b) {
    Span s = differingPart(a, b);
    REQUIRE(s.begin <= s.end);
    REQUIRE(s.end <= a.size());
    return a.substr(s.begin, s.end - s.begin);
  };
  CHECK(part("func @k() meta {N = 64}", "func @k() meta {N = 128}") == "64");
  CHECK(part("func @k() meta {N = 128}", "func @k() meta {N = 64}") == "128");
  CHECK(part("same", "same").empty());
  CHECK(part("abc", "abcd").empty());  // the other only has more: nothing here to mark
  CHECK(part("abcd", "abc") == "d");
  CHECK(part("", "x").empty());
  CHECK(part("aaa", "aa") == "a");
  CHECK(part("x = α", "x = β") == "α");  // two bytes each, with the same first byte: the whole character
}
