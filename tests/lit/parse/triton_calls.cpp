// Calls real Triton kernels make, in both front ends to the same IR, run in
// the emulator against the interpreter: cdiv of device values (and of host
// 64-bit sizes, kept 64-bit), where on a
// host condition, isnan/isinf/isfinite, log1p/expm1/round/rint, a reduction's
// 0-d result held in a scalar variable, zeros({}), device_assert on a host
// condition, and a pointer minus an integer.
// RUN: twintile compile --frontend=parse %s --kernel 'calls<64,true>' --emit tile | FileCheck %s
// RUN: twintile compile --frontend=trace %s --kernel 'calls<64,true>' --emit tile | FileCheck %s
// RUN: twintile diff %s --kernel 'calls<64,false>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'calls<64,true>' --grid 3 --arg x=150 --arg y=150 --arg z=150 --arg n=150 | FileCheck %s --check-prefix=EMU
// RUN: twintile run --frontend=trace %s --kernel 'calls<64,false>' --grid 3 --arg x=150 --arg y=150 --arg z=150 --arg n=150 | FileCheck %s --check-prefix=EMU
// RUN: twintile compile --frontend=parse %s --kernel 'if_number<64>' --emit tile | FileCheck %s --check-prefix=IFNUM
// RUN: twintile run --frontend=parse %s --kernel 'if_number<64>' --grid 1 --arg x=50 --arg n=50 | FileCheck %s --check-prefix=EMU-IFNUM
// RUN: not twintile compile --frontend=trace %s --kernel 'if_number<64>' 2>&1 | FileCheck %s --check-prefix=IFNUM-TRACE
// RUN: not twintile compile --frontend=parse %s --kernel 'not_scalar<64>' 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not twintile compile --frontend=parse %s --kernel 'not_scalar_acc<64>' 2>&1 | FileCheck %s --check-prefix=SCALAR-ACC
// RUN: not twintile compile --frontend=trace %s --kernel 'not_scalar<64>' 2>&1 | FileCheck %s --check-prefix=SCALAR
#include <twintile.h>
using namespace tt;

template <int B, bool FLAG>
TT_KERNEL void calls(Ptr<f32> x, Ptr<f32> y, Ptr<i32> z, i32 n) {
  auto offs = program_id(0) * B + arange(0, B);
  auto mask = offs < n;
  auto v = load(x + offs, mask, 0.0f) * 100.0f;
  i32 blocks = cdiv(n, B);                          // device: (n + B - 1) / B
  auto w = where(FLAG, v, 1.0f);                    // a host condition: folds to one side
  auto special = isnan(v) || isinf(v) || !isfinite(v);
  f32 m = max(v, 0);                                // a 0-d tile in a scalar variable
  auto acc = zeros<f32>({});                        // a 0-d tile of a shape {}
  acc += sum(v, 0);
  device_assert(B > 0, "a positive block");         // a host condition, asserted
  long long elements = 10000000000LL;               // a host 64-bit size: cdiv keeps it 64-bit
  device_assert(cdiv(elements, 3) == 3333333334LL, "host cdiv of 64-bit values");
  static_assert(cdiv(10000000000LL, 3) == 3333333334LL && cdiv(7, 2) == 4);
  auto r = log1p(abs(v)) + expm1(v * 0.01f) + round(v * 0.5f) + rint(v * 0.5f) + m + acc * 0.0f;
  store(y + offs, where(special, 0.0f, r + w), mask);
  auto last = z + n - 1;                            // a pointer minus an integer
  store(last - offs, offs + blocks, mask);
}

// Triton's `if remainder:` on a number: x != 0, native control flow (the
// parsing front end reads it; the tracer refuses it with the combinator).
template <int B>
TT_KERNEL void if_number(Ptr<f32> x, i32 n) {
  auto offs = arange(0, B);
  auto v = load(x + offs, offs < n, 0.0f);
  i32 remainder = n % B;
  if (remainder) v = v + 1.0f;
  store(x + offs, v, offs < n);
}

template <int B>
TT_KERNEL void not_scalar_acc(Ptr<f32> x) {
  auto v = load(x + arange(0, B));
  f32 s = 0.0f;
  s += v;
  store(x, s);
}

template <int B>
TT_KERNEL void not_scalar(Ptr<f32> x) {
  auto v = load(x + arange(0, B));
  f32 s = v;
  store(x, s);
}
// SCALAR: triton_calls.cpp:[[@LINE-3]]:11: error: a tile (tile<64xf32>) is not a scalar: reduce it (sum(x), max(x, 0)), or declare the variable a Tile or auto

// CHECK: [[SUM:%[0-9]+]] = add %n, {{%[0-9]+}} : i32
// CHECK: [[LESS:%[0-9]+]] = sub [[SUM]], {{%[0-9]+}} : i32
// CHECK: [[BLOCKS:%[0-9]+]] = div [[LESS]], {{%[0-9]+}} : i32
// CHECK: [[NAN:%[0-9]+]] = ne [[V:%[0-9]+]], [[V]] : tile<64xi1>
// CHECK: abs [[V]]
// CHECK: eq {{.*}} : tile<64xi1>
// CHECK: lt {{.*}} : tile<64xi1>
// CHECK: max {axis = 0} [[V]] : f32
// CHECK: log1p
// CHECK: expm1
// CHECK: round
// CHECK: rint
// CHECK: neg
// CHECK: addptr
// SAME: equal
// EMU: ok: calls on emu
// SCALAR-ACC: triton_calls.cpp:{{[0-9]+}}:5: error: a tile (tile<64xf32>) is not a scalar
// IFNUM: [[R:%[0-9]+]] = rem %n
// IFNUM: [[C:%[0-9]+]] = ne [[R]], {{%[0-9]+}} : i1
// IFNUM: if [[C]]
// EMU-IFNUM: ok: if_number on emu
// IFNUM-TRACE: error: a device value is used as a C++ condition
