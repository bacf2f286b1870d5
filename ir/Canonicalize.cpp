//===- Canonicalize.cpp - constant folding and algebraic identities ------===//
//
// Each rule is a small function that matches one op and rewrites it, with a
// one-line "before => after" comment. The driver applies them to a fixpoint.
// Folding uses Semantics.h, the interpreter's own element semantics.
//===----------------------------------------------------------------------===//
#include "ir/Passes.h"

#include "ir/Diagnostic.h"
#include "ir/Semantics.h"

#include <cassert>
#include <cmath>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace twintile::ir {

namespace {

/// Rewrites are recorded during a round and carried out at its end, in one
/// pass over the function (flush): a replaced value is forwarded (uses are
/// updated when their op is visited, and all at the flush), an erased op is
/// only marked, a new constant waits beside its anchor. Doing each at once
/// walked the whole function per rewrite: quadratic in kernels of many ops.
class Rewriter {
public:
  /// Replaces every use of `op`'s results with `with` and erases `op`.
  void replace(Op &op, const std::vector<Value *> &with) {
    for (size_t i = 0; i < op.results.size(); ++i)
      if (op.result(i) != with[i]) forward_[op.result(i)] = with[i];
    erase(op);
  }
  void replace(Op &op, Value *with) { replace(op, std::vector<Value *>{with}); }

  void erase(Op &op) {
    for (auto &r : op.regions) walk(*r, [&](Op &nested) { erased_.insert(&nested); });
    erased_.insert(&op);
  }

  /// A new `constant` of `type` denoting `e`, to be placed before `anchor`.
  Value *constant(Op &anchor, const Type &type, Elem e) {
    auto op = std::make_unique<Op>(OpKind::Constant, anchor.loc);
    op->attrs["value"] = elemAttr(e, type.elem);
    Value *v = op->addResult(type);
    pending_[&anchor].push_back(std::move(op));
    return v;
  }

  bool wasErased(Op *op) const { return erased_.count(op) != 0; }

  /// `op`'s operands, with every replacement so far applied.
  void forwardOperands(Op &op) {
    for (Value *&v : op.operands) v = resolve(v);
  }

  /// Carries out the round's rewrites; whether there were any.
  bool flush(Func &f) {
    bool any = !erased_.empty() || !pending_.empty() || !forward_.empty();
    if (!forward_.empty()) walk(f.body, [&](Op &op) { forwardOperands(op); });
    rebuild(f.body);
    forward_.clear();
    erased_.clear();
    pending_.clear();
    return any;
  }

private:
  Value *resolve(Value *v) {
    auto it = forward_.find(v);
    if (it == forward_.end()) return v;
    Value *to = resolve(it->second);
    it->second = to;  // path compression
    return to;
  }

  /// The block with the new constants in place and the erased ops gone.
  void rebuild(Block &b) {
    std::vector<std::unique_ptr<Op>> ops;
    ops.reserve(b.ops.size());
    for (std::unique_ptr<Op> &op : b.ops) {
      if (auto it = pending_.find(op.get()); it != pending_.end())
        for (std::unique_ptr<Op> &c : it->second) {
          c->parent = &b;
          ops.push_back(std::move(c));
        }
      if (erased_.count(op.get())) continue;
      for (auto &r : op->regions) rebuild(*r);
      ops.push_back(std::move(op));
    }
    b.ops = std::move(ops);
  }

  std::unordered_map<Value *, Value *> forward_;
  std::unordered_set<Op *> erased_;
  std::unordered_map<Op *, std::vector<std::unique_ptr<Op>>> pending_;
};

/// The element of `v` if it is defined by a `constant` (a splat).
std::optional<Elem> constValue(const Value *v) {
  if (!v->def || v->def->kind != OpKind::Constant) return std::nullopt;
  return constantElem(v->def->attr("value"), v->type.elem);
}

bool isConst(const Value *v, double x) {
  std::optional<Elem> e = constValue(v);
  if (!e) return false;
  return v->type.isFloat() ? e->f == x : e->i == static_cast<int64_t>(x);
}

// add(c1, c2) => c3, and every elementwise op on constants likewise.
bool foldConstants(Rewriter &rw, Op &op) {
  // bitcast keeps bits a folded constant (held as a number) would not: it runs.
  if (!op.info().has(Elementwise) || op.kind == OpKind::AddPtr || op.kind == OpKind::Bitcast) return false;
  std::vector<Elem> in;
  for (Value *v : op.operands) {
    std::optional<Elem> e = constValue(v);
    if (!e) return false;
    in.push_back(*e);
  }
  ScalarKind k = op.operand(0)->type.elem;
  const Type &rt = op.result()->type;
  Elem r;
  if (op.kind == OpKind::Cast) r = evalCast(in[0], k, rt.elem);
  else if (op.kind == OpKind::Select) r = in[0].i ? in[1] : in[2];
  else if (op.kind == OpKind::Fma) r = evalFma(k, in[0], in[1], in[2]);
  else if (op.info().has(Compare)) r = intElem(evalCompare(op.kind, k, in[0], in[1]));
  else if (in.size() == 2) {
    std::optional<Elem> b = evalBinary(op.kind, k, in[0], in[1]);
    if (!b) return false;  // division by zero stays, to fail at run time
    r = *b;
  } else r = evalUnary(op.kind, k, in[0]);
  rw.replace(op, rw.constant(op, rt, r));
  return true;
}

// splat/broadcast/expand_dims/reshape/trans(constant c) => constant c of the result type.
bool foldShapeOfConstant(Rewriter &rw, Op &op) {
  switch (op.kind) {
  case OpKind::Splat: case OpKind::Broadcast: case OpKind::ExpandDims:
  case OpKind::Reshape: case OpKind::Trans: break;
  default: return false;
  }
  std::optional<Elem> e = constValue(op.operand(0));
  if (!e) return false;
  rw.replace(op, rw.constant(op, op.result()->type, *e));
  return true;
}

// add(c, x) => add(x, c) for commutative ops, so constants sit on the right.
bool constantsRight(Rewriter &, Op &op) {
  if (!op.info().has(Commutative) || op.operands.size() != 2) return false;
  if (!constValue(op.operand(0)) || constValue(op.operand(1))) return false;
  std::swap(op.operands[0], op.operands[1]);
  return true;
}

// add(x, 0) => x (integers; for floats -0.0 + 0.0 would change);  sub(x, 0) => x;
// mul(x, 1) => x;  div(x, 1) => x;  or/xor(x, 0) => x;  shl/shr(x, 0) => x.
bool identityOperand(Rewriter &rw, Op &op) {
  if (op.operands.size() != 2 || !op.info().has(Elementwise) || op.info().has(Compare)) return false;
  Value *x = op.operand(0), *y = op.operand(1);
  bool fp = x->type.isFloat();
  bool identity = false;
  switch (op.kind) {
  case OpKind::Add: identity = !fp && isConst(y, 0); break;
  case OpKind::Sub: identity = isConst(y, 0) && !(fp && std::signbit(constValue(y)->f)); break;
  case OpKind::Mul: case OpKind::Div: identity = isConst(y, 1); break;
  case OpKind::Or: case OpKind::Xor: case OpKind::Shl: case OpKind::Shr: identity = isConst(y, 0); break;
  case OpKind::AddPtr: identity = isConst(y, 0); break;
  default: break;
  }
  if (!identity) return false;
  rw.replace(op, x);
  return true;
}

// mul(x, 0) => 0 and and(x, 0) => 0 (integers);  sub(x, x) => 0, xor(x, x) => 0 (integers).
bool absorbing(Rewriter &rw, Op &op) {
  if (op.operands.size() != 2 || !op.operand(0)->type.isInt() || op.info().has(Compare)) return false;
  Value *x = op.operand(0), *y = op.operand(1);
  bool zero = ((op.kind == OpKind::Mul || op.kind == OpKind::And) && isConst(y, 0)) ||
              ((op.kind == OpKind::Sub || op.kind == OpKind::Xor) && x == y);
  if (!zero) return false;
  rw.replace(op, rw.constant(op, op.result()->type, intElem(0)));
  return true;
}

// and(x, x) => x;  or(x, x) => x;  minimum/maximum(x, x) => x.
bool idempotent(Rewriter &rw, Op &op) {
  bool kind = op.kind == OpKind::And || op.kind == OpKind::Or || op.kind == OpKind::Minimum ||
              op.kind == OpKind::Maximum;
  if (!kind || op.operand(0) != op.operand(1)) return false;
  rw.replace(op, op.operand(0));
  return true;
}

// select(c, a, a) => a;  select(true, a, b) => a;  select(false, a, b) => b.
bool simplifySelect(Rewriter &rw, Op &op) {
  if (op.kind != OpKind::Select) return false;
  if (op.operand(1) == op.operand(2)) { rw.replace(op, op.operand(1)); return true; }
  std::optional<Elem> c = constValue(op.operand(0));
  if (!c) return false;
  rw.replace(op, op.operand(c->i ? 1 : 2));
  return true;
}

// cast(x : T) to T => x;  broadcast/reshape(x) to its own type => x;  trans(x, identity) => x.
bool noOpConversion(Rewriter &rw, Op &op) {
  bool same = (op.kind == OpKind::Cast || op.kind == OpKind::Broadcast || op.kind == OpKind::Reshape ||
               op.kind == OpKind::Trans) &&
              op.operand(0)->type == op.result()->type;
  if (op.kind == OpKind::Trans) {
    const std::vector<int64_t> &p = op.attr("perm").ints;
    for (size_t i = 0; i < p.size() && same; ++i) same = p[i] == static_cast<int64_t>(i);
  }
  if (!same) return false;
  rw.replace(op, op.operand(0));
  return true;
}

// trans(trans(x, p), q) => trans(x, p∘q);  reshape(reshape(x)) => reshape(x).
bool composeShapes(Rewriter &, Op &op) {
  if (op.kind != OpKind::Trans && op.kind != OpKind::Reshape) return false;
  Op *inner = op.operand(0)->def;
  if (!inner || inner->kind != op.kind) return false;
  if (op.kind == OpKind::Trans) {
    const std::vector<int64_t> &p = inner->attr("perm").ints, &q = op.attr("perm").ints;
    std::vector<int64_t> r(q.size());
    for (size_t i = 0; i < q.size(); ++i) r[i] = p[q[i]];
    op.attrs["perm"] = Attr::list(r);
  }
  op.operands[0] = inner->operand(0);
  return true;
}

// if(true) {A} else {B} => A inlined;  if(false) => B inlined.
bool inlineConstantIf(Rewriter &rw, Op &op) {
  if (op.kind != OpKind::If) return false;
  std::optional<Elem> c = constValue(op.operand(0));
  if (!c) return false;
  Block &taken = op.region(c->i ? 0 : 1);
  Op *yield = taken.terminator();
  assert(yield && yield->kind == OpKind::Yield && "verified 'if' regions end in yield");
  std::vector<Value *> results = yield->operands;
  while (taken.ops.size() > 1) op.parent->insert(&op, taken.take(taken.ops.front().get()));
  rw.replace(op, results);
  return true;
}

// for(lo, hi, ...) with constant lo >= hi => the initial carried values.
bool removeEmptyFor(Rewriter &rw, Op &op) {
  if (op.kind != OpKind::For) return false;
  std::optional<Elem> lo = constValue(op.operand(0)), hi = constValue(op.operand(1));
  if (!lo || !hi || lo->i < hi->i) return false;
  rw.replace(op, std::vector<Value *>(op.operands.begin() + 3, op.operands.end()));
  return true;
}

using Rule = bool (*)(Rewriter &, Op &);
constexpr Rule kRules[] = {
    foldConstants,  foldShapeOfConstant, constantsRight, identityOperand, absorbing,
    idempotent,     simplifySelect,      noOpConversion, composeShapes,   inlineConstantIf,
    removeEmptyFor,
};

} // namespace

bool canonicalize(Func &f) {
  Rewriter rw;
  bool changedAny = false;
  // Every rule shrinks the IR or moves a constant right, so a fixpoint comes
  // quickly; the bound only turns a rule bug into an assertion, not a hang.
  for (int round = 0; round < 1000; ++round) {
    std::vector<Op *> worklist;
    walk(f.body, [&](Op &op) { worklist.push_back(&op); });
    bool changed = false;
    for (Op *op : worklist) {
      if (rw.wasErased(op)) continue;
      rw.forwardOperands(*op);
      for (Rule rule : kRules)
        if (rule(rw, *op)) { changed = true; break; }
    }
    changed |= rw.flush(f);
    if (!changed) return changedAny;
    changedAny = true;
  }
  throw InternalError("canonicalization does not converge");
}

} // namespace twintile::ir
