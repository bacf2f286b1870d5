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

/// Starts a trace of `spec`; `options` is a twintile::TraceOptions.
Session *begin(const void *options, const char *spec);
tt::detail::Node *deviceParam(Session *s, tt::detail::TypeCode t);
/// Throws unless `opTable` (the header's tt::detail::kOpTable, as the kernel
/// file was compiled with it) is the loading program's own.
void checkLanguage(const char *opTable);
/// Ends the trace and writes a twintile::TraceResult into `result`. Called
/// from within a catch handler when the kernel threw (the error is the
/// exception being handled).
void end(Session *s, void *result, bool failed);

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

/// Traces `kernel` into `result`.
template <class... P> void trace(void (*kernel)(P...), const void *options, const char *spec, void *result) {
  static_assert((isParameter<BareOf<P>> && ...),
                "a kernel with plain C++ parameters is traced in-process (twintile::trace with their "
                "values); to trace it from its file, make them template parameters (and a Tile is no parameter)");
  Session *s = begin(options, spec);
  try {
    checkLanguage(tt::detail::kOpTable);
    tt::detail::Node *nodes[sizeof...(P) + 1] = {};
    int i = 0;
    ((nodes[i++] = deviceParam(s, tt::detail::typeCode<BareOf<P>>())), ...);
    call(kernel, nodes, typename MakeSeq<sizeof...(P)>::type{});
  } catch (...) {
    end(s, result, true);
    return;
  }
  end(s, result, false);
}

} // namespace twintile::entry

#endif // TWINTILE_TRACE_ENTRY_H
