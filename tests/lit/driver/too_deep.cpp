// A file nested deeper than the compile's stack holds (here 200,000 `!` in
// front of an operand, and 100,000 nested template argument lists, with a
// 64 MiB stack so that the test stays small) is the file's error, exit 1,
// through both front ends: Clang's parser recursed past the stack's end,
// and twintile says so and how to raise the limit, instead of dying on
// SIGSEGV. The same file made shallower (2,000 and 200) compiles, equal
// through both front ends, with the default stack. (Clang's abandoned
// frames leak what they held: no leak check, in the sanitized build, for
// the runs that abandon them; the other options are scripts/test's.)
// RUN: python3 -c "import sys; sys.stdout.write(open(sys.argv[1]).read().replace('DEEP_BOOL', '!' * 200000 + '1').replace('DEEP_TYPE', 'int'))" %s > %t.bool.cpp
// RUN: python3 -c "import sys; sys.stdout.write(open(sys.argv[1]).read().replace('DEEP_BOOL', '1').replace('DEEP_TYPE', 'Wrap<' * 100000 + 'int' + '>' * 100000))" %s > %t.type.cpp
// RUN: env TWINTILE_STACK_MB=64 ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:use_sigaltstack=0 twintile compile --frontend=parse %t.bool.cpp --kernel 'kernel<64>' > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --input-file %t.out
// RUN: env TWINTILE_STACK_MB=64 ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:use_sigaltstack=0 twintile compile --frontend=trace %t.bool.cpp --kernel 'kernel<64>' --no-cache > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --input-file %t.out
// RUN: env TWINTILE_STACK_MB=64 ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:use_sigaltstack=0 twintile compile --frontend=parse %t.type.cpp --kernel 'kernel<64>' --kernel 'kernel<128>' > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefixes=CHECK,TWICE --input-file %t.out
// RUN: env TWINTILE_STACK_MB=64 ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:use_sigaltstack=0 twintile compile --frontend=trace %t.type.cpp --kernel 'kernel<64>' --no-cache > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --input-file %t.out
// RUN: env TWINTILE_STACK_MB=64 ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:use_sigaltstack=0 twintile diff %t.bool.cpp --kernel 'kernel<64>' --no-cache --json > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=DIFF --input-file %t.out
// RUN: env TWINTILE_STACK_MB=8 twintile compile %t.bool.cpp --kernel 'kernel<64>' > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=SETTING --input-file %t.out
// RUN: python3 -c "import sys; sys.stdout.write(open(sys.argv[1]).read().replace('DEEP_BOOL', '!' * 2000 + '1').replace('DEEP_TYPE', 'Wrap<' * 200 + 'int' + '>' * 200))" %s > %t.fine.cpp
// RUN: twintile diff %t.fine.cpp --kernel 'kernel<64>' | FileCheck %s --check-prefix=FINE
#include <twintile.h>
using namespace tt;

template <class T> struct Wrap {};
[[maybe_unused]] static bool deep = DEEP_BOOL;
[[maybe_unused]] static DEEP_TYPE *deepType = nullptr;

template <int B>
TT_KERNEL void kernel(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  store(y + offs, load(x + offs));
}

// CHECK: .cpp: error: reading the kernel file used up its 64 MiB stack: the kernel nests too deeply (expressions, statements or template argument lists nested many thousands deep); TWINTILE_STACK_MB=<MiB> gives each compile a larger stack
// TWICE: .cpp: error: reading the kernel file used up its 64 MiB stack
// DIFF:      "errors": {
// DIFF-NEXT:   "parse": "{{.*}}.cpp: error: reading the kernel file used up its 64 MiB stack: the kernel nests too deeply
// DIFF-NEXT:   "trace": "{{.*}}.cpp: error: reading the kernel file used up its 64 MiB stack: the kernel nests too deeply
// DIFF-NOT: internal error
// DIFF: {{^}}exit 1{{$}}
// CHECK-NOT: internal error
// CHECK: {{^}}exit 1{{$}}
// SETTING: twintile: error: TWINTILE_STACK_MB is '8': it is the stack of each compile, in MiB (16 to 65536)
// SETTING: {{^}}exit 1{{$}}
// FINE: equal: the parse and trace IR of kernel<64> are structurally identical
