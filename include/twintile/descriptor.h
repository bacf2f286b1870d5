//===- twintile/descriptor.h - tensor descriptors ------------------------===//
//
// Triton's tl.make_tensor_descriptor in C++: a strided tensor (its base, a
// shape and strides, device values) read and written one block (a host
// shape) at a time:
//
//   auto d = make_tensor_descriptor(a, {M, K}, {K, 1}, {BM, BK});
//   Tile<f16> ta = d.load({pid_m * BM, k});      // 0 outside [0, M) x [0, K)
//   d.store({pid_m * BM, k}, ta);                // what lies outside is not written
//
// The innermost stride is the literal 1; each block size a power of two of
// at most 256, the innermost at least 16 bytes (the tensor memory
// accelerator's limits, which every target holds to). Included by
// twintile.h; ir/IR.h states the semantics.
//===----------------------------------------------------------------------===//
#pragma once

namespace tt {

namespace detail {

/// One of a descriptor's sizes, strides or offsets: an integer device
/// scalar, or a host integer (an i32, or an i64 when its type has 64 bits or
/// is an unsigned 32-bit one, whose values i32 cannot all hold).
class Index {
public:
  template <IntDevice V> requires(!Traits<V>::isTile)
  Index(const V &v, Loc = TT_HERE_) : node_(v.node()) {}
  template <HostIntLike H> requires(!same<H, bool>)
  Index(H h, Loc l = TT_HERE_)
      : node_(intConstant(h, {sizeof(H) == 8 || (sizeof(H) == 4 && H(-1) > H(0)) ? Kind::I64 : Kind::I32, Kind::I32, false},
                          l)) {}
  Node *node() const { return node_; }

private:
  Node *node_;
};

/// make_tensor_descriptor's checks, where the kernel makes one (the arrays
/// hold `rank` entries).
void descriptorMade(Node *base, Node *const *shape, Node *const *strides, const int *block, int rank, Loc loc);
/// A load of the descriptor's block at `offsets` (value null), or a store of `value`.
Node *descriptorAccess(Node *base, Node *const *shape, Node *const *strides, const int *block, int rank,
                       Node *const *offsets, Node *value, Loc loc);

} // namespace detail

/// A tensor of E of rank R, read and written a block at a time.
template <detail::Pointee E, int R> class TensorDescriptor {
public:
  /// The block at `offsets` (one per dimension), 0 where it lies outside the tensor.
  Tile<E> load(const detail::Index (&offsets)[R], detail::Loc l = TT_HERE_) const {
    return detail::make<Tile<E>>(detail::descriptorAccess(base_, shape_, strides_, block_, R, nodes(offsets), nullptr, l));
  }
  /// Writes `value` (a tile of the block's shape, or what broadcasts to it) at
  /// `offsets`, but not where it lies outside the tensor.
  template <class V> void store(const detail::Index (&offsets)[R], const V &value, detail::Loc l = TT_HERE_) const {
    detail::descriptorAccess(base_, shape_, strides_, block_, R, nodes(offsets),
                             detail::present(detail::nodeOf<Tile<E>>(value, l), l), l);
  }

private:
  template <detail::Pointee F, int S>
  friend TensorDescriptor<F, S> make_tensor_descriptor(const Ptr<F> &, const detail::Index (&)[S],
                                                       const detail::Index (&)[S], const int (&)[S], detail::Loc);
  TensorDescriptor(const Ptr<E> &base, const detail::Index (&shape)[R], const detail::Index (&strides)[R],
                   const int (&block)[R], detail::Loc l)
      : base_(base.node()) {
    for (int d = 0; d < R; ++d) shape_[d] = shape[d].node(), strides_[d] = strides[d].node(), block_[d] = block[d];
    detail::descriptorMade(base_, shape_, strides_, block_, R, l);
  }
  struct Nodes {
    detail::Node *n[R];
    operator detail::Node *const *() const { return n; }
  };
  static Nodes nodes(const detail::Index (&xs)[R]) {
    Nodes out;
    for (int d = 0; d < R; ++d) out.n[d] = xs[d].node();
    return out;
  }
  detail::Node *base_;
  detail::Node *shape_[R], *strides_[R];
  int block_[R];
};

/// A descriptor of the tensor at `base` of `shape` and `strides` (the last
/// the literal 1), read and written in blocks of `block` (host sizes).
template <detail::Pointee E, int R>
TensorDescriptor<E, R> make_tensor_descriptor(const Ptr<E> &base, const detail::Index (&shape)[R],
                                              const detail::Index (&strides)[R], const int (&block)[R],
                                              detail::Loc l = TT_HERE_) {
  return TensorDescriptor<E, R>(base, shape, strides, block, l);
}

} // namespace tt
