#include "ir/Verifier.h"

#include "ir/TypeRules.h"

#include <unordered_set>

namespace twintile::ir {

namespace {

std::string typeList(const std::vector<Type> &ts) {
  std::string s = "(";
  for (size_t i = 0; i < ts.size(); ++i) s += (i ? ", " : "") + toString(ts[i]);
  return s + ")";
}

std::vector<Type> typesOf(const std::vector<std::unique_ptr<Value>> &vs) {
  std::vector<Type> ts;
  for (auto &v : vs) ts.push_back(v->type);
  return ts;
}

std::vector<Type> typesOf(const std::vector<Value *> &vs) {
  std::vector<Type> ts;
  for (Value *v : vs) ts.push_back(v ? v->type : Type{});
  return ts;
}

class Verifier {
public:
  std::vector<Diagnostic> run(const Func &f) {
    f_ = &f;
    for (auto &a : f.body.args) {
      if (std::string e = checkType(a->type); !e.empty()) error(f.loc, "parameter: " + e);
      visible_.insert(a.get());
    }
    block(f.body, /*isFuncBody=*/true);
    return std::move(diags_);
  }

private:
  void error(const Location &loc, std::string msg) { diags_.push_back({loc, std::move(msg)}); }

  void block(const Block &b, bool isFuncBody) {
    std::vector<const Value *> defined;
    for (size_t i = 0; i < b.ops.size(); ++i) {
      const Op &op = *b.ops[i];
      bool last = i + 1 == b.ops.size();
      checkOp(op, last, isFuncBody);
      for (auto &r : op.results) {
        visible_.insert(r.get());
        defined.push_back(r.get());
      }
    }
    if (b.ops.empty() || !b.ops.back()->info().has(Terminator)) {
      const Location &loc = b.ops.empty() ? (b.parentOp ? b.parentOp->loc : f_->loc) : b.ops.back()->loc;
      std::string what = isFuncBody ? "function body must end with 'return'"
                                    : regionName(b) + " must end with 'yield'";
      error(loc, what + (b.ops.empty() ? ", but is empty"
                                       : ", but ends with '" + std::string(b.ops.back()->name()) + "'"));
    }
    for (const Value *v : defined) visible_.erase(v);
  }

  /// "region 1 of 'if'".
  static std::string regionName(const Block &b) {
    const Op &parent = *b.parentOp;
    size_t index = 0;
    while (index < parent.regions.size() && parent.regions[index].get() != &b) ++index;
    return "region " + std::to_string(index) + " of '" + std::string(parent.name()) + "'";
  }

  void checkOp(const Op &op, bool last, bool isFuncBody) {
    const OpInfo &info = op.info();
    std::string name = "'" + std::string(info.name) + "'";
    for (size_t k = 0; k < op.operands.size(); ++k) {
      const Value *v = op.operands[k];
      if (!v) { error(op.loc, name + " operand " + std::to_string(k) + " is null"); return; }
      if (!visible_.count(v))
        error(op.loc, name + " operand " + std::to_string(k) + " (" + toString(v->type) +
                          (v->def ? ", defined by '" + std::string(v->def->name()) + "' at " +
                                        toString(v->def->loc.pos)
                                  : ", a block argument") +
                          ") does not dominate this use");
    }
    for (auto &r : op.results)
      if (std::string e = checkType(r->type); !e.empty()) {
        error(op.loc, name + " result " + e);
        return;
      }

    // Terminators: the right one, in the last position only.
    if (info.has(Terminator)) {
      if (!last) error(op.loc, name + " must be the last op of its block");
      if (op.kind == OpKind::Return && !isFuncBody)
        error(op.loc, "'return' is only allowed at the end of the function body");
      if (op.kind == OpKind::Yield && isFuncBody)
        error(op.loc, "'yield' is only allowed at the end of a region");
    }

    std::vector<Type> given = typesOf(op.results);
    TypeRuleResult rule = inferResultTypes(op.kind, typesOf(op.operands), op.attrs, given);
    if (!rule.error.empty()) { error(op.loc, rule.error); return; }
    if (!(rule.results == given)) {
      error(op.loc, name + " result types " + typeList(given) + " do not match " +
                        typeList(rule.results) + " given by its operands");
      return;
    }
    if (static_cast<int>(op.regions.size()) != info.numRegions) {
      error(op.loc, name + " must have " + std::to_string(info.numRegions) + " regions, has " +
                        std::to_string(op.regions.size()));
      return;
    }
    checkRegions(op);
  }

  /// Region arguments and the types each region yields.
  void checkRegions(const Op &op) {
    std::vector<Type> results = typesOf(op.results);
    switch (op.kind) {
    case OpKind::For: {
      std::vector<Type> args{op.operand(0)->type};
      args.insert(args.end(), results.begin(), results.end());
      region(op, 0, args, results);
      break;
    }
    case OpKind::If:
      region(op, 0, {}, results);
      region(op, 1, {}, results);
      break;
    case OpKind::While:
      region(op, 0, results, {Type::scalar(ScalarKind::I1)});
      region(op, 1, results, results);
      break;
    case OpKind::Reduce:
    case OpKind::Scan: {
      std::vector<Type> elems;  // one of each tile's elements
      for (const Value *v : op.operands) elems.push_back(Type::scalar(v->type.elem));
      std::vector<Type> args = elems;
      args.insert(args.end(), elems.begin(), elems.end());
      region(op, 0, args, elems);
      if (const Op *bad = nonScalarCombineOp(op.region(0)))
        error(bad->loc, "'" + std::string(bad->name()) + "' in the region of '" + std::string(op.name()) +
                            "', which may only compute on scalars (arithmetic, comparisons, select, casts, constants)");
      break;
    }
    default:  // the ops above are the ones with regions
      if (!op.regions.empty())
        throw InternalError("'" + std::string(op.name()) + "' has regions, and the verifier no rule for them", op.loc);
      break;
    }
  }

  void region(const Op &op, size_t index, const std::vector<Type> &args,
              const std::vector<Type> &yields) {
    const Block &b = op.region(index);
    std::string where = "region " + std::to_string(index) + " of '" + std::string(op.name()) + "'";
    if (!(typesOf(b.args) == args)) {
      error(op.loc, where + " has arguments " + typeList(typesOf(b.args)) + ", expected " +
                        typeList(args));
      return;
    }
    for (auto &a : b.args) visible_.insert(a.get());
    block(b, false);
    for (auto &a : b.args) visible_.erase(a.get());
    const Op *term = b.terminator();
    if (term && term->kind == OpKind::Yield && !(typesOf(term->operands) == yields))
      error(term->loc, "'yield' in " + where + " yields " + typeList(typesOf(term->operands)) +
                           ", expected " + typeList(yields));
  }

  const Func *f_ = nullptr;
  std::unordered_set<const Value *> visible_;
  std::vector<Diagnostic> diags_;
};

} // namespace

std::vector<Diagnostic> verify(const Func &f) { return Verifier().run(f); }

} // namespace twintile::ir
