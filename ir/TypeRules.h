//===- TypeRules.h - the typing rule of every op -------------------------===//
//
// One function states, for every op kind, what operand types and attributes
// are legal and what the result types are. The verifier checks ops against
// it and the builder uses it to infer result types, so the two never
// disagree.
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

#include <string>
#include <vector>

namespace twintile::ir {

struct TypeRuleResult {
  std::vector<Type> results;  // valid when error is empty
  std::string error;          // lower-case, with the concrete types; no period
};

/// Checks an op's operand types and attributes and computes its result
/// types. `given` are the result types the creator chose; they are consulted
/// only for ExplicitType ops (constant, splat, broadcast, reshape, cast) and
/// for `if`, whose results are declared.
TypeRuleResult inferResultTypes(OpKind kind, const std::vector<Type> &operands,
                                const AttrMap &attrs, const std::vector<Type> &given);

/// The kind each named op attribute must have ("axis" is Int, ...).
Attr::Kind attrKind(std::string_view name);

} // namespace twintile::ir
