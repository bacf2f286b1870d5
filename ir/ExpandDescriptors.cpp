//===- ExpandDescriptors.cpp - descriptor ops as masked loads and stores ---===//
//
// The portable lowering of tensor descriptors: each descriptor_load or
// descriptor_store becomes the pointer arithmetic and the mask a Triton user
// writes by hand, so that every later stage (the axis analysis's contiguity
// and alignment, coalescing, pipelining) treats it as the load it is.
//
//   descriptor_load(base, shape.., strides.., offs..) {block = [B0, B1]}
//     => c_d   = splat(offs_d) + arange(0, B_d)          (index type, per d)
//        in_d  = (c_d >= 0) & (c_d < splat(shape_d))
//        ptrs  = splat(base) + bcast(i64(c_0) * stride_0) + bcast(i64(c_1))
//        load(ptrs, bcast(in_0) & bcast(in_1))
//
// Coordinates are computed in the descriptor's index type and the address
// offset in i64, as IR.h defines them, so the expansion computes exactly
// what the interpreter does.
//
// The pass leaves the stores, and the loads that only dots read (as a or b;
// or through one trans, as attention's k), to the backend: on sm_90a it
// copies those with the tensor memory accelerator where its plans can
// (backend/PipelinePlan.h for the loads, backend/TmaStores.h for the
// stores), and expands the others itself with expandDescriptor, as here.
//===----------------------------------------------------------------------===//
#include "ir/Builder.h"
#include "ir/Descriptor.h"
#include "ir/Passes.h"

#include <unordered_map>
#include <vector>

namespace twintile::ir {

namespace {

/// v, of shape [n], as a tile of rank `rank` whose dimension `dim` is v's and
/// the others 1.
Value *along(Builder &b, Value *v, size_t dim, size_t rank) {
  for (size_t i = 0; i < dim; ++i) v = b.expandDims(v, 0);
  for (size_t i = dim + 1; i < rank; ++i) v = b.expandDims(v, static_cast<int64_t>(i));
  return v;
}

} // namespace

void expandDescriptor(Func &f, Op &op) {
  DescriptorOperands d(op);
  size_t rank = d.rank();
  const Shape &block = d.block();
  ScalarKind index = d.shape(0)->type.elem;
  Block scratch;
  Builder b(scratch);
  b.setLoc(op.loc);
  Value *offsets = nullptr, *mask = nullptr;
  Value *zero = b.constInt(Type::scalar(index), 0);
  for (size_t dim = 0; dim < rank; ++dim) {
    Shape line{block[dim]};
    Value *c = b.arange(0, block[dim]);
    if (index != ScalarKind::I32) c = b.cast(c, index);
    c = b.binary(OpKind::Add, b.splat(d.offset(dim), line), c);
    // One statement per op: the order they are created in is the IR's, and
    // C++ leaves the order of a call's arguments open.
    Value *atLeastZero = b.binary(OpKind::Ge, c, b.splat(zero, line));
    Value *belowSize = b.binary(OpKind::Lt, c, b.splat(d.shape(dim), line));
    Value *inside = b.binary(OpKind::And, atLeastZero, belowSize);
    // Multiplied once expanded, as a Triton user writes it (rows[:, None] *
    // stride): the backend's axis analysis then knows the product's
    // divisibility along the new axes too.
    Value *term = along(b, c, dim, rank);
    if (index != ScalarKind::I64) term = b.cast(term, ScalarKind::I64);
    if (d.stride(dim)) term = b.binary(OpKind::Mul, term, b.splat(d.stride(dim), term->type.shape));
    term = b.broadcast(term, block);
    inside = b.broadcast(along(b, inside, dim, rank), block);
    offsets = offsets ? b.binary(OpKind::Add, offsets, term) : term;
    mask = mask ? b.binary(OpKind::And, mask, inside) : inside;
  }
  Value *ptrs = b.addptr(b.splat(d.base(), block), offsets);
  Value *loaded = nullptr;
  if (op.kind == OpKind::DescriptorLoad) loaded = b.load(ptrs, mask);
  else b.store(ptrs, d.value(), mask);
  Block &parent = *op.parent;
  while (!scratch.ops.empty()) parent.insert(&op, scratch.take(scratch.ops.front().get()));
  if (loaded) replaceAllUsesWith(f.body, op.result(), loaded);
  parent.erase(&op);
}

bool expandDescriptors(Func &f) {
  // Per tile with uses: whether every one is a dot's a or b.
  std::unordered_map<const Value *, bool> dotsOnly;
  walk(f.body, [&](const Op &u) {
    for (size_t i = 0; i < u.operands.size(); ++i) {
      bool &only = dotsOnly.emplace(u.operand(i), true).first->second;
      only = only && u.kind == OpKind::Dot && i < 2;
    }
  });
  // A load read only by one trans whose result only dots read (attention's
  // k) is left too: the backend stages it as that transpose.
  auto left = [&](const Op &load) {
    auto it = dotsOnly.find(load.result());
    if (it == dotsOnly.end()) return false;
    if (it->second) return true;
    const Op *trans = nullptr;
    size_t uses = 0;
    walk(*load.parent, [&](const Op &u) {
      for (const Value *v : u.operands)
        if (v == load.result()) ++uses, trans = &u;
    });
    if (uses != 1 || trans->kind != OpKind::Trans) return false;
    auto t = dotsOnly.find(trans->result());
    return t != dotsOnly.end() && t->second;
  };
  std::vector<Op *> found;
  walk(f.body, [&](Op &op) {
    if (familyOf(op.kind) != OpFamily::Descriptor) return;
    if (op.kind == OpKind::DescriptorLoad && !left(op)) found.push_back(&op);
  });
  for (Op *op : found) expandDescriptor(f, *op);
  return !found.empty();
}

} // namespace twintile::ir
