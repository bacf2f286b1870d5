// Triton's tile algorithms, written in the language (twintile/algorithms.h):
// sort, gather, histogram, split and join. Both front ends give the same IR;
// each kernel checks itself with device_assert in the interpreter and the
// PTX emulator: a sort is checked by counting (each element's position lies
// between how many are smaller and how many are no larger), a gather
// against the formula of its source, a histogram against a known count.
// Refusals are at the caller's line with what to write.
// RUN: twintile diff %s --kernel 'sorts<4,16>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'sorts<4,16>' --grid 1 | FileCheck %s --check-prefix=SORTS
// RUN: twintile run --frontend=trace %s --kernel 'sorts<2,128>' --grid 1 --num-warps 8 | FileCheck %s --check-prefix=SORTS
// RUN: twintile run --frontend=parse %s --kernel 'sorts<8,2>' --grid 1 --num-warps 1 | FileCheck %s --check-prefix=SORTS
// RUN: twintile diff %s --kernel 'gathers<8,16>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'gathers<8,16>' --grid 1 | FileCheck %s --check-prefix=GATHERS
// RUN: twintile run --frontend=trace %s --kernel 'gathers<32,4>' --grid 1 --num-warps 2 | FileCheck %s --check-prefix=GATHERS
// RUN: twintile run --frontend=parse %s --kernel 'counts<256>' --grid 1 --arg n=200 | FileCheck %s --check-prefix=COUNTS
// RUN: twintile run --frontend=trace %s --kernel 'counts<64>' --grid 1 --arg n=64 | FileCheck %s --check-prefix=COUNTS
// RUN: not twintile compile --frontend=parse %s --kernel 'refused<12>' 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not twintile compile --frontend=trace %s --kernel 'refused<12>' 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not twintile compile --frontend=parse %s --kernel 'not_last<16>' 2>&1 | FileCheck %s --check-prefix=NOT-LAST
// RUN: not twintile compile --frontend=trace %s --kernel 'not_last<16>' 2>&1 | FileCheck %s --check-prefix=NOT-LAST
// RUN: not twintile compile --frontend=parse %s --kernel 'gather_rank<16>' 2>&1 | FileCheck %s --check-prefix=GATHER-RANK
// RUN: not twintile compile --frontend=trace %s --kernel 'gather_rank<16>' 2>&1 | FileCheck %s --check-prefix=GATHER-RANK
#include <twintile.h>
using namespace tt;

/// Whether s (shape [M, N]) is v's rows sorted ascending: position i of a
/// row lies between the number of v's elements below s[i] and the number
/// no larger (as a mask of [M, N]).
template <class E> Tile<i1> sorted_rows(const Tile<E> &v, const Tile<E> &s, int n) {
  auto vj = expand_dims(v, 1);  // [M, 1, N]: every element of the row
  auto si = expand_dims(s, 2);  // [M, N, 1]: position i
  auto below = sum(cast<i32>(vj < si), 2), upto = sum(cast<i32>(vj <= si), 2);
  auto at = expand_dims(arange(0, n), 0);
  return below <= at && at < upto;
}

template <int M, int N>
TT_KERNEL void sorts(Ptr<f32> x, Ptr<f32> y, Ptr<i32> z, Ptr<f16> w) {
  auto offs = expand_dims(arange(0, M), 1) * N + expand_dims(arange(0, N), 0);
  auto v = floor(load(x + offs) * 3.0f);  // ties, negatives, -0.0
  auto up = sort(v);
  auto down = sort(v, 1, true);
  device_assert(sorted_rows(v, up, N), "sort orders each row ascending");
  device_assert(sorted_rows(-v, -down, N), "descending is the reverse");
  auto iv = cast<i32>(v) * 7 % 5;
  device_assert(sorted_rows(iv, sort(iv), N), "integers too");
  auto h = cast<f16>(v);
  device_assert(sorted_rows(h, sort(h, -1), N), "f16 too");
  auto flat = reshape(v, {M * N});  // one row of every element
  device_assert(sorted_rows(reshape(flat, {1, M * N}), reshape(sort(flat), {1, M * N}), M * N), "a 1-D tile");
  auto cube = reshape(v, {M, 1, N});
  device_assert(reshape(sort(cube), {M, N}) == up, "a 3-D tile sorts its last axis");
  auto masks = sort(v > 0.0f);
  device_assert(sorted_rows(cast<i32>(v > 0.0f), cast<i32>(masks), N), "masks too");
  store(y + offs, up + down);
  store(z + offs, sort(iv, -1, true));
  store(w + offs, sort(h));
}
// SAME: equal
// SORTS: ok: sorts on emu, {{.*}}: matches the interpreter

// gather along each axis of src[i][j] = i * N + j, a mask through split/join.
template <int M, int N>
TT_KERNEL void gathers(Ptr<f32> y, Ptr<i32> z) {
  auto rows = expand_dims(arange(0, M), 1), cols = expand_dims(arange(0, N), 0);
  auto src = cast<f32>(rows * N + cols);
  auto down = (rows * 3 + cols) % M;  // [M, N] row indices
  auto g0 = gather(src, down, 0);
  device_assert(g0 == cast<f32>(down * N + cols), "gather along axis 0");
  auto across = (rows + cols * 5) % N;
  auto g1 = gather(src, cast<i64>(across), 1);
  device_assert(g1 == cast<f32>(rows * N + across), "gather along axis 1 with i64 indices");
  auto fewer = gather(src, broadcast_to(expand_dims(arange(0, 2), 1), {2, N}), 0);
  device_assert(fewer == cast<f32>(expand_dims(arange(0, 2), 1) * N + cols), "index with fewer rows");
  auto neg = -0.0f * cast<f32>(rows + cols);
  device_assert(bitcast<i32>(gather(neg, down, 0)) == bitcast<i32>(neg), "-0.0 moves as its bits");
  auto both = join(src, -src);
  auto [a, b] = split(both);
  device_assert(a == src && b == -src, "split undoes join");
  auto [lo, hi] = split(reshape(cast<i32>(src), {M, N / 2, 2}));
  device_assert(lo % 2 == 0 && hi == lo + 1, "split pairs the last axis");
  store(y + rows * N + cols, g0 + g1);
  store(z + rows * N + cols, cast<i32>(gather(src > 3.0f, down, 0)));
}
// GATHERS: ok: gathers on emu, {{.*}}: matches the interpreter

template <int B>
TT_KERNEL void counts(Ptr<i32> out, i32 n) {
  auto x = arange(0, B) % 8 - 1;  // -1 .. 6: -1 is in no bin, bin 7 is empty
  auto h = histogram(x, 8);
  auto bins = arange(0, 8);
  device_assert(h == where(bins == 7, 0, B / 8), "counts of 0 .. 6, none of 7");
  auto masked = histogram(x, 8, arange(0, B) < n);
  device_assert(sum(masked, 0) == sum(cast<i32>(arange(0, B) < n && x >= 0), 0), "only the masked-in ones");
  store(out + bins, h + masked);
}
// COUNTS: ok: counts on emu, {{.*}}: matches the interpreter

template <int N>
TT_KERNEL void refused(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + arange(0, N));
  store(y + arange(0, N), sort(v));
}
// REFUSED: algorithms.cpp:[[@LINE-2]]:27: error: sort needs the sorted dimension's size to be a power of two (pad the tile)

template <int N>
TT_KERNEL void not_last(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + expand_dims(arange(0, N), 1) * N + expand_dims(arange(0, N), 0));
  store(y, sum(sum(sort(v, 0), 0), 0));
}
// NOT-LAST: algorithms.cpp:[[@LINE-2]]:20: error: sort sorts along the last dimension only (as Triton's tl.sort): trans(x) the dimension to the end first

template <int N>
TT_KERNEL void gather_rank(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + expand_dims(arange(0, N), 1) * N + expand_dims(arange(0, N), 0));
  store(y + arange(0, N), gather(v, arange(0, N), 0));
}
// GATHER-RANK: algorithms.cpp:[[@LINE-2]]:27: error: gather's index must have the rank of its source (as tl.gather's)
