//===- Arguments.h - a kernel's arguments from the command line -----------===//
//
// What `twintile run` and `twintile tune` share: NAME=VALUE pairs, scalars
// read as their parameter's type, random buffer contents from a seed.
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Manifest.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace twintile::driver {

/// A pointer without --arg or --input gets this many elements.
constexpr size_t kDefaultElements = size_t(1) << 20;
/// The largest buffer run makes: its host copies (input, reference, result)
/// must fit in memory.
constexpr size_t kMaxBufferBytes = size_t(4) << 30;

struct Param {
  std::string name, typeText;
  runtime::ParamType type;
};

/// The whole of `text` as an integer or a double; nullopt on anything else.
std::optional<int64_t> parseInt(const std::string &text);
std::optional<double> parseDouble(const std::string &text);
/// Whether `text` is written as an integer (an optional minus, then digits),
/// however large.
bool isIntegerText(const std::string &text);

/// NAME=VALUE pairs, each name once; false with `error` otherwise.
bool splitPairs(const std::vector<std::string> &pairs, const char *flag, std::map<std::string, std::string> &out,
                std::string &error);

/// A scalar argument's bits in its parameter's type; an error for a value
/// that is not a number of that type or does not fit.
std::optional<uint64_t> scalarBits(const Param &p, const std::string &text, std::string &error);

/// Random contents: floats in [-2, 2), integers in [-50, 50] (unsigned ones
/// in [0, 100], i1 0 or 1).
void fillRandom(const Param &p, std::vector<uint8_t> &bytes, size_t count, std::mt19937_64 &rng);

} // namespace twintile::driver
