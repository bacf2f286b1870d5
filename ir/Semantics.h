//===- Semantics.h - the meaning of one element of an elementwise op -----===//
//
// The scalar semantics of IR.h in one place, shared by the interpreter and
// by constant folding, so that folding can never disagree with running.
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

#include <cstdint>
#include <optional>

namespace twintile::ir {

/// One element: integers (signed kinds sign-extended to 64 bits, unsigned
/// ones zero-extended, so a u64 above 2^63 reads negative) and pointers in `i`,
/// floats (already rounded to their kind) in `f`.
union Elem {
  int64_t i;
  double f;
};

inline Elem intElem(int64_t v) { Elem e; e.i = v; return e; }
inline Elem floatElem(double v) { Elem e; e.f = v; return e; }

/// Truncates to the width of integer kind `k` and sign-extends, or
/// zero-extends for an unsigned kind (i1: 0 or 1).
int64_t wrapInt(int64_t v, ScalarKind k);

/// Integer `v` of kind `from` as a double that rounds correctly to float kind `to` by
/// roundToFloat: beyond 53 significant bits it is rounded to odd, so the
/// second rounding to a narrower kind is not a double rounding.
double intToFloat(int64_t v, ScalarKind from, ScalarKind to);

/// Elementwise ops on elements of kind `k` (the operands' element kind).
/// evalBinary gives nothing for an integer division or remainder by zero.
Elem evalUnary(OpKind op, ScalarKind k, Elem a);
std::optional<Elem> evalBinary(OpKind op, ScalarKind k, Elem a, Elem b);
bool evalCompare(OpKind op, ScalarKind k, Elem a, Elem b);
/// What a read-modify-write atomic (not atomic_cas) of `op` leaves in
/// memory that held `old`, given `v`.
Elem evalAtomic(OpKind op, ScalarKind k, Elem old, Elem v);
Elem evalFma(ScalarKind k, Elem a, Elem b, Elem c);
Elem evalCast(Elem a, ScalarKind from, ScalarKind to);
/// A float element flushed as PTX's .ftz flushes an f32 operand: a zero of
/// its sign where it is nonzero and below 2^-126 in magnitude, else itself.
Elem flushSubnormalF32(Elem a);

/// The element a `constant` op's value attribute denotes in kind `k`.
Elem constantElem(const Attr &value, ScalarKind k);
/// The attribute that denotes element `e` of kind `k`.
Attr elemAttr(Elem e, ScalarKind k);

} // namespace twintile::ir
