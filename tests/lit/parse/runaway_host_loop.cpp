// A host loop that never ends (its increment is `+s`) keeps recording device
// ops: both front ends refuse the kernel at the op that passes the budget,
// with what to write instead, before memory runs out (a fuzzer once found
// the parser exhausting 4 GB here).
// RUN: not twintile compile --frontend=parse %s --kernel 'runaway<64>' 2>&1 | FileCheck %s
// RUN: not twintile compile --frontend=trace %s --kernel 'runaway<64>' --no-cache 2>&1 | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void runaway(Ptr<f32> x) {
  auto offs = arange(0, BLOCK);
  auto v = load(x + offs);
  for (int s = 0; s < 2; +s) v = v * 0.5f;
  store(x + offs, v);
}

// CHECK: runaway_host_loop.cpp:14:{{[0-9]+}}: error: the kernel records more than 262144 ops here: a host loop that never ends, or one unrolled too far (a device loop, for_range, records its body once)
