//===- GridExpression.h - a grid size written over a configuration --------===//
//
// `twintile tune --grid 'cdiv(n, BLOCK)'`, and a kernel library's tuned
// table, which evaluates it at each call: the grid depends on the
// configuration, as Triton's grid = lambda META: ... does. An expression of
// integers, names (the configuration's meta-parameters, the kernel's
// integer arguments), + - * / (integer division toward zero), parentheses
// and cdiv(a, b).
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace twintile::runtime {

/// The value of `text` with `names`; nullopt, with `error` ("'TEXT': column
/// N: ...") naming the column, where it does not parse, names what `names` lacks, divides by
/// zero or overflows 64 bits.
std::optional<int64_t> evalGridExpression(const std::string &text, const std::map<std::string, int64_t> &names,
                                          std::string &error);

/// A grid of one to three sizes, "cdiv(n, BLOCK), 4", split at its
/// top-level commas (those inside cdiv(a, b) stay).
std::vector<std::string> splitGrid(const std::string &grid);

} // namespace twintile::runtime
