// Tensor descriptors in the IR (ir/Descriptor.h, semantics in ir/IR.h): the
// interpreter's descriptor_load and descriptor_store against a loop written
// here from the definition, their type rules, and expand-descriptors (the
// portable lowering) against the interpreter on random tensors, blocks and
// offsets that hang over every edge.
#include "OpKernels.h"
#include "ir/Builder.h"
#include "ir/Descriptor.h"
#include "ir/Passes.h"
#include "ir/Verifier.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

using namespace twintile::ir;
using namespace twintile::ir::test;

namespace {

/// A tensor of rank R in a buffer, its block and where a program reads it.
struct Case {
  std::vector<int64_t> shape, strides, block, offsets;  // strides: every dimension's, the last 1
  ScalarKind index = ScalarKind::I32;
  size_t bufferSize = 0;
};

/// copy: y's block at `offsets` = x's block at `offsets` * 2 + 1, through
/// one descriptor per buffer (both of the case's tensor), every size and
/// offset a parameter of the index type, every stride an i64 one.
std::unique_ptr<Kernel> copyKernel(const Case &c) {
  auto k = std::make_unique<Kernel>("copy");
  Value *x = k->ptrParam(ScalarKind::F32, "x"), *y = k->ptrParam(ScalarKind::F32, "y");
  std::vector<Value *> shape, strides, offs;
  for (size_t d = 0; d < c.block.size(); ++d) shape.push_back(k->param(c.index, "n" + std::to_string(d)));
  for (size_t d = 0; d + 1 < c.block.size(); ++d) strides.push_back(k->param(ScalarKind::I64, "s" + std::to_string(d)));
  for (size_t d = 0; d < c.block.size(); ++d) offs.push_back(k->param(c.index, "o" + std::to_string(d)));
  Value *t = k->b.descriptor(x, shape, strides, offs, c.block)->result();
  Shape s = c.block;
  Value *v = k->b.binary(OpKind::Add, k->b.binary(OpKind::Mul, t, k->b.constFloat(Type::tile(s, ScalarKind::F32), 2)),
                         k->b.constFloat(Type::tile(s, ScalarKind::F32), 1));
  k->b.descriptor(y, shape, strides, offs, c.block, v);
  k->b.ret();
  return k;
}

std::vector<KernelArg> argsOf(const Case &c) {
  std::vector<KernelArg> args{KernelArg::buf(0), KernelArg::buf(1)};
  for (int64_t n : c.shape) args.push_back(KernelArg::integer(n));
  for (size_t d = 0; d + 1 < c.strides.size(); ++d) args.push_back(KernelArg::integer(c.strides[d]));
  for (int64_t o : c.offsets) args.push_back(KernelArg::integer(o));
  return args;
}

std::vector<Buffer> buffersOf(const Case &c) {
  Buffer x(ScalarKind::F32, c.bufferSize, "x"), y(ScalarKind::F32, c.bufferSize, "y");
  for (size_t i = 0; i < c.bufferSize; ++i) x.set(i, static_cast<double>(i % 97) - 40), y.set(i, -1000);
  return {x, y};
}

/// y as the definition says: every element of the block inside the shape
/// copied (times 2, plus 1), the rest of y as it was.
std::vector<double> expected(const Case &c) {
  std::vector<Buffer> bufs = buffersOf(c);
  std::vector<double> x = bufs[0].values(), y = bufs[1].values();
  size_t rank = c.block.size();
  std::vector<int64_t> i(rank, 0);
  for (int64_t n = 0; n < numElements(c.block); ++n) {
    bool inside = true;
    int64_t at = 0;
    for (size_t d = 0; d < rank; ++d) {
      int64_t coord = c.offsets[d] + i[d];
      inside = inside && coord >= 0 && coord < c.shape[d];
      at += coord * c.strides[d];
    }
    if (inside) y[static_cast<size_t>(at)] = x[static_cast<size_t>(at)] * 2 + 1;
    for (size_t d = rank; d-- > 0;) {
      if (++i[d] < c.block[d]) break;
      i[d] = 0;
    }
  }
  return y;
}

Case randomCase(std::mt19937 &rng) {
  auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  Case c;
  size_t rank = static_cast<size_t>(pick(1, 3));
  for (size_t d = 0; d < rank; ++d) {
    int64_t b = int64_t(1) << pick(d + 1 == rank ? 2 : 0, 4);  // the innermost at least 4 f32: 16 bytes
    c.block.push_back(b);
    c.shape.push_back(pick(1, 20));
    c.offsets.push_back(pick(-b - 2, c.shape.back() + 2));
  }
  c.strides.assign(rank, 1);
  for (size_t d = rank - 1; d-- > 0;) c.strides[d] = c.strides[d + 1] * (c.shape[d + 1] + pick(0, 3));  // padded rows
  c.bufferSize = static_cast<size_t>(c.strides[0] * c.shape[0]);
  c.index = pick(0, 1) ? ScalarKind::I64 : ScalarKind::I32;
  return c;
}

} // namespace

TEST_CASE("descriptor_load and _store touch the block inside the shape, as ir/IR.h defines them",
          "[interpreter][descriptor]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    Case c = randomCase(rng);
    INFO("trial " << trial << " rank " << c.block.size());
    auto k = copyKernel(c);
    REQUIRE(verify(k->f).empty());
    std::vector<Buffer> bufs = buffersOf(c);
    RunResult r = interpret(k->f, {}, argsOf(c), bufs);
    REQUIRE(r.ok());
    CHECK(bufs[1].values() == expected(c));
  }
}

TEST_CASE("expand-descriptors computes what the descriptor ops do", "[passes][descriptor]") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    Case c = randomCase(rng);
    INFO("trial " << trial << " rank " << c.block.size());
    auto k = copyKernel(c);
    REQUIRE(expandDescriptors(k->f));
    REQUIRE(verify(k->f).empty());
    // The store is left to the backend (a TMA store on sm_90a), which
    // expands it where TMA does not take it: expanded here as there.
    std::vector<Op *> left;
    walk(k->f.body, [&](Op &op) {
      if (familyOf(op.kind) == OpFamily::Descriptor) left.push_back(&op);
    });
    REQUIRE(left.size() == 1);
    CHECK(left[0]->kind == OpKind::DescriptorStore);
    expandDescriptor(k->f, *left[0]);
    REQUIRE(verify(k->f).empty());
    bool any = false;
    walk(k->f.body, [&](const Op &op) { any = any || familyOf(op.kind) == OpFamily::Descriptor; });
    CHECK_FALSE(any);
    std::vector<Buffer> bufs = buffersOf(c);
    RunResult r = interpret(k->f, {}, argsOf(c), bufs);
    REQUIRE(r.ok());
    CHECK(bufs[1].values() == expected(c));
  }
  Kernel none;
  none.b.ret();
  CHECK_FALSE(expandDescriptors(none.f));
}

TEST_CASE("a descriptor reaching outside its buffer is an out-of-bounds access", "[interpreter][descriptor]") {
  Case c{{4, 8}, {8, 1}, {4, 4}, {2, 4}, ScalarKind::I32, 20};  // rows 2..3 of a 4x8 tensor in 20 elements
  auto k = copyKernel(c);
  std::vector<Buffer> bufs = buffersOf(c);
  RunResult r = interpret(k->f, {}, argsOf(c), bufs);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error->message, Catch::Contains("out-of-bounds 'descriptor_load'"));
}

TEST_CASE("descriptor ops' type rules", "[verifier][descriptor]") {
  Kernel k;
  Value *x = k.ptrParam(ScalarKind::F16, "x");
  Value *n = k.param(ScalarKind::I32, "n"), *w = k.param(ScalarKind::I64, "w");
  auto refuses = [&](std::vector<Value *> shape, std::vector<Value *> strides, std::vector<Value *> offs, Shape block,
                     Value *value, const std::string &why) {
    INFO(why);
    CHECK_THROWS_WITH(k.b.descriptor(x, shape, strides, offs, block, value), Catch::Contains(why));
  };
  refuses({n, n}, {w}, {n, n}, {16, 48}, nullptr, "block [16x48]: each size must be a power of two of at most 256");
  refuses({n, n}, {w}, {n, n}, {16, 512}, nullptr, "each size must be a power of two of at most 256");
  refuses({n, n}, {w}, {n, n}, {16, 4}, nullptr, "the innermost size must span at least 16 bytes (8 f16 elements)");
  refuses({n, n}, {w, w}, {n, n}, {16, 16}, nullptr, "takes 6 operands");
  refuses({n, w}, {w}, {n, n}, {16, 16}, nullptr, "must have one type");
  refuses({n, n}, {n}, {n, n}, {16, 16}, nullptr, "strides must be i64, got i32");
  refuses({n, n}, {w}, {n, n}, {16, 16}, k.b.constFloat(Type::tile({16, 8}, ScalarKind::F16), 0), "value must be");
  refuses({n, n, n, n, n, n}, {w, w, w, w, w}, {n, n, n, n, n, n}, {1, 1, 1, 1, 1, 8}, nullptr, "1 to 5 dimensions");
  refuses({n}, {}, {n, n}, {}, nullptr, "block [] must have 1 to 5 dimensions");
  Value *t = k.b.descriptor(x, {w, w}, {w}, {w, w}, {64, 32})->result();
  CHECK(t->type == Type::tile({64, 32}, ScalarKind::F16));
}
