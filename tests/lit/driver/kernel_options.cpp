// A kernel's options in its own file: both front ends record them, the
// backend launches that many warps, and --num-warps on the command line
// overrides the file. A value out of range is refused at the call.
// RUN: twintile compile --frontend=parse %s --kernel 'opts<64>' --no-locs | FileCheck %s --check-prefix=SMALL
// RUN: twintile compile --frontend=trace %s --kernel 'opts<64>' --no-locs | FileCheck %s --check-prefix=SMALL
// RUN: twintile compile --frontend=trace %s --kernel 'opts<1024>' --no-locs | FileCheck %s --check-prefix=LARGE
// RUN: twintile run --frontend=parse %s --kernel 'opts<64>' --arg x=64 --grid 1 | FileCheck %s --check-prefix=RAN2
// RUN: twintile run --frontend=trace %s --kernel 'opts<64>' --arg x=64 --grid 1 --num-warps 4 | FileCheck %s --check-prefix=RAN4
// RUN: twintile compile --frontend=parse %s --kernel 'opts<64>' --num-warps 8 --no-locs | FileCheck %s --check-prefix=CLI
// RUN: not twintile compile --frontend=parse %s --kernel 'bad<64>' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not twintile compile --frontend=trace %s --kernel 'bad<64>' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not twintile compile --frontend=parse %s --kernel 'conditional<64>' 2>&1 | FileCheck %s --check-prefix=COND
// RUN: not twintile compile --frontend=parse %s --kernel 'huge<2147483647>' 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not twintile compile --frontend=trace %s --kernel 'huge<2147483647>' 2>&1 | FileCheck %s --check-prefix=HUGE
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void opts(Ptr<f32> x) {
  kernel_options({.num_warps = B >= 1024 ? 8 : 2, .num_stages = 3});
  auto offs = arange(0, B);
  store(x + offs, load(x + offs) + 1.0f);
}

template <int B>
TT_KERNEL void bad(Ptr<f32> x) {
  kernel_options({.num_warps = 3});
  store(x + arange(0, B), 1.0f);
}

template <int B>
TT_KERNEL void conditional(Ptr<f32> x, i32 n) {
  if (n > 0) kernel_options({.num_warps = 8});
  store(x + arange(0, B), 1.0f);
}

template <int S>
TT_KERNEL void huge(Ptr<f32> x) {
  kernel_options({.num_stages = S});  // the value as written, by both front ends
  store(x, 1.0f);
}

// SMALL: func @opts(%x: ptr<f32>) meta {B = 64} options {num_warps = 2, num_stages = 3}
// LARGE: func @opts(%x: ptr<f32>) meta {B = 1024} options {num_warps = 8, num_stages = 3}
// RAN2: ok: opts on emu, grid (1, 1, 1), 64 threads, sm_90a: matches the interpreter
// RAN4: ok: opts on emu, grid (1, 1, 1), 128 threads, sm_90a: matches the interpreter
// CLI: func @opts(%x: ptr<f32>) meta {B = 64} options {num_warps = 8, num_stages = 3}
// BAD: kernel_options.cpp:{{[0-9]+}}:3: error: kernel_options: num_warps must be a power of two from 1 to 32, got 3
// COND: kernel_options.cpp:{{[0-9]+}}:14: error: kernel_options is said in the kernel's straight code, not under a device condition
// HUGE: error: kernel_options: num_stages must be from 1 to 8, got 2147483647
