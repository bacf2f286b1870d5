//===- RecordDescriptor.cpp - tensor descriptors, as both front ends record ===//
//
// make_tensor_descriptor(base, shape, strides, block) records nothing: it
// checks its arguments where the kernel makes it, and each d.load(offsets)
// and d.store(offsets, tile) records one descriptor op with all of them
// (ir/Descriptor.h). Triton's rules: a scalar pointer, one shape, stride and
// block size per dimension, the innermost stride 1, the block within TMA's
// limits.
//===----------------------------------------------------------------------===//
#include "frontends/common/Recorder.h"

#include "ir/Descriptor.h"
#include "ir/Printer.h"

namespace twintile {

namespace {

/// Whether `v` is an integer constant of value `n` (a host 1, or a device
/// constant made of one).
bool isConstant(const ir::Value *v, int64_t n) {
  return v->def && v->def->kind == ir::OpKind::Constant && v->def->attr("value").kind == ir::Attr::Kind::Int &&
         v->def->attr("value").i == n;
}

/// The type of a descriptor's sizes and offsets whose values have types
/// `ts`: i64 where one of them needs 64 bits (i64, u32, u64), else i32.
ir::ScalarKind indexKind(const std::vector<ir::Value *> &vs) {
  for (const ir::Value *v : vs)
    if (v->type.elem == ir::ScalarKind::I64 || v->type.elem == ir::ScalarKind::U32 ||
        v->type.elem == ir::ScalarKind::U64)
      return ir::ScalarKind::I64;
  return ir::ScalarKind::I32;
}

} // namespace

Recorder::Descriptor Recorder::descriptor(ir::Value *base, const std::vector<ir::Value *> &shape,
                                          const std::vector<ir::Value *> &strides, const std::vector<int64_t> &block,
                                          const ir::Location &loc) {
  base = use(base, loc, "make_tensor_descriptor");
  if (!base->type.isPtr() || base->type.isTile())
    fail(loc, "make_tensor_descriptor's base must be a scalar pointer (a Ptr<T> parameter, or one offset from it), got " +
                  ir::toString(base->type));
  size_t rank = block.size();
  if (shape.size() != rank || strides.size() != rank)
    fail(loc, "make_tensor_descriptor takes one shape, stride and block size per dimension, got " +
                  std::to_string(shape.size()) + " sizes, " + std::to_string(strides.size()) + " strides and " +
                  std::to_string(rank) + " block sizes");
  if (std::string why = ir::descriptorBlockProblem(block, base->type.pointee); !why.empty())
    fail(loc, "make_tensor_descriptor's " + why);
  for (const std::vector<ir::Value *> *part : {&shape, &strides})
    for (ir::Value *v : *part) {
      use(v, loc, "make_tensor_descriptor");
      if (v->type.isTile() || !v->type.isInt() || v->type.elem == ir::ScalarKind::I1)
        fail(loc, "make_tensor_descriptor's shape and strides are integer scalars, got " + ir::toString(v->type));
    }
  if (!isConstant(strides.back(), 1))
    fail(loc, "the innermost stride of a tensor descriptor must be 1 (the tensor memory accelerator reads rows of "
              "contiguous elements, and Triton's descriptors ask the same): write it as the literal 1, and transpose "
              "a column-major tensor by swapping its shape and strides");
  return Descriptor{base, shape, strides, block};
}

ir::Value *Recorder::descriptorAccess(const Descriptor &d, const std::vector<ir::Value *> &offsets, ir::Value *value,
                                      const ir::Location &loc) {
  const char *what = value ? "a tensor descriptor's store" : "a tensor descriptor's load";
  size_t rank = d.block.size();
  if (offsets.size() != rank)
    fail(loc, std::string(what) + " takes " + std::to_string(rank) + " offsets, one per dimension, got " +
                  std::to_string(offsets.size()));
  for (ir::Value *v : offsets) {
    use(v, loc, what);
    if (v->type.isTile() || !v->type.isInt() || v->type.elem == ir::ScalarKind::I1)
      fail(loc, std::string(what) + "'s offsets are integer scalars, got " + ir::toString(v->type));
  }
  std::vector<ir::Value *> shape = d.shape, offs = offsets, strides(d.strides.begin(), d.strides.end() - 1);
  std::vector<ir::Value *> sized = shape;
  sized.insert(sized.end(), offs.begin(), offs.end());
  ir::ScalarKind index = indexKind(sized);
  auto convert = [&](std::vector<ir::Value *> &vs, ir::ScalarKind to) {
    for (ir::Value *&v : vs)
      if (v->type.elem != to) v = cast(v, to, loc);
  };
  convert(shape, index);
  convert(offs, index);
  convert(strides, ir::ScalarKind::I64);  // Triton's: addresses in 64 bits
  if (value) {
    value = toPointee(use(value, loc, what), d.base, loc);
    std::optional<ir::Shape> both = broadcastShapes(value->type.shape, d.block);
    if (!both || *both != d.block)
      fail(loc, std::string(what) + " writes a block of [" + ir::shapeString(d.block) + "], got a tile of " +
                    (value->type.isScalar() ? std::string("no shape") : "[" + ir::shapeString(value->type.shape) + "]") +
                    ", which does not broadcast to it");
    value = broadcastTo(value, d.block, loc);
  }
  return at(loc, [&](ir::Builder &b) {
    ir::Op *op = b.descriptor(d.base, shape, strides, offs, d.block, value);
    return value ? nullptr : op->result();
  });
}

} // namespace twintile
