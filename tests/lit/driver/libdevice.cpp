// libdevice is cut per set of functions a kernel calls and linked into each
// compile: two specializations in one process that call different sets
// (exp; exp and erf) both get their functions inlined, none left as a call;
// a damaged libdevice is refused with its path, not a crash, and so is one
// that lacks a function the kernel calls, by name. The cut-out
// functions are kept in the disk cache; a damaged entry there is cut again,
// to the same PTX.
// RUN: rm -rf %t && mkdir -p %t
// RUN: twintile compile --frontend=parse %s --kernel 'math<1>' --kernel 'math<2>' --emit ptx -o %t --no-cache
// RUN: FileCheck %s --check-prefix=PTX < %t/math_1.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/math_2.ptx
// RUN: printf 'BC\300\336garbage, not bitcode' > %t/damaged.bc
// RUN: not env TWINTILE_LIBDEVICE=%t/damaged.bc twintile compile %s --kernel 'math<2>' --emit ptx -o - --no-cache 2>&1 | FileCheck %s --check-prefix=DAMAGED
// RUN: env TWINTILE_CACHE_DIR=%t/cache twintile compile %s --kernel 'math<2>' --emit ptx -o %t/first.ptx --no-cache
// RUN: find %t/cache -name '*.bc' -exec sh -c 'printf garbage > "$1"' _ {} ';'
// RUN: env TWINTILE_CACHE_DIR=%t/cache twintile compile %s --kernel 'math<2>' --emit ptx -o %t/again.ptx --no-cache
// RUN: cmp %t/first.ptx %t/again.ptx
// RUN: echo 'define float @__nv_other(float %%x) { ret float %%x }' | llvm-as -o %t/lacking.bc
// RUN: not env TWINTILE_LIBDEVICE=%t/lacking.bc twintile compile %s --kernel 'math<1>' --emit ptx -o - --no-cache 2>&1 | FileCheck %s --check-prefix=LACKING
#include <twintile.h>
using namespace tt;

template <int Which>
TT_KERNEL void math(Ptr<f32> x) {
  auto i = arange(0, 128);
  auto v = load(x + i);
  if constexpr (Which == 1) store(x + i, exp(v));
  else store(x + i, erf(v) + exp(v));
}

// PTX: .visible .entry math(
// PTX-NOT: call
// PTX-NOT: __nv_
// PTX: ret;
// DAMAGED: error: libdevice at {{.*}}damaged.bc cannot be read:
// LACKING: error: libdevice at {{.*}}lacking.bc defines no function __nv_expf (the backend needs CUDA 11's libdevice or later)
