//===- Descriptor.h - the operands of descriptor_load and _store ---------===//
//
// A tensor descriptor (Triton's make_tensor_descriptor) is no value of the
// IR: each descriptor_load and descriptor_store carries the whole of it as
// operands, so that every consumer sees the tensor it reads without chasing
// definitions, and equal descriptors are equal operands. For a block of
// rank R (the attribute `block`, one size per dimension) the operands are
//
//   base, shape[0..R), strides[0..R-1), offsets[0..R)   [, value (a store)]
//
// the innermost stride being 1 and no operand (TMA's rule, and Triton's);
// the strides are i64, the sizes and offsets i32 or i64. IR.h states the
// semantics.
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace twintile::ir {

/// A descriptor op's operands by name.
class DescriptorOperands {
public:
  explicit DescriptorOperands(const Op &op) : op_(op), rank_(op.attr("block").ints.size()) {}

  size_t rank() const { return rank_; }
  const std::vector<int64_t> &block() const { return op_.attr("block").ints; }
  Value *base() const { return op_.operand(0); }
  Value *shape(size_t d) const { return op_.operand(1 + d); }
  /// The stride of dimension d; null for the innermost, which is 1.
  Value *stride(size_t d) const { return d + 1 == rank_ ? nullptr : op_.operand(1 + rank_ + d); }
  Value *offset(size_t d) const { return op_.operand(2 * rank_ + d); }
  /// The tile a store writes.
  Value *value() const { return op_.operand(3 * rank_); }

  /// How many operands an op of `kind` takes at `rank`.
  static size_t count(OpKind kind, size_t rank) { return 3 * rank + (kind == OpKind::DescriptorStore ? 1 : 0); }

private:
  const Op &op_;
  size_t rank_;
};

/// A block's limits, the tensor memory accelerator's, so that a kernel that
/// compiles for one target compiles for every one: rank 1 to 5, each size a
/// power of two of at most 256, the innermost at least 16 bytes.
inline constexpr size_t kMaxDescriptorRank = 5;
inline constexpr int64_t kMaxDescriptorBlock = 256;
inline constexpr int64_t kMinDescriptorInnerBytes = 16;

/// Why `block` cannot be the block of a descriptor of `elem`s, in the words
/// of every place that checks it (TypeRules.cpp), or "" when it can.
std::string descriptorBlockProblem(const std::vector<int64_t> &block, ScalarKind elem);

} // namespace twintile::ir
