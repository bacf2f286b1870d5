// A kernel declared as library kernels are: comments inside its template and
// parameter lists (with , = and ) in them), a comment line and CRLF line endings
// between its template header and TT_KERNEL, a defaulted template argument left
// out of the specialization. The tracing front end reads its meta-parameters and
// parameter names from Clang's AST, as the parsing front end does, so both
// record the same: BLOCK and SCALE by name, SCALE's default filled in, x and n.
// RUN: twintile compile --frontend=trace %s --kernel 'documented<64>' --no-locs | FileCheck %s
// RUN: twintile compile --frontend=parse %s --kernel 'documented<64>' --no-locs | FileCheck %s
// RUN: twintile diff %s --kernel 'documented<64>' | FileCheck %s --check-prefix=DIFF
// Through a clang++ process the same: its signatures are read from Clang's AST too (in process, no code).
// RUN: twintile compile --frontend=trace --trace-host clang++ %s --kernel 'documented<64>' --no-locs --no-cache | FileCheck %s
// RUN: not twintile compile --frontend=trace --trace-host clang++ %s --kernel 'other::documented<64>' 2>&1 | FileCheck %s --check-prefix=HELPER
// A spec that names a function of the file that is not a kernel (the text has a kernel of that
// name; Clang resolves it to another function) is refused before anything of it runs.
// RUN: not twintile compile --frontend=trace %s --kernel 'other::documented<64>' 2>&1 | FileCheck %s --check-prefix=HELPER
// RUN: not twintile compile --frontend=parse %s --kernel 'other::documented<64>' 2>&1 | FileCheck %s --check-prefix=HELPER-PARSE
// Beside a spec that does name a kernel, only the one that does not is refused:
// RUN: not twintile compile --frontend=trace %s --kernel 'documented<64>' --kernel 'other::documented<64>' --no-locs > %t.both.out 2> %t.both.err
// RUN: FileCheck %s < %t.both.out
// RUN: FileCheck %s --check-prefix=HELPER < %t.both.err
// A float meta-parameter's infinite default goes through as the parse front end reads it:
// RUN: twintile diff %s --kernel 'bounded<16>' | FileCheck %s --check-prefix=BOUNDED
// The declaration above keeps its CRLF line endings (.gitattributes): this test is about them.
// RUN: grep -c -P '\r$' %s | FileCheck %s --check-prefix=CRLF
#include <twintile.h>
#include <cstdio>
using namespace tt;

template <int BLOCK /* elements per program, e.g. 64, 128 (a power of two) */,
          int SCALE = 3 /* the factor = 3, unless (as here) said otherwise */>
// Scales x in place: x[i] = SCALE * x[i], for i < n.
TT_KERNEL void documented(Ptr<f32> x /* the input, e.g. f(a, b) = c */, i32 n /* count, = len(x) */) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  store(x + offs, load(x + offs, offs < n, 0.0f) * float(SCALE), offs < n);
}

template <int B, float LO = -__builtin_inff()>
TT_KERNEL void bounded(Ptr<f32> x) {
  store(x + arange(0, B), maximum(load(x + arange(0, B)), LO + 1.0f));
}

namespace other {
template <int B>
void documented(Ptr<f32> x) {
  std::puts("helper ran");
  store(x + arange(0, B), load(x + arange(0, B)));
}
} // namespace other

// CHECK: func @documented(%x: ptr<f32>, %n: i32) meta {BLOCK = 64, SCALE = 3}
// DIFF: equal: the parse and trace IR of documented<64> are structurally identical
// HELPER: error: --kernel 'other::documented<64>' is not a specialization of a kernel in {{.*}}signature_from_ast.cpp: 'other::documented' is a function, not a kernel (TT_KERNEL)
// HELPER-NOT: helper ran
// HELPER-PARSE: error: --kernel 'other::documented<64>' is not a specialization of a kernel in {{.*}}signature_from_ast.cpp: 'other::documented' is a function, not a kernel (TT_KERNEL)
// BOUNDED: equal: the parse and trace IR of bounded<16> are structurally identical
// CRLF: {{^[1-9][0-9]+$}}
