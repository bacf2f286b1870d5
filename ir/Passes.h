//===- Passes.h - the tile IR's transformations --------------------------===//
//
// Each pass rewrites one function in place and returns whether it changed
// anything. PassManager.h runs them in sequence.
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

namespace twintile::ir {

/// Rewrites descriptor_load into the pointer arithmetic, the mask and the
/// load it stands for (ExpandDescriptors.cpp): its portable lowering. Loads
/// whose every use is a dot's a or b (directly, or through one trans), and
/// every descriptor_store, are left to the backend, which may copy them with
/// TMA and expands the others with expandDescriptor.
bool expandDescriptors(Func &f);

/// The expansion of one descriptor op of `f`, in place.
void expandDescriptor(Func &f, Op &op);

/// Folds constants and applies algebraic identities to a fixpoint. The
/// rules are listed, one line each, in Canonicalize.cpp.
bool canonicalize(Func &f);

/// Replaces each pure op with an identical earlier one that dominates it.
bool cse(Func &f);

/// Removes ops whose results are unused and that have no effects (Op::
/// hasEffects: pure ops, loads but volatile ones, and control flow whose
/// regions have none).
bool dce(Func &f);

} // namespace twintile::ir
