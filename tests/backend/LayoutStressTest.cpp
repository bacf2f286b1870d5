// Layouts under stress: 2-D and 3-D tiles of many shapes (smaller than the
// program, long and thin, square), with 1, 4 and 8 warps, through the ops that
// move data between threads — reductions along every axis, expand_dims and
// broadcast back, trans, reshape, cumsum along every axis, dot, atomics on
// replicated tiles, tiles carried through while and if. Each kernel is built
// with the IR builder, compiled, run in the PTX emulator and compared with the
// interpreter.
#include "Differential.h"

#include "ir/Builder.h"

#include <catch2/catch.hpp>

#include <functional>
#include <random>

using namespace twintile::ir;
using twintile::test::DiffOptions;

namespace {

struct Kernel {
  Func f;
  Builder b;
  Kernel() : b(f.body) { f.name = "stress"; }
  Value *ptr(ScalarKind k, std::string name) { return f.body.addArg(Type::ptr(k), std::move(name)); }
};

Value *i32(Builder &b, int64_t v) { return b.constInt(Type::scalar(ScalarKind::I32), v); }

/// Row-major offsets of a tile of `shape` (any rank).
Value *offsets(Builder &b, const Shape &shape) {
  Value *flat = b.arange(0, numElements(shape));
  return shape.size() == 1 ? flat : b.reshape(flat, shape);
}

Value *at(Builder &b, Value *base, Value *offs) { return b.addptr(b.splat(base, offs->type.shape), offs); }

/// Random contents: floats in [-2, 2], integers in [-20, 20]; with
/// `integral`, floats too are small integers (then sums are exact in any
/// order).
Buffer randomBuffer(ScalarKind k, size_t n, const std::string &name, unsigned seed, bool integral = false) {
  std::mt19937 rng(seed);
  Buffer buf(k, n, name);
  for (size_t i = 0; i < n; ++i) {
    if (isFloat(k) && !integral) buf.set(i, std::uniform_real_distribution<double>(-2, 2)(rng));
    else if (isFloat(k)) buf.set(i, static_cast<double>(std::uniform_int_distribution<int64_t>(-20, 20)(rng)));
    else buf.setInt(i, std::uniform_int_distribution<int64_t>(-20, 20)(rng));
  }
  return buf;
}

/// The text a compile for (warps, arch) must contain.
using Emits = std::function<std::vector<std::string>(int warps, const std::string &arch)>;

/// Runs `k` on one program (or `grid`) with warps in {1, 4, 8}; buffers of
/// `sizes` elements of `kinds`, random.
/// `mustEmit`: text every compile's PTX must contain.
void check(Kernel &k, const std::vector<std::pair<ScalarKind, size_t>> &bufs, Grid grid = {1, 1, 1},
           bool integral = false, const Emits &mustEmit = {}) {
  std::vector<Buffer> buffers;
  std::vector<KernelArg> args;
  for (size_t i = 0; i < bufs.size(); ++i) {
    buffers.push_back(randomBuffer(bufs[i].first, bufs[i].second, k.f.param(i)->name, static_cast<unsigned>(i + 1), integral));
    args.push_back(KernelArg::buf(i));
  }
  k.b.ret();
  for (auto [warps, arch] : {std::pair{1, "sm_90a"}, {4, "sm_90a"}, {8, "sm_90a"}, {4, "sm_80"}}) {
    INFO("num_warps " << warps << ", " << arch);
    DiffOptions o;
    o.numWarps = warps;
    o.arch = arch;
    o.atol = 1e-4;
    if (mustEmit) o.mustEmit = mustEmit(warps, arch);
    twintile::test::runsLikeInterpreter(k.f, grid, buffers, args, o);
  }
}

Emits always(std::vector<std::string> text) {
  return [text](int, const std::string &) { return text; };
}

const std::vector<Shape> kShapes2d = {{1, 1}, {2, 4}, {4, 4}, {16, 64}, {64, 16}, {2, 256}, {128, 8}, {32, 32}, {3, 5}, {6, 40}};

} // namespace

TEST_CASE("reductions along each axis, expanded and broadcast back", "[backend][layouts]") {
  for (const Shape &s : kShapes2d)
    for (int axis : {0, 1})
      for (OpKind red : {OpKind::Sum, OpKind::Max, OpKind::Argmin}) {
        INFO(shapeString(s) << " axis " << axis << " " << opInfo(red).name);
        Kernel k;
        Value *x = k.ptr(ScalarKind::F32, "x"), *out = k.ptr(ScalarKind::F32, "out"), *r = k.ptr(ScalarKind::F32, "r");
        Value *offs = offsets(k.b, s);
        Value *v = k.b.load(at(k.b, x, offs));
        Value *red1 = k.b.reduce(red, v, axis);
        if (red == OpKind::Argmin) red1 = k.b.cast(red1, ScalarKind::F32);
        // x - reduction, broadcast back along the reduced axis
        Value *back = k.b.broadcast(k.b.expandDims(red1, axis), s);
        k.b.store(at(k.b, out, offs), k.b.binary(OpKind::Sub, v, back));
        Shape rs = s;
        rs.erase(rs.begin() + axis);
        k.b.store(at(k.b, r, offsets(k.b, rs)), red1);
        check(k, {{ScalarKind::F32, static_cast<size_t>(numElements(s))}, {ScalarKind::F32, static_cast<size_t>(numElements(s))},
                  {ScalarKind::F32, static_cast<size_t>(numElements(rs))}});
      }
}

TEST_CASE("1-D reductions to a scalar: every thread gets the whole tile's", "[backend][layouts]") {
  // Across warps each lane reads one warp's partial and a butterfly over the
  // low lane bits combines them (LowerReduce.cpp); tiles smaller than the
  // program leave whole warps holding copies. Each thread's own copy of the
  // result is used (x - r), and thread 0's is stored.
  for (int64_t n : {1, 8, 32, 64, 128, 256, 512, 2048})
    for (ScalarKind e : {ScalarKind::F32, ScalarKind::I32, ScalarKind::F16})
      for (OpKind red : {OpKind::Sum, OpKind::Max, OpKind::Min}) {
        INFO(n << " " << scalarName(e) << " " << opInfo(red).name);
        Kernel k;
        Value *x = k.ptr(e, "x"), *out = k.ptr(e, "out"), *r = k.ptr(e, "r");
        Value *offs = k.b.arange(0, n);
        Value *v = k.b.load(at(k.b, x, offs));
        Value *s = k.b.reduce(red, v, 0);
        k.b.store(at(k.b, out, offs), k.b.binary(OpKind::Sub, v, k.b.splat(s, {n})));
        k.b.store(k.b.addptr(r, i32(k.b, 0)), s);
        size_t size = static_cast<size_t>(n);
        check(k, {{e, size}, {e, size}, {e, 1}}, {1, 1, 1}, e == ScalarKind::F16);
      }
}

TEST_CASE("a conversion larger than static shared memory goes through it in chunks", "[backend][layouts]") {
  // 16384 f32 (64 KiB) reshaped to 128 x 128 and reduced along the rows: two
  // chunks of the row-major order, each written and read by whoever holds it.
  Kernel k;
  Value *x = k.ptr(ScalarKind::F32, "x"), *out = k.ptr(ScalarKind::F32, "out");
  Value *v = k.b.load(at(k.b, x, k.b.arange(0, 16384)));
  k.b.store(at(k.b, out, k.b.arange(0, 128)), k.b.reduce(OpKind::Sum, k.b.reshape(v, {128, 128}), 0));
  check(k, {{ScalarKind::F32, 16384}, {ScalarKind::F32, 128}});
}

TEST_CASE("trans and reshape move elements between threads", "[backend][layouts]") {
  for (const Shape &s : kShapes2d) {
    INFO(shapeString(s));
    Kernel k;
    Value *x = k.ptr(ScalarKind::I32, "x"), *t = k.ptr(ScalarKind::I32, "t"), *f = k.ptr(ScalarKind::I32, "flat");
    Value *v = k.b.load(at(k.b, x, offsets(k.b, s)));
    Value *tv = k.b.trans(v, {1, 0});
    Shape ts{s[1], s[0]};
    k.b.store(at(k.b, t, offsets(k.b, ts)), k.b.binary(OpKind::Add, tv, k.b.splat(i32(k.b, 1), ts)));
    // Reshaped to 1-D and to the transposed shape, then summed back.
    Value *flat = k.b.reshape(v, {numElements(s)});
    Value *other = k.b.reshape(k.b.reshape(v, ts), {numElements(s)});
    k.b.store(at(k.b, f, k.b.arange(0, numElements(s))), k.b.binary(OpKind::Add, flat, other));
    size_t n = static_cast<size_t>(numElements(s));
    check(k, {{ScalarKind::I32, n}, {ScalarKind::I32, n}, {ScalarKind::I32, n}});
  }
}

TEST_CASE("3-D tiles: reductions along each axis and a rotation", "[backend][layouts]") {
  for (const Shape &s : std::vector<Shape>{{2, 3 + 1, 8}, {4, 16, 8}, {8, 2, 32}, {1, 64, 2}}) {
    for (int axis : {0, 1, 2}) {
      INFO(shapeString(s) << " axis " << axis);
      Kernel k;
      Value *x = k.ptr(ScalarKind::F32, "x"), *r = k.ptr(ScalarKind::F32, "r"), *t = k.ptr(ScalarKind::F32, "t");
      Value *v = k.b.load(at(k.b, x, offsets(k.b, s)));
      Value *red = k.b.reduce(OpKind::Sum, v, axis);
      Shape rs = s;
      rs.erase(rs.begin() + axis);
      k.b.store(at(k.b, r, offsets(k.b, rs)), red);
      Value *rot = k.b.trans(v, {2, 0, 1});
      k.b.store(at(k.b, t, offsets(k.b, rot->type.shape)), rot);
      size_t n = static_cast<size_t>(numElements(s));
      check(k, {{ScalarKind::F32, n}, {ScalarKind::F32, static_cast<size_t>(numElements(rs))}, {ScalarKind::F32, n}});
    }
  }
}

TEST_CASE("cumsum along each axis", "[backend][layouts]") {
  for (const Shape &s : kShapes2d)
    for (int axis : {0, 1}) {
      INFO(shapeString(s) << " axis " << axis);
      Kernel k;
      Value *x = k.ptr(ScalarKind::I32, "x"), *out = k.ptr(ScalarKind::I32, "out");
      Value *offs = offsets(k.b, s);
      k.b.store(at(k.b, out, offs), k.b.reduce(OpKind::Cumsum, k.b.load(at(k.b, x, offs)), axis));
      size_t n = static_cast<size_t>(numElements(s));
      check(k, {{ScalarKind::I32, n}, {ScalarKind::I32, n}});
    }
}

/// c = dot(a, b, c) on one program, a [m, k] and b [k, n] of `in`, c of `acc`.
void checkDot(int64_t m, int64_t n, int64_t kk, ScalarKind in, ScalarKind acc, bool integral = false,
              const Emits &mustEmit = {}, std::string_view precision = "") {
  INFO(m << "x" << n << "x" << kk << " " << scalarName(in) << " " << precision);
  Kernel k;
  Value *a = k.ptr(in, "a"), *b = k.ptr(in, "b"), *c = k.ptr(acc, "c");
  Value *av = k.b.load(at(k.b, a, offsets(k.b, {m, kk}))), *bv = k.b.load(at(k.b, b, offsets(k.b, {kk, n})));
  Value *co = offsets(k.b, {m, n});
  k.b.store(at(k.b, c, co), k.b.dot(av, bv, k.b.load(at(k.b, c, co)), precision));
  check(k, {{in, static_cast<size_t>(m * kk)}, {in, static_cast<size_t>(kk * n)}, {acc, static_cast<size_t>(m * n)}},
        {1, 1, 1}, integral, mustEmit);
}

TEST_CASE("dot of f32, f16 and i8 tiles of several shapes", "[backend][layouts]") {
  for (auto [m, n, kk] : {std::tuple{1, 1, 1}, {4, 8, 2}, {16, 16, 16}, {32, 8, 64}, {8, 64, 16}})
    for (auto [in, acc] : {std::pair{ScalarKind::F32, ScalarKind::F32}, {ScalarKind::F16, ScalarKind::F32},
                           {ScalarKind::I8, ScalarKind::I32}})
      checkDot(m, n, kk, in, acc);
}

TEST_CASE("dot on tensor cores: every operand type over shapes on the mma grid", "[backend][layouts]") {
  // Integer-valued inputs make every sum exact, so any fragment or swizzle
  // mistake shows, whatever order the tensor cores add in. 16-row tiles
  // with 8 warps leave warps holding copies of the same columns.
  //
  // On sm_90a, f16 and bf16 tiles whose warps (4 or 8) each hold 16 rows of
  // every 64-row block, with n whole 16-element rows of b (staged n-major),
  // run on wgmma instead; the rest on mma.sync.
  for (auto [m, n, kk] : {std::tuple{16, 8, 32}, {16, 16, 64}, {32, 64, 32}, {64, 32, 64}, {128, 16, 32}, {16, 128, 32},
                          {64, 64, 128}, {48, 24, 96}, {64, 24, 32}, {128, 48, 32}})
    for (auto [in, acc] : {std::pair{ScalarKind::F16, ScalarKind::F32}, {ScalarKind::BF16, ScalarKind::F32},
                           {ScalarKind::I8, ScalarKind::I32}})
      checkDot(m, n, kk, in, acc, true, [m, n, in](int warps, const std::string &arch) -> std::vector<std::string> {
        bool wgmma = arch == "sm_90a" && in != ScalarKind::I8 && (warps == 4 || warps == 8) && m % (16 * warps) == 0 &&
                     n % 16 == 0;
        if (wgmma) return {"wgmma.mma_async.sync.aligned.m64n", "fence.proxy.async.shared::cta"};
        return {"mma.sync.aligned", "ldmatrix.sync.aligned"};
      });
  // f32 as TF32 (m16n8k8): small integers are exact in TF32 too; random
  // values are cut to TF32 alike by the interpreter and the tensor cores.
  for (auto [m, n, kk] : {std::tuple{16, 8, 8}, {32, 64, 32}, {64, 32, 16}, {48, 24, 40}})
    checkDot(m, n, kk, ScalarKind::F32, ScalarKind::F32, true, always({"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"}),
             "tf32");
  checkDot(64, 64, 64, ScalarKind::F32, ScalarKind::F32, false, always({"mma.sync.aligned.m16n8k8"}), "tf32");
  // Off the grid, on FMA units: still TF32 operands, as the IR says.
  checkDot(16, 16, 4, ScalarKind::F32, ScalarKind::F32, false, {}, "tf32");
  checkDot(8, 24, 12, ScalarKind::F32, ScalarKind::F32, false, {}, "tf32");
  // An accumulator of 64 KiB comes into the MMA layout in chunks.
  checkDot(128, 128, 32, ScalarKind::F16, ScalarKind::F32, true, [](int warps, const std::string &arch) {
    return std::vector<std::string>{arch == "sm_90a" && warps >= 4 ? "wgmma.mma_async" : "mma.sync.aligned"};
  });
  // And on random values, within the tolerance of a reordered f32 sum (IR.h).
  checkDot(64, 64, 64, ScalarKind::F16, ScalarKind::F32);
  checkDot(32, 16, 128, ScalarKind::BF16, ScalarKind::F32);
}

TEST_CASE("a pipelined k loop with 64-bit bounds", "[backend][layouts]") {
  // c += a[32, 64] @ b[64, 32], 16 columns of a and rows of b per step; the
  // loop counts in i64, its stage numbers in i32.
  Kernel k;
  Value *a = k.ptr(ScalarKind::F16, "a"), *b = k.ptr(ScalarKind::F16, "b"), *c = k.ptr(ScalarKind::F32, "c");
  auto i64 = [&](int64_t v) { return k.b.constInt(Type::scalar(ScalarKind::I64), v); };
  auto grid = [&](Value *rows, int64_t stride, Value *cols) {  // rows[:, None] * stride + cols[None, :]
    int64_t m = rows->type.shape[0], n = cols->type.shape[0];
    Value *r = k.b.binary(OpKind::Mul, k.b.broadcast(k.b.expandDims(rows, 1), {m, n}), k.b.splat(i32(k.b, stride), {m, n}));
    return k.b.binary(OpKind::Add, r, k.b.broadcast(k.b.expandDims(cols, 0), {m, n}));
  };
  Value *co = grid(k.b.arange(0, 32), 32, k.b.arange(0, 32));
  Op *loop = k.b.forOp(i64(0), i64(64), i64(16), {k.b.load(at(k.b, c, co))});
  Block &body = loop->region(0);
  k.b.setBlock(body);
  Value *kk = k.b.splat(k.b.cast(body.arg(0), ScalarKind::I32), {16});
  Value *ks = k.b.binary(OpKind::Add, k.b.arange(0, 16), kk);
  Value *av = k.b.load(at(k.b, a, grid(k.b.arange(0, 32), 64, ks)));
  Value *bv = k.b.load(at(k.b, b, grid(ks, 32, k.b.arange(0, 32))));
  k.b.yield({k.b.dot(av, bv, body.arg(1))});
  k.b.setBlock(k.f.body);
  k.b.store(at(k.b, c, co), loop->result(0));
  // Every pointer aligned, so that the loads qualify for cp.async.
  Buffer ab = randomBuffer(ScalarKind::F16, 32 * 64, "a", 1, true), bb = randomBuffer(ScalarKind::F16, 64 * 32, "b", 2, true),
         cb = randomBuffer(ScalarKind::F32, 32 * 32, "c", 3, true);
  k.b.ret();
  DiffOptions o;
  o.assume = {{true, false}, {true, false}, {true, false}};
  o.mustEmit = {"cp.async.commit_group", "mma.sync.aligned"};
  twintile::test::runsLikeInterpreter(k.f, {1, 1, 1}, {ab, bb, cb}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2)}, o);
}

TEST_CASE("a conversion inside a loop whose ring is dynamic shared memory", "[backend][layouts]") {
  // acc += a @ b and s += a @ b flattened and back over four k steps of 64,
  // 4 stages: the ring (64 KiB) is past what a kernel may declare
  // statically, and the reshapes go through shared memory beyond it, whole,
  // each step.
  Kernel k;
  Value *a = k.ptr(ScalarKind::F16, "a"), *b = k.ptr(ScalarKind::F16, "b"), *c = k.ptr(ScalarKind::F32, "c");
  auto grid = [&](Value *rows, int64_t stride, Value *cols) {  // rows[:, None] * stride + cols[None, :]
    int64_t m = rows->type.shape[0], n = cols->type.shape[0];
    Value *r = k.b.binary(OpKind::Mul, k.b.broadcast(k.b.expandDims(rows, 1), {m, n}), k.b.splat(i32(k.b, stride), {m, n}));
    return k.b.binary(OpKind::Add, r, k.b.broadcast(k.b.expandDims(cols, 0), {m, n}));
  };
  Value *co = grid(k.b.arange(0, 64), 64, k.b.arange(0, 64));
  Value *zero = k.b.splat(k.b.constFloat(Type::scalar(ScalarKind::F32), 0.0), {64, 64});
  Op *loop = k.b.forOp(i32(k.b, 0), i32(k.b, 256), i32(k.b, 64), {zero, zero});
  Block &body = loop->region(0);
  k.b.setBlock(body);
  Value *ks = k.b.binary(OpKind::Add, k.b.arange(0, 64), k.b.splat(body.arg(0), {64}));
  Value *av = k.b.load(at(k.b, a, grid(k.b.arange(0, 64), 256, ks)));
  Value *bv = k.b.load(at(k.b, b, grid(ks, 64, k.b.arange(0, 64))));
  Value *step = k.b.dot(av, bv, k.b.splat(k.b.constFloat(Type::scalar(ScalarKind::F32), 0.0), {64, 64}));
  k.b.yield({k.b.binary(OpKind::Add, body.arg(1), step),
             k.b.binary(OpKind::Add, body.arg(2), k.b.reshape(k.b.reshape(step, {4096}), {64, 64}))});
  k.b.setBlock(k.f.body);
  k.b.store(at(k.b, c, co), k.b.binary(OpKind::Add, loop->result(0), loop->result(1)));
  k.b.ret();
  Buffer ab = randomBuffer(ScalarKind::F16, 64 * 256, "a", 1, true), bb = randomBuffer(ScalarKind::F16, 256 * 64, "b", 2, true),
         cb(ScalarKind::F32, 64 * 64, "c");
  DiffOptions o;
  o.assume = {{true, false}, {true, false}, {true, false}};
  o.numStages = 4;
  o.mustEmit = {".extern .shared .align 1024", "cp.async.wait_group 2;", "wgmma.mma_async"};
  twintile::test::runsLikeInterpreter(k.f, {1, 1, 1}, {ab, bb, cb}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2)}, o);
  // And on mma.sync (sm_80), whose buffers need no more than 16-byte alignment.
  o.arch = "sm_80";
  o.mustEmit = {".extern .shared .align 16", "cp.async.wait_group 2;", "mma.sync.aligned"};
  twintile::test::runsLikeInterpreter(k.f, {1, 1, 1}, {ab, bb, cb}, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2)}, o);
  // Whole: two barriers for each reshape, not two per chunk.
  twintile::backend::CompileOptions co4;
  co4.numStages = 4;
  co4.assume = o.assume;
  co4.useCache = false;
  co4.runPtxas = false;
  std::string ptx = twintile::backend::compile(k.f, co4).ptx;
  size_t barriers = 0;
  for (size_t at = ptx.find("bar.sync"); at != std::string::npos; at = ptx.find("bar.sync", at + 1)) ++barriers;
  CHECK(barriers < 24);
}

TEST_CASE("atomics on tiles smaller than the program return each old value once", "[backend][layouts]") {
  for (int64_t n : {1, 2, 16, 64, 512}) {
    INFO("tile of " << n);
    Kernel k;
    Value *acc = k.ptr(ScalarKind::I32, "acc"), *old = k.ptr(ScalarKind::I32, "old"), *x = k.ptr(ScalarKind::I32, "x");
    Value *offs = k.b.arange(0, n);
    // Every program adds its x to acc and records what it saw; acc[0] also
    // takes a scalar atomic.
    Value *seen = k.b.atomicAdd(at(k.b, acc, offs), k.b.load(at(k.b, x, offs)));
    k.b.store(at(k.b, old, k.b.binary(OpKind::Add, offs, k.b.splat(k.b.binary(OpKind::Mul, k.b.programId(0), i32(k.b, n)), {n}))), seen);
    k.b.atomicAdd(acc, i32(k.b, 1000));
    check(k, {{ScalarKind::I32, static_cast<size_t>(n)}, {ScalarKind::I32, static_cast<size_t>(3 * n)},
              {ScalarKind::I32, static_cast<size_t>(n)}},
          {3, 1, 1});
  }
}

TEST_CASE("tiles carried through while and chosen by if", "[backend][layouts]") {
  for (const Shape &s : std::vector<Shape>{{8}, {256}, {4, 64}}) {
    INFO(shapeString(s));
    Kernel k;
    Value *x = k.ptr(ScalarKind::F32, "x"), *out = k.ptr(ScalarKind::F32, "out");
    Value *offs = offsets(k.b, s);
    Value *v = k.b.load(at(k.b, x, offs));
    // while (i < 3) { t = t * 0.5 + 1; i += 1 }
    Op *w = k.b.whileOp({i32(k.b, 0), v});
    {
      Builder c(w->region(0));
      c.yield({c.binary(OpKind::Lt, w->region(0).arg(0), i32(c, 3))});
      Builder body(w->region(1));
      Value *t = body.binary(OpKind::Add, body.binary(OpKind::Mul, w->region(1).arg(1), body.splat(body.constFloat(Type::scalar(ScalarKind::F32), 0.5), s)),
                             body.splat(body.constFloat(Type::scalar(ScalarKind::F32), 1.0), s));
      body.yield({body.binary(OpKind::Add, w->region(1).arg(0), i32(body, 1)), t});
    }
    Value *t = w->result(1);
    // if (sum of the first row > 0) t else -t, reduced to a scalar condition
    Value *total = t;
    while (total->type.isTile()) total = k.b.reduce(OpKind::Sum, total, 0);
    Op *choice = k.b.ifOp(k.b.binary(OpKind::Gt, total, k.b.constFloat(Type::scalar(ScalarKind::F32), 0.0)), {t->type});
    {
      Builder then(choice->region(0));
      then.yield({t});
      Builder other(choice->region(1));
      other.yield({other.unary(OpKind::Neg, t)});
    }
    k.b.store(at(k.b, out, offs), choice->result());
    size_t n = static_cast<size_t>(numElements(s));
    check(k, {{ScalarKind::F32, n}, {ScalarKind::F32, n}});
  }
}
