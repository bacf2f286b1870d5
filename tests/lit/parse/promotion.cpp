// Operators between element types compute in the type Triton promotes them
// to (include/twintile/promote.h), with the casts in the IR, the same from
// both front ends; store converts to the pointer's element type. Each line
// below is one rule; the emulator's results match the interpreter's.
// RUN: twintile compile --frontend=parse %s --kernel 'promote<128>' --emit tile | FileCheck %s
// RUN: twintile compile --frontend=trace %s --kernel 'promote<128>' --emit tile | FileCheck %s
// RUN: twintile diff %s --kernel 'promote<128>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'promote<128>' --grid 2 --arg h=256 --arg x=256 --arg b=256 --arg out=3584 --arg n=100 --arg s=3 --arg w=1.5 | FileCheck %s --check-prefix=EMU
// RUN: twintile run --frontend=trace %s --kernel 'promote<128>' --grid 2 --arg h=256 --arg x=256 --arg b=256 --arg out=3584 --arg n=100 --arg s=3 --arg w=1.5 | FileCheck %s --check-prefix=EMU
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void promote(Ptr<f16> h, Ptr<f32> x, Ptr<bf16> b, Ptr<f32> out, i32 n, i64 s, f32 w) {
  auto row = cast<i64>(program_id(0));
  auto offs = arange(0, B);
  auto mask = offs < n;
  auto base = row * n;                                    // scalars i64 * i32: i64
  auto hv = load(h + base + offs, mask, 0.0f);            // `other` converted to f16
  auto xv = load(x + base + offs, mask, 0.0f);
  auto bv = load(b + base + offs, mask, 0.0f);
  auto o = out + row * 14 * B + offs;
  store(o + 0 * B, mask * xv, mask);                      // i1 tile * f32 tile: f32
  store(o + 1 * B, xv / n, mask);                         // f32 tile / i32 scalar: f32
  store(o + 2 * B, hv * w, mask);                         // f16 tile * f32 scalar: f32
  store(o + 3 * B, hv / w, mask);                         // f16 tile / f32 scalar: f32
  store(o + 4 * B, hv + xv, mask);                        // f16 tile + f32 tile: f32
  store(o + 5 * B, bv + offs, mask);                      // bf16 tile + i32 tile: f32
  store(o + 6 * B, hv + bv, mask);                        // f16 tile + bf16 tile: f16
  store(o + 7 * B, s + offs, mask);                       // i64 scalar + i32 tile: i64
  store(o + 8 * B, where(mask, xv, offs), mask);          // where of f32 and i32: f32
  store(o + 9 * B, where(hv < xv, 1.0f, 0.0f), mask);     // f16 < f32 compares in f32
  store(o + 10 * B, maximum(offs, cast<i64>(offs) * s), mask);  // i32 tile and i64 tile: i64
  store(o + 11 * B, 1.0f / n + offs * 0.5f, mask);        // host floats against device integers: f32
  auto acc = zeros<f32>({B});
  acc += hv;                                              // f32 += f16: keeps f32
  auto wide = base;
  wide += n;                                              // i64 += i32: keeps i64
  store(o + 12 * B + (wide - base - n), acc + minimum(offs, 1.5f), mask);  // host float against i32: f32
  store(o + 13 * B, mask + 1, mask);                      // a mask and a host int: i32 (2 where set)
  store(h + base + offs, xv * 2.0f, mask);                // f32 stored through an f16 pointer
}


// CHECK:      %[[N:[0-9]+]] = cast %n : i64
// CHECK-NEXT: mul %{{[0-9]+}}, %[[N]] : i64
// CHECK:      constant {value = 0.0} : f16
// CHECK:      load {{.*}} : tile<128xf16>
// i1 * f32
// CHECK:      cast %{{[0-9]+}} : tile<128xf32>
// CHECK-NEXT: mul {{.*}} : tile<128xf32>
// f32 / i32
// CHECK:      cast %n : f32
// CHECK:      div {{.*}} : tile<128xf32>
// f16 * f32 scalar
// CHECK:      cast %{{[0-9]+}} : tile<128xf32>
// CHECK-NEXT: splat %w : tile<128xf32>
// CHECK-NEXT: mul {{.*}} : tile<128xf32>
// f16 / f32 scalar
// CHECK:      splat %w : tile<128xf32>
// CHECK-NEXT: div {{.*}} : tile<128xf32>
// f16 + f32
// CHECK:      add {{.*}} : tile<128xf32>
// bf16 + i32
// CHECK:      add {{.*}} : tile<128xf32>
// f16 + bf16
// CHECK:      cast %{{[0-9]+}} : tile<128xf16>
// CHECK-NEXT: add {{.*}} : tile<128xf16>
// i64 scalar + i32 tile
// CHECK:      cast %{{[0-9]+}} : tile<128xi64>
// CHECK-NEXT: splat %s : tile<128xi64>
// CHECK-NEXT: add {{.*}} : tile<128xi64>
// where
// CHECK:      select {{.*}} : tile<128xf32>
// f16 < f32
// CHECK:      lt {{.*}} : tile<128xi1>
// maximum of i32 and i64 tiles
// CHECK:      maximum {{.*}} : tile<128xi64>
// 1.0f / n + offs * 0.5f
// CHECK:      constant {value = 1.0} : f32
// CHECK-NEXT: cast %n : f32
// CHECK-NEXT: div {{.*}} : f32
// compound assignments that keep their type, a host float against i32, a mask and a host int
// CHECK:      cast %{{[0-9]+}} : tile<128xf32> loc({{.*}}:36:
// CHECK-NEXT: add {{.*}} : tile<128xf32> loc({{.*}}:36:
// CHECK:      cast %n : i64 loc({{.*}}:38:
// CHECK-NEXT: add {{.*}} : i64 loc({{.*}}:38:
// CHECK:      minimum {{.*}} : tile<128xf32> loc({{.*}}:39:
// CHECK:      constant {value = 1} : i32 loc({{.*}}:40:
// CHECK:      add {{.*}} : tile<128xi32> loc({{.*}}:40:
// the store's conversion
// CHECK:      constant {value = 2.0} : f32
// CHECK:      mul {{.*}} : tile<128xf32>
// CHECK-NEXT: cast %{{[0-9]+}} : tile<128xf16>
// CHECK-NEXT: store

// SAME: equal: the parse and trace IR of promote<128> are structurally identical
// EMU: ok: promote on emu
