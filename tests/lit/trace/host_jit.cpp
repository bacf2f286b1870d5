// The kernel file compiled in process and loaded by ORC's JIT linker (the
// default, --trace-host jit) runs as the clang++-compiled shared object runs
// (--trace-host clang++): its static initializers first, in their order,
// what they print shown with the first specialization's output; thread_local
// variables; its static objects' destructors never (the child ends with
// _exit). Both give the same IR. A function the file declares and nobody
// defines is the file's load error naming it, either way.
// RUN: twintile compile --frontend=trace %s --kernel 'scale<16>' --trace-host jit --no-locs > %t.jit
// RUN: twintile compile --frontend=trace %s --kernel 'scale<16>' --trace-host clang++ --no-locs > %t.clang
// RUN: diff %t.jit %t.clang
// RUN: FileCheck %s < %t.jit
// RUN: twintile compile --frontend=trace %s --kernel 'scale<16>' --json | FileCheck %s --check-prefix=PRINTED
// RUN: not twintile compile --frontend=trace %s --kernel 'undefined<16>' --trace-host jit 2>&1 | FileCheck %s --check-prefix=UNDEF
// RUN: not twintile compile --frontend=trace %s --kernel 'undefined<16>' --trace-host clang++ 2>&1 | FileCheck %s --check-prefix=UNDEF
#include <twintile.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace tt;

static const int kScale = std::atoi("3");
static const std::vector<int> kTable = {kScale, kScale * 2, 7};  // after kScale, as C++ orders them
struct Loud {
  Loud() { std::puts("constructed"); }
  ~Loud() { std::puts("destroyed"); }
} loud;
thread_local int calls = 10;

int helper(int);  // declared, never defined

template <int B>
TT_KERNEL void scale(Ptr<f32> x) {
  auto i = arange(0, B);
  ++calls;
  store(x + i, load(x + i) * float(kTable[1]) + float(calls));
}

template <int B>
TT_KERNEL void undefined(Ptr<f32> x) {
  auto i = arange(0, B);
  store(x + i, load(x + i) * float(helper(B)));
}

// CHECK: constant {value = 6.0} : f32
// CHECK: constant {value = 11.0} : f32
// PRINTED: "host_output": "constructed\n"
// UNDEF: error: cannot load the compiled kernel {{.*}}: the kernel file uses helper(int), which neither it nor the C++ runtime defines
