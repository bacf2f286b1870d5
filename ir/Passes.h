//===- Passes.h - the tile IR's transformations --------------------------===//
//
// Each pass rewrites one function in place and returns whether it changed
// anything. PassManager.h runs them in sequence.
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

namespace tt::ir {

/// Folds constants and applies algebraic identities to a fixpoint. The
/// rules are listed, one line each, in Canonicalize.cpp.
bool canonicalize(Func &f);

/// Replaces each pure op with an identical earlier one that dominates it.
bool cse(Func &f);

/// Removes ops whose results are unused and that write no memory (pure ops,
/// loads, and control flow whose regions write nothing).
bool dce(Func &f);

} // namespace tt::ir
