// twintile run: device_print's output in order, buffers from and to .npy
// files, every device, and the command line checked strictly.
// RUN: rm -rf %t && mkdir -p %t
// RUN: twintile run %s --kernel 'show<8>' --grid 2 --arg x=16 --arg y=16 --arg n=16 --save %t/a | FileCheck %s --check-prefix=PRINT
// RUN: twintile run %s --kernel 'show<8>' --grid 2 --arg y=16 --arg n=16 --input x=%t/a/y.out.npy --device interp --save %t/b | FileCheck %s --check-prefix=INPUT
// RUN: cmp %t/a/y.out.npy %t/b/x.in.npy
// RUN: twintile run %s --kernel 'show<8>' --grid 2 --arg x=16 --arg y=16 --arg n=16 --no-check --time --repeat 3 | FileCheck %s --check-prefix=NOCHECK
// RUN: twintile run %s --kernel 'show<8>' --grid 2 --arg x=16 --arg y=16 --arg n=16 --json | FileCheck %s --check-prefix=JSON
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg x=16 --arg y=16 --arg n=16abc 2>&1 | FileCheck %s --check-prefix=JUNK
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg x=16 --arg y=16 --arg n=16abc --json 2> %t.err | FileCheck %s --check-prefix=JSON-JUNK
// RUN: count 0 < %t.err
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg x=16 --arg y=16 --arg "n=$(printf '\377')" --json | FileCheck %s --check-prefix=JSON-BYTES
// RUN: not twintile run %s --kernel 'nosuch<8>' --grid 2 --json 2>&1 | FileCheck %s --check-prefix=JSON-NOKERNEL
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg x=16 --arg y=16 --arg n=1e3 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg x=16 --arg y=16 --arg n=3000000000 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg x=16 --arg x=17 --arg y=16 --arg n=16 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg x=-4 --arg y=16 --arg n=16 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not twintile run %s --kernel 'show<8>' --grid 0 --arg x=16 --arg y=16 --arg n=16 2>&1 | FileCheck %s --check-prefix=GRID0
// RUN: not twintile run %s --kernel 'show<8>' --grid 2,-1 --arg x=16 --arg y=16 --arg n=16 2>&1 | FileCheck %s --check-prefix=GRIDNEG
// RUN: not twintile run %s --kernel 'show<8>' --grid 1,70000 --arg x=16 --arg y=16 --arg n=16 2>&1 | FileCheck %s --check-prefix=GRIDBIG
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg x=16 --arg y=16 --arg n --arg z=1 2>&1 | FileCheck %s --check-prefix=NOEQ
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg y=16 --arg n=16 --input x=%t/missing.npy 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg y=16 --arg n=16 --input n=%t/a/y.out.npy 2>&1 | FileCheck %s --check-prefix=SCALARIN
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg x=10 --arg y=16 --arg n=16 --input x=%t/a/y.out.npy 2>&1 | FileCheck %s --check-prefix=DISAGREE
// RUN: twintile run %s --kernel 'count<8>' --grid 1 --arg c=8 --save %t/c > /dev/null
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg y=16 --arg n=16 --input x=%t/c/c.out.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg x=16 --arg y=16 --arg n=16 --device gpu 2>&1 | FileCheck %s --check-prefix=DEVICE
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void show(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * B + arange(0, B);
  device_print("program", program_id(0));
  store(y + offs, load(x + offs, offs < n) * 2.0f, offs < n);
}

template <int B>
TT_KERNEL void count(Ptr<i32> c) {
  auto i = arange(0, B);
  store(c + i, i);
}

// PRINT: device_print:
// PRINT-NEXT: pid (0, 0, 0) program 0
// PRINT-NEXT: pid (1, 0, 0) program 1
// PRINT: buffer x: 16 f32 elements, 0 written, 0 changed by the kernel
// PRINT: buffer y: 16 f32 elements, 16 written, 16 changed by the kernel
// PRINT: ok: show on emu, grid (2, 1, 1), 128 threads, sm_90a: matches the interpreter on 32 elements of 2 buffers
// PRINT: saved 4 .npy files to
// INPUT: ran: show on interp, grid (2, 1, 1), 128 threads, sm_90a: the interpreter is the reference: nothing to check against
// NOCHECK: buffer y: 16 f32 elements, 16 changed by the kernel
// NOCHECK: ran: show on emu, {{.*}}: not checked (--no-check)
// NOCHECK: time: median {{[0-9.e+-]+}} us of 3 launches on PTX emulator (CPU) (wall clock)
// JSON: "command": "run",
// JSON: "verdict": "ok",
// JSON: "printed": "pid (0, 0, 0) program 0\npid (1, 0, 0) program 1
// JUNK: twintile: error: --arg n=16abc is not an integer
// JSON-JUNK:      {
// JSON-JUNK-NEXT:   "command": "run",
// JSON-JUNK:        "verdict": "error",
// JSON-JUNK-NEXT:   "error": "twintile: error: --arg n=16abc is not an integer\n"
// JSON-JUNK-NEXT: }
// JSON-JUNK-EMPTY:
// JSON-BYTES:      "verdict": "error",
// JSON-BYTES-NEXT: "error": "twintile: error: --arg n={{.+}} is not an integer\n"
// JSON-NOKERNEL:      "verdict": "error",
// JSON-NOKERNEL-NEXT: "error": "twintile: error: --kernel 'nosuch<8>': {{.*}}run.cpp defines no kernel 'nosuch'
// JSON-NOKERNEL-NOT:  "internal"
// NOTINT: twintile: error: --arg n=1e3 is not an integer
// RANGE: twintile: error: --arg n=3000000000 is not within i32
// TWICE: twintile: error: --arg x is given twice
// COUNT: twintile: error: --arg x=-4 is not a positive count of elements
// GRID0: twintile: error: --grid sizes must be positive, got 0
// GRIDNEG: twintile: error: --grid sizes must be positive, got -1
// GRIDBIG: twintile: error: --grid y = 70000 is over the emu device's limit of 65535
// NOEQ: twintile: error: --arg takes NAME=VALUE, got 'n'
// NOFILE: twintile: error: {{.*}}missing.npy: {{.*}}
// SCALARIN: twintile: error: --input n: 'n' is a scalar (i32), not a buffer
// DISAGREE: twintile: error: --arg x=10 disagrees with --input {{.*}}y.out.npy, which has 16 elements
// DTYPE: twintile: error: {{.*}}c.out.npy holds int32, but 'x' is ptr<f32>: save it with x.astype(np.float32)
// DEVICE: --device: gpu not in {emu,interp,cuda}
// The interpreter counts what the kernel stored; --no-check leaves only what changed.
// RUN: twintile run %s --kernel 'show<8>' --grid 2 --arg x=16 --arg y=16 --arg n=12 --device interp | FileCheck %s --check-prefix=WRITTEN
// WRITTEN: buffer y: 16 f32 elements, 12 written, 12 changed by the kernel
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg x=4611686018427387904 --arg y=16 --arg n=16 2>&1 | FileCheck %s --check-prefix=TOOBIG
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg x=16 --arg y=16 --arg n=16 --device interp --profile 2>&1 | FileCheck %s --check-prefix=PROFILE
// RUN: not twintile run %s --kernel 'show<8>' --grid 2 --arg x=16 --arg y=16 --arg n=16 --repeat 3 2>&1 | FileCheck %s --check-prefix=REPEAT
// RUN: not twintile run %s --kernel 'scaled<8>' --grid 1 --arg x=8 --arg a=1e40 2>&1 | FileCheck %s --check-prefix=F32RANGE
// TOOBIG: twintile: error: --arg x=4611686018427387904 is too large: run makes buffers of at most 4 GiB
// PROFILE: twintile: error: --profile counts what the emulator runs: it needs --device emu
// REPEAT: twintile: error: --repeat sets how many launches --time times: give --time too
// F32RANGE: twintile: error: --arg a=1e40 is out of f32's range

template <int B>
TT_KERNEL void scaled(Ptr<f32> x, f32 a) {
  auto i = arange(0, B);
  store(x + i, load(x + i) * a);
}
// A command-line error exits with status 1, like every other error; --help with 0.
// RUN: twintile run %s --kernel 'show<8>' --grid a 2>/dev/null; test $? -eq 1
// RUN: twintile compile 2>/dev/null; test $? -eq 1
// RUN: twintile --help > /dev/null
// RUN: %twintile-opt --no-such-flag 2>/dev/null; test $? -eq 1
// A launch the CPU devices would take hours over is refused before it starts.
// RUN: not twintile run %s --kernel 'show<8>' --grid 100000000 --arg x=16 --arg y=16 --arg n=16 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: twintile: error: a grid of 100000000 programs of 128 threads is 12800000000 threads, more than the emu device (and the interpreter that checks it) runs in reasonable time (16777216); use a smaller grid, or --device cuda --no-check
