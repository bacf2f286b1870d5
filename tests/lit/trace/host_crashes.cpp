// The kernel's host code runs in a child process when traced from its file:
// a crash, an exception of any type, exit(), an endless loop or runaway
// recursion is a located error naming what happened and the last operation
// traced, never twintile's own death; what the code printed is shown apart;
// the other specializations of the same command still trace.
// RUN: not twintile compile --frontend=trace %s --kernel 'host<1>' 2>&1 | FileCheck %s --check-prefix=SEGV
// RUN: not twintile compile --frontend=trace %s --kernel 'host<2>' 2>&1 | FileCheck %s --check-prefix=INT
// The same through a clang++ process and dlopen instead of the in-process compile and the JIT linker:
// RUN: not twintile compile --frontend=trace --trace-host clang++ %s --kernel 'host<1>' 2>&1 | FileCheck %s --check-prefix=SEGV
// RUN: not twintile compile --frontend=trace --trace-host clang++ %s --kernel 'host<2>' 2>&1 | FileCheck %s --check-prefix=INT
// RUN: not twintile compile --frontend=trace --trace-host clang++ %s --kernel 'host<7>' 2>&1 | FileCheck %s --check-prefix=RECURSE
// RUN: not twintile compile --frontend=trace %s --kernel 'host<3>' 2>&1 | FileCheck %s --check-prefix=EXIT
// RUN: not twintile compile --frontend=trace %s --kernel 'host<4>' 2>&1 | FileCheck %s --check-prefix=FPE
// RUN: not twintile compile --frontend=trace %s --kernel 'host<5>' 2>&1 | FileCheck %s --check-prefix=ABORT
// RUN: not twintile compile --frontend=trace %s --kernel 'host<6>' 2>&1 | FileCheck %s --check-prefix=STD
// RUN: not twintile compile --frontend=trace %s --kernel 'host<7>' 2>&1 | FileCheck %s --check-prefix=RECURSE
// RUN: env TWINTILE_TRACE_TIMEOUT=1 not twintile compile --frontend=trace %s --kernel 'host<8>' 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not twintile compile --frontend=trace %s --kernel 'early<1>' 2>&1 | FileCheck %s --check-prefix=EARLY
// RUN: not twintile compile --frontend=trace %s --kernel 'early<2>' 2>&1 | FileCheck %s --check-prefix=EARLY-THROW
// RUN: not twintile compile --frontend=trace %s --kernel 'host<0>' --kernel 'early<1>' 2>&1 | FileCheck %s --check-prefix=EARLY
// RUN: env TWINTILE_TRACE_TIMEOUT=1 twintile compile --frontend=trace %s --kernel 'slow<1>' --kernel 'slow<2>' --kernel 'slow<3>' --kernel 'slow<4>' --kernel 'slow<5>' > /dev/null
// RUN: not twintile compile --frontend=trace %s --kernel 'host<0>' --kernel 'host<1>' --kernel 'host<9>' --emit tile --no-locs > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=MANY-OUT < %t.out
// RUN: FileCheck %s --check-prefix=MANY-ERR < %t.err
#include <twintile.h>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
using namespace tt;

int depth(int n) { volatile int pad[64] = {n}; return pad[0] > 0 ? depth(n + 1) + pad[1] : 0; }

template <int K>
TT_KERNEL void host(Ptr<f32> x) {
  auto i = arange(0, 16);
  store(x + i, load(x + i) * 2.0f);  // <- last op
  std::printf("host code of %d speaking\n", K);
  if constexpr (K == 1) { int *volatile p = nullptr; *p = 3; }
  if constexpr (K == 2) { throw 42; }
  if constexpr (K == 3) { std::exit(3); }
  if constexpr (K == 4) { volatile int z = 0; std::printf("%d\n", 5 / z); }
  if constexpr (K == 5) { std::abort(); }
  if constexpr (K == 6) { throw std::runtime_error("bad size"); }
  if constexpr (K == 7) { std::printf("%d\n", depth(1)); }
  if constexpr (K == 8) { for (volatile int n = 0;; n = n + 1) {} }
}

// A crash or a throw before any operation says so, even after another
// specialization's operations in the same child; the time limit is per
// specialization (five of about 0.3 s each pass a limit of 1 s).
template <int K>
TT_KERNEL void early(Ptr<f32> x) {
  if constexpr (K == 1) { int *volatile p = nullptr; *p = 1; }
  if constexpr (K == 2) throw 7;
  store(x + arange(0, 16), load(x + arange(0, 16)));
}

template <int K>
TT_KERNEL void slow(Ptr<f32> x) {
  for (volatile long n = 0; n < 120000000L; n = n + 1) {}
  store(x + arange(0, 16), load(x + arange(0, 16)));
}

// EARLY: {{.*}}host_crashes.cpp: error: tracing 'early<1>' crashed with SIGSEGV ({{.*}}) before tracing any operation
// EARLY-THROW: {{.*}}host_crashes.cpp: error: the kernel's host code threw an exception of type 'int' before tracing any operation
// SEGV: host_crashes.cpp:{{[0-9]+}}:3: error: tracing 'host<1>' crashed with SIGSEGV (a bad memory access: a null or dangling pointer, or runaway recursion); the last operation it traced is here
// SEGV-NEXT: store(x + i, load(x + i) * 2.0f);  // <- last op
// SEGV: note: the kernel's host code printed, while traced:
// SEGV-NEXT: host code of 1 speaking
// INT: host_crashes.cpp:{{[0-9]+}}:3: error: the kernel's host code threw an exception of type 'int' (after the operation here)
// INT-NEXT: store(x + i, load(x + i) * 2.0f);  // <- last op
// EXIT: error: tracing 'host<3>' exited with status 3 (the kernel's host code called exit?); the last operation it traced is here
// FPE: error: tracing 'host<4>' crashed with SIGFPE (an arithmetic error: an integer division by zero?)
// ABORT: error: tracing 'host<5>' crashed with SIGABRT (abort)
// STD: error: the kernel's host code threw std::runtime_error: bad size (after the operation here)
// RECURSE: error: tracing 'host<7>' crashed with SIGSEGV
// LOOP: error: tracing 'host<8>' ran longer than 1 s (an endless loop in the kernel's host code?)
// MANY-OUT: // ----- host<0>
// MANY-OUT-NEXT: func @host
// MANY-OUT: // ----- host<9>
// MANY-OUT-NEXT: func @host
// MANY-ERR: twintile: note: host<0>: the kernel's host code printed, while traced:
// MANY-ERR-NEXT: host code of 0 speaking
// MANY-ERR: error: tracing 'host<1>' crashed with SIGSEGV
// MANY-ERR: twintile: note: host<9>: the kernel's host code printed, while traced:
// MANY-ERR-NEXT: host code of 9 speaking
