// reduce and associative_scan with the user's combine function: a lambda, a
// generic lambda, a function object or a function, whose body both front ends
// turn into the op's region; keep_dims and every axis as for sum. The IR is
// the same from both; the PTX in the emulator matches the interpreter,
// integer sums checking that each element counts once (tiles smaller than
// the warps, with wrapped copies) and the first/last scans that the order of
// the combine's operands is kept.
// RUN: twintile compile --frontend=parse %s --kernel 'forms<16>' --no-locs > %t.parse
// RUN: twintile compile --frontend=trace %s --kernel 'forms<16>' --no-locs > %t.trace
// RUN: diff %t.parse %t.trace
// RUN: FileCheck %s < %t.parse
// RUN: twintile run --frontend=parse %s --kernel 'forms<16>' --arg x=256 --arg y=256 --arg z=256 --grid 1 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'forms<16>' --arg x=256 --arg y=256 --arg z=256 --grid 1 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'sums<4,4>' --num-warps 8 --grid 1 | FileCheck %s --check-prefix=SUMS
// RUN: twintile run --frontend=trace %s --kernel 'sums<1,64>' --num-warps 4 --grid 1 | FileCheck %s --check-prefix=SUMS
// RUN: twintile run --frontend=parse %s --kernel 'sums<128,2>' --num-warps 2 --grid 1 | FileCheck %s --check-prefix=SUMS
// RUN: twintile run --frontend=trace %s --kernel 'sums<64,64>' --num-warps 8 --grid 1 | FileCheck %s --check-prefix=SUMS
// RUN: twintile run --frontend=parse %s --kernel 'sums<16,128>' --num-warps 1 --grid 1 | FileCheck %s --check-prefix=SUMS
// RUN: twintile diff %s --kernel 'callables<16>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'callables<16>' --grid 1 | FileCheck %s --check-prefix=CALLABLES
#include <twintile.h>
using namespace tt;

struct MaxAbs {  // a function object
  f32 operator()(f32 a, f32 b) const { return maximum(abs(a), abs(b)); }
};

template <class T> T add_fn(T a, T b) { return a + b; }

template <int B>
TT_KERNEL void forms(Ptr<f32> x, Ptr<f32> y, Ptr<i32> z) {
  auto r = arange(0, B);
  auto offs = expand_dims(r, 1) * B + expand_dims(r, 0);
  auto v = load(x + offs);
  auto rowsum = reduce(v, 1, [](f32 a, f32 b) { return a + b; }, true);
  auto colmax = reduce(v, 0, MaxAbs{});
  auto scan = associative_scan(v, 1, [](auto a, auto b) { return a + b; });
  store(y + offs, scan + rowsum + expand_dims(colmax, 0));
  auto bits = cast<i32>(v * 4.0f);
  auto any = reduce(bits, [](i32 a, i32 b) { return a | b; });
  auto prod = associative_scan(bits, -2, [](i32 a, i32 b) { return a * b; });
  store(z + offs, prod + any + reduce(bits, 1, add_fn<i32>, true));
}

// CHECK:      %[[V:[0-9]+]] = load %{{[0-9]+}} : tile<16x16xf32>
// CHECK-NEXT: %[[ROW:[0-9]+]] = reduce {axis = 1} %[[V]] : tile<16xf32> {
// CHECK-NEXT:   ^(%[[A:[0-9]+]]: f32, %[[B:[0-9]+]]: f32):
// CHECK-NEXT:     %[[S:[0-9]+]] = add %[[A]], %[[B]] : f32
// CHECK-NEXT:     yield %[[S]]
// CHECK-NEXT:   }
// CHECK-NEXT: expand_dims {axis = 1} %[[ROW]] : tile<16x1xf32>
// CHECK-NEXT: reduce {axis = 0} %[[V]] : tile<16xf32> {
// CHECK-NEXT:   ^(%[[C:[0-9]+]]: f32, %[[D:[0-9]+]]: f32):
// CHECK-NEXT:     %[[AC:[0-9]+]] = abs %[[C]] : f32
// CHECK-NEXT:     %[[AD:[0-9]+]] = abs %[[D]] : f32
// CHECK-NEXT:     %[[M:[0-9]+]] = maximum %[[AC]], %[[AD]] : f32
// CHECK-NEXT:     yield %[[M]]
// CHECK:      scan {axis = 1} %[[V]] : tile<16x16xf32> {
// CHECK:      %[[BITS:[0-9]+]] = cast %{{[0-9]+}} : tile<16x16xi32>
// CHECK-NEXT: %[[FLAT:[0-9]+]] = reshape %[[BITS]] : tile<256xi32>
// CHECK-NEXT: reduce {axis = 0} %[[FLAT]] : i32 {
// CHECK:        or
// CHECK:      scan {axis = 0} %[[BITS]] : tile<16x16xi32> {
// CHECK:        mul
// CHECK:      reduce {axis = 1} %[[BITS]] : tile<16xi32> {
// CHECK:        add
// CHECK:      expand_dims {axis = 1} %{{[0-9]+}} : tile<16x1xi32>

// RAN: ok: forms on emu, grid (1, 1, 1), {{.*}}: matches the interpreter on 768 elements of 3 buffers

template <int M, int N>
TT_KERNEL void sums(Ptr<i32> x, Ptr<i32> rows, Ptr<i32> cols, Ptr<i32> all, Ptr<i32> scanned, Ptr<i32> ordered) {
  auto offs = expand_dims(arange(0, M), 1) * N + expand_dims(arange(0, N), 0);
  auto v = load(x + offs);
  auto add = [](i32 a, i32 b) { return a + b; };
  store(rows + arange(0, M), reduce(v, 1, add));
  store(cols + arange(0, N), reduce(v, 0, add));
  store(all + arange(0, 1), broadcast_to(expand_dims(reduce(v, add), 0), {1}));
  store(scanned + offs, associative_scan(v, 0, add));
  auto first = associative_scan(v, 1, [](i32 a, i32) { return a; });  // associative, not commutative
  auto last = associative_scan(v, 0, [](i32, i32 b) { return b; });
  store(ordered + offs, first * 3 - last);
}

// SUMS: ok: sums on emu, {{.*}}: matches the interpreter on {{[0-9]+}} elements of 6 buffers

// The operator() Clang chose, in both front ends: among overloads, a generic
// lambda's specialization per element type, a member template; a combine
// returning a host number; a default argument the call does not give.
struct Overloaded {
  f32 operator()(f32 a, f32 b) const { return maximum(a, b); }
  i32 operator()(i32 a, i32 b) const { return a + b; }
};
struct Templated {
  template <class T> T operator()(T a, T b) const { return minimum(a, b); }
};

template <int B>
TT_KERNEL void callables(Ptr<f32> x, Ptr<i32> k, Ptr<f32> y, Ptr<i32> z) {
  auto v = load(x + arange(0, B));
  auto n = load(k + arange(0, B));
  auto larger = [](auto a, auto b) { return maximum(a, b * 1); };  // the literal typed per specialization
  store(y + arange(0, B), associative_scan(v, 0, Overloaded{}) + associative_scan(v, 0, larger) +
                              associative_scan(v, 0, Templated{}));
  store(z + arange(0, B), associative_scan(n, 0, Overloaded{}) + associative_scan(n, 0, larger) +
                              associative_scan(n, 0, [](i32 a, i32 b, i32 c = 1) { return a * c + b - b; }) +
                              associative_scan(n, 0, [](i32, i32) { return 7; }));
}

// SAME: equal: the parse and trace IR of callables<16> are structurally identical
// CALLABLES: ok: callables on emu, {{.*}}: matches the interpreter on {{[0-9]+}} elements of 4 buffers
