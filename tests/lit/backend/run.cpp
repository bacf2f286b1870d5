// twintile run: the kernel's PTX in the emulator against its IR in the
// interpreter, on random buffers of the sizes given.
// RUN: twintile run %s --kernel 'saxpy<256>' --grid 4 --arg x=1000 --arg y=1000 --arg a=0.5 --arg n=1000 | FileCheck %s
// RUN: twintile run --frontend=parse %s --kernel 'saxpy<256>' --grid 4 --arg x=1000 --arg y=1000 --arg a=2 --arg n=1000 --target sm_80 | FileCheck %s --check-prefix=SM80
// RUN: twintile run %s --kernel 'saxpy<256>' --grid 4 --arg x=1024 --arg y=1024 --arg a=2 --arg n=1024 --assume-aligned '*' --assume-divisible n | FileCheck %s --check-prefix=WIDE
// A launch that breaks what the code was specialized on, or an argument
// that is missing, is refused before anything runs.
// RUN: not twintile run %s --kernel 'saxpy<256>' --grid 4 --arg x=1000 --arg y=1000 --arg a=2 --arg n=1000 --assume-divisible n 2>&1 | FileCheck %s --check-prefix=PROMISE
// RUN: not twintile run %s --kernel 'saxpy<256>' --grid 4 --arg x=1000 --arg y=1000 --arg n=1000 2>&1 | FileCheck %s --check-prefix=MISSING
// A pointer without --arg gets a default size, and says so.
// RUN: twintile run %s --kernel 'saxpy<256>' --grid 4 --arg x=1000 --arg a=2 --arg n=1000 | FileCheck %s --check-prefix=DEFAULT
// RUN: not twintile run %s --kernel 'saxpy<256>' --grid 4 --arg x=1000 --arg y=1000 --arg a=2 --arg n=1000 --arg z=3 2>&1 | FileCheck %s --check-prefix=EXTRA
// Out of bounds: n larger than the buffers is an error of the interpreter, at the load.
// RUN: not twintile run %s --kernel 'saxpy<256>' --grid 4 --arg x=100 --arg y=100 --arg a=2 --arg n=1000 2>&1 | FileCheck %s --check-prefix=BOUNDS
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void saxpy(Ptr<f32> x, Ptr<f32> y, f32 a, i32 n) {
  auto offs = program_id(0) * B + arange(0, B);
  auto mask = offs < n;
  store(y + offs, load(x + offs, mask) * a + load(y + offs, mask), mask);
}

// CHECK: buffer x: 1000 f32 elements, 0 written, 0 changed by the kernel
// CHECK: buffer y: 1000 f32 elements, 1000 written, 1000 changed by the kernel
// CHECK: ok: saxpy on emu, grid (4, 1, 1), 128 threads, sm_90a: matches the interpreter on 2000 elements of 2 buffers
// SM80: ok: saxpy on emu, grid (4, 1, 1), 128 threads, sm_80:
// PROMISE: error: argument 'n' = 1000 is not divisible by 16
// MISSING: error: no --arg for parameter 'a' (f32)
// DEFAULT: note: y has no --arg or --input: 1048576 random elements
// DEFAULT: buffer y: 1048576 f32 elements, 1000 written, 1000 changed by the kernel
// EXTRA: error: kernel 'saxpy' has no parameter 'z'
// WIDE: ok: saxpy on emu, grid (4, 1, 1), 128 threads, sm_90a: matches the interpreter on 2048 elements
// BOUNDS: run.cpp:22:19: error: out-of-bounds 'load' at element offset 100 of buffer 'x' (100 elements)
// --profile: the emulator's counts. 1024 floats each loaded from x and y and stored to y:
// 12288 bytes, perfectly coalesced into 384 sectors of 32 bytes; 2 elements per thread make
// 3 x 2 scalar requests per warp (16 warps), or 3 with the promises (v2 accesses).
// RUN: twintile run %s --kernel 'saxpy<256>' --grid 4 --arg x=1024 --arg y=1024 --arg a=2 --arg n=1024 --profile | FileCheck %s --check-prefix=PROFILE
// RUN: twintile run %s --kernel 'saxpy<256>' --grid 4 --arg x=1024 --arg y=1024 --arg a=2 --arg n=1024 --assume-aligned '*' --assume-divisible n --profile | FileCheck %s --check-prefix=PROFILE-WIDE
// PROFILE: profile: {"thread_instructions": {{[0-9]+}}, "global_requests": 96, "global_sectors": 384, "global_bytes": 12288, "shared_requests": 0,
// PROFILE-SAME: "ld.global.f32": 64,
// PROFILE-WIDE: "global_requests": 48, "global_sectors": 384, "global_bytes": 12288,
// PROFILE-WIDE-SAME: "ld.global.v2.b32": 32,
