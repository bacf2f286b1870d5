// Which kernels a file declares is Clang's to say, not the text's: kernels
// declared `inline`, with a comment before their name, in a namespace, as a
// static member, or with a template header a macro writes are found by both
// front ends (the text scan refused the first two as "defines no kernel");
// a spec that names none (or one only in another namespace), overloads, or
// arguments that do not fit are told so from what Clang read, in
// the same words by parse, trace and trace through clang++; beside good
// specs only the bad one fails, and the good ones still compile together
// (one host compile). A macro of the file's named like the tracer's entry
// points' own names does not reach them. Clang's "N errors generated."
// stays out of the output.
// RUN: twintile diff %s --kernel 'copy2<64>' | FileCheck %s --check-prefix=EQUAL2
// RUN: twintile diff %s --kernel 'copy3<64>' | FileCheck %s --check-prefix=EQUAL3
// RUN: twintile diff %s --kernel 'ns::copy4<64>' | FileCheck %s --check-prefix=EQUAL4
// RUN: twintile diff %s --kernel 'Holder::copy5<64>' | FileCheck %s --check-prefix=EQUAL5
// RUN: twintile diff %s --kernel 'copy6<64>' | FileCheck %s --check-prefix=EQUAL6
// RUN: for fe in parse trace "trace --trace-host clang++"; do \
// RUN:   not twintile compile --frontend=$fe %s --kernel 'nope<64>' --no-cache 2>&1; \
// RUN:   not twintile compile --frontend=$fe %s --kernel 'copy4<64>' --no-cache 2>&1; \
// RUN:   not twintile compile --frontend=$fe %s --kernel 'copy2<64, 1, 2>' --no-cache 2>&1; \
// RUN:   not twintile compile --frontend=$fe %s --kernel 'copy6<1, 2>' --no-cache 2>&1; \
// RUN:   not twintile compile --frontend=$fe %s --kernel 'over<64>' --no-cache 2>&1; \
// RUN: done > %t.errors
// RUN: FileCheck %s --check-prefix=ERRORS --implicit-check-not='error generated' --implicit-check-not='internal error' < %t.errors
// RUN: not twintile compile --frontend=trace %s --kernel 'copy3<64>' --kernel 'nope<64>' --kernel 'copy3<128>' --no-locs --no-cache --time > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=GOOD < %t.out
// RUN: FileCheck %s --check-prefix=NONE < %t.err
// RUN: grep -c 'host-compile:' %t.err | FileCheck %s --check-prefix=ONCE
// RUN: not twintile compile --frontend=parse %s --kernel 'copy3<64>' --kernel 'nope<64>' --kernel 'copy3<128>' --no-locs --time > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=GOOD < %t.out
// RUN: FileCheck %s --check-prefix=NONE < %t.err
// RUN: grep -c ': parse:' %t.err | FileCheck %s --check-prefix=ONCE
#include <twintile.h>
using namespace tt;

#define trace(...) ((void)0)
#define result 0

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

struct Holder {
  template <int B> TT_KERNEL static void copy5(Ptr<f32> x, Ptr<f32> y) { store(y + arange(0, B), load(x + arange(0, B))); }
};

#define KERNEL_TEMPLATE(n) template <int n>
KERNEL_TEMPLATE(B) TT_KERNEL void copy6(Ptr<f32> x, Ptr<f32> y) { store(y + arange(0, B), load(x + arange(0, B))); }

template <int B> TT_KERNEL void over(Ptr<f32> x) { store(x + arange(0, B), load(x + arange(0, B))); }
template <int B> TT_KERNEL void over(Ptr<f32> x, Ptr<f32> y) { store(y + arange(0, B), load(x + arange(0, B))); }

// EQUAL2: equal: the parse and trace IR of copy2<64> are structurally identical
// EQUAL3: equal: the parse and trace IR of copy3<64> are structurally identical
// EQUAL4: equal: the parse and trace IR of ns::copy4<64> are structurally identical
// EQUAL5: equal: the parse and trace IR of Holder::copy5<64> are structurally identical
// EQUAL6: equal: the parse and trace IR of copy6<64> are structurally identical
// ERRORS-COUNT-3: twintile: error: --kernel 'nope<64>': {{.*}}declared_kernels.cpp defines no kernel 'nope' (its kernels: 'copy2', 'copy3', 'ns::copy4', 'Holder::copy5', 'copy6', 'over')
// ERRORS-NEXT: twintile: error: --kernel 'copy4<64>': {{.*}}declared_kernels.cpp defines no kernel 'copy4' (did you mean 'ns::copy4'?)
// ERRORS-NEXT: twintile: error: --kernel 'copy2<64, 1, 2>' is not a specialization of a kernel in {{.*}}declared_kernels.cpp: its template arguments do not fit the kernel's template parameters <int B, class T = f32>{{$}}
// ERRORS-NEXT: twintile: error: --kernel 'copy6<1, 2>' is not a specialization of a kernel in {{.*}}declared_kernels.cpp: its template arguments do not fit the kernel's template parameters <int B>{{$}}
// ERRORS-NEXT: twintile: error: --kernel 'over<64>' is not a specialization of a kernel in {{.*}}declared_kernels.cpp: 'over' names 2 kernels, overloads a specialization cannot tell apart
// GOOD: func @copy3(
// GOOD: func @copy3(
// NONE: twintile: error: --kernel 'nope<64>': {{.*}}declared_kernels.cpp defines no kernel 'nope'
// ONCE: {{^1$}}
