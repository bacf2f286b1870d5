//===- Entry.h - the entry point of a kernel compiled for tracing --------===//
//
// What a kernel file compiled as a shared object (SourceTracer.h) includes to
// be traced: the session calls are defined in the twintile program that
// loads it. No standard header, so the host compile costs little more than
// the kernel file itself.
//===----------------------------------------------------------------------===//
#ifndef TWINTILE_TRACE_ENTRY_H
#define TWINTILE_TRACE_ENTRY_H

#include <twintile.h>

namespace twintile::entry {

struct Session;

/// Makes the kernel's parameters in `s` and calls it (`callWith` below).
using KernelCall = void (*)(Session *s, void (*kernel)());

/// Traces `kernel` as `spec` into `result`, a twintile::TraceResult
/// (`options`: a twintile::TraceOptions): checks that `opTable` (the
/// header's tt::detail::kOpTable, as the kernel file was compiled with it)
/// is the loading program's own, then has `call` call the kernel, and ends
/// the trace whether or not it threw. Defined in the twintile program, so
/// that the kernel file's compiled code handles no exception: its code
/// generation stays on the host's fast instruction selector.
void run(const void *options, const char *spec, void *result, const char *opTable, KernelCall call,
         void (*kernel)());
tt::detail::Node *deviceParam(Session *s, tt::detail::TypeCode t);

template <int... I> struct Seq {};
template <int N, int... I> struct MakeSeq : MakeSeq<N - 1, N - 1, I...> {};
template <int... I> struct MakeSeq<0, I...> { using type = Seq<I...>; };

/// A parameter's type without const, volatile and reference: a kernel may take its
/// values by reference too, as the parsing front end reads them.
template <class P> struct Bare { using type = P; };
template <class P> struct Bare<const P> { using type = P; };
template <class P> struct Bare<volatile P> { using type = P; };
template <class P> struct Bare<const volatile P> { using type = P; };
template <class P> struct Bare<P &> { using type = typename Bare<P>::type; };
template <class P> struct Bare<P &&> { using type = typename Bare<P>::type; };
template <class P> using BareOf = typename Bare<P>::type;

/// A temporary as an lvalue, alive to the end of the call it is made in:
/// what a reference parameter of any kind binds to (after a static_cast).
template <class T> T &lvalue(T &&value) { return value; }

template <class... P, int... I>
void call(void (*kernel)(P...), tt::detail::Node *const *nodes, Seq<I...>) {
  kernel(static_cast<P>(lvalue(BareOf<P>(tt::detail::FromNode{}, nodes[I])))...);
}

/// What a kernel takes as a parameter: a device scalar or pointer, not a tile
/// (KernelDecl.h's hostParameterProblem, which says which one is wrong).
template <class P> constexpr bool isParameter = tt::detail::Device<P>;
template <class E> constexpr bool isParameter<tt::Tile<E>> = false;

template <class... P> void callWith(Session *s, void (*kernel)()) {
  tt::detail::Node *nodes[sizeof...(P) + 1] = {};
  int i = 0;
  ((nodes[i++] = deviceParam(s, tt::detail::typeCode<BareOf<P>>())), ...);
  call(reinterpret_cast<void (*)(P...)>(kernel), nodes, typename MakeSeq<sizeof...(P)>::type{});
}

/// Traces `kernel` into `result`.
template <class... P> void trace(void (*kernel)(P...), const void *options, const char *spec, void *result) {
  static_assert((isParameter<BareOf<P>> && ...),
                "a kernel with plain C++ parameters is traced in-process (twintile::trace with their "
                "values); to trace it from its file, make them template parameters (and a Tile is no parameter)");
  run(options, spec, result, tt::detail::kOpTable, &callWith<P...>, reinterpret_cast<void (*)()>(kernel));
}

} // namespace twintile::entry

#endif // TWINTILE_TRACE_ENTRY_H
