// Tests of IEEE half and bfloat16 rounding (ir/Float16.h): exact bit patterns
// for known values, ties to even, subnormals, overflow, round trips of every
// bit pattern, and a brute-force nearest-value reference.
#include "ir/Float16.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace twintile::ir;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool isNanF16(uint16_t bits) { return (bits & 0x7c00) == 0x7c00 && (bits & 0x03ff) != 0; }
bool isNanBF16(uint16_t bits) { return (bits & 0x7f80) == 0x7f80 && (bits & 0x007f) != 0; }

/// The nearest value among `finite` (ascending, no duplicates except +-0),
/// ties to the one whose bit pattern is even; beyond the largest finite value
/// plus half an ulp, infinity. Written without any bit tricks so it does not
/// share an algorithm with Float16.cpp.
struct NearestTable {
  std::vector<std::pair<double, uint16_t>> values;  // non-negative finite values and their bits
  double overflowAt;                                // max + half the last ulp

  double nearest(double x) const {
    double a = std::fabs(x);
    double r;
    if (a >= overflowAt) {
      r = kInf;
    } else {
      auto it = std::lower_bound(values.begin(), values.end(), a,
                                 [](const std::pair<double, uint16_t> &p, double v) { return p.first < v; });
      if (it == values.end()) {
        r = values.back().first;
      } else if (it->first == a || it == values.begin()) {
        r = it->first;
      } else {
        auto lo = it - 1;
        double dLo = a - lo->first, dHi = it->first - a;
        if (dLo < dHi) r = lo->first;
        else if (dHi < dLo) r = it->first;
        else r = (lo->second % 2 == 0) ? lo->first : it->first;
      }
    }
    return std::signbit(x) ? -r : r;
  }
};

NearestTable makeTable(double (*decode)(uint16_t), uint16_t maxFiniteBits) {
  NearestTable t;
  for (uint32_t b = 0; b <= maxFiniteBits; ++b)
    t.values.push_back({decode(static_cast<uint16_t>(b)), static_cast<uint16_t>(b)});
  double maxV = t.values.back().first, below = t.values[t.values.size() - 2].first;
  t.overflowAt = maxV + (maxV - below) / 2;
  return t;
}

} // namespace

//===-- f16 bit patterns --------------------------------------------------===//

TEST_CASE("f16 encodes exactly representable values to their IEEE bits", "[float16]") {
  CHECK(encodeF16(0.0) == 0x0000);
  CHECK(encodeF16(1.0) == 0x3c00);
  CHECK(encodeF16(-1.0) == 0xbc00);
  CHECK(encodeF16(2.0) == 0x4000);
  CHECK(encodeF16(0.5) == 0x3800);
  CHECK(encodeF16(-2.5) == 0xc100);
  CHECK(encodeF16(65504.0) == 0x7bff);         // largest finite
  CHECK(encodeF16(std::ldexp(1.0, -14)) == 0x0400);  // smallest normal
  CHECK(encodeF16(std::ldexp(1.0, -24)) == 0x0001);  // smallest subnormal
  CHECK(encodeF16(std::ldexp(1023.0, -24)) == 0x03ff);  // largest subnormal
  CHECK(encodeF16(1.0 + std::ldexp(1.0, -10)) == 0x3c01);
}

TEST_CASE("f16 decodes known bit patterns", "[float16]") {
  CHECK(decodeF16(0x3c00) == 1.0);
  CHECK(decodeF16(0xc000) == -2.0);
  CHECK(decodeF16(0x7bff) == 65504.0);
  CHECK(decodeF16(0x0001) == std::ldexp(1.0, -24));
  CHECK(decodeF16(0x0400) == std::ldexp(1.0, -14));
  CHECK(decodeF16(0x3555) == Approx(0.33325195).epsilon(1e-7));
  CHECK(decodeF16(0x7c00) == kInf);
  CHECK(decodeF16(0xfc00) == -kInf);
  CHECK(std::isnan(decodeF16(0x7e00)));
  CHECK(std::isnan(decodeF16(0x7c01)));
  CHECK(std::isnan(decodeF16(0xfe00)));
}

TEST_CASE("f16 negative zero keeps its sign", "[float16]") {
  CHECK(encodeF16(-0.0) == 0x8000);
  double z = decodeF16(0x8000);
  CHECK(z == 0.0);
  CHECK(std::signbit(z));
  CHECK(std::signbit(roundToFloat(-0.0, ScalarKind::F16)));
  // A tiny negative value rounds to negative zero.
  CHECK(encodeF16(-std::ldexp(1.0, -30)) == 0x8000);
}

TEST_CASE("f16 overflow rounds to infinity only past the halfway point", "[float16]") {
  CHECK(encodeF16(65519.0) == 0x7bff);  // below 65504 + 16: rounds down
  CHECK(encodeF16(65520.0) == 0x7c00);  // halfway, the even neighbour is 2^16 = inf
  CHECK(encodeF16(1e6) == 0x7c00);
  CHECK(encodeF16(-1e6) == 0xfc00);
  CHECK(encodeF16(kInf) == 0x7c00);
  CHECK(encodeF16(-kInf) == 0xfc00);
  CHECK(roundToFloat(65520.0, ScalarKind::F16) == kInf);
  CHECK(roundToFloat(-65520.0, ScalarKind::F16) == -kInf);
  CHECK(roundToFloat(65519.99, ScalarKind::F16) == 65504.0);
}

TEST_CASE("f16 rounds ties to even", "[float16]") {
  double ulp = std::ldexp(1.0, -10);
  CHECK(encodeF16(1.0 + ulp / 2) == 0x3c00);          // 1 + 2^-11 -> 1.0 (even)
  CHECK(encodeF16(1.0 + 3 * ulp / 2) == 0x3c02);      // 1 + 3*2^-11 -> 1 + 2^-9 (even)
  CHECK(roundToFloat(1.0 + 3 * ulp / 2, ScalarKind::F16) == 1.0 + std::ldexp(1.0, -9));
  CHECK(encodeF16(1.0 + ulp / 2 + std::ldexp(1.0, -30)) == 0x3c01);  // just above the tie
  CHECK(encodeF16(1.0 + ulp / 2 - std::ldexp(1.0, -30)) == 0x3c00);  // just below
  CHECK(encodeF16(-(1.0 + ulp / 2)) == 0xbc00);
  CHECK(encodeF16(2049.0) == encodeF16(2048.0));  // ulp 2 at 2048: 2049 ties to 2048
  CHECK(encodeF16(2051.0) == encodeF16(2052.0));  // 2051 ties to 2052
}

TEST_CASE("f16 subnormals round in units of 2^-24", "[float16]") {
  double unit = std::ldexp(1.0, -24);
  CHECK(encodeF16(unit / 2) == 0x0000);        // tie between 0 and 1 unit: even is 0
  CHECK(encodeF16(unit * 0.75) == 0x0001);
  CHECK(encodeF16(unit * 1.5) == 0x0002);      // tie between 1 and 2 units: even is 2
  CHECK(encodeF16(unit * 2.5) == 0x0002);      // tie between 2 and 3 units: even is 2
  CHECK(encodeF16(unit * 3.2) == 0x0003);
  CHECK(encodeF16(unit * 1023.5) == 0x0400);   // rounds up into the smallest normal
  CHECK(roundToFloat(unit * 0.49, ScalarKind::F16) == 0.0);
}

TEST_CASE("f16 NaN stays NaN", "[float16]") {
  CHECK(isNanF16(encodeF16(kNaN)));
  CHECK(isNanF16(encodeF16(-kNaN)));
  CHECK(std::isnan(roundToFloat(kNaN, ScalarKind::F16)));
}

//===-- bf16 bit patterns -------------------------------------------------===//

TEST_CASE("bf16 encodes and decodes known values", "[float16]") {
  CHECK(encodeBF16(1.0) == 0x3f80);
  CHECK(encodeBF16(-1.0) == 0xbf80);
  CHECK(encodeBF16(2.0) == 0x4000);
  CHECK(encodeBF16(0.0) == 0x0000);
  CHECK(encodeBF16(-0.0) == 0x8000);
  CHECK(encodeBF16(3.0) == 0x4040);
  CHECK(decodeBF16(0x3f80) == 1.0);
  CHECK(decodeBF16(0x4049) == 3.140625);
  CHECK(decodeBF16(0x7f7f) == std::ldexp(255.0, 120));  // largest finite: (2 - 2^-7) * 2^127
  CHECK(decodeBF16(0x0001) == std::ldexp(1.0, -133));   // smallest subnormal
  CHECK(decodeBF16(0x7f80) == kInf);
  CHECK(decodeBF16(0xff80) == -kInf);
  CHECK(std::isnan(decodeBF16(0x7fc0)));
}

TEST_CASE("bf16 rounds ties to even", "[float16]") {
  double ulp = std::ldexp(1.0, -7);
  CHECK(encodeBF16(1.0 + ulp / 2) == 0x3f80);      // 1 + 2^-8 -> 1.0
  CHECK(encodeBF16(1.0 + 3 * ulp / 2) == 0x3f82);  // 1 + 3*2^-8 -> 1 + 2^-6
  CHECK(encodeBF16(1.0 + ulp / 2 + std::ldexp(1.0, -20)) == 0x3f81);
  CHECK(roundToFloat(1.0 + ulp / 2, ScalarKind::BF16) == 1.0);
}

TEST_CASE("bf16 overflow gives infinity and NaN stays NaN", "[float16]") {
  double maxBf = std::ldexp(255.0, 120);
  CHECK(encodeBF16(maxBf) == 0x7f7f);
  CHECK(encodeBF16(std::ldexp(511.0, 119)) == 0x7f80);  // max + half ulp ties to 2^128 = inf
  CHECK(encodeBF16(1e300) == 0x7f80);
  CHECK(encodeBF16(-1e300) == 0xff80);
  CHECK(isNanBF16(encodeBF16(kNaN)));
  CHECK(std::isnan(roundToFloat(kNaN, ScalarKind::BF16)));
}

//===-- Round trips of every pattern --------------------------------------===//

TEST_CASE("every f16 bit pattern round-trips through decode and encode", "[float16]") {
  int mismatches = 0, nans = 0;
  for (uint32_t b = 0; b < 65536; ++b) {
    uint16_t bits = static_cast<uint16_t>(b);
    double v = decodeF16(bits);
    if (isNanF16(bits)) {
      ++nans;
      if (!std::isnan(v) || !isNanF16(encodeF16(v))) ++mismatches;
      continue;
    }
    if (encodeF16(v) != bits) ++mismatches;
    if (roundToFloat(v, ScalarKind::F16) != v) ++mismatches;  // already representable
  }
  CHECK(nans == 2 * 1023);
  CHECK(mismatches == 0);
}

TEST_CASE("every bf16 bit pattern round-trips through decode and encode", "[float16]") {
  int mismatches = 0;
  for (uint32_t b = 0; b < 65536; ++b) {
    uint16_t bits = static_cast<uint16_t>(b);
    double v = decodeBF16(bits);
    if (isNanBF16(bits)) {
      if (!std::isnan(v) || !isNanBF16(encodeBF16(v))) ++mismatches;
      continue;
    }
    if (encodeBF16(v) != bits) ++mismatches;
    if (roundToFloat(v, ScalarKind::BF16) != v) ++mismatches;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("bf16 values are the upper half of the f32 bit pattern", "[float16]") {
  int mismatches = 0;
  for (uint32_t b = 0; b < 65536; ++b) {
    uint16_t bits = static_cast<uint16_t>(b);
    if (isNanBF16(bits)) continue;
    uint32_t f32bits = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &f32bits, sizeof f);
    double v = decodeBF16(bits);
    if (!(static_cast<double>(f) == v) || std::signbit(f) != std::signbit(v)) ++mismatches;
  }
  CHECK(mismatches == 0);
}

//===-- Rounding against references ----------------------------------------===//

TEST_CASE("f16 rounding of random doubles picks the nearest f16 value", "[float16]") {
  NearestTable table = makeTable(decodeF16, 0x7bff);
  std::mt19937_64 rng(1234);
  std::uniform_real_distribution<double> mant(-1.0, 1.0);
  std::uniform_int_distribution<int> expo(-27, 17);
  int mismatches = 0;
  for (int i = 0; i < 20000; ++i) {
    double x = std::ldexp(mant(rng), expo(rng));
    double want = table.nearest(x);
    double got = roundToFloat(x, ScalarKind::F16);
    if (!(got == want) || std::signbit(got) != std::signbit(want)) ++mismatches;
    if (decodeF16(encodeF16(x)) != want) ++mismatches;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("f16 rounding of exact midpoints goes to the even neighbour", "[float16]") {
  NearestTable table = makeTable(decodeF16, 0x7bff);
  int mismatches = 0;
  for (size_t i = 0; i + 1 < table.values.size(); ++i) {
    double mid = (table.values[i].first + table.values[i + 1].first) / 2;
    uint16_t even = table.values[i].second % 2 == 0 ? table.values[i].second : table.values[i + 1].second;
    if (encodeF16(mid) != even) ++mismatches;
    if (encodeF16(-mid) != (even | 0x8000)) ++mismatches;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("bf16 rounding of random doubles picks the nearest bf16 value", "[float16]") {
  NearestTable table = makeTable(decodeBF16, 0x7f7f);
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> mant(-1.0, 1.0);
  std::uniform_int_distribution<int> expo(-140, 129);
  int mismatches = 0;
  for (int i = 0; i < 20000; ++i) {
    double x = std::ldexp(mant(rng), expo(rng));
    double want = table.nearest(x);
    double got = roundToFloat(x, ScalarKind::BF16);
    if (!(got == want) || std::signbit(got) != std::signbit(want)) ++mismatches;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("f32 rounding equals static_cast<float>", "[float16]") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mant(-1.0, 1.0);
  std::uniform_int_distribution<int> expo(-160, 127);
  int mismatches = 0;
  for (int i = 0; i < 100000; ++i) {
    double x = std::ldexp(mant(rng), expo(rng));
    double got = roundToFloat(x, ScalarKind::F32);
    double want = static_cast<float>(x);
    if (!(got == want) || std::signbit(got) != std::signbit(want)) ++mismatches;
  }
  CHECK(mismatches == 0);
  // Midpoints between adjacent floats: the cast rounds them to even too.
  float f = 1.0f;
  for (int i = 0; i < 1000; ++i) {
    float g = std::nextafter(f, 2.0f);
    double mid = (static_cast<double>(f) + g) / 2;
    CHECK(roundToFloat(mid, ScalarKind::F32) == static_cast<double>(static_cast<float>(mid)));
    f = g;
  }
}

TEST_CASE("f32 rounding overflows to infinity past FLT_MAX", "[float16]") {
  double maxF = std::numeric_limits<float>::max();
  double halfUlp = std::ldexp(1.0, 103);
  CHECK(roundToFloat(maxF, ScalarKind::F32) == maxF);
  CHECK(roundToFloat(maxF + halfUlp / 2, ScalarKind::F32) == maxF);
  CHECK(roundToFloat(maxF + halfUlp, ScalarKind::F32) == kInf);  // tie: the even neighbour is 2^128
  CHECK(roundToFloat(-1e300, ScalarKind::F32) == -kInf);
  CHECK(std::isnan(roundToFloat(kNaN, ScalarKind::F32)));
  CHECK(roundToFloat(std::ldexp(1.0, -149), ScalarKind::F32) == std::ldexp(1.0, -149));
  CHECK(roundToFloat(std::ldexp(1.0, -151), ScalarKind::F32) == 0.0);
}

TEST_CASE("f64 rounding is the identity", "[float16]") {
  for (double x : {0.1, -1e300, 1e-310, 3.0}) CHECK(roundToFloat(x, ScalarKind::F64) == x);
  CHECK(std::isinf(roundToFloat(kInf, ScalarKind::F64)));
}
