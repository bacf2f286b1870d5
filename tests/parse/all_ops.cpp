// Every operation of the language in one kernel: both front ends must read it to the
// same IR (tests/parse/EquivalenceTest.cpp).
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void all_ops(Ptr<f32> x, Ptr<f32> y, Ptr<i32> counts, Ptr<f16> h, i32 n) {
  auto offs = program_id(0) * B + arange(0, B);
  auto mask = (offs < n) & (offs >= 0);
  auto v = load(x + offs, mask, 0.0f);
  auto w = load(y + offs, mask, {.eviction_policy = Evict::Last}) + load(y + offs, {.cache_modifier = Cache::Cg});
  // Arithmetic, comparison and bitwise operators.
  auto a = v + w - v * w / (w + 2.0f);
  auto i = offs % 7 + (offs << 1) + (offs >> 1) + (offs ^ 3) + (offs | 1) + (offs & 5) + ~offs + -offs;
  auto m = ~(v < w) | (v <= w) | (v > w) | (v >= w) | (v == w) | (v != w);
  a += 1.0f;
  a -= 0.5f;
  a *= 2.0f;
  a /= 4.0f;
  // Math.
  auto e = abs(a) + exp(a) + exp2(a) + log(abs(a) + 1.0f) + log2(abs(a) + 1.0f) + sqrt(abs(a)) +
           rsqrt(abs(a) + 1.0f) + sin(a) + cos(a) + tanh(a) + sigmoid(a) + fma(a, v, w);
  auto g = floor(e) + ceil(e) + erf(e) + log1p(abs(e)) + expm1(e) + round(e) + rint(e) + pow(abs(e) + 1.0f, 0.5f) + cast<f32>(umulhi(offs, 123456789)) +
           bitcast<f32>(bitcast<i32>(e) & 0x7fffffff);
  auto f = minimum(e, 10.0f) + maximum(e, -10.0f) + where(m, e, 0.0f) + cast<f32>(i) + g;
  // Shapes.
  auto col = expand_dims(f, 1);                      // [B, 1]
  auto grid = broadcast_to(col, {B, 4});             // [B, 4]
  auto flat = reshape(grid, {4 * B});                // [4B]
  auto t = trans(grid);                              // [4, B]
  auto t2 = trans(reshape(flat, {B, 4}), {1, 0});    // [4, B]
  auto z = full<f32>({4, B}, 1.5f) + zeros<f32>({4, B}) + t - t2;
  // Reductions, scans, dot.
  auto r = sum(z, 0) + max(z, 0) + min(z, 0) + cumsum(f, 0) +
           reduce(z, 0, [](f32 a, f32 b) { return maximum(a, b) * 0.5f; }) +
           associative_scan(f, 0, [](auto a, auto b) { return where(a < b, b, a); });
  auto idx = argmax(z, 1) + argmin(z, 1);
  auto acc = dot(cast<f16>(t), cast<f16>(grid), zeros<f32>({4, 4}));
  store(y + offs, r + sum(sum(acc, 0), 0) + sum(flat, 0), mask);
  atomic_add(counts + arange(0, 4), idx + num_programs(0));
  store(h + offs, cast<f16>(r), mask, {.cache_modifier = Cache::Cs});
  device_print("r", sum(r, 0));
  device_assert(n >= 0, "n is not negative");
}
