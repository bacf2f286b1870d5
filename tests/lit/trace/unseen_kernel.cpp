// A kernel the corpus has never seen, written only against the language surface,
// traces to tile IR through the driver; the meta-parameters and parameter names
// come from the source.
// RUN: twintile compile --frontend=trace %s --kernel 'scaled_relu<f16, 256>' --no-locs | FileCheck %s
// RUN: twintile compile --frontend=trace %s --kernel 'scaled_relu<f16, 256>' | FileCheck %s --check-prefix=LOC
// RUN: twintile compile --frontend=trace %s --kernel 'scaled_relu<f16, 256>' | twintile-opt -O --no-locs | FileCheck %s --check-prefix=OPT
// The parsing front end reads it to the same IR:
// RUN: twintile compile --frontend=parse %s --kernel 'scaled_relu<f16, 256>' --no-locs | FileCheck %s
// RUN: twintile diff %s --kernel 'scaled_relu<f16, 256>' | FileCheck %s --check-prefix=DIFF
#include <twintile.h>
using namespace tt;

template <typename T>
Tile<f32> relu(const Tile<f32> &v) {
  return maximum(v, 0.0f);
}

template <typename T, int BLOCK>
TT_KERNEL void scaled_relu(Ptr<T> x, Ptr<T> y, i32 n, f32 scale) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto v = cast<f32>(load(x + offs, mask, 0.0f)) * scale;
  auto total = for_range(0, 3, 1, v, [&](i32, Tile<f32> acc) { return acc + relu<T>(v); });
  store(y + offs, cast<T>(total), mask);
}

// CHECK:      func @scaled_relu(%x: ptr<f16>, %y: ptr<f16>, %n: i32, %scale: f32) meta {T = "f16", BLOCK = 256}
// CHECK:        %[[PID:[0-9]+]] = program_id {axis = 0} : i32
// CHECK:        = for %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<256xf32> {
// CHECK-NEXT:   ^(%{{[0-9]+}}: i32, %[[ACC:[0-9]+]]: tile<256xf32>):
// CHECK:          maximum
// CHECK:          yield
// CHECK:        store
// CHECK-NEXT:   return

// The helper's op is located in the helper, the loop at its call.
// LOC: maximum {{.*}} loc("{{.*}}unseen_kernel.cpp":[[@LINE-22]]:
// LOC: } loc("{{.*}}unseen_kernel.cpp":[[@LINE-15]]:

// DIFF: equal: the parse and trace IR of scaled_relu<f16, 256> are structurally identical

// OPT: func @scaled_relu
// OPT-NOT: constant {value = 1024}
