// The kernel file's host code that Clang accepts but the host's code
// generator cannot assemble (an inline asm statement) is the file's compile
// error, through either host compile; in process, LLVM's default handler
// used to print it and exit twintile.
// RUN: not twintile compile --frontend=trace %s --kernel 'k<16>' --trace-host jit 2>&1 | FileCheck %s --check-prefix=JIT
// RUN: not twintile compile --frontend=trace %s --kernel 'k<16>' --trace-host clang++ 2>&1 | FileCheck %s --check-prefix=CLANG
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void k(Ptr<f32> x) {
  asm volatile("not_an_instruction %%eax");
  auto i = arange(0, B);
  store(x + i, load(x + i));
}

// JIT: twintile: error: the kernel file's host code does not compile to machine code: <inline asm>:1:{{[0-9]+}}: invalid register name
// JIT-NOT: internal error
// CLANG: host_codegen_error.cpp:12:16: error: invalid register name
