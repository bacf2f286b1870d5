//===- Equivalence.h - structural equality of two functions --------------===//
#pragma once

#include "ir/IR.h"

#include <optional>
#include <string>

namespace twintile::ir {

/// Compares two functions op by op, up to the renaming of values and the
/// locations of ops: same parameters (types), same ops in the same order,
/// same attributes and result types, operands that correspond. Meta
/// attributes, options and names are compared too unless told not to.
/// Returns nothing if they are equal, else the first difference, naming the
/// op (and both locations), the operand, or the type that differs.
struct EquivalenceOptions {
  bool compareNames = true;  // function name and parameter names
  bool compareMeta = true;   // meta-parameters and num_warps
};

std::optional<std::string> firstDifference(const Func &a, const Func &b,
                                           EquivalenceOptions opts = {});

} // namespace twintile::ir
