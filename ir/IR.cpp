#include "ir/IR.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace twintile::ir {

//===-- The op table ----------------------------------------------------===//

namespace {
/// The attribute names of an Ops.def entry: the required ones, or (with
/// `optional`) those written "?name".
std::vector<std::string_view> splitAttrs(std::string_view s, bool optional = false) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    size_t comma = s.find(',');
    std::string_view name = s.substr(0, comma);
    if (name.starts_with('?') == optional) out.push_back(optional ? name.substr(1) : name);
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return out;
}

std::vector<OpInfo> buildTable() {
  return {
#define TT_OP(Kind, Name, MinOps, MaxOps, NumResults, NumRegions, Traits, Attrs, Family, Surface) \
  OpInfo{OpKind::Kind, Name, MinOps, MaxOps, NumResults, NumRegions, Traits, splitAttrs(Attrs), splitAttrs(Attrs, true), \
         OpFamily::Family, Surface},
#include "ir/Ops.def"
  };
}
} // namespace

const std::vector<OpInfo> &allOps() {
  static const std::vector<OpInfo> table = buildTable();
  return table;
}

const OpInfo &opInfo(OpKind k) { return allOps()[static_cast<size_t>(k)]; }

const OpInfo *surfaceOp(std::string_view surface, OpFamily family) {
  if (surface.empty()) return nullptr;
  for (const OpInfo &i : allOps())
    if (i.family == family && i.surface == surface) return &i;
  return nullptr;
}

const OpInfo *lookupOp(std::string_view name) {
  for (const OpInfo &i : allOps())
    if (i.name == name) return &i;
  return nullptr;
}

//===-- Attributes and locations ----------------------------------------===//

bool operator==(const Attr &a, const Attr &b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
  case Attr::Kind::Int: return a.i == b.i;
  case Attr::Kind::Float: return std::memcmp(&a.f, &b.f, sizeof(double)) == 0;
  case Attr::Kind::String: return a.s == b.s;
  case Attr::Kind::Ints: return a.ints == b.ints;
  }
  return false;
}

namespace {
std::string formatDouble(double v) {
  if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";  // the payload is not kept
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form
  assert(ec == std::errc() && "to_chars cannot fail on a 64-byte buffer");
  std::string s(buf, end);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";  // keep it a float literal
  return s;
}

std::string quote(const std::string &s) {
  std::string r = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') { r += '\\'; r += static_cast<char>(c); }
    else if (c == '\n') r += "\\n";
    else if (c < 0x20 || c >= 0x7f) {
      const char *hex = "0123456789abcdef";
      r += "\\x"; r += hex[c >> 4]; r += hex[c & 15];
    } else r += static_cast<char>(c);
  }
  return r + "\"";
}
} // namespace

std::string toString(const Attr &a) {
  switch (a.kind) {
  case Attr::Kind::Int: return std::to_string(a.i);
  case Attr::Kind::Float: return formatDouble(a.f);
  case Attr::Kind::String: return quote(a.s);
  case Attr::Kind::Ints: {
    std::string r = "[";
    for (size_t i = 0; i < a.ints.size(); ++i) r += (i ? ", " : "") + std::to_string(a.ints[i]);
    return r + "]";
  }
  }
  return "";
}

std::string toString(const SourcePos &p) {
  if (!p.known()) return "<unknown>";
  return p.file + ":" + std::to_string(p.line) + ":" + std::to_string(p.col);
}

//===-- Blocks, ops, functions ------------------------------------------===//

Value *Block::addArg(Type t, std::string name) {
  args.push_back(std::make_unique<Value>(std::move(t), nullptr, this, args.size()));
  args.back()->name = std::move(name);
  return args.back().get();
}

Op *Block::terminator() const {
  if (ops.empty() || !ops.back()->info().has(Terminator)) return nullptr;
  return ops.back().get();
}

std::unique_ptr<Op> Block::take(Op *op) {
  auto it = std::find_if(ops.begin(), ops.end(), [&](auto &p) { return p.get() == op; });
  assert(it != ops.end() && "op is not in this block");
  std::unique_ptr<Op> owned = std::move(*it);
  ops.erase(it);
  owned->parent = nullptr;
  return owned;
}

void Block::erase(Op *op) { take(op); }

Op *Block::insert(Op *before, std::unique_ptr<Op> op) {
  auto it = before ? std::find_if(ops.begin(), ops.end(), [&](auto &p) { return p.get() == before; })
                   : ops.end();
  assert((!before || it != ops.end()) && "insertion point is not in this block");
  op->parent = this;
  return ops.insert(it, std::move(op))->get();
}

Value *Op::addResult(Type t) {
  results.push_back(std::make_unique<Value>(std::move(t), this, nullptr, results.size()));
  return results.back().get();
}

Block &Op::addRegion() {
  regions.push_back(std::make_unique<Block>());
  regions.back()->parentOp = this;
  return *regions.back();
}

namespace {

void cloneInto(const Block &from, Block &to, std::unordered_map<const Value *, Value *> &map) {
  for (const auto &a : from.args) map[a.get()] = to.addArg(a->type, a->name);
  for (const auto &op : from.ops) {
    auto copy = std::make_unique<Op>(op->kind, op->loc);
    copy->attrs = op->attrs;
    for (const Value *v : op->operands) copy->operands.push_back(map.at(v));  // defined before, or above
    for (const auto &r : op->results) {
      Value *c = copy->addResult(r->type);
      c->name = r->name;
      map[r.get()] = c;
    }
    for (const auto &region : op->regions) cloneInto(*region, copy->addRegion(), map);
    to.insert(nullptr, std::move(copy));
  }
}

} // namespace

std::unique_ptr<Func> clone(const Func &f) {
  auto g = std::make_unique<Func>();
  g->name = f.name;
  g->meta = f.meta;
  g->numWarps = f.numWarps;
  g->numStages = f.numStages;
  g->loc = f.loc;
  std::unordered_map<const Value *, Value *> map;
  cloneInto(f.body, g->body, map);
  return g;
}

Func *Module::lookup(std::string_view name) const {
  for (auto &f : funcs)
    if (f->name == name) return f.get();
  return nullptr;
}

void walk(Block &block, const std::function<void(Op &)> &fn) {
  for (auto &op : block.ops) {
    fn(*op);
    for (auto &r : op->regions) walk(*r, fn);
  }
}

const Op *nonScalarCombineOp(const Block &region) {
  for (const auto &op : region.ops) {
    if (op->kind == OpKind::Yield) continue;
    bool scalars = true;
    for (const auto &r : op->results) scalars &= r->type.isScalar();
    switch (op->info().family) {
    case OpFamily::Unary: case OpFamily::Binary: case OpFamily::Compare: case OpFamily::Select:
    case OpFamily::Fma: case OpFamily::Cast:
      break;
    case OpFamily::Source:
      scalars &= op->kind == OpKind::Constant;
      break;
    default: scalars = false;
    }
    if (!scalars) return op.get();
  }
  return nullptr;
}

void walk(const Block &block, const std::function<void(const Op &)> &fn) {
  for (auto &op : block.ops) {
    fn(*op);
    for (auto &r : op->regions) walk(static_cast<const Block &>(*r), fn);
  }
}

void replaceAllUsesWith(Block &scope, Value *from, Value *to) {
  walk(scope, [&](Op &op) {
    for (Value *&v : op.operands)
      if (v == from) v = to;
  });
}

size_t countUses(const Block &scope, const Value *v) {
  size_t n = 0;
  walk(scope, [&](const Op &op) { n += std::count(op.operands.begin(), op.operands.end(), v); });
  return n;
}

std::string numWarpsProblem(int64_t n) {
  if (n >= 1 && n <= 32 && (n & (n - 1)) == 0) return "";
  return "num_warps must be a power of two from 1 to 32, got " + std::to_string(n);
}

std::string numStagesProblem(int64_t n) {
  if (n >= 1 && n <= kMaxStages) return "";
  return "num_stages must be from 1 to " + std::to_string(kMaxStages) + ", got " + std::to_string(n);
}

} // namespace twintile::ir
