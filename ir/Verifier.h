//===- Verifier.h - the structural and type rules of the tile IR ---------===//
#pragma once

#include "ir/Diagnostic.h"
#include "ir/IR.h"

#include <vector>

namespace twintile::ir {

/// Checks `f` and returns one diagnostic per failure, located at the failing
/// op: each op against its typing rule (TypeRules.h), operand counts, region
/// arguments and terminators (every region ends in yield with the right
/// types, the body in return), and dominance (every use sees its definition:
/// earlier in its block or in an enclosing one). Empty means valid.
std::vector<Diagnostic> verify(const Func &f);

} // namespace twintile::ir
