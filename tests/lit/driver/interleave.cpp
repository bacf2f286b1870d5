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
// RUN: not twintile run --frontend=parse %s --kernel 'wait_each_other<32>' --grid 2 --arg flag=2 --interleave 2 --device interp 2>&1 | FileCheck %s --check-prefix=EMU-ONLY
// RUN: twintile run %s --kernel 'zeros16<16>' --arg status=16 --device interp --save %t
// RUN: twintile run --frontend=parse %s --kernel 'lookback<128>' --grid 16 --input status=%t/status.out.npy --arg out=2000 --arg n=1900 --interleave 4 --seed 1 | FileCheck %s --check-prefix=LOOKBACK
// RUN: twintile run --frontend=parse %s --kernel 'lookback<128>' --grid 16 --input status=%t/status.out.npy --arg out=2000 --arg n=1900 --interleave 8 --seed 7 | FileCheck %s --check-prefix=LOOKBACK
#include <twintile.h>
using namespace tt;

// Zeroed buffers to start the lock and the flags from (saved as .npy).
template <int B>
TT_KERNEL void zeros(Ptr<i32> one, Ptr<i32> two, Ptr<i32> twelve) {
  store(one, 0);
  store(two + arange(0, 2), 0);
  store(twelve + arange(0, 16), 0, arange(0, 16) < 12);
}

template <int B>
TT_KERNEL void zeros16(Ptr<u32> status) { store(status + arange(0, B), 0u); }

// A decoupled look-back (FlagGems's radix-sort sweep in its smallest form):
// each program publishes its count (flag 1 << 30), adds its predecessors'
// counts until one has published an inclusive sum (flag 1 << 31), then
// publishes its own. The spin's volatile loads are scalars in a device loop
// with barriers in it: one thread reads and shares each, so that every
// thread leaves the loop at the same iteration (each thread reading for
// itself, two could see two values, and the barriers stopped pairing up).
template <int B>
TT_KERNEL void lookback(Ptr<u32> status, Ptr<u32> out, i32 n) {
  auto pid = program_id(0);
  auto offs = pid * B + arange(0, B);
  auto ones = cast<u32>(offs < n);
  auto local = sum(ones, 0);
  store(status + pid, local | (1u << 30));
  auto prefix = zeros<u32>({});
  auto i = pid - 1;
  while (i >= 0) {
    auto p = load(status + i, {.cache_modifier = Cache::Volatile});
    while (p == 0) p = load(status + i, {.cache_modifier = Cache::Volatile});
    prefix += p & ((1u << 30) - 1);
    if ((p & (1u << 30)) == (1u << 30)) i -= 1;
    else i = -1;
  }
  store(status + pid, (1u << 31) | (prefix + local));
  store(out + offs, prefix + cumsum(ones, 0), offs < n);
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
// LOOKBACK: ok: lookback on emu{{.*}}matches the interpreter
