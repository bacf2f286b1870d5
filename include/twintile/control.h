//===- twintile/control.h - device control flow and tuples -------------===//
//
// carry(...), the combinators for_range, if_else and while_loop, and
// reduce/associative_scan over several tiles (which take and return
// carry(...)). Included by twintile.h; not a header of its own.
//===----------------------------------------------------------------------===//
#pragma once

namespace tt {

//===-- Combinators: device control flow ----------------------------------===//

/// Several carried values: what a loop body or branch returns as
/// `carry(a, b)`, and what the loop returns; structured bindings unpack it.
template <class... T> struct Carried {  // more than six: refused, with what to write
  static_assert(sizeof...(T) <= 6, "carry(...) holds at most six values: group the others in a struct of tiles");
};
template <> struct Carried<> {};
template <class A> struct Carried<A> { A a; };
template <class A, class B> struct Carried<A, B> { A a; B b; };
template <class A, class B, class C> struct Carried<A, B, C> { A a; B b; C c; };
template <class A, class B, class C, class D> struct Carried<A, B, C, D> { A a; B b; C c; D d; };
template <class A, class B, class C, class D, class E> struct Carried<A, B, C, D, E> { A a; B b; C c; D d; E e; };
template <class A, class B, class C, class D, class E, class F>
struct Carried<A, B, C, D, E, F> { A a; B b; C c; D d; E e; F f; };

template <detail::Device... T> Carried<T...> carry(const T &...v) { return {v...}; }

namespace detail {

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"  // = delete("why")
#endif
/// A loop bound or step: an i32 or i64 device scalar, or a host integer.
struct Bound {
  Bound(const i32 &v, Loc l = TT_HERE_) : node(v.node()), loc(l) {}
  Bound(const i64 &v, Loc l = TT_HERE_) : node(v.node()), loc(l) {}
  template <class U> requires same<U, u8> || same<U, u16> || same<U, u32> || same<U, u64>
  Bound(const U &, Loc = TT_HERE_) TT_REFUSED_(TT_UNSIGNED_BOUND_);
  template <HostIntLike H>
  Bound(H v, Loc l = TT_HERE_) : node(constantInt(static_cast<long long>(v), {Kind::I32, Kind::I32, false}, l)), loc(l) {}
  Node *node;
  Loc loc;
};
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

/// The condition of if_else: a device i1, recorded at the call site.
struct Cond {
  Cond(const i1 &c, Loc l = TT_HERE_) : node(c.node()), loc(l) {}
  Cond(const Tile<i1> &c, Loc l = TT_HERE_) : node(c.node()), loc(l) {}
  Node *node;
  Loc loc;
};

template <class... T> struct List {};

/// All but the last of a pack: the carried values before a loop's body.
template <class Done, class... T> struct InitOf;
template <class... D, class Last> struct InitOf<List<D...>, Last> { using type = List<D...>; };
template <class... D, class H, class N, class... T>
struct InitOf<List<D...>, H, N, T...> { using type = typename InitOf<List<D..., H>, N, T...>::type; };

template <class A> const A &lastOf(const A &a) { return a; }
template <class A, class... R> decltype(auto) lastOf(const A &, const R &...r) { return lastOf(r...); }

template <class A> Node *nodeOrNull(const A &a) {
  if constexpr (Device<A>) return a.node();
  else return nullptr;
}

/// The nodes of what a region's callable returned: a device value or Carried.
template <class R> int nodesOf(const R &v, Node **out) {
  if constexpr (Device<R>) {
    out[0] = v.node();
    return 1;
  } else {
    int n = 0;
    if constexpr (requires { v.a; }) out[n++] = v.a.node();
    if constexpr (requires { v.b; }) out[n++] = v.b.node();
    if constexpr (requires { v.c; }) out[n++] = v.c.node();
    if constexpr (requires { v.d; }) out[n++] = v.d.node();
    if constexpr (requires { v.e; }) out[n++] = v.e.node();
    if constexpr (requires { v.f; }) out[n++] = v.f.node();
    return n;
  }
}

/// Calls f(lead..., c.a, c.b, ...).
template <class F, class... T, class... L> decltype(auto) apply(F &f, const Carried<T...> &c, const L &...lead) {
  constexpr int n = sizeof...(T);
  if constexpr (n == 0) return f(lead...);
  else if constexpr (n == 1) return f(lead..., c.a);
  else if constexpr (n == 2) return f(lead..., c.a, c.b);
  else if constexpr (n == 3) return f(lead..., c.a, c.b, c.c);
  else if constexpr (n == 4) return f(lead..., c.a, c.b, c.c, c.d);
  else if constexpr (n == 5) return f(lead..., c.a, c.b, c.c, c.d, c.e);
  else return f(lead..., c.a, c.b, c.c, c.d, c.e, c.f);
}

template <class X> X &declared();  // for unevaluated operands only
/// A callable whose call operator is a template (a generic lambda): probing
/// it with an argument type would compile its body for that type.
template <class B> concept GenericCallable = __is_class(B) && !requires { &B::operator(); };
/// Body B, not generic, can be called with an index of type I and carried values T...
template <class B, class I, class... T>
concept TakesIndex = !GenericCallable<B> && requires(B &b) { b(declared<const I>(), declared<const T>()...); };

/// The values of a region's arguments from `first` on, typed T... (in order).
template <class... T> Carried<T...> argsOf([[maybe_unused]] Region *r, int first) {
  int i = first;
  return Carried<T...>{make<T>(regionArg(r, i++))...};
}

/// What a loop or branch over T... returns: one value, or Carried<T...>.
template <class... T> auto resultsOf(Region *r) {
  if constexpr (sizeof...(T) == 1) {
    return make<T...>(regionResult(r, 0));
  } else {
    int i = 0;
    return Carried<T...>{make<T>(regionResult(r, i++))...};
  }
}

template <class R> struct CarriedTypes { using type = List<R>; };
template <class... T> struct CarriedTypes<Carried<T...>> { using type = List<T...>; };
template <> struct CarriedTypes<void> { using type = List<>; };
/// Whether every value in R (a value, carry(...) or nothing) is a device value.
template <class R> constexpr bool allDevice = Device<R>;
template <class... T> constexpr bool allDevice<Carried<T...>> = (Device<T> && ...);
template <> inline constexpr bool allDevice<void> = true;

template <class... T, class... Args>
auto forLoop(List<T...>, Bound lo, Bound hi, Bound step, const Args &...args) {
  static_assert((Device<T> && ...), "for_range carries device values; convert host numbers, e.g. f32(0)");
  static_assert(sizeof...(T) <= 6, "for_range carries at most 6 values");
  const auto &body = lastOf(args...);
  Node *const inits[] = {nodeOrNull(args)...};
  Region *r = forBegin(lo.node, hi.node, step.node, inits, sizeof...(T), lo.loc);
  Carried<T...> carried = argsOf<T...>(r, 1);
  Node *out[sizeof...(T) + 1] = {};
  int n = 0;
  // The index is i64 where a bound is (the IR's rule); the body takes it as i32, i64 or auto.
  Node *index = regionArg(r, 0);
  bool wide = kindOf(index) == Kind::I64;
  using B = Plain<decltype(body)>;
  constexpr bool takes32 = TakesIndex<const B, i32, T...>, takes64 = TakesIndex<const B, i64, T...>;
  auto run = [&](auto i) {
    if constexpr (sizeof...(T) == 0) apply(body, carried, i);
    else n = nodesOf(apply(body, carried, i), out);
  };
  if constexpr (takes64 && !takes32) run(make<i64>(wide ? index : cast(index, Kind::I64, lo.loc)));
  else {  // i32, or a generic body: compiled for an i32 index only, which an i64 bound refuses
    if (wide) refuseNarrowIndex(lo.loc);
    run(make<i32>(index));
  }
  regionYield(r, out, n, lo.loc);
  regionEnd(r);
  if constexpr (sizeof...(T) > 0) return resultsOf<T...>(r);
}

template <class... T, class C, class B>
auto whileLoop(List<T...>, const C &cond, const B &body, const T &...inits) {
  static_assert(sizeof...(T) >= 1 && sizeof...(T) <= 6, "while_loop carries 1 to 6 device values");
  Node *const initNodes[] = {inits.node()...};
  Region *r = whileBegin(initNodes, sizeof...(T));
  Node *out[sizeof...(T) + 1] = {};
  out[0] = apply(cond, argsOf<T...>(r, 0)).node();
  regionYield(r, out, 1, {nullptr, 0, 0});
  whileBody(r);
  int n = nodesOf(apply(body, argsOf<T...>(r, 0)), out);
  regionYield(r, out, n, {nullptr, 0, 0});
  regionEnd(r);
  return resultsOf<T...>(r);
}

} // namespace detail

/// for_range(lo, hi, step, carried..., body): a device loop over lo, lo +
/// step, ... < hi. body(iv, carried...) returns the next carried values (one
/// value, or carry(...)); the loop returns the last ones. iv is i64 where a
/// bound is, else i32: a body takes it as i64 (an i32 one is widened), or
/// as i32 or auto when no bound is i64.
template <class... Args>
auto for_range(detail::Bound lo, detail::Bound hi, detail::Bound step, const Args &...args) {
  static_assert(sizeof...(Args) >= 1, "for_range needs a body");
  return detail::forLoop(typename detail::InitOf<detail::List<>, detail::Plain<Args>...>::type{}, lo, hi,
                         step, args...);
}

/// while_loop(cond, body, carried...): while cond(carried...) holds, carried
/// = body(carried...); returns the last carried values.
template <class C, class B, class... T> auto while_loop(const C &cond, const B &body, const T &...carried) {
  return detail::whileLoop(detail::List<T...>{}, cond, body, carried...);
}

/// if_else(cond, then, otherwise): the callables take no argument and return
/// the same types (nothing, one value, or carry(...)), and so does if_else.
/// They may be mutable lambdas (the hybrid front end's branches are).
template <class Then, class Else> auto if_else(detail::Cond cond, Then &&then, Else &&otherwise) {
  using R = decltype(then());
  static_assert(detail::allDevice<R>,
                "if_else's branches return device values (or carry(...) of them, or nothing): a host value cannot "
                "depend on a device condition; give the variable a device type, e.g. f32 x = 0.0f");
  detail::Region *r = detail::ifBegin(cond.node, cond.loc);
  detail::Node *out[8] = {};
  int n = 0;
  if constexpr (detail::same<R, void>) then();
  else n = detail::nodesOf(then(), out);
  detail::regionYield(r, out, n, cond.loc);
  detail::elseBegin(r);
  n = 0;
  if constexpr (detail::same<R, void>) otherwise();
  else n = detail::nodesOf(R(otherwise()), out);
  detail::regionYield(r, out, n, cond.loc);
  detail::regionEnd(r);
  if constexpr (!detail::same<R, void>) {
    return [&]<class... T>(detail::List<T...>) { return detail::resultsOf<T...>(r); }(
        typename detail::CarriedTypes<R>::type{});
  }
}

//===-- Reductions and scans over several tiles ---------------------------===//

namespace detail {
/// Calls combine(x.a, x.b, ..., y.a, y.b, ...): Triton's combine_fn over
/// tuples takes the earlier elements, then the later ones.
template <class F, class... T> decltype(auto) applyBoth(const F &combine, const Carried<T...> &x, const Carried<T...> &y) {
  constexpr int n = sizeof...(T);
  if constexpr (n == 1) return combine(x.a, y.a);
  else if constexpr (n == 2) return combine(x.a, x.b, y.a, y.b);
  else if constexpr (n == 3) return combine(x.a, x.b, x.c, y.a, y.b, y.c);
  else if constexpr (n == 4) return combine(x.a, x.b, x.c, x.d, y.a, y.b, y.c, y.d);
  else if constexpr (n == 5) return combine(x.a, x.b, x.c, x.d, x.e, y.a, y.b, y.c, y.d, y.e);
  else return combine(x.a, x.b, x.c, x.d, x.e, x.f, y.a, y.b, y.c, y.d, y.e, y.f);
}
/// A combine function over elements E...: callable with two of each.
template <class F, class... E>
concept CombinerOf = requires(const F &f, const Carried<E...> &c) { applyBoth(f, c, c); };

template <class... E, class F>
Carried<Tile<E>...> combinedAll(bool scan, const Carried<Tile<E>...> &x, int axis, bool keepDims, const F &combine,
                                Loc l) {
  constexpr int n = sizeof...(E);
  Node *in[n] = {};
  nodesOf(x, in);
  Region *r = combineBegin(scan, in, n, axis, l);
  using R = decltype(applyBoth(combine, argsOf<E...>(r, 0), argsOf<E...>(r, n)));
  static_assert(!same<R, void> && allDevice<R>,
                "a combine function over carry(...) of tiles returns carry(...) of one device element of each, as "
                "Triton's returns a tuple");
  Node *out[6] = {};  // what nodesOf writes (carry(...) holds at most 6), then the n results
  int k = nodesOf(applyBoth(combine, argsOf<E...>(r, 0), argsOf<E...>(r, n)), out);
  regionYield(r, out, k, l);
  combineEnd(r, keepDims, l, out);
  int i = 0;
  return Carried<Tile<E>...>{make<Tile<E>>(out[i++])...};
}
} // namespace detail

/// reduce(carry(x, y, ...), axis, combine): several tiles of one shape
/// reduced together, as Triton's tl.reduce((x, y, ...), axis, combine_fn):
/// combine takes an earlier element of each tile, then a later one of each
/// (x0, y0, ..., x1, y1, ...), and returns carry(...) of one of each; the
/// result is carry(...) of a tile per input, unpacked by structured
/// bindings: auto [mean, m2, n] = reduce(carry(mean, m2, n), 1, welford).
/// An argmax that keeps its index beside the value, a Welford mean and
/// variance, a (key, value) pair are written this way.
template <class... E, detail::CombinerOf<E...> F>
Carried<Tile<E>...> reduce(const Carried<Tile<E>...> &x, int axis, const F &combine, detail::Loc l = TT_HERE_) {
  return detail::combinedAll(false, x, axis, false, combine, l);
}
template <class... E, detail::CombinerOf<E...> F>
Carried<Tile<E>...> reduce(const Carried<Tile<E>...> &x, int axis, const F &combine, bool keep_dims,
                           detail::Loc l = TT_HERE_) {
  return detail::combinedAll(false, x, axis, keep_dims, combine, l);
}
template <class... E, detail::CombinerOf<E...> F>
Carried<Tile<E>...> reduce(const Carried<Tile<E>...> &x, const F &combine, detail::Loc l = TT_HERE_) {
  return detail::combinedAll(false, x, detail::kAllAxes, false, combine, l);
}
/// associative_scan(carry(x, y, ...), axis, combine): the inclusive prefix
/// combination of several tiles at once, combine as reduce's.
template <class... E, detail::CombinerOf<E...> F>
Carried<Tile<E>...> associative_scan(const Carried<Tile<E>...> &x, int axis, const F &combine,
                                     detail::Loc l = TT_HERE_) {
  return detail::combinedAll(true, x, axis, false, combine, l);
}

} // namespace tt
