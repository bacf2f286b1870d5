//===- instantiated.h - the element types' classes, instantiated once ------===//
//
// Not part of the language: what the precompiled language headers end with
// (frontends/clang/LanguageHeader.cpp), so that the element types' tile and
// pointer classes are instantiated once, when the header is built, rather
// than in every kernel file that uses them (about a fifth of a small file's
// Clang time). A compile without a precompiled header (TWINTILE_NO_PCH, the
// tracer's clang++ path) instantiates what it uses, as any C++ does.
//===----------------------------------------------------------------------===//
#ifndef TWINTILE_INSTANTIATED_H
#define TWINTILE_INSTANTIATED_H

#include "../twintile.h"

namespace tt::detail {
template <class E> inline constexpr unsigned long kInstantiated = sizeof(Tile<E>) + sizeof(Ptr<E>) + sizeof(Tile<Ptr<E>>);
inline constexpr unsigned long kAllInstantiated =
    kInstantiated<i1> + kInstantiated<i8> + kInstantiated<i16> + kInstantiated<i32> + kInstantiated<i64> +
    kInstantiated<u8> + kInstantiated<u16> + kInstantiated<u32> + kInstantiated<u64> + kInstantiated<f16> +
    kInstantiated<bf16> + kInstantiated<f32> + kInstantiated<f64>;
} // namespace tt::detail

#endif // TWINTILE_INSTANTIATED_H
