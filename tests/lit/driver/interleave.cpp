// Programs that wait for each other, in the emulator: with --interleave the
// grid's programs run at once, switching at global atomics, so a spin lock
// taken by every program contends and still sums right; two programs that
// each wait for the other are reported as a deadlock with where each waits,
// not a hang.
// RUN: rm -rf %t && twintile run %s --kernel 'zeros<1>' --grid 1 --arg one=1 --arg two=2 --arg twelve=12 --device interp --save %t
// RUN: twintile run --frontend=parse %s --kernel 'locked_sum<64>' --grid 8 --arg x=500 --arg total=1 --input lock=%t/one.out.npy --arg n=500 --interleave 4 --seed 3 | FileCheck %s --check-prefix=LOCK
// RUN: twintile run --frontend=parse %s --kernel 'locked_sum<64>' --grid 8 --arg x=500 --arg total=1 --input lock=%t/one.out.npy --arg n=500 --interleave 8 --seed 11 | FileCheck %s --check-prefix=LOCK
// RUN: twintile run --frontend=parse %s --kernel 'chain<32>' --grid 12 --input flag=%t/twelve.out.npy --arg out=12 --interleave 4 --seed 5 | FileCheck %s --check-prefix=CHAIN
// RUN: twintile compile --frontend=parse %s --kernel 'chain<32>' --emit ptx | FileCheck %s --check-prefix=VOLATILE
// RUN: not twintile run --frontend=parse %s --kernel 'wait_each_other<32>' --grid 2 --input flag=%t/two.out.npy --interleave 2 --no-check 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: twintile run --frontend=parse %s --kernel 'chain<32>' --grid 12 --input flag=%t/twelve.out.npy --arg out=12 --interleave 4 --seed 5 | FileCheck %s --check-prefix=CHAIN
// RUN: twintile compile --frontend=parse %s --kernel 'chain<32>' --emit ptx | FileCheck %s --check-prefix=VOLATILE
// RUN: not twintile run --frontend=parse %s --kernel 'wait_each_other<32>' --grid 2 --arg flag=2 --interleave 2 --device interp 2>&1 | FileCheck %s --check-prefix=EMU-ONLY
#include <twintile.h>
using namespace tt;

// Zeroed buffers to start the lock and the flags from (saved as .npy).
template <int B>
TT_KERNEL void zeros(Ptr<i32> one, Ptr<i32> two, Ptr<i32> twelve) {
  store(one, 0);
  store(two + arange(0, 2), 0);
  store(twelve + arange(0, 16), 0, arange(0, 16) < 12);
}

// A look-back chain: program i waits, by a volatile load, until program
// i - 1 has published its value, then publishes its own.
template <int B>
TT_KERNEL void chain(Ptr<i32> flag, Ptr<i32> out) {
  auto i = program_id(0);
  i32 prev = 0;
  if (i > 0) {
    while (load(flag + i - 1, {.cache_modifier = Cache::Volatile}) == 0) {
    }
    prev = load(out + i - 1);
  }
  store(out + i, prev + 1);
  atomic_xchg(flag + i, 1, Sem::Release);
}

template <int B>
TT_KERNEL void locked_sum(Ptr<f32> x, Ptr<f32> total, Ptr<i32> lock, i32 n) {
  auto offs = program_id(0) * B + arange(0, B);
  auto part = sum(load(x + offs, offs < n, 0.0f), 0);
  while (atomic_cas(lock, 0, 1, Sem::Acquire) == 1) {  // Triton's `while tl.atomic_cas(lock, 0, 1) == 1: pass`
  }
  store(total, load(total) + part);
  atomic_xchg(lock, 0, Sem::Release);
}

template <int B>
TT_KERNEL void wait_each_other(Ptr<i32> flag) {
  auto me = program_id(0);
  while (atomic_add(flag + (1 - me), 0) == 0) {
  }
  atomic_xchg(flag + me, 1);
}

// LOCK: buffer lock: 1 i32 elements, 1 written, 0 changed by the kernel
// LOCK: ok: locked_sum on emu
// DEADLOCK: deadlock: the 2 resident programs (of 2, at most 2 at once) wait for memory that no program changes: program ({{[01]}},0,0) thread {{[0-9]+}} repeats line
// DEADLOCK-SAME: program ({{[01]}},0,0)
// CHAIN: ok: chain on emu
// VOLATILE: ld.volatile.global.b32
// EMU-ONLY: --interleave schedules the emulator's programs: it needs --device emu
