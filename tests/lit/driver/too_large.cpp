// A kernel file larger than a front end reads (4 MiB by default; 1 MiB
// here) is refused before Clang sees it, by both front ends and every
// command, with the limit and how to raise it; raised, the same file
// compiles. A malformed setting is said as such.
// RUN: python3 -c "import sys; sys.stdout.write(open(sys.argv[1]).read() + '// ' + 'x' * (1536 * 1024) + '\n')" %s > %t.cpp
// RUN: env TWINTILE_MAX_SOURCE_MB=1 twintile compile --frontend=parse %t.cpp --kernel 'copy<64>' > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --input-file %t.out
// RUN: env TWINTILE_MAX_SOURCE_MB=1 twintile compile --frontend=trace %t.cpp --kernel 'copy<64>' --kernel 'copy<128>' > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --input-file %t.out
// RUN: env TWINTILE_MAX_SOURCE_MB=1 twintile diff %t.cpp --kernel 'copy<64>' > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --input-file %t.out
// RUN: env TWINTILE_MAX_SOURCE_MB=2 twintile diff %t.cpp --kernel 'copy<64>' | FileCheck %s --check-prefix=RAISED
// RUN: env TWINTILE_MAX_SOURCE_MB=lots twintile compile %t.cpp --kernel 'copy<64>' > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=SETTING --input-file %t.out
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void copy(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  store(y + offs, load(x + offs));
}

// CHECK: .cpp: error: the kernel file is 1.5 MiB, larger than the 1 MiB a front end reads; TWINTILE_MAX_SOURCE_MB=<MiB> raises the limit
// CHECK-NOT: internal error
// CHECK: {{^}}exit 1{{$}}
// RAISED: equal: the parse and trace IR of copy<64> are structurally identical
// SETTING: twintile: error: TWINTILE_MAX_SOURCE_MB is 'lots': it is the largest kernel file a front end reads, in MiB (1 to 1048576)
// SETTING: {{^}}exit 1{{$}}
