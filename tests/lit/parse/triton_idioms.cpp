// Idioms of upstream Triton kernels that held-out trials found missing: a
// scalar accumulator taking a reduction's 0-d result by +=/-=, clamp, an
// offset added to a pointer from the left, and a narrower value assigned to
// a wider variable (converted, as C++ converts); full and broadcast_to of a
// device scalar, the compound operators %= &= |= ^= <<= >>=, tl.philox's
// own signature with a 64-bit seed and a scalar counter beside a tile; the
// same IR from both front ends, right in the emulator and checked by
// device_assert (triton_idioms_refused.cpp: what is refused).
// RUN: twintile diff %s --kernel 'idioms<64>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'idioms<64>' --grid 2 --arg x=64 --arg out=64 --arg n=50 | FileCheck %s --check-prefix=EMU
// RUN: twintile run --frontend=trace %s --kernel 'idioms<64>' --grid 2 --arg x=64 --arg out=64 --arg n=50 | FileCheck %s --check-prefix=EMU
// RUN: twintile compile --frontend=parse %s --kernel 'idioms<64>' --emit tile | FileCheck %s
// RUN: twintile diff %s --kernel 'mixed<32>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'mixed<32>' --grid 1 --arg y=32 --arg z=32 --arg hi=1.0 | FileCheck %s --check-prefix=EMU-MIXED
// RUN: twintile run --frontend=trace %s --kernel 'mixed<32>' --grid 1 --arg y=32 --arg z=32 --arg hi=1.0 | FileCheck %s --check-prefix=EMU-MIXED
// RUN: twintile diff %s --kernel 'second_trial<64>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'second_trial<64>' --grid 2 --arg n=100 --arg d=7 --arg seed=20015998343868 | FileCheck %s --check-prefix=EMU-SECOND
// RUN: twintile run --frontend=trace %s --kernel 'second_trial<64>' --grid 2 --arg n=100 --arg d=7 --arg seed=20015998343868 | FileCheck %s --check-prefix=EMU-SECOND
// Parsing only (the tracer refuses ?: on a device condition as native control
// flow): `a if cond else b` on a device condition, an if yielding the taken
// branch's value; `if constexpr` on a string template argument; a combine
// function chosen by ?: on a host condition.
// RUN: twintile compile --frontend=parse %s --kernel 'third_trial<64,"mean",true>' --emit tile | FileCheck %s --check-prefix=THIRD
// RUN: twintile run --frontend=parse %s --kernel 'third_trial<64,"mean",true>' --grid 2 --arg n=100 | FileCheck %s --check-prefix=EMU-THIRD
// RUN: twintile run --frontend=parse %s --kernel 'third_trial<64,"sum",false>' --grid 2 --arg n=100 | FileCheck %s --check-prefix=EMU-THIRD
// RUN: not twintile compile --frontend=trace %s --kernel 'third_trial<64,"sum",false>' 2>&1 | FileCheck %s --check-prefix=THIRD-TRACE
// Python's 2-tuples of helpers' results as std::pair: returned by braces,
// made by std::make_pair, unpacked by structured bindings and by .first.
// RUN: twintile diff %s --kernel 'tuples<64>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'tuples<64>' --grid 2 --arg n=100 | FileCheck %s --check-prefix=EMU-TUPLES
// RUN: twintile run --frontend=trace %s --kernel 'tuples<64>' --grid 2 --arg n=100 | FileCheck %s --check-prefix=EMU-TUPLES
#include <twintile.h>
#include <utility>
using namespace tt;

template <int B>
TT_KERNEL void idioms(Ptr<f32> x, Ptr<f32> out, i32 n) {
  auto t = load(x + arange(0, B), arange(0, B) < n, 0.0f);
  f32 acc = 0.0f;
  acc += sum(t, 0);                              // a 0-d tile into a scalar accumulator
  acc -= max(t, 0);
  auto c = clamp(t, -1.0f, 1.0f);                // tl.clamp
  i64 pid = cast<i64>(program_id(0)) * 4;
  pid = program_id(0);                           // an i32 into an i64 variable: converted
  auto offs = cast<i64>(arange(0, B)) * 2;
  offs = arange(0, B);                           // an i32 tile into an i64 one
  store(offs + out, c + acc, offs < n);          // offset + pointer
  store(pid + out, acc);
}

// clamp's steps typed as minimum(maximum(x, lo), hi) types them, in both
// front ends: the inner maximum of an f16 tile and a host float in f16.
template <int B>
TT_KERNEL void mixed(Ptr<f32> y, Ptr<i32> z, f32 hi) {
  auto h = zeros<f16>({B});
  store(y + arange(0, B), clamp(h, 0.1f, hi));
  store(z + arange(0, B), clamp(arange(0, B), 0, 10.5f));
  f32 acc = 0.0f;
  acc += sum(h, 0);                              // a narrower 0-d tile: promoted
  i64 count = 0;
  count += sum(arange(0, B), 0);
  store(y, acc + count);
}

// CHECK: sum {axis = 0}
// CHECK: add %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK: max {axis = 0}
// CHECK: sub %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK: maximum
// CHECK: minimum
// CHECK: cast %{{[0-9]+}} : i64
// SAME: equal
// EMU: ok: idioms on emu
// EMU-MIXED: ok: mixed on emu

// A second trial's: avg_pool2d's tl.full(shape, divisor), the cummin
// combine's `mask |= ...`, FlagGems's tl.philox(seed, c0, c1, _O, _O).
template <int B>
TT_KERNEL void second_trial(Ptr<f32> y, Ptr<i32> z, i32 n, i32 d, i64 seed) {
  auto offs = program_id(0) * B + arange(0, B);
  auto div = full<f32>({B}, d);                  // a device scalar, converted
  auto same = broadcast_to(cast<f32>(d), {B});
  device_assert(div == same, "full and broadcast_to of a scalar agree");
  auto bits = offs;
  bits %= 37;
  bits <<= 2;
  bits >>= 1;
  bits |= 1;
  bits &= 0xff;
  bits ^= 3;
  device_assert(bits == ((((((offs % 37) << 2) >> 1) | 1) & 0xff) ^ 3), "compound operators are their operators");
  auto odd = (offs & 1) == 1;
  odd |= offs < 3;
  device_assert(odd == ((offs & 1) == 1 || offs < 3), "a mask's |=");
  auto _O = offs * 0;
  i32 c1 = 5;
  auto [r0, r1, r2, r3] = philox(seed, offs, c1, _O, _O);   // Triton's order, c1 a scalar
  auto [s0, s1, s2, s3] = philox(offs, _O + 5, _O, _O, cast<i32>(seed), cast<i32>(seed >> 32));
  device_assert(r0 == s0 && r1 == s1 && r2 == s2 && r3 == s3, "the key is the seed's two words");
  device_assert(randint(seed, offs) != randint(cast<i32>(seed), offs) || offs < 0, "a 64-bit seed keeps its high word");
  store(y + offs, div + uniform_float(r0), offs < n);
  store(z + offs, bits + r3, offs < n);
}
// EMU-SECOND: ok: second_trial on emu

// A third trial's (Liger's cross entropy, FlagGems's isin).
template <int N> struct Str {  // Triton's `reduction: tl.constexpr`, a str
  char s[N];
  constexpr Str(const char (&v)[N]) {
    for (int i = 0; i < N; ++i) s[i] = v[i];
  }
  template <int M> constexpr bool operator==(const char (&v)[M]) const {
    if (M != N) return false;
    for (int i = 0; i < N; ++i)
      if (s[i] != v[i]) return false;
    return true;
  }
};
inline i1 reduce_any(i1 a, i1 b) { return a || b; }
inline i1 reduce_all(i1 a, i1 b) { return a && b; }

template <int B, Str reduction, bool invert>
TT_KERNEL void third_trial(Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * B + arange(0, B);
  auto total = sum(cast<f32>(offs), 0);
  f32 sign = total > 3000.0f ? f32(1.0f) : f32(-1.0f);  // program 1 sums to 6112, program 0 to 2016
  auto is_big = total > 3000.0f ? 1.0f : 0.0f;            // host literals: f32, as Triton's 1.0
  device_assert(sign == where(program_id(0) == 1, 1.0f, -1.0f) && is_big == (sign + 1.0f) / 2.0f, "?: picks");
  i64 big = n > 5 ? 5000000000LL : 1LL;                   // 64-bit host literals: i64
  device_assert(big == 5000000000LL, "?: of 64-bit literals");
  auto loss = total;
  if constexpr (reduction == "mean") loss = loss / B;
  auto small = offs < program_id(0) * B + 8;
  auto any = reduce(small, 0, invert ? reduce_all : reduce_any);
  device_assert(any == !invert, "the combine ?: chose");
  store(y + offs, loss * sign + cast<f32>(any), offs < n);
}
// THIRD: if %{{[0-9]+}} : f32 {
// THIRD: reduce {axis = 0}
// THIRD: and
// EMU-THIRD: ok: third_trial on emu
// THIRD-TRACE: error: a device value is used as a C++ condition

inline std::pair<Tile<f32>, Tile<f32>> sin_cos(Tile<f32> x) { return {sin(x), cos(x)}; }
inline std::pair<Tile<f32>, i32> scaled(Tile<f32> x, i32 k) { return std::make_pair(x * 2.0f, k + 1); }

template <int B>
TT_KERNEL void tuples(Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * B + arange(0, B);
  auto x = cast<f32>(offs) * 0.01f;
  auto [s, c] = sin_cos(x);
  device_assert(abs(s * s + c * c - 1.0f) < 1e-5f, "sin^2 + cos^2 is 1");
  auto sc = scaled(s, n);
  device_assert(sc.first == s * 2.0f && sc.second == n + 1, "make_pair, .first and .second");
  std::pair<Tile<f32>, Tile<f32>> copy = sin_cos(x);
  auto [s2, c2] = copy;
  device_assert(s2 == s && c2 == c, "a copy of a pair");
  auto named = std::make_pair(x, n);                      // named arguments, bound by reference
  device_assert(std::get<0>(named) == x && std::get<1>(named) == n, "std::get of a named pair");
  auto &[first, second] = named;                          // a reference binding aliases the fields
  first = first + 1.0f;
  second = second + 5;
  device_assert(named.first == x + 1.0f && named.second == n + 5, "auto &[a, b] writes the pair");
  auto moved = std::move(named);
  named = scaled(s, n);                                   // std::pair's operator=
  device_assert(moved.second == n + 5 && named.second == n + 1, "moved and assigned");
  store(y + offs, s + c, offs < n);
}
// EMU-TUPLES: ok: tuples on emu
