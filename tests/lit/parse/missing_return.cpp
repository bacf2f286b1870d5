// A helper that falls off its end without returning the value its type
// promises: C++ calls it undefined behaviour, not an error. The parsing
// front end says so at the helper's closing brace (and where it was called
// from), not as a bad value where the caller uses it; the tracer's host code
// really runs it, and its crash is reported at the helper.
// RUN: not twintile compile --frontend=parse %s --kernel 'kernel<64>' 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not twintile compile --frontend=trace %s --kernel 'kernel<64>' 2>&1 | FileCheck %s --check-prefix=TRACE
#include <twintile.h>
using namespace tt;

inline Tile<f32> scaled(Tile<f32> v) {
  auto w = v * 2.0f;
}

template <int B>
TT_KERNEL void kernel(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  store(y + offs, scaled(load(x + offs)));
}

// PARSE: missing_return.cpp:13:1: error: 'scaled' reaches the end of its body without returning its Tile<f32> (a function that returns a value must return it on every path)
// PARSE-NEXT: }
// PARSE-NEXT: ^
// PARSE-NEXT: in call from {{.*}}missing_return.cpp:18:19
// TRACE: missing_return.cpp:12:{{[0-9]+}}: error: tracing 'kernel<64>' crashed with SIGILL
