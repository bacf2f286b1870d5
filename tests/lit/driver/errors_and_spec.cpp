// A file with an error of its own, compiled for a spec that names none of
// its kernels: both errors are said, the file's (Clang's, at its line) and
// the spec's (the kernels Clang read despite the error), by both front
// ends, so that fixing the first does not reveal the second. A spec that
// names a kernel gets the file's error alone.
// RUN: not twintile compile --frontend=parse %s --kernel 'nope<64>' 2>&1 | FileCheck %s --check-prefixes=FILE,SPEC
// RUN: not twintile compile --frontend=trace %s --kernel 'nope<64>' --no-cache 2>&1 | FileCheck %s --check-prefixes=FILE,SPEC
// RUN: not twintile compile --frontend=parse %s --kernel 'copy<64>' 2>&1 | FileCheck %s --check-prefixes=FILE,ALONE
// RUN: not twintile compile --frontend=trace %s --kernel 'copy<64>' --no-cache 2>&1 | FileCheck %s --check-prefixes=FILE,ALONE
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void copy(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B)
  store(y + offs, load(x + offs));
}

// FILE: errors_and_spec.cpp:15:27: error: expected ';' at end of declaration
// SPEC: twintile: error: --kernel 'nope<64>': {{.*}}errors_and_spec.cpp defines no kernel 'nope' (its kernels: 'copy'), as far as Clang read the file past its errors
// ALONE-NOT: --kernel
// FILE-NOT: internal error
