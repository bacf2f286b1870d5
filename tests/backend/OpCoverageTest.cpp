// Every elementwise op on every element type it accepts, every cast between
// element types, every reduction and scan on every type (reduce and scan
// with a region among them), atomics and scalar
// memory: each compiles for sm_90a and sm_80 without LLVM failing to select an
// instruction, ptxas accepts the PTX, and the PTX run in the emulator
// writes what the interpreter writes on random inputs (out-of-range shifts,
// saturating casts, NaN and infinities included). Kernels are generated as
// IR text.
#include "Differential.h"

#include "backend/Backend.h"
#include "ir/Parser.h"
#include "ir/Type.h"
#include "ir/TypeRules.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <sstream>

namespace ir = twintile::ir;
namespace be = twintile::backend;

namespace {

const std::vector<std::string> kTypes = {"i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"};

/// Random contents for a buffer of `k`: small integers (never 0 in %b, the
/// divisor: for i1, all 1), i1 as 0/1, floats over a range wide enough to saturate casts.
ir::Buffer randomBuffer(ir::ScalarKind k, const std::string &name, std::mt19937 &rng, double range) {
  ir::Buffer buf(k, 128, name);
  for (size_t i = 0; i < 128; ++i) {
    if (k == ir::ScalarKind::I1) buf.setInt(i, name == "b" ? 1 : std::uniform_int_distribution<int>(0, 1)(rng));
    else if (ir::isInt(k)) {
      int64_t v = std::uniform_int_distribution<int64_t>(-70, 70)(rng);
      buf.setInt(i, name == "b" && v == 0 ? 3 : v);
    } else buf.set(i, std::uniform_real_distribution<double>(-range, range)(rng));
  }
  return buf;
}

/// The emulated PTX of `f` for `arch` against the interpreter, one program of 128.
void runsLikeInterpreter(const ir::Func &f, const std::string &arch, double range) {
  std::mt19937 rng(7);
  std::vector<ir::Buffer> bufs;
  std::vector<ir::KernelArg> args;
  for (size_t i = 0; i < f.numParams(); ++i) {
    bufs.push_back(randomBuffer(f.param(i)->type.pointee, f.param(i)->name, rng, range));
    args.push_back(ir::KernelArg::buf(i));
  }
  twintile::test::DiffOptions o;
  o.arch = arch;
  twintile::test::runsLikeInterpreter(f, {1, 1, 1}, bufs, args, o);
}

void compiles(const std::string &text, const std::string &what, double range = 4) {
  INFO(what << "\n" << text);
  ir::ParseResult p = ir::parseModule(text);
  INFO((p.error ? p.error->str() : std::string()));
  REQUIRE(p.module);
  for (const char *arch : {"sm_90a", "sm_80"}) {
    INFO(arch);
    be::CompileOptions o;
    o.arch = arch;
    o.useCache = false;
    be::CompileResult r;
    try {
      r = be::compile(*p.module->funcs[0], o);
    } catch (const be::BackendError &e) {
      FAIL(e.diag.str());
    }
    if (r.ptxas.ran) {
      INFO(r.ptxas.log);
      CHECK(r.ptxas.ok);
    }
    runsLikeInterpreter(*p.module->funcs[0], arch, range);
  }
}

/// A kernel that loads tile<128xT> from %a (and %b, %c), applies `body`
/// (which defines %r of type tile<128xR>) and stores %r to %out.
std::string kernel(const std::string &t, const std::string &r, const std::string &body) {
  std::ostringstream os;
  os << "func @k(%a: ptr<" << t << ">, %b: ptr<" << t << ">, %c: ptr<" << t << ">, %out: ptr<" << r << ">) {\n"
     << "  %i = arange {end = 128, start = 0} : tile<128xi32>\n";
  for (const char *p : {"a", "b", "c"})
    os << "  %" << p << "s = splat %" << p << " : tile<128xptr<" << t << ">>\n"
       << "  %" << p << "p = addptr %" << p << "s, %i : tile<128xptr<" << t << ">>\n"
       << "  %" << p << "v = load %" << p << "p : tile<128x" << t << ">\n";
  os << body << "  %os = splat %out : tile<128xptr<" << r << ">>\n"
     << "  %op = addptr %os, %i : tile<128xptr<" << r << ">>\n"
     << "  store %op, %r\n  return\n}\n";
  return os.str();
}

/// The element type `kind`'s typing rule gives on operands of tile<128xT>
/// (with `attrs`), or "" where the rule refuses them.
std::string resultElem(ir::OpKind kind, const std::string &t, const ir::AttrMap &attrs = {}) {
  ir::ScalarKind k = *ir::parseScalarName(t);
  std::vector<ir::Type> ops(static_cast<size_t>(ir::opInfo(kind).minOperands), ir::Type::tile({128}, k));
  ir::TypeRuleResult r = ir::inferResultTypes(kind, ops, attrs, {});
  return r.error.empty() && r.results.size() == 1 ? std::string(ir::scalarName(r.results[0].elem)) : "";
}

/// The ops of `families`, from the op table: a new op is covered by its line in ir/Ops.def.
std::vector<const ir::OpInfo *> opsOf(std::initializer_list<ir::OpFamily> families) {
  std::vector<const ir::OpInfo *> out;
  for (const ir::OpInfo &info : ir::allOps())
    if (std::find(families.begin(), families.end(), info.family) != families.end()) out.push_back(&info);
  return out;
}

} // namespace

TEST_CASE("every cast between element types compiles", "[backend][coverage]") {
  for (const std::string &from : kTypes)
    for (const std::string &to : kTypes)
      compiles(kernel(from, to, "  %r = cast %av : tile<128x" + to + ">\n"), from + " -> " + to, 300);
}

TEST_CASE("every bitcast between element types of one width compiles", "[backend][coverage]") {
  int compiled = 0;
  for (const std::string &from : kTypes)
    for (const std::string &to : kTypes) {
      ir::Type in = ir::Type::tile({128}, *ir::parseScalarName(from)), out = in.withElem(*ir::parseScalarName(to));
      if (!ir::inferResultTypes(ir::OpKind::Bitcast, {in}, {}, {out}).error.empty()) continue;
      compiles(kernel(from, to, "  %r = bitcast %av : tile<128x" + to + ">\n"), "bitcast " + from + " -> " + to, 300);
      ++compiled;
    }
  CHECK(compiled == 18);  // i8 (1); i16, f16, bf16 (9); i32, f32 (4); i64, f64 (4)
}

TEST_CASE("every elementwise op compiles on every type it accepts", "[backend][coverage]") {
  std::vector<const ir::OpInfo *> ops = opsOf({ir::OpFamily::Unary, ir::OpFamily::Binary, ir::OpFamily::Compare,
                                               ir::OpFamily::Fma});
  CHECK(ops.size() >= 32);
  int compiled = 0;
  for (const std::string &t : kTypes) {
    for (const ir::OpInfo *op : ops) {
      std::string r = resultElem(op->kind, t);
      if (r.empty()) continue;  // the op's typing rule refuses this type
      static const char *const operands[] = {" %av", ", %bv", ", %cv"};
      std::string body = "  %r = " + std::string(op->name);
      for (int i = 0; i < op->minOperands; ++i) body += operands[i];
      body += " : tile<128x" + r + ">\n";
      compiles(kernel(t, r, body), std::string(op->name) + " " + t);
      ++compiled;
    }
    std::string tile = "tile<128x" + t + ">";
    compiles(kernel(t, t, "  %m = lt %av, %bv : tile<128xi1>\n  %r = select %m, %av, %cv : " + tile + "\n"), "select " + t);
  }
  CHECK(compiled >= 200);  // 9 types, most ops on most of them
}

TEST_CASE("every reduction and scan compiles on every type it accepts", "[backend][coverage]") {
  for (const std::string &t : kTypes)
    for (const ir::OpInfo *op : opsOf({ir::OpFamily::Reduction, ir::OpFamily::Scan})) {
      std::string r = resultElem(op->kind, t, {{"axis", ir::Attr::integer(0)}});
      if (r.empty()) continue;
      std::string name(op->name), tile = "tile<128x" + r + ">";
      std::string body = op->family == ir::OpFamily::Scan
                             ? "  %r = " + name + " {axis = 0} %av : " + tile + "\n"
                             : "  %s = " + name + " {axis = 0} %av : " + r + "\n  %r = splat %s : " + tile + "\n";
      compiles(kernel(t, r, body), name + " " + t);
    }
}

TEST_CASE("reduce and scan with a region compile on every type", "[backend][coverage]") {
  // xor counts every element once (a wrapped copy counted twice shows);
  // floats take maximum, whose result does not depend on the order.
  for (const std::string &t : kTypes)
    for (const ir::OpInfo *op : opsOf({ir::OpFamily::Combine})) {
      std::string name(op->name), tile = "tile<128x" + t + ">";
      bool fp = ir::isFloat(*ir::parseScalarName(t));
      std::string region = " {\n  ^(%x: " + t + ", %y: " + t + "):\n    %z = " + (fp ? "maximum" : "xor") +
                           " %x, %y : " + t + "\n    yield %z\n  }\n";
      std::string body = op->kind == ir::OpKind::Scan
                             ? "  %r = " + name + " {axis = 0} %av : " + tile + region
                             : "  %s = " + name + " {axis = 0} %av : " + t + region + "  %r = splat %s : " + tile + "\n";
      compiles(kernel(t, t, body), name + " " + t);
    }
}

TEST_CASE("every atomic, masked and scalar accesses compile on every type", "[backend][coverage]") {
  for (const std::string &t : kTypes) {
    if (t == "i1") continue;
    std::string tile = "tile<128x" + t + ">";
    for (const ir::OpInfo *op : opsOf({ir::OpFamily::Memory})) {
      if (!ir::isAtomic(op->kind) || op->kind == ir::OpKind::AtomicCas) continue;
      ir::Type ptrs = ir::Type::ptrTile({128}, *ir::parseScalarName(t)), vals = ir::Type::tile({128}, *ir::parseScalarName(t));
      if (!ir::inferResultTypes(op->kind, {ptrs, vals}, {}, {}).error.empty()) continue;  // e.g. atomic_and on floats
      std::string name(op->name);
      compiles(kernel(t, t, "  %m = lt %av, %bv : tile<128xi1>\n  %r = " + name + " %bp, %av, %m : " + tile + "\n"),
               name + " " + t);
      compiles(kernel(t, t, "  %r = " + name + " {scope = \"cta\", sem = \"acq_rel\"} %bp, %av : " + tile + "\n"),
               name + " acq_rel " + t);
    }
    if (t == "i32" || t == "i64")  // atomic_cas: where b holds a, write c (the old b comes back)
      compiles(kernel(t, t, "  %r = atomic_cas %bp, %av, %cv : " + tile + "\n"), "atomic_cas " + t);
    compiles(kernel(t, t, "  %x = load %a : " + t + "\n  %old = atomic_add %b, %x : " + t +
                              "\n  store %c, %old\n  %r = splat %old : " + tile + "\n"),
             "scalar load, atomic_add, store " + t);
    compiles(kernel(t, t, "  %x = load %a : " + t + "\n  %old = atomic_xchg {sem = \"release\"} %b, %x : " + t +
                              "\n  store %c, %old\n  %r = splat %old : " + tile + "\n"),
             "scalar atomic_xchg " + t);
    compiles(kernel(t, t, "  %m = lt %av, %bv : tile<128xi1>\n  %r = load %bp, %m, %cv : " + tile + "\n"),
             "masked load with other " + t);
  }
}

TEST_CASE("loads and stores with cache and eviction hints compile on every type", "[backend][coverage]") {
  // One element per thread and masked (predicated PTX), and scalars; the
  // kernel's own loads of %a..%c are plain.
  for (const std::string &t : kTypes) {
    std::string tile = "tile<128x" + t + ">";
    compiles(kernel(t, t, "  %m = ne %av, %bv : tile<128xi1>\n  %h = load {cache = \"cg\"} %bp, %m, %cv : " + tile +
                              "\n  store {evict = \"evict_first\"} %cp, %h, %m\n  %x = load {evict = \"evict_last\"} %a : " +
                              t + "\n  store {cache = \"cs\"} %b, %x\n  %r = load {cache = \"cv\"} %cp : " + tile + "\n"),
             "hinted load, store " + t);
  }
}
