// A --kernel spec that does not fit, and kernel parameters the language does
// not take: both front ends say the same thing, at the user's line or naming
// the kernel's template parameters, never inside generated code. Parameters
// taken by reference, of any kind, are the values they refer to, in both.
// RUN: not twintile compile --frontend=parse %s --kernel 'scaled<64, 3>' 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: not twintile compile --frontend=trace %s --kernel 'scaled<64, 3>' 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: not twintile compile --frontend=parse %s --kernel 'scaled' 2>&1 | FileCheck %s --check-prefix=NOARGS
// RUN: not twintile compile --frontend=trace %s --kernel 'scaled' 2>&1 | FileCheck %s --check-prefix=NOARGS
// RUN: not twintile compile --frontend=parse %s --kernel 'fixed<64>' 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: not twintile compile --frontend=trace %s --kernel 'fixed<64>' 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: not twintile compile --frontend=parse %s --kernel 'plain<64>' 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: not twintile compile --frontend=trace %s --kernel 'plain<64>' 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: not twintile compile --frontend=parse %s --kernel 'tiled<64>' 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not twintile compile --frontend=trace %s --kernel 'tiled<64>' --no-cache 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: twintile diff %s --kernel 'refs<64>' --show | FileCheck %s --check-prefix=REFS
// RUN: twintile compile --frontend=parse %s --kernel 'fixed' > /dev/null
// RUN: twintile compile --frontend=trace %s --kernel 'fixed' > /dev/null
#include <twintile.h>
using namespace tt;

template <int B, class T = f32>
TT_KERNEL void scaled(Ptr<T> x) {
  auto offs = arange(0, B);
  store(x + offs, load(x + offs) * 2.0f);
}

TT_KERNEL void fixed(Ptr<f32> x) {
  auto offs = arange(0, 64);
  store(x + offs, load(x + offs) + 1.0f);
}

template <int B>
TT_KERNEL void plain(Ptr<f32> x, Ptr<f32> y,
                     const unsigned long n) {
  auto offs = arange(0, B);
  store(y + offs, load(x + offs), offs < i32(n));
}

template <int B>
TT_KERNEL void tiled(Ptr<f32> x, Tile<f32> t) {
  store(x + arange(0, B), t);
}

template <int B>
TT_KERNEL void refs(const Ptr<f32> &x, Ptr<f32> &y, const f32 &s, f32 &&t) {
  store(y + arange(0, B), load(x + arange(0, B)) * s + t);
}

// ARGS: twintile: error: --kernel 'scaled<64, 3>' is not a specialization of a kernel in {{.*}}kernel_signature.cpp: its template arguments do not fit the kernel's template parameters <int B, class T = f32>
// ARGS-NOT: __twintile_spec
// NOARGS: twintile: error: --kernel 'scaled' is not a specialization of a kernel in {{.*}}kernel_signature.cpp: its template arguments do not fit the kernel's template parameters <int B, class T = f32>
// FIXED: twintile: error: --kernel 'fixed<64>' is not a specialization of a kernel in {{.*}}kernel_signature.cpp: 'fixed' is not a template: write --kernel 'fixed'
// PLAIN: kernel_signature.cpp:34:42: error: kernel parameter 'n' has host type 'const unsigned long': give host values to a kernel as template parameters
// PLAIN-NEXT: const unsigned long n) {
// PLAIN-NEXT: {{^ +}}^
// PLAIN-NOT: error
// TILE: kernel_signature.cpp:40:44: error: kernel parameters are scalars and pointers; a Tile parameter cannot be passed
// TILE-NOT: error
// REFS: func @refs(%x: ptr<f32>, %y: ptr<f32>, %s: f32, %t: f32)
// REFS: equal: the parse and trace IR of refs<64> are structurally identical
