//===- AxisInfo.cpp - contiguity, divisibility and constancy ------------===//
#include "backend/AxisInfo.h"

#include <algorithm>
#include <numeric>
#include <sstream>

namespace twintile::backend {
namespace {

using namespace twintile::ir;

int64_t highestPow2Divisor(int64_t v) {
  if (v == 0) return kMaxDivisibility;
  uint64_t u = static_cast<uint64_t>(v);  // the lowest set bit, also of negatives
  uint64_t low = u & (~u + 1);             // 2^63 for INT64_MIN (a u64 constant's top bit): compared unsigned
  return low >= static_cast<uint64_t>(kMaxDivisibility) ? kMaxDivisibility : static_cast<int64_t>(low);
}

int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }
int64_t capMul(int64_t a, int64_t b) {
  return a > kMaxDivisibility / b ? kMaxDivisibility : std::min(kMaxDivisibility, a * b);
}

size_t dimsOf(const Type &t) { return t.isScalar() ? 1 : t.shape.size(); }

/// Nothing known: runs of one, divisible by one.
AxisInfo unknown(const Type &t) {
  size_t n = dimsOf(t);
  return {std::vector<int64_t>(n, 1), std::vector<int64_t>(n, 1), std::vector<int64_t>(n, 1)};
}

/// The same value everywhere, divisible by `div`.
AxisInfo uniform(const Type &t, int64_t div) {
  AxisInfo a = unknown(t);
  a.divisibility.assign(a.divisibility.size(), div);
  for (size_t d = 0; d < a.constancy.size(); ++d) a.constancy[d] = t.isScalar() ? 1 : t.shape[d];
  return a;
}

/// What holds for both: the meet of the lattice.
AxisInfo meet(const AxisInfo &a, const AxisInfo &b) {
  AxisInfo r = a;
  for (size_t d = 0; d < r.contiguity.size(); ++d) {
    r.contiguity[d] = gcd(a.contiguity[d], b.contiguity[d]);
    r.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
    r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
  }
  return r;
}

class Analysis {
public:
  Analysis(AxisInfoMap &out) : out_(out) {}

  void block(const Block &b) {
    for (const auto &op : b.ops) visit(*op);
  }

  const AxisInfo &get(const Value *v) {
    auto it = out_.find(v);
    if (it == out_.end()) it = out_.emplace(v, unknown(v->type)).first;
    return it->second;
  }
  void set(const Value *v, AxisInfo a) { out_[v] = std::move(a); }

private:
  AxisInfoMap &out_;

  static int64_t elemBytes(const Type &ptrType) { return byteSize(ptrType.pointee); }

  void visit(const Op &op) {
    switch (op.kind) {
    case OpKind::For: return loop(op, 3, 1);
    case OpKind::While: return loop(op, 0, 0);
    case OpKind::If: {
      block(op.region(0));
      block(op.region(1));
      const Op *t = op.region(0).terminator(), *e = op.region(1).terminator();
      for (size_t i = 0; i < op.results.size(); ++i)
        set(op.result(i), meet(get(t->operand(i)), get(e->operand(i))));
      return;
    }
    default: break;
    }
    for (const auto &r : op.results) set(r.get(), compute(op));
  }

  /// Carried values start from their initial values and are met with what
  /// the body yields until nothing changes (the lattice is finite: powers of
  /// two only fall).
  void loop(const Op &op, size_t firstInit, size_t firstArg) {
    const Block &body = op.region(op.kind == OpKind::While ? 1 : 0);
    size_t n = op.operands.size() - firstInit;
    std::vector<AxisInfo> carried;
    for (size_t i = 0; i < n; ++i) carried.push_back(get(op.operand(firstInit + i)));
    if (op.kind == OpKind::For) {
      const AxisInfo &lo = get(op.operand(0)), &step = get(op.operand(2));
      set(body.arg(0), {{1}, {gcd(lo.divisibility[0], step.divisibility[0])}, {1}});
    }
    // The meet only lowers facts, each of a finite height (powers of two up
    // to kMaxDivisibility, sizes up to the shape's), so the loop settles;
    // but a chain of carried values (v1 = v0, v2 = v1, ...) takes a round
    // per link. Past 64 rounds the carried values are taken as unknown,
    // which is always sound (and settles at once).
    bool settled = false;
    for (int iter = 0; iter < 65 && !settled; ++iter) {
      if (iter == 64)
        for (size_t i = 0; i < n; ++i) carried[i] = unknown(op.operand(firstInit + i)->type);
      for (size_t i = 0; i < n; ++i) {
        set(body.arg(firstArg + i), carried[i]);
        if (op.kind == OpKind::While) set(op.region(0).arg(i), carried[i]);
      }
      if (op.kind == OpKind::While) block(op.region(0));
      block(body);
      const Op *y = body.terminator();
      bool changed = false;
      for (size_t i = 0; i < n; ++i) {
        AxisInfo m = meet(carried[i], get(y->operand(i)));
        if (!(m == carried[i])) changed = true;
        carried[i] = std::move(m);
      }
      settled = !changed;
    }
    if (!settled) throw ir::InternalError("the axis analysis of this loop did not settle even with nothing known", op.loc);
    for (size_t i = 0; i < n; ++i) set(op.result(i), carried[i]);
  }

  AxisInfo compute(const Op &op) {
    const Type &t = op.result()->type;
    auto in = [&](size_t i) -> const AxisInfo & { return get(op.operand(i)); };
    switch (op.kind) {
    case OpKind::Constant: {
      const Attr &v = op.attr("value");
      if (!t.isInt()) return uniform(t, 1);
      return uniform(t, highestPow2Divisor(v.i));
    }
    case OpKind::Arange: {
      AxisInfo a = unknown(t);
      a.contiguity[0] = t.shape[0];
      a.divisibility[0] = highestPow2Divisor(op.intAttr("start"));
      return a;
    }
    case OpKind::Splat: return uniform(t, in(0).divisibility[0]);
    case OpKind::Broadcast: {
      AxisInfo a = in(0);
      const Type &src = op.operand(0)->type;
      for (size_t d = 0; d < t.shape.size(); ++d)
        if (src.shape[d] == 1 && t.shape[d] != 1) {
          a.contiguity[d] = 1;
          a.constancy[d] = t.shape[d];
        }
      return a;
    }
    case OpKind::ExpandDims: {
      // A new dim of extent 1: nothing runs along it.
      size_t axis = static_cast<size_t>(op.intAttr("axis"));
      AxisInfo a = op.operand(0)->type.isScalar() ? AxisInfo{} : in(0);
      a.contiguity.insert(a.contiguity.begin() + axis, 1);
      a.divisibility.insert(a.divisibility.begin() + axis, 1);
      a.constancy.insert(a.constancy.begin() + axis, 1);
      return a;
    }
    case OpKind::Trans: {
      AxisInfo a = in(0), r = a;
      const std::vector<int64_t> &perm = op.attr("perm").ints;
      for (size_t i = 0; i < perm.size(); ++i) {
        r.contiguity[i] = a.contiguity[perm[i]];
        r.divisibility[i] = a.divisibility[perm[i]];
        r.constancy[i] = a.constancy[perm[i]];
      }
      return r;
    }
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::AddPtr: {
      if (!t.isInt() && !t.isPtr()) break;
      const AxisInfo &a = in(0), &b = in(1);
      int64_t scale = op.kind == OpKind::AddPtr ? elemBytes(t) : 1;
      AxisInfo r = a;
      for (size_t d = 0; d < r.contiguity.size(); ++d) {
        int64_t fromA = gcd(a.contiguity[d], b.constancy[d]);
        int64_t fromB = op.kind == OpKind::Sub ? 1 : gcd(a.constancy[d], b.contiguity[d]);
        r.contiguity[d] = std::max(fromA, fromB);
        r.divisibility[d] = gcd(a.divisibility[d], capMul(b.divisibility[d], scale));
        r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
      }
      return r;
    }
    case OpKind::Mul: {
      if (!t.isInt()) break;
      const AxisInfo &a = in(0), &b = in(1);
      AxisInfo r = unknown(t);
      for (size_t d = 0; d < r.contiguity.size(); ++d) {
        r.divisibility[d] = capMul(a.divisibility[d], b.divisibility[d]);
        r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
        // x * 1 keeps x's runs.
        if (b.constancy[d] > 1 || t.isScalar()) {
          if (const Op *c = op.operand(1)->def; c && c->kind == OpKind::Constant && c->attr("value").i == 1)
            r.contiguity[d] = a.contiguity[d];
        }
      }
      return r;
    }
    case OpKind::Shl: {
      const AxisInfo &a = in(0);
      AxisInfo r = unknown(t);
      const Op *c = op.operand(1)->def;
      for (size_t d = 0; d < r.contiguity.size(); ++d) {
        r.constancy[d] = gcd(a.constancy[d], in(1).constancy[d]);
        if (c && c->kind == OpKind::Constant && c->attr("value").i >= 0 && c->attr("value").i < 31)
          r.divisibility[d] = capMul(a.divisibility[d], int64_t(1) << c->attr("value").i);
      }
      return r;
    }
    case OpKind::Rem: {
      if (!t.isInt()) break;
      const AxisInfo &a = in(0), &b = in(1);
      AxisInfo r = unknown(t);
      for (size_t d = 0; d < r.contiguity.size(); ++d) {
        r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
        // The remainder truncates toward zero (IR.h), so x % m of a run of x
        // that crosses zero does not count up (-33 % 32, -32 % 32, -31 % 32
        // are -1, 0, -31): without knowing x's sign, no runs survive. Each
        // element keeps what x and m share as divisors when x's elements
        // are themselves multiples (runs of one).
        if ((b.constancy[d] > 1 || t.isScalar()) && a.contiguity[d] == 1)
          r.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
      }
      return r;
    }
    case OpKind::Eq: case OpKind::Ne: case OpKind::Lt:
    case OpKind::Le: case OpKind::Gt: case OpKind::Ge: {
      const AxisInfo &a = in(0), &b = in(1);
      AxisInfo r = unknown(t);
      for (size_t d = 0; d < r.contiguity.size(); ++d) {
        int64_t c = gcd(a.constancy[d], b.constancy[d]);
        // x < m and x >= m, x counting up from a multiple of g and m a
        // multiple of g, flip only at a multiple of g: over aligned groups of
        // g they are constant. (x <= m, x > m flip one later, inside a
        // group; eq and ne hold at single points.) With the operands swapped,
        // m > x and m <= x are the same tests.
        auto runs = [&](const AxisInfo &x, const AxisInfo &m) {
          int64_t g = gcd(x.contiguity[d], gcd(x.divisibility[d], m.divisibility[d]));
          return gcd(g, m.constancy[d]);
        };
        if (op.operand(0)->type.isInt()) {
          if (op.kind == OpKind::Lt || op.kind == OpKind::Ge) c = std::max(c, runs(a, b));
          if (op.kind == OpKind::Gt || op.kind == OpKind::Le) c = std::max(c, runs(b, a));
        }
        r.constancy[d] = c;
      }
      return r;
    }
    case OpKind::And: case OpKind::Or: case OpKind::Xor: {
      AxisInfo r = unknown(t);
      for (size_t d = 0; d < r.contiguity.size(); ++d)
        r.constancy[d] = gcd(in(0).constancy[d], in(1).constancy[d]);
      return r;
    }
    case OpKind::Select: {
      AxisInfo r = meet(in(1), in(2));
      for (size_t d = 0; d < r.contiguity.size(); ++d) {
        r.constancy[d] = gcd(r.constancy[d], in(0).constancy[d]);
        r.contiguity[d] = gcd(r.contiguity[d], in(0).constancy[d]);
      }
      return r;
    }
    case OpKind::MultipleOf:
    case OpKind::MaxContiguous: {  // the kernel's promise, taken as given
      AxisInfo r = in(0);
      const std::vector<int64_t> &v = op.attr("values").ints;
      std::vector<int64_t> &field = op.kind == OpKind::MultipleOf ? r.divisibility : r.contiguity;
      for (size_t d = 0; d < field.size() && d < v.size(); ++d) field[d] = std::max(field[d], v[d]);
      return r;
    }
    case OpKind::Bitcast: {  // the bits of equal elements are equal; nothing else is known
      AxisInfo r = unknown(t);
      r.constancy = in(0).constancy;
      return r;
    }
    case OpKind::Cast: {
      const Type &src = op.operand(0)->type;
      if (src.isInt() && t.isInt() && src.elem != ScalarKind::I1 && bitWidth(t.elem) >= bitWidth(src.elem))
        return in(0);
      AxisInfo r = unknown(t);
      r.constancy = in(0).constancy;
      // Truncating keeps the low bits: a multiple of 2^k stays one (a loop
      // counting in i64, cast to i32 for its offsets).
      if (src.isInt() && t.isInt() && src.elem != ScalarKind::I1 && t.elem != ScalarKind::I1)
        for (size_t d = 0; d < r.divisibility.size(); ++d)
          r.divisibility[d] = std::min<int64_t>(in(0).divisibility[d] & -in(0).divisibility[d], int64_t(1) << std::min(30, static_cast<int>(bitWidth(t.elem)) - 1));
      return r;
    }
    default: break;
    }
    if (op.info().has(Elementwise)) {
      AxisInfo r = unknown(t);
      for (size_t d = 0; d < r.constancy.size(); ++d) {
        int64_t c = t.isScalar() ? 1 : t.shape[d];
        for (const Value *v : op.operands) c = gcd(c, get(v).constancy[d]);
        r.constancy[d] = c;
      }
      return r;
    }
    return unknown(t);
  }
};

} // namespace

AxisInfoMap analyzeAxes(const ir::Func &func, const std::vector<ParamAssumption> &assume) {
  AxisInfoMap map;
  Analysis a(map);
  for (size_t i = 0; i < func.numParams(); ++i) {
    const ir::Value *p = func.param(i);
    bool given = i < assume.size();
    int64_t div = 1;
    if (p->type.isPtr()) div = given && assume[i].aligned16 ? 16 : ir::byteSize(p->type.pointee);
    else if (p->type.isInt() && given && assume[i].divisible16) div = 16;
    a.set(p, {{1}, {div}, {1}});
  }
  a.block(func.body);
  return map;
}

std::string toString(const AxisInfo &info) {
  std::ostringstream os;
  auto list = [&](const char *name, const std::vector<int64_t> &v) {
    os << name << "=[";
    for (size_t i = 0; i < v.size(); ++i) os << (i ? "," : "") << v[i];
    os << "]";
  };
  list("contig", info.contiguity);
  os << " ";
  list("div", info.divisibility);
  os << " ";
  list("const", info.constancy);
  return os.str();
}

} // namespace twintile::backend
