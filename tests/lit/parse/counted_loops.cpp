// Counted device loops become IR `for` loops whatever way C++ spells the step
// (`k += s`, `k = k + s`, `k = s + k`), so later passes see their trip
// count; a step that is not an addition, or that reads the counter, stays a
// `while`.
// RUN: twintile compile --frontend=parse %s --kernel 'counted<64>' --no-locs | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void counted(Ptr<f32> x, Ptr<f32> y, i32 rows) {
  auto offs = arange(0, B);
  auto acc = zeros<f32>({B});
  for (i32 r = 0; r < rows; r += 1)
    acc = acc + 1.0f;
  for (i32 r = 0; r < rows; r = r + 1)
    acc = acc + load(x + r * B + offs);
  for (i32 r = 0; r < rows; r = 2 + r)
    acc = acc + 2.0f;
  for (i32 r = 1; r < rows; r = r * 2)
    acc = acc + 3.0f;
  for (i32 r = 1; r < rows; r = r + r)  // the step reads the counter: read once, it would be 1
    acc = acc + 4.0f;
  store(y + offs, acc);
}

// CHECK-LABEL: func @counted
// CHECK:         %[[ONE:[0-9]+]] = constant {value = 1} : i32
// CHECK:         = for %{{[0-9]+}}, %rows, %[[ONE]], %{{[0-9]+}} : tile<64xf32> {
// CHECK:         %[[ONE2:[0-9]+]] = constant {value = 1} : i32
// CHECK:         = for %{{[0-9]+}}, %rows, %[[ONE2]], %{{[0-9]+}} : tile<64xf32> {
// CHECK:           addptr
// CHECK:         %[[TWO:[0-9]+]] = constant {value = 2} : i32
// CHECK:         = for %{{[0-9]+}}, %rows, %[[TWO]], %{{[0-9]+}} : tile<64xf32> {
// CHECK:         = while %{{[0-9]+}}, %{{[0-9]+}} : tile<64xf32>, i32 {
// CHECK:           mul
// CHECK-NOT:     for
// CHECK:         = while %{{[0-9]+}}, %{{[0-9]+}} : tile<64xf32>, i32 {
// CHECK-NOT:     for
// CHECK:         store
