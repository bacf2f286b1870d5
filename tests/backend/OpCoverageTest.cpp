// Every elementwise op on every element type it accepts, every cast between
// element types, every reduction and scan on every type, atomics and scalar
// memory: each compiles for sm_90a and sm_80 without LLVM failing to select an
// instruction, ptxas accepts the PTX, and the PTX run in the emulator
// writes what the interpreter writes on random inputs (out-of-range shifts,
// saturating casts, NaN and infinities included). Kernels are generated as
// IR text.
#include "Differential.h"

#include "backend/Backend.h"
#include "ir/Parser.h"
#include "ir/Type.h"

#include <catch2/catch.hpp>

#include <random>
#include <sstream>

namespace ir = tt::ir;
namespace be = tt::backend;

namespace {

const std::vector<std::string> kTypes = {"i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"};
bool isFloatName(const std::string &t) { return t[0] == 'f' || t[0] == 'b'; }

/// Random contents for a buffer of `k`: small integers (never 0 in %b, the
/// divisor), i1 as 0/1, floats over a range wide enough to saturate casts.
ir::Buffer randomBuffer(ir::ScalarKind k, const std::string &name, std::mt19937 &rng, double range) {
  ir::Buffer buf(k, 128, name);
  for (size_t i = 0; i < 128; ++i) {
    if (k == ir::ScalarKind::I1) buf.setInt(i, std::uniform_int_distribution<int>(0, 1)(rng));
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
  tt::test::DiffOptions o;
  o.arch = arch;
  tt::test::runsLikeInterpreter(f, {1, 1, 1}, bufs, args, o);
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

} // namespace

TEST_CASE("every cast between element types compiles", "[backend][coverage]") {
  for (const std::string &from : kTypes)
    for (const std::string &to : kTypes)
      compiles(kernel(from, to, "  %r = cast %av : tile<128x" + to + ">\n"), from + " -> " + to, 300);
}

TEST_CASE("every elementwise op compiles on every type it accepts", "[backend][coverage]") {
  for (const std::string &t : kTypes) {
    bool fp = isFloatName(t);
    std::string tile = "tile<128x" + t + ">";
    std::vector<std::string> unary = {"neg", "abs"}, binary = {"add", "sub", "mul", "div", "rem", "minimum", "maximum"};
    if (fp)
      for (const char *m : {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid"}) unary.push_back(m);
    else {
      unary.push_back("not");
      for (const char *b : {"and", "or", "xor", "shl", "shr"}) binary.push_back(b);
    }
    if (t == "i1") binary = {"and", "or", "xor"}, unary = {"not"};
    for (const std::string &op : unary) compiles(kernel(t, t, "  %r = " + op + " %av : " + tile + "\n"), op + " " + t);
    for (const std::string &op : binary) compiles(kernel(t, t, "  %r = " + op + " %av, %bv : " + tile + "\n"), op + " " + t);
    for (const char *cmp : {"eq", "ne", "lt", "le", "gt", "ge"})
      compiles(kernel(t, "i1", std::string("  %r = ") + cmp + " %av, %bv : tile<128xi1>\n"), std::string(cmp) + " " + t);
    compiles(kernel(t, t, "  %m = lt %av, %bv : tile<128xi1>\n  %r = select %m, %av, %cv : " + tile + "\n"), "select " + t);
    if (fp) compiles(kernel(t, t, "  %r = fma %av, %bv, %cv : " + tile + "\n"), "fma " + t);
  }
}

TEST_CASE("every reduction and cumsum compiles on every type it accepts", "[backend][coverage]") {
  for (const std::string &t : kTypes) {
    if (t == "i1") continue;
    std::string tile = "tile<128x" + t + ">";
    for (const char *red : {"sum", "max", "min"}) {
      std::string body = std::string("  %s = ") + red + " {axis = 0} %av : " + t + "\n  %r = splat %s : " + tile + "\n";
      compiles(kernel(t, t, body), std::string(red) + " " + t);
    }
    for (const char *arg : {"argmax", "argmin"})
      compiles(kernel(t, "i32", std::string("  %s = ") + arg + " {axis = 0} %av : i32\n  %r = splat %s : tile<128xi32>\n"),
               std::string(arg) + " " + t);
    compiles(kernel(t, t, "  %r = cumsum {axis = 0} %av : " + tile + "\n"), "cumsum " + t);
  }
}

TEST_CASE("atomics, masked and scalar accesses compile on every type", "[backend][coverage]") {
  for (const std::string &t : kTypes) {
    if (t == "i1") continue;
    std::string tile = "tile<128x" + t + ">";
    compiles(kernel(t, t, "  %m = lt %av, %bv : tile<128xi1>\n  %r = atomic_add %bp, %av, %m : " + tile + "\n"),
             "atomic_add " + t);
    compiles(kernel(t, t, "  %x = load %a : " + t + "\n  %old = atomic_add %b, %x : " + t +
                              "\n  store %c, %old\n  %r = splat %old : " + tile + "\n"),
             "scalar load, atomic_add, store " + t);
    compiles(kernel(t, t, "  %m = lt %av, %bv : tile<128xi1>\n  %r = load %bp, %m, %cv : " + tile + "\n"),
             "masked load with other " + t);
  }
}
