#include "ir/Equivalence.h"

#include "ir/Printer.h"

#include <unordered_map>

namespace twintile::ir {

namespace {

/// `attrs` without those that say what their absence says: an atomic's
/// default `sem = "relaxed"` and `scope = "gpu"`, a dot's `precision =
/// "ieee"`, which the builder omits but hand-written IR may spell out.
AttrMap withoutDefaults(const AttrMap &attrs) {
  AttrMap out = attrs;
  auto drop = [&](const char *name, std::string_view byDefault) {
    auto it = out.find(name);
    if (it != out.end() && it->second == Attr::string(std::string(byDefault))) out.erase(it);
  };
  drop("sem", kAtomicSems[0]);
  drop("scope", kAtomicScopes[0]);
  drop("precision", "ieee");
  return out;
}

std::string where(const Op &op) {
  return "'" + std::string(op.name()) + "' at " + toString(op.loc.pos);
}

/// Which meta-parameter differs, with both values (meta lists are ordered).
std::string metaDifference(const std::vector<std::pair<std::string, Attr>> &a,
                           const std::vector<std::pair<std::string, Attr>> &b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (a[i].first != b[i].first)
      return "meta-parameter " + std::to_string(i) + " differs: " + a[i].first + " = " + toString(a[i].second) +
             " vs " + b[i].first + " = " + toString(b[i].second);
    if (!(a[i].second == b[i].second))
      return "meta-parameter '" + a[i].first + "' differs: " + toString(a[i].second) + " vs " +
             toString(b[i].second);
  }
  const auto &longer = a.size() > b.size() ? a : b;
  return "meta-parameter '" + longer[n].first + "' = " + toString(longer[n].second) + " is only in the " +
         (a.size() > b.size() ? "first" : "second") + " function";
}

class Comparer {
public:
  std::optional<std::string> run(const Func &a, const Func &b, EquivalenceOptions opts) {
    if (opts.compareNames && a.name != b.name)
      return "function names differ: @" + a.name + " vs @" + b.name;
    if (opts.compareMeta) {
      if (a.numWarps != b.numWarps)
        return "num_warps differs: " + std::to_string(a.numWarps) + " vs " + std::to_string(b.numWarps);
      if (a.numStages != b.numStages)
        return "num_stages differs: " + std::to_string(a.numStages) + " vs " + std::to_string(b.numStages);
      if (a.meta != b.meta) return metaDifference(a.meta, b.meta);
    }
    if (a.numParams() != b.numParams())
      return "parameter counts differ: " + std::to_string(a.numParams()) + " vs " +
             std::to_string(b.numParams());
    for (size_t i = 0; i < a.numParams(); ++i) {
      const Value *pa = a.param(i), *pb = b.param(i);
      if (!(pa->type == pb->type))
        return "parameter " + std::to_string(i) + " types differ: " + toString(pa->type) + " vs " +
               toString(pb->type);
      if (opts.compareNames && pa->name != pb->name)
        return "parameter " + std::to_string(i) + " names differ: " + pa->name + " vs " + pb->name;
      map_[pa] = pb;
    }
    return block(a.body, b.body, "function body");
  }

private:
  std::optional<std::string> block(const Block &a, const Block &b, const std::string &context) {
    if (a.args.size() != b.args.size()) return context + ": argument counts differ";
    for (size_t i = 0; i < a.args.size(); ++i) {
      if (!(a.arg(i)->type == b.arg(i)->type))
        return context + ": argument " + std::to_string(i) + " types differ: " +
               toString(a.arg(i)->type) + " vs " + toString(b.arg(i)->type);
      map_[a.arg(i)] = b.arg(i);
    }
    size_t n = std::min(a.ops.size(), b.ops.size());
    for (size_t i = 0; i < n; ++i)
      if (auto d = op(*a.ops[i], *b.ops[i])) return d;
    if (a.ops.size() != b.ops.size()) {
      const auto &longer = a.ops.size() > b.ops.size() ? a.ops : b.ops;
      return context + ": " + (a.ops.size() > b.ops.size() ? "the first" : "the second") +
             " function has an extra op " + where(*longer[n]);
    }
    return std::nullopt;
  }

  std::optional<std::string> op(const Op &a, const Op &b) {
    std::string pair = where(a) + " vs " + where(b);
    if (a.kind != b.kind) return "ops differ: " + pair;
    if (a.attrs != b.attrs && withoutDefaults(a.attrs) != withoutDefaults(b.attrs))
      return "attributes differ: " + pair;
    if (a.operands.size() != b.operands.size()) return "operand counts differ: " + pair;
    for (size_t i = 0; i < a.operands.size(); ++i) {
      auto it = map_.find(a.operand(i));
      if (it == map_.end() || it->second != b.operand(i))
        return "operand " + std::to_string(i) + " differs: " + pair;
    }
    if (a.results.size() != b.results.size()) return "result counts differ: " + pair;
    for (size_t i = 0; i < a.results.size(); ++i) {
      if (!(a.result(i)->type == b.result(i)->type))
        return "result " + std::to_string(i) + " types differ: " + toString(a.result(i)->type) +
               " vs " + toString(b.result(i)->type) + ": " + pair;
      map_[a.result(i)] = b.result(i);
    }
    if (a.regions.size() != b.regions.size()) return "region counts differ: " + pair;
    for (size_t r = 0; r < a.regions.size(); ++r)
      if (auto d = block(a.region(r), b.region(r), "region " + std::to_string(r) + " of " + pair))
        return d;
    return std::nullopt;
  }

  std::unordered_map<const Value *, const Value *> map_;
};

} // namespace

std::optional<std::string> firstDifference(const Func &a, const Func &b, EquivalenceOptions opts) {
  return Comparer().run(a, b, opts);
}

} // namespace twintile::ir
