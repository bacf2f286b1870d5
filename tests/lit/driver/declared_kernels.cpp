// Which kernels a file declares is Clang's to say, not the text's: kernels
// declared `inline`, with a comment before their name, or in a namespace
// are found by both front ends (the text scan refused them as "defines no
// kernel"); a spec that names none, or whose arguments do not fit, is told
// so with the kernels and the template parameter list as Clang read them;
// beside good specs, only the bad one fails. Clang's "N errors generated."
// stays out of the output.
// RUN: twintile diff %s --kernel 'copy2<64>' | FileCheck %s --check-prefix=EQUAL2
// RUN: twintile diff %s --kernel 'copy3<64>' | FileCheck %s --check-prefix=EQUAL3
// RUN: twintile diff %s --kernel 'ns::copy4<64>' | FileCheck %s --check-prefix=EQUAL4
// RUN: not twintile compile --frontend=parse %s --kernel 'nope<64>' 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not twintile compile --frontend=trace %s --kernel 'nope<64>' 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not twintile compile --frontend=trace --trace-host clang++ %s --kernel 'nope<64>' 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not twintile compile --frontend=parse %s --kernel 'copy2<64, 1, 2>' 2>&1 | FileCheck %s --check-prefix=FIT
// RUN: not twintile compile --frontend=trace %s --kernel 'copy2<64, 1, 2>' 2>&1 | FileCheck %s --check-prefix=FIT
// RUN: not twintile compile --frontend=trace %s --kernel 'copy3<64>' --kernel 'nope<64>' --no-locs > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=GOOD < %t.out
// RUN: FileCheck %s --check-prefix=NONE < %t.err
// RUN: not twintile compile --frontend=parse %s --kernel 'copy3<64>' --kernel 'nope<64>' --no-locs > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=GOOD < %t.out
// RUN: FileCheck %s --check-prefix=NONE < %t.err
#include <twintile.h>
using namespace tt;

template <int B, // elements per program
          class T = f32>
TT_KERNEL inline void copy2(Ptr<T> x, Ptr<T> y) {
  auto offs = arange(0, B);
  store(y + offs, load(x + offs));
}

template <int B>
TT_KERNEL void /* the third */ copy3(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  store(y + offs, load(x + offs) * 2.0f);
}

namespace ns {
template <int B>
[[maybe_unused]] TT_KERNEL static void copy4(Ptr<f32> x, Ptr<f32> y) {
  store(y + arange(0, B), load(x + arange(0, B)));
}
} // namespace ns

// EQUAL2: equal: the parse and trace IR of copy2<64> are structurally identical
// EQUAL3: equal: the parse and trace IR of copy3<64> are structurally identical
// EQUAL4: equal: the parse and trace IR of ns::copy4<64> are structurally identical
// NONE: twintile: error: --kernel 'nope<64>': {{.*}}declared_kernels.cpp defines no kernel 'nope' (its kernels: copy2, copy3, copy4)
// NONE-NOT: error generated
// FIT: twintile: error: --kernel 'copy2<64, 1, 2>' is not a specialization of a kernel in {{.*}}declared_kernels.cpp: its template arguments do not fit the kernel's template parameters <int B, // elements per program class T = f32>
// FIT-NOT: error generated
// GOOD: func @copy3(
