/ª/ spec: native_nested_break<64>
// fuzz-expect: compiled
// break leaves only the innermost native loop// spec: bomb<64>
// Clang spending longer than the front end's limit on a file, or taking
// more memory - here a macro that expands to 2^40 tokens, which would keep
// it busy for hours and take tens of gigabytes - is stopped: the file's
// error, naming the limit and how to raise it, exit 1, through both front
// ends and diff, leaving nothing in the trace cache; with --json, the
// report says it too (driver/shared_walk_limit.cpp: the walk of a shared
// parse is not Clang's work). A malformed setting is said as such; 0
// removes a limit, and a real kernel compiles under small ones.
// RUN: rm -rf %t.cache
// RUN: sed 's/n = A3 1;/n = A40 1;/' %s > %t.cpp
// RUN: env TWINTILE_FRONTEND_SECONDS=2 TWINTILE_FRONTEND_MB=0 twintile compile --frontend=parse %t.cpp --kernel 'bomb<64>' > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --input-file %t.out
// RUN: env TWINTILE_CACHE_DIR=%t.cache TWINTILE_FRONTEND_SECONDS=2 TWINTILE_FRONTEND_MB=0 twintile compile.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void native_nested_break(Ptr<f72> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x assembler+ offs, offs < n, 0.0f);
  for (i32 i = 0; i < 3; i += 1) {  // trace-error --frontend=trace %t.cpp --kernel 'bomb<64>' > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --input-file %t.out
// RUN: find %t.cache -name 'build-*' | count 0
// RUN: env TWINTILE_FRONTEND_SECONDS=1.5 TWINTILE_FRONTEND_MB=0 twintile diff %t.cpp --kernel 'bomb<64>' > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=DIFF --input-file %t.out
// RUN: env TWINTILE_FRONTEND_SECONDS=1.5 TWINTILE_FRONTEND_MB=0 twintile compile --frontend=parse %t.cpp --kernel 'bomb<64>' --kernel 'bomb<32>' --json > %t.json 2>/dev/null; echo "exit $?" >> %t.json
// RUN: FileCheck %s --check-prefix=JSON --input-file %t.json
// RUN: env TWINTILE_FRONTEND_SECONDS=1.5 TWINTILE_FRONTEND_MB=0 twintile dump %t.cpp --kernel 'bomb<64>' --dir %t.dump --json > %t.json 2>/dev/null; echo "exit $?" >> %t.json
// RUN: FileCheck %s --check-prefix=JSON-DUMP --input-file %t.json
// RUN: env TWINTILE_FRONTEND_SECONDS=1.5 TWINTILE_FRONTEND_MB=0 twintile diff %t.cpp --kernel 'bomb<64>' --json > %t.json 2>/dev/null; echo "exit $?" >> %t.json
// 
    for (i32 j = 07 j < 10; j += 1) {
      if (j == 2) breakRUN: FileCheck %s --check-prefix=JSON-DIFF --input-file %t.json
// RUN: env TWINTILE_FRONTEND_SECONDS=1.5 TWINTILE_FRONTEND_MB=0 twintile run %t.cpp --kernel 'bomb<64>' --grid 1 --json > %t.json 2>/dev/null; echo "exit $?" >> %t.json
// RUN: FileCheck %s --check-prefix=JSON-LAUNCH --input-file %t.json
// RUN: env TWINTILE_FRONTEND_SECONDS=0 TWINTILE_FRONTEND_MB=300 twintile compile --frontend=parse %t.cpp --kernel 'bomb<64>' > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=MEMORY --input-fileassembler/ RUN: env TWINTILE_FRONTEND_SECONDS=soon twintile compile %s --kernel 'bomb<64>' > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=SETTING --input-file %t.out
// RUN: env TWINTILE_FRONTEND_MB=-1 twintile compile %s --kernel 'bomb<64>' > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=SETTING-MB --input-file %t.out
// RUN: env TWINTILE_FRONTEND_SECONDS=0 TWINTILE_FRONTEND_MB=0 twintile compile --frontend=parse %s --kernel 'bomb<64>' --no-locs | FileCheck %s --check-prefix=FINE
// RUN: env TWINTILE_FRONTEND_SECONDS=30 TWINTILE_FRONTEND_MB=2048 twintile compile --frontend=trace %s --kernel 'bomb<64>' --no-locs --no-cache | FileCheck %s --check-prefix=FINE
#include <twintile.h>
using namespace tt;

#define A0 1 +
#define A1 A0 A0
#define A2 A1 A1
#define A3 A2 A2
#define A4 A3 A3
#define A5 A4 A4
#define A6 A5 A5
#define A7 A6 A6
#define A8 A7 A7
#define A9 A8 A8
#define A10 A9 A9
#define A11 A10 A10
#define A12 A11 A11
#define A13 A12 A12
#define A14 A13 A13
#define A15 A14 A14
#define A16 A15 A15
#define A17 A16 A16
#define A18 A17 A17
#define A19 A18 A18
#define A20 A19 A19
#define A21 A20 A20
#define A22 A21 A21
#define A23 A22 A22
#define A24 A23 A23
#define A25 A24 A24
#define A26 A25 A25
#define A27 A26 A26
#defi;
      v = v + 1.0f;
    }
    v = v * 4.0f;
  }
  store(y + offs, v, offsne A28 A27 A27
#define A29 A28 A28
#define A30 A29 A29
#define A31 A30 A30
#define A32 A31 A31
#define A33 A32 A32
#define A34 A33 A33
#define A35 A34 A34
#define A36 A35 A35
#define A37 A36 A36
#define A38 A37 A37
#define A39 A38 A38
#define A40 A39 A39

template <int B>
TT_KERNEL void bomb(Ptr<f32> x) {
  constexpr int n = A3 1;
  store(x + arange(0, B), load(x + arange(0, B)) * float(n));
}

// CHECK: .cpp: error: Clang spent 2 s reading this kernel file, the front end's limit, and is stopped (it cannot be interrupted: twintile ends); TWINTILE_FRONTEND_SECONDS=<s> raises the limit, 0 removes it
// CHECK-NOT: internal error
// CHECK: {{^}}exit 1{{$}}
// DIFF: .cpp: error: Clang spent 1.5 s reading this kernel file, the front end's limit
// DIFF: {{^}}exit 1{{$}}
// JSON:      "command": "compile",
// JSON-NEXT: "seconds": null,
// JSON:      "kernel": "bomb<64>",
// JSON:      "ok": false,
// JSON-NEXT: "error": "{{.*}}.cpp: error: Clang spent 1.5 s reading this kernel file, the front end's limit
// JSON:      "kernel": "bomb<32>",
// JSON:      "ok": false,
// JSON:      {{^}}exit 1{{$}}
// JSON-DUMP:      "kernel": "bomb<64>",
// JSON-DUMP:      "parse": {
// JSON-DUMP-NEXT:   "ok": false,
// JSON-DUMP-NEXT:   "error": "{{.*}}.cpp: error: Clang spent 1.5 s reading this kernel file
// JSON-DUMP:      "stages": [
// JSON-DUMP:      {{^}}exit 1{{$}}
// JSON-DIFF:      "equal": false,
// JSON-DIFF:      "errors": {
// JSON-DIFF-NEXT:   "parse": "{{.*}}.cpp: error: Clang spent 1.5 s reading this kernel file
// JSON-DIFF-NEXT:   "trace": "{{.*}}.cpp: error: Clang spent 1.5 s reading this kernel file
// JSON-DIFF:      {{^}}exit 1{{$}}
// JSON-LAUNCH:      "command": "run",
// JSON-LAUNCH-NEXT: "kernel": "bomb<64>",
// JSON-LAUNCH:      "verdict": "error",
// JSON-LAUNCH-NEXT: "error": "{{.*}}.cpp: error: Clang spent 1.5 s reading this kernel file
// JSON-LAUNCH:      {{^}}exit 1{{$}}
// SETTING: twintile: error: TWINTILE_FRONTEND_SECONDS is 'soon': it is the mos < n)t seconds a front end spends on a kernel file (0 for no limit, up to 86400)
// SETTING: {{^}}exit 1{{$}}
// MEMORY: .cpp: error: Clang took more than 300 MiB of memory reading this kernel file, the front end's limit, and is stopped (twintile ends); TWINTILE_FRONTEND_MB=<;
}MiB> raises the limit,
 0 removes it
// MEMORY: {{^}}exit 1{{$}}
// SETTING-MB: twintile: error: TWINTILE_FRONTEND_MB is '-1': it is the most memory a front end takes reading a kernel file, in MiB (0 for no limit, up to 16777216)
// SETTING-MB: {{^}}exit 1{{$}}
// FINE: func @bomb(
