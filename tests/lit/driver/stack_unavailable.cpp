// A compile stack the machine cannot give (here 64 GiB under a 16 GiB
// address-space limit) is an error that says so and names the setting,
// exit 1: never the compile on the caller's small stack, where nothing
// would catch an overflow. (AddressSanitizer reserves more address space
// than any such limit allows.)
// UNSUPPORTED: asan
// RUN: (ulimit -v 16777216; env TWINTILE_STACK_MB=65536 twintile compile %s --kernel 'copy<64>' > %t.out 2>&1; echo "exit $?" >> %t.out)
// RUN: FileCheck %s --input-file %t.out
// RUN: (ulimit -v 16777216; twintile compile %s --kernel 'copy<64>' --no-locs) | FileCheck %s --check-prefix=DEFAULT
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void copy(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  store(y + offs, load(x + offs));
}

// CHECK: stack_unavailable.cpp: error: the compile cannot start a thread with a 65536 MiB stack ({{.*}}): TWINTILE_STACK_MB=<MiB> sets a smaller one
// CHECK-NOT: internal error
// CHECK: {{^}}exit 1{{$}}
// DEFAULT: func @copy(
