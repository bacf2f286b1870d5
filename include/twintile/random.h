//===- twintile/random.h - counter-based random numbers ----------------===//
//
// Philox 4x32-10 and Triton's randint, rand, randn on it, written in the
// language. Included by twintile.h; not a header of its own.
//===----------------------------------------------------------------------===//
#pragma once

namespace tt {

//===-- Random numbers ------------------------------------------------------===//

/// Counter-based random numbers: Philox 4x32 with 10 rounds, the streams
/// Triton's tl.randint, tl.rand and tl.randn give for the same seed and
/// offsets (Salmon et al., SC'11). Written in the language itself, from
/// umulhi, xor and wrapping arithmetic: the parsing front end inlines them as
/// user code (they live outside `tt` proper), the tracer runs them.
inline namespace rng {

inline constexpr int kPhiloxKeyA = static_cast<int>(0x9E3779B9u);
inline constexpr int kPhiloxKeyB = static_cast<int>(0xBB67AE85u);
inline constexpr int kPhiloxRoundA = static_cast<int>(0xD2511F53u);
inline constexpr int kPhiloxRoundB = static_cast<int>(0xCD9E8D57u);

/// Four 32-bit words of one Philox block.
template <class T> struct Philox4 {
  T c0, c1, c2, c3;
};

/// Philox 4x32-10 of the counter (c0..c3) under the key (k0, k1).
template <class T, class K> Philox4<T> philox(T c0, T c1, T c2, T c3, K k0, K k1) {
  for (int round = 0; round < 10; ++round) {
    T a0 = c0, a2 = c2;
    c0 = umulhi(a2, kPhiloxRoundB) ^ c1 ^ k0;
    c2 = umulhi(a0, kPhiloxRoundA) ^ c3 ^ k1;
    c1 = a2 * kPhiloxRoundB;
    c3 = a0 * kPhiloxRoundA;
    k0 = k0 + kPhiloxKeyA;
    k1 = k1 + kPhiloxKeyB;
  }
  return {c0, c1, c2, c3};
}

/// 32-bit offsets, i32 or u32 (Triton's uint32): Philox 4x32 (Triton's
/// 64-bit streams, Philox 4x64, are not here). The random words have the
/// offsets' type.
template <class O> concept Offsets32 =
    detail::same<typename detail::Traits<O>::Element, i32> || detail::same<typename detail::Traits<O>::Element, u32>;

/// A word's bits as i32 (Philox computes in i32: its constants are i32 host
/// literals), and back to the offsets' type O.
template <class O> auto asI32(const O &x) {
  if constexpr (detail::same<typename detail::Traits<O>::Element, u32>) return bitcast<i32>(x);
  else return x;
}
template <class O, class W> Philox4<O> asWordsOf(const Philox4<W> &r) {
  if constexpr (detail::same<typename detail::Traits<O>::Element, u32>)
    return {bitcast<u32>(r.c0), bitcast<u32>(r.c1), bitcast<u32>(r.c2), bitcast<u32>(r.c3)};
  else return r;
}
/// A seed: a device i32, i64, u32 or u64, or a host integer.
template <class S> concept Seed = detail::same<S, i32> || detail::same<S, i64> || detail::same<S, u32> ||
                                  detail::same<S, u64> || detail::hostInt<S>;

/// The key's two words, as Triton makes them of a seed (widened to 64 bits
/// by its signedness): a 64-bit seed's low and high words; a 32-bit one and
/// its sign, or 0 for an unsigned one.
template <Seed S> i32 seed_lo(const S &seed) {
  if constexpr (detail::same<S, i32>) return seed;
  else if constexpr (detail::same<S, u32>) return bitcast<i32>(seed);
  else if constexpr (detail::same<S, u64> || detail::same<S, i64>) return cast<i32>(seed);
  else return i32(static_cast<int>(static_cast<unsigned>(static_cast<unsigned long long>(seed))));  // a host seed's
}
template <Seed S> i32 seed_hi(const S &seed) {
  if constexpr (detail::same<S, i32>) return seed >> 31;
  else if constexpr (detail::same<S, u32>) return i32(0);
  else if constexpr (detail::same<S, u64> || detail::same<S, i64>) return cast<i32>(seed >> 32);
  else return i32(static_cast<int>(static_cast<unsigned>(static_cast<unsigned long long>(seed) >> 32)));
}

/// Triton's tl.philox(seed, c0, c1, c2, c3): the four 32-bit counters
/// broadcast to one shape (a scalar beside tiles), the key from the seed.
template <Seed S, class C0, class C1, class C2, class C3>
auto philox(const S &seed, const C0 &c0, const C1 &c1, const C2 &c2, const C3 &c3) {
  auto zero = c0 * 0 + c1 * 0 + c2 * 0 + c3 * 0;  // the counters' common shape
  using T = decltype(zero);
  static_assert(Offsets32<T>, "philox takes 32-bit counters (Philox 4x32; Triton's 4x64 for 64-bit counters is not "
                              "here): cast<i32>(c) each counter");
  return asWordsOf<T>(philox(asI32(T(c0 + zero)), asI32(T(c1 + zero)), asI32(T(c2 + zero)), asI32(T(c3 + zero)),
                             seed_lo(seed), seed_hi(seed)));
}

/// The four random words at each offset (the counter), for `seed` (the key).
template <Seed S, Offsets32 O> Philox4<O> randint4x(const S &seed, O offset) {
  auto word = asI32(offset), zero = word * 0;
  return asWordsOf<O>(philox(word, zero, zero, zero, seed_lo(seed), seed_hi(seed)));
}

/// One random 32-bit integer per offset (its bits uniform).
template <Seed S, Offsets32 O> O randint(const S &seed, O offset) { return randint4x(seed, offset).c0; }

/// A random integer's bits as a float uniform in [0, 1) (a u32's bits read
/// as an i32, as Triton's uint_to_uniform_float does).
template <Offsets32 O> auto uniform_float(O x) {
  auto bits = asI32(x);
  auto folded = where(bits < 0, -bits - 1, bits);
  return cast<f32>(folded) * 4.6566127342e-10f;
}

/// One float uniform in [0, 1) per offset.
template <Seed S, Offsets32 O> auto rand(const S &seed, O offset) { return uniform_float(randint(seed, offset)); }

/// One standard normal float per offset (Box-Muller on two of the words).
template <Seed S, Offsets32 O> auto randn(const S &seed, O offset) {
  Philox4<O> words = randint4x(seed, offset);
  auto u1 = maximum(uniform_float(words.c0), 1.0e-7f);
  auto u2 = uniform_float(words.c1);
  return sqrt(-2.0f * log(u1)) * cos(6.283185307179586f * u2);
}

} // namespace rng

} // namespace tt
