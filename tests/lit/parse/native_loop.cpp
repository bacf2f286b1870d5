// The parsing front end turns a native device loop into an IR loop with its carried
// value, and a native if into an if with results; the tracer refuses both (see
// tests/lit/trace/native_loop.cpp).
// RUN: twintile compile --frontend=parse %s --kernel 'prefix<64>' --no-locs | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void prefix(Ptr<f32> x, i32 n) {
  auto acc = zeros<f32>({BLOCK});
  for (i32 k = 0; k < n; k += BLOCK)
    acc += load(x + k + arange(0, BLOCK));
  if (sum(acc, 0) > 0.0f)
    acc = acc * 2.0f;
  store(x + arange(0, BLOCK), acc);
}

// CHECK:      func @prefix(%x: ptr<f32>, %n: i32) meta {BLOCK = 64}
// CHECK:        %[[ZERO:[0-9]+]] = splat %{{[0-9]+}} : tile<64xf32>
// CHECK:        %[[LOOP:[0-9]+]] = for %{{[0-9]+}}, %n, %{{[0-9]+}}, %[[ZERO]] : tile<64xf32> {
// CHECK-NEXT:   ^(%[[K:[0-9]+]]: i32, %[[ACC:[0-9]+]]: tile<64xf32>):
// CHECK:          %[[P:[0-9]+]] = addptr %x, %[[K]] : ptr<f32>
// CHECK:          %[[SUM:[0-9]+]] = add %[[ACC]], %{{[0-9]+}} : tile<64xf32>
// CHECK-NEXT:     yield %[[SUM]]
// CHECK-NEXT:   }
// CHECK:        %[[IF:[0-9]+]] = if %{{[0-9]+}} : tile<64xf32> {
// CHECK:          yield %{{[0-9]+}}
// CHECK-NEXT:   } {
// CHECK-NEXT:     yield %[[LOOP]]
// CHECK-NEXT:   }
// CHECK:        store %{{[0-9]+}}, %[[IF]]
