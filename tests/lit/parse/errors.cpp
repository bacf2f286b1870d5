// Errors of the parsing front end, clang-style: the message at the line, the source
// line and a caret, and the chain of inlined calls (Clang's own errors: clang_errors.cpp).
// RUN: not twintile compile --frontend=parse %s --kernel 'k<64>' 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not twintile compile --frontend=parse %s --kernel 'nope<64>' 2>&1 | FileCheck %s --check-prefix=MISSING
#include <twintile.h>
using namespace tt;

Tile<f32> bad(Tile<f32> v) {
  return v + cast<f32>(arange(0, 32));
}

Tile<f32> outer(Tile<f32> v) { return bad(v) * 2.0f; }

template <int B>
TT_KERNEL void k(Ptr<f32> x) {
  auto v = load(x + arange(0, B));
  store(x + arange(0, B), outer(v));
}

// SHAPE:      errors.cpp:9:12: error: shapes [64] and [32] cannot be broadcast together in '+'
// SHAPE-NEXT:   return v + cast<f32>(arange(0, 32));
// SHAPE-NEXT: {{^}}           ^
// SHAPE-NEXT:   in call from {{.*}}errors.cpp:12:39
// SHAPE-NEXT:   in call from {{.*}}errors.cpp:17:27

// MISSING: twintile: error: --kernel 'nope<64>': {{.*}}errors.cpp defines no kernel 'nope' (its kernels: 'k')
