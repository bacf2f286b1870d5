// Idioms of upstream Triton kernels that a held-out trial found missing: a
// scalar accumulator taking a reduction's 0-d result by +=/-=, clamp, an
// offset added to a pointer from the left, and a narrower value assigned to
// a wider variable (converted, as C++ converts); the same IR from both front
// ends, right in the emulator (triton_idioms_refused.cpp: what is refused).
// RUN: twintile diff %s --kernel 'idioms<64>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'idioms<64>' --grid 2 --arg x=64 --arg out=64 --arg n=50 | FileCheck %s --check-prefix=EMU
// RUN: twintile run --frontend=trace %s --kernel 'idioms<64>' --grid 2 --arg x=64 --arg out=64 --arg n=50 | FileCheck %s --check-prefix=EMU
// RUN: twintile compile --frontend=parse %s --kernel 'idioms<64>' --emit tile | FileCheck %s
// RUN: twintile diff %s --kernel 'mixed<32>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'mixed<32>' --grid 1 --arg y=32 --arg z=32 --arg hi=1.0 | FileCheck %s --check-prefix=EMU-MIXED
// RUN: twintile run --frontend=trace %s --kernel 'mixed<32>' --grid 1 --arg y=32 --arg z=32 --arg hi=1.0 | FileCheck %s --check-prefix=EMU-MIXED
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void idioms(Ptr<f32> x, Ptr<f32> out, i32 n) {
  auto t = load(x + arange(0, B), arange(0, B) < n, 0.0f);
  f32 acc = 0.0f;
  acc += sum(t, 0);                              // a 0-d tile into a scalar accumulator
  acc -= max(t, 0);
  auto c = clamp(t, -1.0f, 1.0f);                // tl.clamp
  i64 pid = cast<i64>(program_id(0)) * 4;
  pid = program_id(0);                           // an i32 into an i64 variable: converted
  auto offs = cast<i64>(arange(0, B)) * 2;
  offs = arange(0, B);                           // an i32 tile into an i64 one
  store(offs + out, c + acc, offs < n);          // offset + pointer
  store(pid + out, acc);
}

// clamp's steps typed as minimum(maximum(x, lo), hi) types them, in both
// front ends: the inner maximum of an f16 tile and a host float in f16.
template <int B>
TT_KERNEL void mixed(Ptr<f32> y, Ptr<i32> z, f32 hi) {
  auto h = zeros<f16>({B});
  store(y + arange(0, B), clamp(h, 0.1f, hi));
  store(z + arange(0, B), clamp(arange(0, B), 0, 10.5f));
  f32 acc = 0.0f;
  acc += sum(h, 0);                              // a narrower 0-d tile: promoted
  i64 count = 0;
  count += sum(arange(0, B), 0);
  store(y, acc + count);
}

// CHECK: sum {axis = 0}
// CHECK: add %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK: max {axis = 0}
// CHECK: sub %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK: maximum
// CHECK: minimum
// CHECK: cast %{{[0-9]+}} : i64
// SAME: equal
// EMU: ok: idioms on emu
// EMU-MIXED: ok: mixed on emu
