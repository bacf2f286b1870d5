// A kernel no test has seen, through both front ends to PTX for sm_90a: a 2-D
// tile built by broadcasting, a transpose, a row reduction and a loop with a
// carried tile. ptxas (when scripts/setup installed it) checks the PTX too.
// RUN: twintile compile --frontend=trace %s --kernel 'colsum_scale<32, 64>' --emit ptx --resources 2>%t.trace.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=RES < %t.trace.err
// RUN: twintile compile --frontend=parse %s --kernel 'colsum_scale<32, 64>' --emit ptx | FileCheck %s
// RUN: twintile compile --frontend=parse %s --kernel 'colsum_scale<16, 16>' --emit ptx --num-warps 2 | FileCheck %s --check-prefix=WARPS
#include <twintile.h>
using namespace tt;

template <int R, int C>
TT_KERNEL void colsum_scale(Ptr<f32> x, Ptr<f32> out, i32 rows, i32 iters) {
  auto r = arange(0, R);
  auto c = arange(0, C);
  auto mask = expand_dims(r, 1) < rows;
  auto tile = load(x + expand_dims(r, 1) * C + expand_dims(c, 0), mask, 0.0f);
  auto t = trans(tile);                           // C x R
  auto acc = for_range(0, iters, 1, sum(t, 1), [&](i32, Tile<f32> a) { return a * 0.5f + 1.0f; });
  store(out + c, acc);
}

// CHECK: .visible .entry colsum_scale(
// CHECK: ld.global
// CHECK: st.global
// CHECK: ret;
// RES: ptxas: {{[0-9]+ registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack|skipped}}
// WARPS: .reqntid 64, 1, 1
