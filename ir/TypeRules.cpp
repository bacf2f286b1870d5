#include "ir/TypeRules.h"

#include "ir/Descriptor.h"
#include "ir/Diagnostic.h"

#include <algorithm>
#include <cstdint>
#include <cstdint>
#include <limits>

namespace twintile::ir {

Attr::Kind attrKind(std::string_view name) {
  if (name == "perm" || name == "values" || name == "block") return Attr::Kind::Ints;
  if (name == "prefix" || name == "msg" || name == "sem" || name == "scope" || name == "cache" || name == "evict" ||
      name == "precision")
    return Attr::Kind::String;
  return Attr::Kind::Int;  // axis, start, end; "value" is checked per type
}

namespace {

std::string q(std::string_view opName) { return "'" + std::string(opName) + "'"; }
std::string t(const Type &ty) { return toString(ty); }

TypeRuleResult fail(std::string msg) { return {{}, std::move(msg)}; }
TypeRuleResult ok(Type ty) { return {{std::move(ty)}, {}}; }
TypeRuleResult none() { return {{}, {}}; }

/// Checks the attributes named in the table against their kinds.
std::string checkAttrs(const OpInfo &info, const AttrMap &attrs) {
  for (std::string_view name : info.attrs) {
    auto it = attrs.find(std::string(name));
    if (it == attrs.end()) return q(info.name) + " requires attribute '" + std::string(name) + "'";
    if (name == "value") {
      if (it->second.kind != Attr::Kind::Int && it->second.kind != Attr::Kind::Float)
        return q(info.name) + " attribute 'value' must be a number";
      continue;
    }
    if (it->second.kind != attrKind(name))
      return q(info.name) + " attribute '" + std::string(name) + "' has the wrong kind: " +
             toString(it->second);
  }
  for (auto &[name, a] : attrs) {
    if (std::find(info.attrs.begin(), info.attrs.end(), name) != info.attrs.end()) continue;
    if (std::find(info.optional.begin(), info.optional.end(), name) == info.optional.end())
      return q(info.name) + " has unknown attribute '" + name + "'";
    if (a.kind != attrKind(name))
      return q(info.name) + " attribute '" + name + "' has the wrong kind: " + toString(a);
  }
  return {};
}

bool validAxis(int64_t axis, int64_t rank) { return axis >= 0 && axis < rank; }

TypeRuleResult elementwise(const OpInfo &info, const std::vector<Type> &ops) {
  const Type &a = ops[0];
  for (size_t i = 1; i < ops.size(); ++i)
    if (!(ops[i] == a))
      return fail(q(info.name) + " operands must have the same type, got " + t(a) + " and " +
                  t(ops[i]));
  if (a.isPtr() && !info.has(Compare))
    return fail(q(info.name) + " does not apply to pointers, got " + t(a));
  if (info.has(FloatOnly) && !a.isFloat())
    return fail(q(info.name) + " requires a float type, got " + t(a));
  if (info.has(IntOnly) && !a.isInt())
    return fail(q(info.name) + " requires an integer type, got " + t(a));
  if (info.kind == OpKind::Not && !a.isInt())
    return fail(q(info.name) + " requires an integer type, got " + t(a));
  if (info.has(Compare)) return ok(a.withElem(ScalarKind::I1));
  return ok(a);
}

TypeRuleResult reduction(const OpInfo &info, const Type &in, int64_t axis) {
  if (!in.isTile()) return fail(q(info.name) + " requires a tile operand, got " + t(in));
  if (!validAxis(axis, in.rank()))
    return fail(q(info.name) + " axis " + std::to_string(axis) + " is out of range for " + t(in));
  if (in.isPtr()) return fail(q(info.name) + " does not apply to pointers, got " + t(in));
  if (info.kind == OpKind::Cumsum || info.kind == OpKind::Scan) return ok(in);
  Shape s = in.shape;
  s.erase(s.begin() + axis);
  ScalarKind elem = info.kind == OpKind::Argmax || info.kind == OpKind::Argmin ? ScalarKind::I32
                                                                              : in.elem;
  return ok(Type::tile(s, elem));  // a scalar when the tile was 1-D
}

} // namespace

std::string descriptorBlockProblem(const std::vector<int64_t> &block, ScalarKind elem) {
  std::string shape = "[" + shapeString(block) + "]";
  if (elem == ScalarKind::I1) return "elements are i1: a descriptor's are a byte or wider (load masks through a pointer)";
  if (block.empty() || block.size() > kMaxDescriptorRank)
    return "block " + shape + " must have 1 to " + std::to_string(kMaxDescriptorRank) + " dimensions";
  for (int64_t b : block)
    if (b < 1 || b > kMaxDescriptorBlock || (b & (b - 1)))
      return "block " + shape + ": each size must be a power of two of at most " + std::to_string(kMaxDescriptorBlock);
  if (block.back() * byteSize(elem) < kMinDescriptorInnerBytes)
    return "block " + shape + ": the innermost size must span at least " + std::to_string(kMinDescriptorInnerBytes) +
           " bytes (" + std::to_string(kMinDescriptorInnerBytes / byteSize(elem)) + " " + std::string(scalarName(elem)) +
           " elements)";
  return {};
}

namespace {

/// descriptor_load and descriptor_store: the block within TMA's limits, the
/// operands Descriptor.h's, the tile the block's.
TypeRuleResult descriptor(const OpInfo &info, const std::vector<Type> &ops, const std::vector<int64_t> &block) {
  size_t rank = block.size();
  if (rank < 1 || rank > kMaxDescriptorRank) return fail(q(info.name) + " " + descriptorBlockProblem(block, ScalarKind::I8));
  if (ops.size() != DescriptorOperands::count(info.kind, rank))
    return fail(q(info.name) + " of rank " + std::to_string(rank) + " takes " +
                std::to_string(DescriptorOperands::count(info.kind, rank)) +
                " operands (base, shape, strides but the innermost, offsets" +
                (info.kind == OpKind::DescriptorStore ? ", value" : "") + "), got " + std::to_string(ops.size()));
  const Type &base = ops[0];
  if (!base.isPtr() || base.isTile()) return fail(q(info.name) + " base must be a scalar pointer, got " + t(base));
  if (std::string why = descriptorBlockProblem(block, base.pointee); !why.empty()) return fail(q(info.name) + " " + why);
  const Type &index = ops[1];
  if (index.isTile() || !(index.elem == ScalarKind::I32 || index.elem == ScalarKind::I64))
    return fail(q(info.name) + " shape and offsets must be i32 or i64 scalars, got " + t(index));
  for (size_t i = 1; i < 3 * rank; ++i) {
    bool stride = i > rank && i < 2 * rank;
    const Type want = stride ? Type::scalar(ScalarKind::I64) : index;
    if (!(ops[i] == want))
      return fail(q(info.name) + (stride ? " strides must be i64, got " + t(ops[i])
                                         : " shape and offsets must have one type, got " + t(index) + " and " + t(ops[i])));
  }
  Type tile = Type::tile(block, base.pointee);
  if (info.kind == OpKind::DescriptorLoad) return ok(tile);
  if (!(ops.back() == tile)) return fail(q(info.name) + " value must be " + t(tile) + ", got " + t(ops.back()));
  return none();
}

TypeRuleResult inferUnchecked(OpKind kind, const std::vector<Type> &ops, const AttrMap &attrs,
                              const std::vector<Type> &given) {
  const OpInfo &info = opInfo(kind);
  int n = static_cast<int>(ops.size());
  if (n < info.minOperands || (info.maxOperands >= 0 && n > info.maxOperands)) {
    std::string want = info.maxOperands < 0 ? "at least " + std::to_string(info.minOperands)
                       : info.minOperands == info.maxOperands
                           ? std::to_string(info.minOperands)
                           : std::to_string(info.minOperands) + " to " +
                                 std::to_string(info.maxOperands);
    return fail(q(info.name) + " takes " + want + " operands, got " + std::to_string(n));
  }
  if (std::string e = checkAttrs(info, attrs); !e.empty()) return fail(e);
  if (info.has(ExplicitType) && given.size() != 1)
    return fail(q(info.name) + " needs one explicit result type");
  if (info.has(ExplicitType))
    if (std::string e = checkType(given[0]); !e.empty()) return fail(q(info.name) + " result " + e);

  switch (kind) {
  case OpKind::ProgramId:
  case OpKind::NumPrograms: {
    int64_t axis = attrs.at("axis").i;
    if (axis < 0 || axis > 2)
      return fail(q(info.name) + " axis must be 0, 1 or 2, got " + std::to_string(axis));
    return ok(Type::scalar(ScalarKind::I32));
  }
  case OpKind::Constant: {
    const Type &r = given[0];
    if (r.isPtr()) return fail("'constant' cannot have pointer type " + t(r));
    if (r.isInt() && attrs.at("value").kind != Attr::Kind::Int)
      return fail("'constant' of integer type " + t(r) + " needs an integer value, got " +
                  toString(attrs.at("value")));
    if (r.isFloat() && attrs.at("value").kind != Attr::Kind::Float)
      return fail("'constant' of float type " + t(r) + " needs a float value, got " +
                  toString(attrs.at("value")));
    return ok(r);
  }
  case OpKind::Arange: {
    int64_t s = attrs.at("start").i, e = attrs.at("end").i;
    if (e <= s)
      return fail("'arange' needs start < end, got [" + std::to_string(s) + ", " +
                  std::to_string(e) + ")");
    // arange yields i32: the range must fit, and make a tile of legal size.
    if (s < INT32_MIN || e - 1 > INT32_MAX || e - s > kMaxTileElements)
      return fail("'arange' range [" + std::to_string(s) + ", " + std::to_string(e) +
                  ") must lie in i32 and hold at most " + std::to_string(kMaxTileElements) +
                  " elements");
    return ok(Type::tile({e - s}, ScalarKind::I32));
  }
  case OpKind::Splat: {
    const Type &r = given[0];
    if (!ops[0].isScalar()) return fail("'splat' operand must be a scalar, got " + t(ops[0]));
    if (!r.isTile() || !(r.elementType() == ops[0]))
      return fail("'splat' result must be a tile of " + t(ops[0]) + ", got " + t(r));
    return ok(r);
  }
  case OpKind::Broadcast: {
    const Type &in = ops[0], &r = given[0];
    if (!(r.elementType() == in.elementType()) || r.rank() != in.rank() || !in.isTile())
      return fail("'broadcast' cannot broadcast " + t(in) + " to " + t(r));
    for (int64_t d = 0; d < in.rank(); ++d)
      if (in.shape[d] != r.shape[d] && in.shape[d] != 1)
        return fail("'broadcast' cannot broadcast " + t(in) + " to " + t(r) + ": dimension " +
                    std::to_string(d) + " is " + std::to_string(in.shape[d]) + ", not 1 or " +
                    std::to_string(r.shape[d]));
    return ok(r);
  }
  case OpKind::ExpandDims: {
    int64_t axis = attrs.at("axis").i;
    if (axis < 0 || axis > ops[0].rank())
      return fail("'expand_dims' axis " + std::to_string(axis) + " is out of range for " +
                  t(ops[0]));
    Shape s = ops[0].shape;
    s.insert(s.begin() + axis, 1);
    return ok(ops[0].withShape(s));
  }
  case OpKind::Reshape: {
    const Type &in = ops[0], &r = given[0];
    if (!(r.elementType() == in.elementType()) || !r.isTile() ||
        r.numElements() != in.numElements())
      return fail("'reshape' cannot reshape " + t(in) + " to " + t(r));
    return ok(r);
  }
  case OpKind::Trans: {
    const std::vector<int64_t> &perm = attrs.at("perm").ints;
    const Type &in = ops[0];
    std::vector<int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    bool isPerm = static_cast<int64_t>(perm.size()) == in.rank();
    for (size_t i = 0; isPerm && i < sorted.size(); ++i) isPerm = sorted[i] == static_cast<int64_t>(i);
    if (!isPerm || !in.isTile())
      return fail("'trans' perm " + toString(attrs.at("perm")) + " is not a permutation of the " +
                  "dimensions of " + t(in));
    Shape s;
    for (int64_t p : perm) s.push_back(in.shape[p]);
    return ok(in.withShape(s));
  }
  case OpKind::Select: {
    if (ops[0].elem != ScalarKind::I1 || ops[0].shape != ops[1].shape)
      return fail("'select' condition must be i1 of the values' shape, got " + t(ops[0]) +
                  " for " + t(ops[1]));
    if (!(ops[1] == ops[2]))
      return fail("'select' values must have the same type, got " + t(ops[1]) + " and " +
                  t(ops[2]));
    return ok(ops[1]);
  }
  case OpKind::Cast: {
    const Type &in = ops[0], &r = given[0];
    if (in.shape != r.shape)
      return fail("'cast' cannot change the shape: " + t(in) + " to " + t(r));
    if (in.isPtr() || r.isPtr()) return fail("'cast' cannot convert pointers: " + t(in) + " to " + t(r));
    return ok(r);
  }
  case OpKind::MultipleOf:
  case OpKind::MaxContiguous: {
    const Type &x = ops[0];
    const std::vector<int64_t> &v = attrs.at("values").ints;
    if (!x.isInt() || x.elem == ScalarKind::I1) return fail(q(info.name) + " applies to integers, got " + t(x));
    if (static_cast<int64_t>(v.size()) != std::max<int64_t>(x.rank(), 1))
      return fail(q(info.name) + " needs one value per dimension of " + t(x) + ", got " + std::to_string(v.size()));
    for (int64_t n : v)
      if (n < 1 || n > (int64_t(1) << 30) || (n & (n - 1)))
        return fail(q(info.name) + " values must be powers of two, got " + std::to_string(n));
    return ok(x);
  }
  case OpKind::Bitcast: {
    const Type &in = ops[0], &r = given[0];
    if (in.shape != r.shape) return fail("'bitcast' cannot change the shape: " + t(in) + " to " + t(r));
    if (in.isPtr() || r.isPtr() || in.elem == ScalarKind::I1 || r.elem == ScalarKind::I1 ||
        bitWidth(in.elem) != bitWidth(r.elem))
      return fail("'bitcast' needs two element types of one width (not i1, not pointers): " + t(in) + " to " + t(r));
    return ok(r);
  }
  case OpKind::AddPtr: {
    if (!ops[0].isPtr()) return fail("'addptr' base must be a pointer, got " + t(ops[0]));
    if (!ops[1].isInt() || ops[1].elem == ScalarKind::I1 || ops[1].shape != ops[0].shape)
      return fail("'addptr' offset must be an integer of the pointer's shape, got " + t(ops[1]) +
                  " for " + t(ops[0]));
    return ok(ops[0]);
  }
  case OpKind::Load:
  case OpKind::Store:
  case OpKind::AtomicAdd: case OpKind::AtomicMax: case OpKind::AtomicMin: case OpKind::AtomicAnd:
  case OpKind::AtomicOr: case OpKind::AtomicXor: case OpKind::AtomicXchg: case OpKind::AtomicCas: {
    const Type &p = ops[0];
    if (!p.isPtr()) return fail(q(info.name) + " address must be a pointer, got " + t(p));
    Type value = Type::tile(p.shape, p.pointee);
    size_t maskIdx = static_cast<size_t>(maskOperand(kind));
    for (int i = kind == OpKind::AtomicCas ? 1 : valueOperand(kind); i <= valueOperand(kind) && kind != OpKind::Load; ++i)
      if (!(ops[static_cast<size_t>(i)] == value))
        return fail(q(info.name) + " value must be " + t(value) + " for address " + t(p) + ", got " +
                    t(ops[static_cast<size_t>(i)]));
    if (ops.size() > maskIdx && !(ops[maskIdx] == value.withElem(ScalarKind::I1)))
      return fail(q(info.name) + " mask must be " + t(value.withElem(ScalarKind::I1)) + ", got " +
                  t(ops[maskIdx]));
    if (kind == OpKind::Load && ops.size() > 2 && !(ops[2] == value))
      return fail("'load' other must be " + t(value) + ", got " + t(ops[2]));
    // An attribute's value among `names` (or absent); "" is not one.
    auto oneOf = [&](const char *name, const auto &names) -> std::string {
      auto it = attrs.find(name);
      if (it == attrs.end() ||
          (!it->second.s.empty() && std::find(std::begin(names), std::end(names), it->second.s) != std::end(names)))
        return {};
      std::string list;
      for (std::string_view n : names)
        if (!n.empty()) list += (list.empty() ? "" : ", ") + std::string(n);
      return q(info.name) + " " + name + " must be one of " + list + ", got '" + it->second.s + "'";
    };
    if (kind == OpKind::Load || kind == OpKind::Store) {
      static constexpr std::string_view loadCaches[] = {"ca", "cg", "cv", "volatile"},
                                        storeCaches[] = {"wb", "cg", "cs", "wt"};
      if (std::string e = kind == OpKind::Load ? oneOf("cache", loadCaches) : oneOf("cache", storeCaches); !e.empty())
        return fail(e);
      if (std::string e = oneOf("evict", kEvictionPolicies); !e.empty()) return fail(e);
      if (attrs.count("cache") && attrs.count("evict"))
        return fail(q(info.name) + " takes a cache modifier or an eviction policy, not both (PTX has no form with both)");
    }
    if (isAtomic(kind)) {
      if (value.elem == ScalarKind::I1) return fail(q(info.name) + " does not apply to i1");
      bool bitwise = kind == OpKind::AtomicAnd || kind == OpKind::AtomicOr || kind == OpKind::AtomicXor;
      if (bitwise && !value.isInt()) return fail(q(info.name) + " applies to integers, got " + t(value));
      if (kind == OpKind::AtomicCas && (!value.isInt() || bitWidth(value.elem) < 32))
        return fail("'atomic_cas' applies to 32- and 64-bit integers, got " + t(value));
      if (std::string e = oneOf("sem", kAtomicSems); !e.empty()) return fail(e);
      if (std::string e = oneOf("scope", kAtomicScopes); !e.empty()) return fail(e);
      if (attrs.count("scope") && attrs.at("scope").s == "sys")
        return fail(q(info.name) + " at sys scope is not supported: atomics are GPU-wide (gpu or cta)");
    }
    if (kind == OpKind::Store) return none();
    return ok(value);
  }
  case OpKind::DescriptorLoad:
  case OpKind::DescriptorStore: return descriptor(info, ops, attrs.at("block").ints);
  case OpKind::Sum:
  case OpKind::Max:
  case OpKind::Min:
  case OpKind::Argmax:
  case OpKind::Argmin:
  case OpKind::Cumsum:
    return reduction(info, ops[0], attrs.at("axis").i);
  case OpKind::Reduce:
  case OpKind::Scan: {  // one result per tile, the tiles of one shape
    std::vector<Type> results;
    for (const Type &in : ops) {
      if (!(in.shape == ops[0].shape))
        return fail(q(info.name) + " combines tiles of one shape, got " + t(ops[0]) + " and " + t(in));
      TypeRuleResult r = reduction(info, in, attrs.at("axis").i);
      if (!r.error.empty()) return r;
      results.push_back(r.results[0]);
    }
    return {results, {}};
  }
  case OpKind::Dot: {
    const Type &a = ops[0], &b = ops[1], &c = ops[2];
    if (a.rank() != 2 || b.rank() != 2 || c.rank() != 2 || a.shape[1] != b.shape[0] ||
        c.shape[0] != a.shape[0] || c.shape[1] != b.shape[1])
      return fail("'dot' shapes do not match: " + t(a) + " @ " + t(b) + " + " + t(c));
    if (a.elem != b.elem)
      return fail("'dot' operands must have one element type, got " + t(a) + " and " + t(b));
    bool intDot = a.elem == ScalarKind::I8 && c.elem == ScalarKind::I32;
    bool floatDot = a.isFloat() && c.isFloat() && bitWidth(c.elem) >= 32 &&
                    bitWidth(c.elem) >= bitWidth(a.elem);
    if (!intDot && !floatDot)
      return fail("'dot' of " + std::string(scalarName(a.elem)) + " cannot accumulate in " +
                  std::string(scalarName(c.elem)) + " (f16, bf16, f32 into f32; f64 into f64; " +
                  "i8 into i32)");
    if (auto it = attrs.find("precision"); it != attrs.end()) {
      if (it->second.s != "ieee" && it->second.s != "tf32")
        return fail("'dot' precision must be ieee or tf32, got '" + it->second.s + "'");
      if (it->second.s == "tf32" && (a.elem != ScalarKind::F32 || c.elem != ScalarKind::F32))
        return fail("'dot' precision tf32 is for f32 operands accumulating in f32, got " + t(a) + " and " + t(c));
    }
    return ok(c);
  }
  case OpKind::Print:
  case OpKind::Barrier: return none();
  case OpKind::Assert:
    if (ops[0].elem != ScalarKind::I1)
      return fail("'device_assert' condition must be i1, got " + t(ops[0]));
    return none();
  case OpKind::For: {
    for (int i = 0; i < 3; ++i)
      if (!ops[i].isScalar() || !ops[i].isInt() || ops[i].isUnsigned() || !(ops[i] == ops[0]))
        return fail("'for' bounds and step must be scalars of one signed integer type, got " + t(ops[0]) +
                    ", " + t(ops[1]) + ", " + t(ops[2]));
    return {std::vector<Type>(ops.begin() + 3, ops.end()), {}};
  }
  case OpKind::If:
    if (!(ops[0] == Type::scalar(ScalarKind::I1)))
      return fail("'if' condition must be a scalar i1, got " + t(ops[0]));
    return {given, {}};
  case OpKind::While: return {ops, {}};
  case OpKind::Yield:
  case OpKind::Return: return none();
  TT_ARITH_CASES:
    return elementwise(info, ops);
  }
  throw InternalError("no typing rule for " + q(info.name));
}

} // namespace

TypeRuleResult inferResultTypes(OpKind kind, const std::vector<Type> &ops, const AttrMap &attrs,
                                const std::vector<Type> &given) {
  TypeRuleResult r = inferUnchecked(kind, ops, attrs, given);
  // A result the rule computes is held to what every type must be (rank,
  // element count): an expand_dims too many is the user's error here, at the
  // op, not the verifier's later.
  for (const Type &t : r.results)
    if (std::string e = checkType(t); r.error.empty() && !e.empty())
      r = fail(std::string("the result of ") + q(opInfo(kind).name) + ": " + e);
  return r;
}

} // namespace twintile::ir
