//===- twintile/algorithms.h - Triton's tile algorithms, in the language --===//
//
// sort, gather, histogram, split and join with Triton's semantics, written
// in the language itself from reshapes, broadcasts, comparisons and sums
// (as Triton writes tl.sort and tl.histogram in its standard library): no op
// of the IR is theirs, so both front ends, the interpreter and the backend
// take them as they take a user's code. The parsing front end inlines them
// as user code (they live outside `tt` proper, as `rng` does); the tracer
// runs them. Sizes are shapes, which both front ends know while they record
// (shape_of); a size they refuse is refused at the caller's line.
//
// Elements move between lanes of a tile as their bits (an integer of the
// same width, an i1 as an i8): a sum over an axis where every element but
// one is zero picks that one exactly (-0.0 and NaN payloads included).
// Included by twintile.h; not a header of its own.
//===----------------------------------------------------------------------===//
#pragma once

namespace tt {


/// Triton's `x.shape[axis]` and `len(x.shape)`: host ints, known while the
/// kernel is recorded.
template <class E> int shape_of(const Tile<E> &x, int axis, detail::Loc l = TT_HERE_) {
  return detail::shapeOf(x.node(), axis, l);
}
template <class E> int rank_of(const Tile<E> &x, detail::Loc l = TT_HERE_) { return detail::rankOf(x.node(), l); }

inline namespace algorithms {

namespace impl {  // not tt::detail: the parsing front end inlines these as user code
/// An integer type of E's width that carries its bits: E itself for
/// integers, i8 for a mask.
enum BitsKind { Int, Float, Mask };
template <class E> struct BitsOf { using type = E; static constexpr BitsKind kind = Int; };
template <> struct BitsOf<f16> { using type = i16; static constexpr BitsKind kind = Float; };
template <> struct BitsOf<bf16> { using type = i16; static constexpr BitsKind kind = Float; };
template <> struct BitsOf<f32> { using type = i32; static constexpr BitsKind kind = Float; };
template <> struct BitsOf<f64> { using type = i64; static constexpr BitsKind kind = Float; };
template <> struct BitsOf<i1> { using type = i8; static constexpr BitsKind kind = Mask; };

template <class E> Tile<typename BitsOf<E>::type> toBits(const Tile<E> &x) {
  if constexpr (BitsOf<E>::kind == Mask) return cast<i8>(x);
  else if constexpr (BitsOf<E>::kind == Float) return bitcast<typename BitsOf<E>::type>(x);
  else return x;
}
template <class E> Tile<E> fromBits(const Tile<typename BitsOf<E>::type> &b) {
  if constexpr (BitsOf<E>::kind == Mask) return b != 0;
  else if constexpr (BitsOf<E>::kind == Float) return bitcast<E>(b);
  else return b;
}

/// Of `bits` (shape [A, 2, H]), the element at `side` (0 or 1) of each pair,
/// exactly, as an [A, H] tile.
template <class B> Tile<B> sideOf(const Tile<B> &bits, int side) {
  Tile<i32> lane = expand_dims(expand_dims(arange(0, 2), 0), 2);
  return sum(where(lane == side, bits, B(0)), 1);
}
} // namespace impl


/// sort(x, dim, descending): x sorted along its last dimension (dim -1 or
/// rank - 1, as Triton's tl.sort), whose size is a power of two: a bitonic
/// network of compare-and-swap steps, as Triton's. NaNs are never smaller
/// or larger than another value, so where they land is unspecified.
template <class E> Tile<E> sort(const Tile<E> &x, int dim = -1, bool descending = false, detail::Loc l = TT_HERE_) {
  using B = typename impl::BitsOf<E>::type;
  int rank = rank_of(x, l);
  if (rank == 0) detail::refuse("sort takes a tile, not a scalar", l);
  if (dim != -1 && dim != rank - 1)
    detail::refuse("sort sorts along the last dimension only (as Triton's tl.sort): trans(x) the dimension to the "
                   "end first",
                   l);
  int n = shape_of(x, -1, l), k = 0;
  while ((1 << k) < n) ++k;
  if ((1 << k) != n) detail::refuse("sort needs the sorted dimension's size to be a power of two (pad the tile)", l);
  int outer = 1;
  for (int d = 0; d + 1 < rank; ++d) outer *= shape_of(x, d, l);
  Tile<B> bits = reshape(impl::toBits(x), {outer, n});
  Tile<i32> index = broadcast_to(expand_dims(arange(0, n), 0), {outer, n});
  for (int stage = 1; stage <= k; ++stage) {
    // Runs of 2^stage become sorted: ascending where bit `stage` of the index
    // is 0 (every run of the last stage), descending where it is 1.
    Tile<i1> down = ((index >> stage) & 1) == 1;
    if (descending) down = !down;
    for (int step = stage - 1; step >= 0; --step) {
      int h = 1 << step, pairs = outer * n / (2 * h);
      Tile<B> paired = reshape(bits, {pairs, 2, h});
      Tile<B> left = reshape(broadcast_to(expand_dims(impl::sideOf(paired, 0), 1), {pairs, 2, h}), {outer, n});
      Tile<B> right = reshape(broadcast_to(expand_dims(impl::sideOf(paired, 1), 1), {pairs, 2, h}), {outer, n});
      Tile<i1> swap = (impl::fromBits<E>(left) > impl::fromBits<E>(right)) != down;
      Tile<B> partner = where(((index >> step) & 1) == 0, right, left);
      bits = where(swap, partner, bits);
    }
  }
  Tile<E> sorted = impl::fromBits<E>(bits);
  if (rank == 1) return reshape(sorted, {n});
  // Back to x's shape: rank 2..4 (a shape's rank is not a C++ constant).
  if (rank == 2) return reshape(sorted, {shape_of(x, 0, l), n});
  if (rank == 3) return reshape(sorted, {shape_of(x, 0, l), shape_of(x, 1, l), n});
  if (rank != 4) detail::refuse("sort takes tiles of rank 1 to 4", l);
  return reshape(sorted, {shape_of(x, 0, l), shape_of(x, 1, l), shape_of(x, 2, l), n});
}
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"  // = delete("why")
#endif
template <class E>
Tile<E> sort(const Tile<E> &x, bool descending, detail::Loc l = TT_HERE_)
    TT_REFUSED_("sort(x, dim, descending): the dimension comes first, as in Triton's tl.sort(x, dim, descending); "
                "write sort(x, -1, true)");
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

/// gather(src, index, axis): out[..., i, ...] = src[..., index[..., i, ...], ...]
/// along `axis`, as Triton's tl.gather: index has src's rank and src's size
/// along every other axis; the result has index's shape and src's element
/// type. An index outside src gives 0.
template <class E, class I>
  requires detail::IntDevice<Tile<I>>
Tile<E> gather(const Tile<E> &src, const Tile<I> &index, int axis, detail::Loc l = TT_HERE_) {
  int rank = rank_of(src, l);
  if (rank_of(index, l) != rank) detail::refuse("gather's index must have the rank of its source (as tl.gather's)", l);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) detail::refuse("gather's axis is out of range for its source", l);
  for (int d = 0; d < rank; ++d)
    if (d != axis && shape_of(src, d, l) != shape_of(index, d, l))
      detail::refuse("gather's index must have its source's size along every axis but the gathered one", l);
  // Along a new axis after `axis`, every position of src; pick the one each index names.
  Tile<i32> position = arange(0, shape_of(src, axis, l));
  for (int d = 0; d <= axis; ++d) position = expand_dims(position, 0);
  for (int d = axis + 1; d < rank; ++d) position = expand_dims(position, -1);
  auto bits = expand_dims(impl::toBits(src), axis);
  using B = typename impl::BitsOf<E>::type;
  Tile<B> picked = sum(where(expand_dims(index, axis + 1) == position, bits, B(0)), axis + 1);
  return impl::fromBits<E>(picked);
}

/// histogram(x, num_bins[, mask]): of a 1-D tile of integers, how many
/// elements equal each of 0 .. num_bins - 1 (i32 counts; other values and
/// masked-off elements are not counted), as Triton's tl.histogram.
template <class I>
  requires detail::IntDevice<Tile<I>>
Tile<i32> histogram(const Tile<I> &x, int num_bins, detail::Loc l = TT_HERE_) {
  if (rank_of(x, l) != 1) detail::refuse("histogram takes a 1-D tile (as tl.histogram): reshape(x, {n}) first", l);
  if (num_bins <= 0) detail::refuse("histogram needs at least one bin", l);
  return sum(cast<i32>(expand_dims(x, 1) == expand_dims(arange(0, num_bins), 0)), 0);
}
template <class I>
  requires detail::IntDevice<Tile<I>>
Tile<i32> histogram(const Tile<I> &x, int num_bins, const Tile<i1> &mask, detail::Loc l = TT_HERE_) {
  if (rank_of(x, l) != 1) detail::refuse("histogram takes a 1-D tile (as tl.histogram): reshape(x, {n}) first", l);
  if (num_bins <= 0) detail::refuse("histogram needs at least one bin", l);
  return sum(cast<i32>(expand_dims(x, 1) == expand_dims(arange(0, num_bins), 0) && expand_dims(mask, 1)), 0);
}

/// join(a, b): a and b (one shape) side by side along a new last axis of
/// size 2, as Triton's tl.join; split(x) undoes it: the halves of a last
/// axis of size 2, as tl.split, unpacked by structured bindings.
template <class E> Tile<E> join(const Tile<E> &a, const Tile<E> &b, detail::Loc l = TT_HERE_) {
  Tile<i32> side = arange(0, 2);
  for (int d = 0; d < rank_of(a, l); ++d) side = expand_dims(side, 0);
  return where(side == 0, expand_dims(a, -1), expand_dims(b, -1));
}
template <class E> Carried<Tile<E>, Tile<E>> split(const Tile<E> &x, detail::Loc l = TT_HERE_) {
  int rank = rank_of(x, l);
  if (rank == 0 || shape_of(x, -1, l) != 2)
    detail::refuse("split takes a tile whose last axis has size 2 (as tl.split)", l);
  using B = typename impl::BitsOf<E>::type;
  Tile<i32> side = arange(0, 2);
  for (int d = 0; d + 1 < rank; ++d) side = expand_dims(side, 0);
  Tile<B> bits = impl::toBits(x);
  return carry(impl::fromBits<E>(sum(where(side == 0, bits, B(0)), rank - 1)),
               impl::fromBits<E>(sum(where(side == 1, bits, B(0)), rank - 1)));
}

} // namespace algorithms

} // namespace tt
