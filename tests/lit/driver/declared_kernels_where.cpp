// Kernels wherever a file may declare them — in the language's own
// namespace `tt` (which the precompiled language header opens too), in an
// `extern "C++"` block, in a header the file includes — are found by both
// front ends, with the precompiled header and without it
// (TWINTILE_NO_PCH=1, where Clang reads the language header in the file's
// own compile): the list of the file's kernels is the same four either way,
// so the language header itself declares none.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for pch in "" 1; do for fe in parse trace; do \
// RUN:   TWINTILE_NO_PCH=$pch twintile compile --frontend=$fe %s --kernel 'tt::mine<64>' --kernel 'linked<64>' \
// RUN:     --kernel 'included<64>' --kernel 'Holder::member<64>' --no-cache --no-locs --emit tile -o %t/$fe$pch || exit 1; \
// RUN:   not env TWINTILE_NO_PCH=$pch twintile compile --frontend=$fe %s --kernel 'nope<64>' --no-cache 2>&1; \
// RUN: done; done > %t/errors
// RUN: FileCheck %s --check-prefix=NONE --implicit-check-not='internal error' < %t/errors
// RUN: cat %t/parse/*.tir %t/trace/*.tir %t/parse1/*.tir %t/trace1/*.tir | FileCheck %s --check-prefix=FOUND
#include "declared_kernels_where.h"

namespace tt {
template <int B> TT_KERNEL void mine(Ptr<f32> x, Ptr<f32> y) { store(y + arange(0, B), load(x + arange(0, B))); }
} // namespace tt

extern "C++" {
template <int B> TT_KERNEL void linked(tt::Ptr<tt::f32> x, tt::Ptr<tt::f32> y) {
  store(y + tt::arange(0, B), load(x + tt::arange(0, B)));
}
}

struct Holder {
  template <int B> TT_KERNEL static void member(tt::Ptr<tt::f32> x, tt::Ptr<tt::f32> y) {
    store(y + tt::arange(0, B), load(x + tt::arange(0, B)));
  }
};

// NONE-COUNT-4: twintile: error: --kernel 'nope<64>': {{.*}}declared_kernels_where.cpp defines no kernel 'nope' (its kernels: 'included', 'tt::mine', 'linked', 'Holder::member'){{$}}
// FOUND-COUNT-16: func @{{included|mine|linked|member}}(
