// A file with an error of its own, compiled for a spec that names none of
// its kernels: the file's error (Clang's, at its line), then a note that
// the spec names none of the kernels Clang read despite it, by both front
// ends, so that fixing the first does not reveal a misspelt spec - and a
// kernel the errors hid is not denied. A spec that names a kernel gets the
// file's error alone. So with several specs: a misspelt one beside
// specs the error fails too is not denied either.
// RUN: not twintile compile --frontend=parse %s --kernel 'nope<64>' 2>&1 | FileCheck %s --check-prefixes=FILE,SPEC
// RUN: not twintile compile --frontend=trace %s --kernel 'nope<64>' --no-cache 2>&1 | FileCheck %s --check-prefixes=FILE,SPEC
// RUN: not twintile compile --frontend=parse %s --kernel 'copy<64>' 2>&1 | FileCheck %s --check-prefixes=FILE,ALONE
// RUN: not twintile compile --frontend=trace %s --kernel 'copy<64>' --no-cache 2>&1 | FileCheck %s --check-prefixes=FILE,ALONE
// RUN: for fe in parse trace; do not twintile compile --frontend=$fe %s --kernel 'copy<64>' --kernel 'nope<64>' --no-cache 2>&1; done | FileCheck %s --check-prefixes=MANY
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void copy(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B)
  store(y + offs, load(x + offs));
}

// FILE: errors_and_spec.cpp:18:27: error: expected ';' at end of declaration
// SPEC: twintile: note: --kernel 'nope<64>' names none of the kernels Clang could read in {{.*}}errors_and_spec.cpp despite the errors ('copy'); if 'nope' is one of them, the errors above hide it
// ALONE-NOT: --kernel
// FILE-NOT: internal error
// MANY:     errors_and_spec.cpp:18:27: error: expected ';' at end of declaration
// MANY:     errors_and_spec.cpp:18:27: error: expected ';' at end of declaration
// MANY-NEXT: auto offs
// MANY:     twintile: note: --kernel 'nope<64>' names none of the kernels
// MANY:     errors_and_spec.cpp:18:27: error: expected ';' at end of declaration
// MANY:     errors_and_spec.cpp:18:27: error: expected ';' at end of declaration
// MANY-NEXT: auto offs
// MANY:     twintile: note: --kernel 'nope<64>' names none of the kernels
// MANY-NOT: defines no kernel
