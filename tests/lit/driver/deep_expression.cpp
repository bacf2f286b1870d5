// A 3,000-term expression: Clang's code generation, the walker and LLVM
// recurse once per term. Both front ends compile it (on their large stacks,
// and the host compiler's raised stack limit), to the same IR, to PTX.
// RUN: python3 -c "import sys; sys.stdout.write(open(sys.argv[1]).read().replace('TERMS', ' + '.join(['v'] * 3000)))" %s > %t.cpp
// RUN: twintile diff %t.cpp --kernel 'kernel<64>' | FileCheck %s
// RUN: twintile compile --frontend=parse %t.cpp --kernel 'kernel<64>' --emit ptx --no-cache | FileCheck %s --check-prefix=PTX
// RUN: twintile compile --frontend=trace %t.cpp --kernel 'kernel<64>' --emit ptx --no-cache | FileCheck %s --check-prefix=PTX
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void kernel(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  auto v = load(x + offs);
  store(y + offs, TERMS);
}

// CHECK: equal: the parse and trace IR of kernel<64> are structurally identical
// PTX: .visible .entry kernel(
