// The three forms of a reduction, from both front ends: along an axis, along
// an axis keeping it (size 1, Triton's keep_dims), and over every axis (the
// tile read in row-major order: argmax gives a flat index).
// RUN: twintile compile --frontend=parse %s --kernel 'forms<16>' --no-locs | FileCheck %s
// RUN: twintile compile --frontend=trace %s --kernel 'forms<16>' --no-locs | FileCheck %s
// RUN: twintile run --frontend=parse %s --kernel 'forms<16>' --arg x=256 --arg y=256 --arg z=1 --grid 1 | FileCheck %s --check-prefix=RAN
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void forms(Ptr<f32> x, Ptr<f32> y, Ptr<i32> z) {
  auto r = arange(0, B);
  auto offs = expand_dims(r, 1) * B + expand_dims(r, 0);
  auto v = load(x + offs);
  auto e = exp(v - max(v, 1, true));
  store(y + offs, e / sum(e, 1, true) + sum(v));
  store(z + arange(0, 1), broadcast_to(expand_dims(argmax(v), 0), {1}));
}

// CHECK:      %[[V:[0-9]+]] = load %{{[0-9]+}} : tile<16x16xf32>
// CHECK-NEXT: %[[MAX:[0-9]+]] = max {axis = 1} %[[V]] : tile<16xf32>
// CHECK-NEXT: %[[KEPT:[0-9]+]] = expand_dims {axis = 1} %[[MAX]] : tile<16x1xf32>
// CHECK:      %[[S:[0-9]+]] = sum {axis = 1} %{{[0-9]+}} : tile<16xf32>
// CHECK-NEXT: expand_dims {axis = 1} %[[S]] : tile<16x1xf32>
// CHECK:      %[[FLAT:[0-9]+]] = reshape %[[V]] : tile<256xf32>
// CHECK-NEXT: sum {axis = 0} %[[FLAT]] : f32
// CHECK:      %[[FLAT2:[0-9]+]] = reshape %[[V]] : tile<256xf32>
// CHECK-NEXT: argmax {axis = 0} %[[FLAT2]] : i32

// RAN: ok: forms on emu, grid (1, 1, 1), {{.*}}: matches the interpreter on 513 elements of 3 buffers
