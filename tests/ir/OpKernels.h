// Tiny kernels for the interpreter's op tests: a function built with the
// Builder, run on host buffers (InterpreterOpsTest.cpp, UnsignedOpsTest.cpp).
#pragma once

#include "ir/Builder.h"
#include "ir/Interpreter.h"
#include "ir/TypeRules.h"
#include "ir/Verifier.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace twintile::ir::test {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr int64_t kI32Max = std::numeric_limits<int32_t>::max();
inline constexpr int64_t kI32Min = std::numeric_limits<int32_t>::min();

/// A kernel under construction: a function and a builder on its body.
struct Kernel {
  Func f;
  Builder b;
  explicit Kernel(std::string name = "k") : b(f.body) { f.name = std::move(name); }
  Value *ptrParam(ScalarKind k, std::string name) { return f.body.addArg(Type::ptr(k), std::move(name)); }
  Value *param(ScalarKind k, std::string name) { return f.body.addArg(Type::scalar(k), std::move(name)); }
};

inline Value *i32(Builder &b, int64_t v) { return b.constInt(Type::scalar(ScalarKind::I32), v); }

/// base + offsets, as a tile of pointers of the offsets' shape.
inline Value *ptrsAt(Builder &b, Value *base, Value *offs) {
  if (offs->type.isScalar()) return b.addptr(base, offs);
  return b.addptr(b.splat(base, offs->type.shape), offs);
}

/// The row-major offsets r * cols + c of a rows x cols tile.
inline Value *offsets2d(Builder &b, int64_t rows, int64_t cols) {
  Shape s{rows, cols};
  Value *r = b.broadcast(b.expandDims(b.arange(0, rows), 1), s);
  Value *c = b.broadcast(b.expandDims(b.arange(0, cols), 0), s);
  return b.binary(OpKind::Add, b.binary(OpKind::Mul, r, b.splat(i32(b, cols), s)), c);
}

inline std::vector<KernelArg> bufferArgs(size_t n) {
  std::vector<KernelArg> args;
  for (size_t i = 0; i < n; ++i) args.push_back(KernelArg::buf(i));
  return args;
}

inline Buffer ints(ScalarKind k, const std::vector<int64_t> &v, std::string name = "in") {
  Buffer b(k, v.size(), std::move(name));
  for (size_t i = 0; i < v.size(); ++i) b.setInt(i, v[i]);
  return b;
}

inline std::vector<int64_t> intValues(const Buffer &b) {
  std::vector<int64_t> v;
  for (size_t i = 0; i < b.size(); ++i) v.push_back(b.getInt(i));
  return v;
}

struct MapResult {
  RunResult run;
  std::vector<Buffer> buffers;
  const Buffer &out() const { return buffers.back(); }
};

/// One program computes out[i] = fn(in0[i], in1[i], ...) over whole tiles.
inline MapResult runMap(std::vector<Buffer> inputs, ScalarKind outKind,
                 const std::function<Value *(Builder &, const std::vector<Value *> &)> &fn) {
  Kernel k;
  int64_t n = static_cast<int64_t>(inputs[0].size());
  std::vector<Value *> params;
  for (const Buffer &in : inputs) params.push_back(k.ptrParam(in.elem(), in.name()));
  Value *out = k.ptrParam(outKind, "out");
  Value *offs = k.b.arange(0, n);
  std::vector<Value *> loaded;
  for (Value *p : params) loaded.push_back(k.b.load(ptrsAt(k.b, p, offs)));
  k.b.store(ptrsAt(k.b, out, offs), fn(k.b, loaded));
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  inputs.emplace_back(outKind, static_cast<size_t>(n), "out");
  RunResult r = interpret(k.f, {}, bufferArgs(inputs.size()), inputs);
  return {std::move(r), std::move(inputs)};
}

/// out[i] = op(x[i]) or op(x[i], y[i]) for one op kind.
inline MapResult runOp(OpKind kind, std::vector<Buffer> inputs) {
  ScalarKind outKind = opInfo(kind).has(Compare) ? ScalarKind::I1 : inputs[0].elem();
  return runMap(std::move(inputs), outKind,
                [&](Builder &b, const std::vector<Value *> &v) { return b.value(kind, v); });
}

inline MapResult runCast(Buffer in, ScalarKind to) {
  return runMap({std::move(in)}, to,
                [&](Builder &b, const std::vector<Value *> &v) { return b.cast(v[0], to); });
}

/// Loads a rows x cols tile, applies a reduction or scan along `axis`, and
/// stores the result (1-D, or 2-D for cumsum).
inline MapResult runReduce(OpKind kind, Buffer in, int64_t rows, int64_t cols, int64_t axis) {
  Kernel k;
  Value *x = k.ptrParam(in.elem(), "x");
  bool arg = kind == OpKind::Argmax || kind == OpKind::Argmin;
  ScalarKind outKind = arg ? ScalarKind::I32 : in.elem();
  Value *out = k.ptrParam(outKind, "out");
  Value *offs = offsets2d(k.b, rows, cols);
  Value *r = k.b.reduce(kind, k.b.load(ptrsAt(k.b, x, offs)), axis);
  int64_t outLen = kind == OpKind::Cumsum ? rows * cols : (axis == 0 ? cols : rows);
  Value *outOffs = kind == OpKind::Cumsum ? offs : k.b.arange(0, outLen);
  k.b.store(ptrsAt(k.b, out, outOffs), r);
  k.b.ret();
  REQUIRE(verify(k.f).empty());
  std::vector<Buffer> bufs{std::move(in), Buffer(outKind, static_cast<size_t>(outLen), "out")};
  RunResult run = interpret(k.f, {}, bufferArgs(2), bufs);
  return {std::move(run), std::move(bufs)};
}

inline bool sameFloat(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }


} // namespace twintile::ir::test
