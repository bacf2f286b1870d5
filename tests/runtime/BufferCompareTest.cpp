// compareBuffer (runtime/BufferCompare.h): floats within their tolerance
// match, NaN matches NaN, and an infinity only the same infinity, whatever
// the tolerance; integers must be equal.
#include "runtime/BufferCompare.h"
#include "runtime/PtxFloat.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace twintile::runtime;
using twintile::runtime::ptx::toBF16;
using twintile::runtime::ptx::toF16;

namespace {

template <class T>
std::vector<uint8_t> bytes(const std::vector<T> &v) {
  std::vector<uint8_t> out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

/// Mismatches of `got` against `want`, one element each, from an input of 0.
template <class T>
size_t mismatches(const char *elem, T want, T got, bool fast = false) {
  std::vector<uint8_t> initial = bytes(std::vector<T>{T{}}), w = bytes(std::vector<T>{want}), g = bytes(std::vector<T>{got});
  return compareBuffer("out", elem, initial, w, g, fast).mismatches;
}

constexpr float kInf = std::numeric_limits<float>::infinity();

} // namespace

TEST_CASE("f32 within tolerance, NaN with NaN", "[compare]") {
  CHECK(mismatches<float>("f32", 1.0f, 1.00005f) == 0);
  CHECK(mismatches<float>("f32", 1.0f, 1.001f) == 1);
  CHECK(mismatches<float>("f32", 1.0f, 1.001f, /*fast=*/true) == 0);
  CHECK(mismatches<float>("f32", std::nanf(""), std::nanf("")) == 0);
  CHECK(mismatches<float>("f32", std::nanf(""), 0.0f) == 1);
}

TEST_CASE("f64 within a few ulp of any magnitude", "[compare]") {
  CHECK(mismatches<double>("f64", 8.42732e37, std::nextafter(std::nextafter(8.42732e37, 1e308), 1e308)) == 0);
  CHECK(mismatches<double>("f64", 8.42732e37, 8.42732e37 * (1 + 1e-9)) == 1);
  CHECK(mismatches<double>("f64", 1.0, 1.0 + 1e-6) == 0);  // the absolute 1e-5 every float type has
}

TEST_CASE("an infinity matches only the same infinity", "[compare]") {
  CHECK(mismatches<float>("f32", kInf, kInf) == 0);
  CHECK(mismatches<float>("f32", -kInf, -kInf) == 0);
  CHECK(mismatches<float>("f32", kInf, -kInf) == 1);
  CHECK(mismatches<float>("f32", -kInf, kInf, /*fast=*/true) == 1);
  CHECK(mismatches<float>("f32", kInf, 3e38f) == 1);
  CHECK(mismatches<float>("f32", 3e38f, kInf) == 1);
  CHECK(mismatches<double>("f64", -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()) == 1);
  uint16_t inf16 = toF16(kInf), ninf16 = toF16(-kInf), max16 = toF16(65504.0f);
  CHECK(mismatches<uint16_t>("f16", inf16, inf16) == 0);
  CHECK(mismatches<uint16_t>("f16", inf16, ninf16) == 1);
  CHECK(mismatches<uint16_t>("f16", inf16, max16) == 1);
  uint16_t infb = toBF16(kInf), ninfb = toBF16(-kInf);
  CHECK(mismatches<uint16_t>("bf16", ninfb, infb) == 1);
}

TEST_CASE("integers must be equal", "[compare]") {
  CHECK(mismatches<int32_t>("i32", 7, 7) == 0);
  CHECK(mismatches<int32_t>("i32", 7, 8) == 1);
  CHECK(mismatches<int64_t>("i64", int64_t{1} << 60, (int64_t{1} << 60) + 1) == 1);
}

TEST_CASE("unsigned integers compare and show exactly", "[compare]") {
  CHECK(mismatches<uint32_t>("u32", 4294967295u, 4294967295u) == 0);
  CHECK(mismatches<uint32_t>("u32", 4294967295u, 4294967294u) == 1);
  CHECK(mismatches<uint64_t>("u64", ~uint64_t{0}, ~uint64_t{0} - 1) == 1);  // one ulp of a double apart: bits differ
  std::vector<uint8_t> initial = bytes(std::vector<uint32_t>{0}), want = bytes(std::vector<uint32_t>{4294967295u}),
                       got = bytes(std::vector<uint32_t>{4294967294u});
  BufferCheck c = compareBuffer("out", "u32", initial, want, got, false);
  REQUIRE(c.examples.size() == 1);
  CHECK(c.examples[0] == "out[0]: device 4294967294, reference 4294967295");
  std::vector<uint8_t> w8 = bytes(std::vector<int8_t>{-3}), g8 = bytes(std::vector<int8_t>{-4}), i8 = bytes(std::vector<int8_t>{0});
  CHECK(compareBuffer("out", "i8", i8, w8, g8, false).examples.at(0) == "out[0]: device -4, reference -3");
}
