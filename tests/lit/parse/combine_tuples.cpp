// reduce and associative_scan over several tiles at once, as Triton's
// tl.reduce((a, b, ...), axis, combine_fn): the combine takes an earlier
// element of each tile, then a later one, and returns carry(...) of one of
// each; the results unpack by structured bindings. Both front ends give the
// same IR; the kernels check themselves with device_assert against the
// built-in reductions (argmax, max, sum, cumsum), in the interpreter and in
// the PTX emulator, with the warps splitting the axis (shared memory), with
// tiles smaller than the warps (wrapped copies), and with a scan through
// shared memory.
// RUN: twintile compile --frontend=parse %s --kernel 'pairs<8,64>' --no-locs > %t.parse
// RUN: twintile compile --frontend=trace %s --kernel 'pairs<8,64>' --no-locs > %t.trace
// RUN: diff %t.parse %t.trace
// RUN: FileCheck %s < %t.parse
// RUN: twintile run --frontend=parse %s --kernel 'pairs<8,64>' --grid 1 | FileCheck %s --check-prefix=PAIRS
// RUN: twintile run --frontend=trace %s --kernel 'pairs<8,64>' --grid 1 --num-warps 8 | FileCheck %s --check-prefix=PAIRS
// RUN: twintile run --frontend=parse %s --kernel 'pairs<2,512>' --grid 1 --num-warps 8 | FileCheck %s --check-prefix=PAIRS
// RUN: twintile run --frontend=trace %s --kernel 'pairs<4,4>' --grid 1 --num-warps 4 | FileCheck %s --check-prefix=PAIRS
// RUN: twintile diff %s --kernel 'welford<300>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'welford<300>' --arg n=300 --grid 1 | FileCheck %s --check-prefix=WELFORD
// RUN: twintile run --frontend=trace %s --kernel 'welford<1024>' --arg n=1000 --grid 1 --num-warps 8 | FileCheck %s --check-prefix=WELFORD
// RUN: twintile run --frontend=parse %s --kernel 'welford<16>' --arg n=13 --grid 1 | FileCheck %s --check-prefix=WELFORD
// RUN: twintile run --frontend=parse %s --kernel 'counted<8,128>' --grid 1 | FileCheck %s --check-prefix=COUNTED
// RUN: twintile run --frontend=trace %s --kernel 'counted<8,128>' --grid 1 --num-warps 8 | FileCheck %s --check-prefix=COUNTED
// RUN: twintile run --frontend=parse %s --kernel 'counted<64,8>' --grid 1 --num-warps 2 | FileCheck %s --check-prefix=COUNTED
// RUN: twintile run --frontend=trace %s --kernel 'counted<4,4>' --grid 1 | FileCheck %s --check-prefix=COUNTED
// An f16 beside a bf16 through shared memory (LLVM's NVPTX once failed to
// select the bf16 of a merged load); six values returned for one tile.
// RUN: twintile run --frontend=parse %s --kernel 'halves<256>' --grid 1 --num-warps 8 | FileCheck %s --check-prefix=HALVES
// RUN: twintile run --frontend=trace %s --kernel 'halves<8>' --grid 1 --num-warps 1 | FileCheck %s --check-prefix=HALVES
// RUN: not twintile compile --frontend=trace %s --kernel 'six_for_one<16>' 2>&1 | FileCheck %s --check-prefix=SIX
// RUN: not twintile compile --frontend=parse %s --kernel 'six_for_one<16>' 2>&1 | FileCheck %s --check-prefix=SIX
// RUN: not twintile compile --frontend=parse %s --kernel 'shapes<16>' 2>&1 | FileCheck %s --check-prefix=SHAPES
// RUN: not twintile compile --frontend=trace %s --kernel 'shapes<16>' 2>&1 | FileCheck %s --check-prefix=SHAPES
// RUN: not twintile compile --frontend=parse %s --kernel 'returns_one<16>' 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not twintile compile --frontend=trace %s --kernel 'returns_one<16>' 2>&1 | FileCheck %s --check-prefix=ONE-TRACE
#include <twintile.h>
using namespace tt;

// argmax as a (value, index) pair, the first index on ties; a mask carried
// beside them (an i1 through shared memory): whether the row has a negative.
template <int M, int N>
TT_KERNEL void pairs(Ptr<f32> x, Ptr<i32> at, Ptr<f32> best) {
  auto rows = arange(0, M);
  auto offs = expand_dims(rows, 1) * N + expand_dims(arange(0, N), 0);
  auto v = floor(load(x + offs) * 4.0f);  // ties
  auto idx = broadcast_to(expand_dims(arange(0, N), 0), {M, N});
  auto argmax_combine = [](f32 a, i32 ia, i1 na, f32 b, i32 ib, i1 nb) {
    auto take = b > a || (b == a && ib < ia);
    return carry(where(take, b, a), where(take, ib, ia), na || nb);
  };
  auto [m, i, neg] = reduce(carry(v, idx, v < 0.0f), 1, argmax_combine);
  device_assert(i == argmax(v, 1), "the pair's index is argmax's");
  device_assert(m == max(v, 1), "the pair's value is max's");
  device_assert(neg == (min(v, 1) < 0.0f), "the mask is whether the row has a negative");
  store(at + rows, i);
  store(best + rows, m);
}

// CHECK:      %[[R:[0-9]+]], %[[I:[0-9]+]], %[[N:[0-9]+]] = reduce {axis = 1} %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<8xf32>, tile<8xi32>, tile<8xi1> {
// CHECK-NEXT:   ^(%[[A:[0-9]+]]: f32, %[[IA:[0-9]+]]: i32, %[[NA:[0-9]+]]: i1, %[[B:[0-9]+]]: f32, %[[IB:[0-9]+]]: i32, %[[NB:[0-9]+]]: i1):
// CHECK-NEXT:     gt %[[B]], %[[A]] : i1
// CHECK:          yield %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}
// CHECK-NEXT:   }
// PAIRS: ok: pairs on emu, {{.*}}: matches the interpreter on {{[0-9]+}} elements of 3 buffers

// Welford's mean and variance, combined as FlagGems's var_mean does, over
// one row of n (the padding has weight 0), against sum's.
f32 safe_ratio(f32 num, f32 den) { return where(den == 0.0f, 0.0f, num / den); }

template <int B>
TT_KERNEL void welford(Ptr<f32> x, Ptr<f32> out, i32 n) {
  auto cols = arange(0, B);
  auto in = cols < n;
  auto v = load(x + cols, in, 0.0f);
  auto w = where(in, 1.0f, 0.0f);
  auto combine = [](f32 m1, f32 s1, f32 w1, f32 m2, f32 s2, f32 w2) {
    auto wt = w1 + w2;
    auto delta = m2 - m1;
    auto frac = safe_ratio(w2, wt);
    return carry(m1 + delta * frac, s1 + s2 + delta * delta * w1 * frac, wt);
  };
  auto [mean, m2, count] = reduce(carry(v, zeros<f32>({B}), w), 0, combine);
  f32 nf = cast<f32>(n);
  f32 ref_mean = sum(v, 0) / nf;
  f32 ref_var = sum(where(in, (v - ref_mean) * (v - ref_mean), 0.0f), 0) / nf;
  device_assert(count == nf, "the weights count the row");
  device_assert(abs(mean - ref_mean) < 1e-4f, "Welford's mean is sum's");
  device_assert(abs(m2 / nf - ref_var) < 1e-3f * ref_var + 1e-5f, "Welford's variance is sum's");
  store(out + arange(0, 2), where(arange(0, 2) == 0, mean, m2 / nf));
}

// SAME: equal: the parse and trace IR of welford<300> are structurally identical
// WELFORD: ok: welford on emu, {{.*}}: matches the interpreter on {{[0-9]+}} elements of 2 buffers

// A scan of (sum, count) pairs along each axis, against cumsum; a pair
// reduced over every axis, and with keep_dims.
template <int M, int N>
TT_KERNEL void counted(Ptr<i32> x, Ptr<i32> sums, Ptr<i32> total) {
  auto offs = expand_dims(arange(0, M), 1) * N + expand_dims(arange(0, N), 0);
  auto v = load(x + offs) % 5;
  auto ones = full<i32>({M, N}, 1);
  auto add2 = [](i32 a, i32 na, i32 b, i32 nb) { return carry(a + b, na + nb); };
  auto [s, c] = associative_scan(carry(v, ones), 1, add2);
  device_assert(s == cumsum(v, 1), "the pair's sum is cumsum's");
  device_assert(c == expand_dims(arange(0, N), 0) + 1, "the pair's count is the position");
  auto [down, cd] = associative_scan(carry(v, ones), 0, add2);
  device_assert(down == cumsum(v, 0) && cd == expand_dims(arange(0, M), 1) + 1, "down the columns too");
  auto [all, n] = reduce(carry(v, ones), add2);
  device_assert(all == sum(v) && n == M * N, "every axis");
  auto [rows, nr] = reduce(carry(v, ones), 1, add2, true);
  device_assert(rows == sum(v, 1, true) && nr == N, "keep_dims");
  store(sums + offs, s + down);
  store(total + arange(0, 1), broadcast_to(expand_dims(all, 0), {1}));
}

// COUNTED: ok: counted on emu, {{.*}}: matches the interpreter on {{[0-9]+}} elements of 3 buffers

template <int N>
TT_KERNEL void halves(Ptr<f16> h, Ptr<bf16> g, Ptr<f16> oh, Ptr<bf16> og) {
  auto offs = arange(0, N);
  auto x = load(h + offs);
  auto y = load(g + offs);
  auto larger = [](f16 a, bf16 b, f16 a2, bf16 b2) { return carry(maximum(a, a2), maximum(b, b2)); };
  auto [sx, sy] = associative_scan(carry(x, y), 0, larger);
  auto [mx, my] = reduce(carry(y, x), 0, [](bf16 b, f16 a, bf16 b2, f16 a2) { return carry(maximum(b, b2), maximum(a, a2)); });
  device_assert(mx == max(y, 0) && my == max(x, 0), "the pair's maxima are max's");
  store(oh + offs, sx);
  store(og + offs, sy);
}
// HALVES: ok: halves on emu, {{.*}}: matches the interpreter

template <int B>
TT_KERNEL void six_for_one(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + arange(0, B));
  auto [a] = reduce(carry(v), 0, [](f32 a, f32 c) { return carry(a, c, a, c, a, c); });
  store(y, a);
}
// SIX: combine_tuples.cpp:[[@LINE-3]]:{{[0-9]+}}: error: the combine function returns (f32, f32, f32, f32, f32, f32), not one f32 (the type of the elements it combines)

template <int B>
TT_KERNEL void shapes(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + arange(0, B));
  auto [a, b, c] = reduce(carry(v, v + 1.0f, arange(0, 2 * B)), 0, [](f32 a, f32 b, i32 c, f32 d, f32 e, i32 f) {
    return carry(a + d, b + e, c + f);
  });
  store(y, a + b);
}
// SHAPES: combine_tuples.cpp:[[@LINE-5]]:{{[0-9]+}}: error: reduce combines tiles of one shape, got tile<16xf32> and tile<32xi32> (broadcast_to the one to the other's shape first)

template <int B>
TT_KERNEL void returns_one(Ptr<f32> x, Ptr<f32> y) {
  auto v = load(x + arange(0, B));
  auto [a, b] = reduce(carry(v, v), 0, [](f32 a, f32 b, f32 c, f32 d) { return carry(a + c); });
  store(y, a + b);
}
// ONE: combine_tuples.cpp:[[@LINE-3]]:{{[0-9]+}}: error: the combine function returns f32, not carry(...) of one element of each tile, (f32, f32)
// ONE-TRACE: combine_tuples.cpp:[[@LINE-4]]:{{[0-9]+}}: error: the combine function returns f32, not carry(...) of one element of each tile, (f32, f32)
