// A fault inside twintile's own tracer, in the isolated child, is ours
// whatever the kernel did to cause it: an internal error (exit status 70)
// naming the tracer's function, located after the last operation traced.
// Faults in the kernel's own code stay the kernel's (host_crashes.cpp).
// This kernel reaches into the tracer's internals with a shape pointer that
// points nowhere; the tracer trusts its own callers' arrays, so it faults.
// RUN: twintile compile --frontend=trace %s --kernel 'kernel<64>' > /dev/null 2> %t.err; test $? -eq 70
// RUN: FileCheck %s < %t.err
// RUN: twintile compile --frontend=trace --trace-host clang++ %s --kernel 'kernel<64>' > /dev/null 2> %t.clang.err; test $? -eq 70
// RUN: FileCheck %s < %t.clang.err
// A device value the trace never made (a tile read past a container's end,
// or a pointer that is no node) is checked before the tracer uses it: the
// kernel's error, at the last operation traced (exit status 1; which: see the checks).
// RUN: not twintile compile --frontend=trace %s --kernel 'garbage<64>' 2>&1 | FileCheck %s --check-prefix=GARBAGE
// RUN: not twintile compile --frontend=trace %s --kernel 'past_end<64>' 2>&1 | FileCheck %s --check-prefix=PAST
#include <twintile.h>
#include <vector>
using namespace tt;

template <int B>
TT_KERNEL void kernel(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  tt::detail::reshape(offs.node(), reinterpret_cast<const int *>(16), 1, tt::detail::Loc{__FILE__, __LINE__, 3});
  store(y + offs, load(x + offs));
}

template <int B>
TT_KERNEL void garbage(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);  // <- garbage's last op
  tt::detail::binary(tt::detail::Op::Add, reinterpret_cast<tt::detail::Node *>(16),
                     reinterpret_cast<tt::detail::Node *>(16), tt::detail::Loc{__FILE__, __LINE__, 3});
  store(y + offs, load(x + offs));
}

template <int B>
TT_KERNEL void past_end(Ptr<f32> x, Ptr<f32> y) {
  std::vector<Tile<f32>> parts;
  parts.reserve(4);
  parts.push_back(load(x + arange(0, B)));  // <- past_end's last op
  Tile<f32> beyond = *(parts.data() + 2);  // reserved, never constructed
  store(y + arange(0, B), beyond + 1.0f);
}

// CHECK: tracer_crash.cpp:{{(22|23)}}:{{[0-9]+}}: internal error: tracing 'kernel<64>' crashed with SIGSEGV {{.*}} in twintile's tracer ({{.+}}), after the operation here — this is a bug in twintile
// The last operation is the arange or the call, as the compiler ordered the call's arguments:
// GARBAGE: tracer_crash.cpp:{{(29|31)}}:{{[0-9]+}}: error: a device value that this trace never made reached an operation
// PAST: tracer_crash.cpp:{{(39|41)}}:{{[0-9]+}}: error: a device value that this trace never made reached an operation
