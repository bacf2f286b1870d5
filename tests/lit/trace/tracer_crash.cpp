// A fault inside twintile's own tracer, in the isolated child, is ours
// whatever the kernel did to cause it: an internal error (exit status 70)
// naming the tracer's function, located after the last operation traced.
// Faults in the kernel's own code stay the kernel's (host_crashes.cpp).
// This kernel reaches into the tracer's internals with a pointer that is no
// node; the tracer trusts its own callers, so it faults.
// RUN: twintile compile --frontend=trace %s --kernel 'kernel<64>' > /dev/null 2> %t.err; test $? -eq 70
// RUN: FileCheck %s < %t.err
// RUN: twintile compile --frontend=trace --trace-host clang++ %s --kernel 'kernel<64>' > /dev/null 2> %t.clang.err; test $? -eq 70
// RUN: FileCheck %s < %t.clang.err
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void kernel(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  tt::detail::binary(tt::detail::Op::Add, reinterpret_cast<tt::detail::Node *>(16),
                     reinterpret_cast<tt::detail::Node *>(16), tt::detail::Loc{__FILE__, __LINE__, 3});
  store(y + offs, load(x + offs));
}

// CHECK: tracer_crash.cpp:18:3: internal error: tracing 'kernel<64>' crashed with SIGSEGV {{.*}} in twintile's tracer ({{.+}}), after the operation here — this is a bug in twintile
