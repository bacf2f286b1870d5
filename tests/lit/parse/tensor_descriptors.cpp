// Tensor descriptors (Triton's make_tensor_descriptor, twintile/descriptor.h)
// through both front ends: the same IR from each (one descriptor_load or
// descriptor_store carrying base, shape, strides but the innermost (i64, as
// Triton's), offsets and the block), expanded into the pointer arithmetic
// and mask a Triton user writes (the loads before the backend, but those
// only dots read; the stores by the backend where TMA does not write them),
// so that a matmul written with descriptors is pipelined and on wgmma
// (sm_90a) or mma.sync (sm_80) like one written with pointers. Each kernel runs on the emulator against the interpreter
// on ragged sizes: blocks that hang over every edge read 0 and write
// nothing there, offsets below zero, i64 sizes, three dimensions, a store of
// a scalar. And what the language refuses, at the user's line in both.
// RUN: twintile compile --frontend=parse %s --kernel 'copy2d<16, 8>' --no-locs > %t.parse
// RUN: twintile compile --frontend=trace %s --kernel 'copy2d<16, 8>' --no-locs > %t.trace
// RUN: diff %t.parse %t.trace
// RUN: FileCheck %s --check-prefix=IR < %t.parse
// RUN: twintile compile --frontend=parse %s --kernel 'copy2d<16, 8>' --emit tile-opt --no-locs | FileCheck %s --check-prefix=EXPANDED
// RUN: twintile diff %s --kernel 'matmul<64, 64, 32>' | FileCheck %s --check-prefix=SAME
// RUN: twintile diff %s --kernel 'shifted<i8, 64>' | FileCheck %s --check-prefix=SAME
// RUN: twintile diff %s --kernel 'cube<4, 8, 16>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'copy2d<16, 8>' --grid 3,4 --arg x=2000 --arg y=2000 --arg M=37 --arg N=29 --arg sx=40 --arg sy=31 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'copy2d<32, 32>' --grid 2,1 --arg x=2000 --arg y=2000 --arg M=37 --arg N=29 --arg sx=29 --arg sy=30 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'matmul<64, 64, 32>' --grid 2,3 --arg a=10000 --arg b=10000 --arg c=10000 --arg M=100 --arg N=70 --arg K=90 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'matmul<128, 128, 64>' --target sm_80 --grid 2,2 --arg a=40000 --arg b=40000 --arg c=40000 --arg M=200 --arg N=150 --arg K=130 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'matmul<128, 128, 64>' --num-warps 8 --num-stages 4 --assume-aligned '*' --assume-divisible '*' --grid 2,2 --arg a=65536 --arg b=65536 --arg c=65536 --arg M=256 --arg N=256 --arg K=128 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'matmul<128, 128, 64>' --num-stages 2 --grid 2,2 --arg a=40000 --arg b=40000 --arg c=50000 --arg M=190 --arg N=250 --arg K=70 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'shifted<i8, 64>' --grid 5 --arg x=300 --arg y=300 --arg n=250 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'shifted<f64, 32>' --grid 9 --arg x=300 --arg y=300 --arg n=250 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'cube<4, 8, 16>' --grid 3 --arg x=3000 --arg y=3000 --arg D=9 --arg H=11 --arg W=21 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'fill<64>' --grid 3 --arg y=500 --arg n=150 | FileCheck %s --check-prefix=RAN
// RUN: twintile diff %s --kernel 'member<16>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'member<16>' --grid 1 --arg x=100 --arg n=10 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'big_count<16>' --grid 2 --arg x=100 | FileCheck %s --check-prefix=RAN
// RUN: twintile compile --frontend=parse %s --kernel 'big_count<16>' --no-locs | FileCheck %s --check-prefix=WIDE
// RUN: not twintile compile --frontend=parse %s --kernel 'masks<16>' 2>&1 | FileCheck %s --check-prefix=BOOL
// RUN: not twintile compile --frontend=trace %s --kernel 'masks<16>' 2>&1 | FileCheck %s --check-prefix=BOOL
// RUN: twintile compile --frontend=parse %s --kernel 'matmul<128, 128, 64>' --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=HOPPER
// RUN: twintile compile --frontend=trace %s --kernel 'matmul<128, 128, 64>' --assume-aligned '*' --emit ptx 2>&1 | FileCheck %s --check-prefix=NO-TMA
// RUN: twintile compile --frontend=trace %s --kernel 'matmul<128, 128, 64>' --target sm_80 --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=AMPERE
// RUN: not twintile compile --frontend=parse %s --kernel 'strided_inner<16>' 2>&1 | FileCheck %s --check-prefix=INNER
// RUN: not twintile compile --frontend=trace %s --kernel 'strided_inner<16>' 2>&1 | FileCheck %s --check-prefix=INNER
// RUN: not twintile compile --frontend=parse %s --kernel 'odd_block<48>' 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: not twintile compile --frontend=trace %s --kernel 'odd_block<48>' 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: not twintile compile --frontend=parse %s --kernel 'odd_block<512>' 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: not twintile compile --frontend=parse %s --kernel 'narrow<2>' 2>&1 | FileCheck %s --check-prefix=NARROW
// RUN: not twintile compile --frontend=trace %s --kernel 'narrow<2>' 2>&1 | FileCheck %s --check-prefix=NARROW
// RUN: not twintile compile --frontend=parse %s --kernel 'wrong_tile<16>' 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not twintile compile --frontend=trace %s --kernel 'wrong_tile<16>' 2>&1 | FileCheck %s --check-prefix=TILE
#include <twintile.h>
using namespace tt;

// y = x + 1 over an M x N matrix, each with its own row stride.
template <int BM, int BN>
TT_KERNEL void copy2d(Ptr<f32> x, Ptr<f32> y, i32 M, i32 N, i32 sx, i32 sy) {
  auto dx = make_tensor_descriptor(x, {M, N}, {sx, 1}, {BM, BN});
  auto dy = make_tensor_descriptor(y, {M, N}, {sy, 1}, {BM, BN});
  i32 r = program_id(0) * BM, c = program_id(1) * BN;
  dy.store({r, c}, dx.load({r, c}) + 1.0f);
}

// IR: func @copy2d
// IR: %[[ONE:[0-9]+]] = constant {value = 1} : i32
// IR: %[[SX:[0-9]+]] = cast %sx : i64
// IR: %[[T:[0-9]+]] = descriptor_load {block = [16, 8]} %x, %M, %N, %[[SX]], %{{[0-9]+}}, %{{[0-9]+}} : tile<16x8xf32>
// IR: %[[SY:[0-9]+]] = cast %sy : i64
// IR: descriptor_store {block = [16, 8]} %y, %M, %N, %[[SY]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}

// EXPANDED: func @copy2d
// EXPANDED-NOT: descriptor_load
// EXPANDED: ge %{{[0-9]+}}, %{{[0-9]+}} : tile<16xi1>
// EXPANDED: lt %{{[0-9]+}}, %{{[0-9]+}} : tile<16xi1>
// EXPANDED: load %{{[0-9]+}}, %{{[0-9]+}} : tile<16x8xf32>
// EXPANDED: descriptor_store {block = [16, 8]}
// EXPANDED-NOT: descriptor_load

// SAME: equal: the parse and trace IR

template <int BM, int BN, int BK>
TT_KERNEL void matmul(Ptr<f16> a, Ptr<f16> b, Ptr<f16> c, i32 M, i32 N, i32 K) {
  auto da = make_tensor_descriptor(a, {M, K}, {K, 1}, {BM, BK});
  auto db = make_tensor_descriptor(b, {K, N}, {N, 1}, {BK, BN});
  auto dc = make_tensor_descriptor(c, {M, N}, {N, 1}, {BM, BN});
  i32 rm = program_id(0) * BM, rn = program_id(1) * BN;
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    return dot(da.load({rm, k}), db.load({k, rn}), acc);
  });
  dc.store({rm, rn}, cast<f16>(acc));
}

// HOPPER: .version 8.3
// HOPPER: tensormap.replace.tile.global_address.shared::cta.b1024.b64
// HOPPER: tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned
// HOPPER: mbarrier.init.shared::cta.b64
// HOPPER-DAG: mbarrier.arrive.expect_tx.shared::cta.b64
// HOPPER-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// HOPPER-DAG: mbarrier.try_wait.parity.shared::cta.b64
// HOPPER-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// HOPPER-DAG: mbarrier.inval.shared::cta.b64
// HOPPER-DAG: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// HOPPER-NOT: cp.async.cg
// NO-TMA: note: the descriptor load at {{.*}} is not copied by TMA: its row stride is not known to be a multiple of 16 bytes, as a tensor map's must be (--assume-divisible promises it); it is loaded as a masked load is
// NO-TMA: note: the descriptor store at {{.*}} is not copied by TMA: its row stride is not known to be a multiple of 16 bytes, as a tensor map's must be (--assume-divisible promises it); it is stored as a masked store is
// NO-TMA: .version 8.0
// NO-TMA-NOT: cp.async.bulk
// NO-TMA: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// AMPERE: cp.async.cg.shared.global
// AMPERE: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// AMPERE-NOT: wgmma

// A window of B elements starting 7 before the program's block: the first
// program reads below 0 (zeros), the last past n; an i64 size.
template <class T, int B>
TT_KERNEL void shifted(Ptr<T> x, Ptr<T> y, i64 n) {
  auto dx = make_tensor_descriptor(x, {n}, {1}, {B});
  auto dy = make_tensor_descriptor(y, {n}, {1}, {B});
  i32 at = program_id(0) * B - 7;
  dy.store({at}, dx.load({at}) * T(2));
}

// A 3-D block of a D x H x W tensor, stored densely.
template <int BD, int BH, int BW>
TT_KERNEL void cube(Ptr<f16> x, Ptr<f16> y, i32 D, i32 H, i32 W) {
  auto dx = make_tensor_descriptor(x, {D, H, W}, {H * W, W, 1}, {BD, BH, BW});
  auto dy = make_tensor_descriptor(y, {D, H, W}, {H * W, W, 1}, {BD, BH, BW});
  i32 z = program_id(0) * BD;
  dy.store({z, 3, 5}, dx.load({z, 3, 5}));
}

// A scalar stored to a whole block.
template <int B>
TT_KERNEL void fill(Ptr<i32> y, i32 n) {
  auto dy = make_tensor_descriptor(y, {n}, {1}, {B});
  dy.store({program_id(0) * B}, 7);
}

// RAN: ok: {{.*}} matches the interpreter

template <int B>
TT_KERNEL void strided_inner(Ptr<f32> x, i32 n, i32 s) {
  auto d = make_tensor_descriptor(x, {n, n}, {n, s}, {B, B});
  // INNER: tensor_descriptors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: the innermost stride of a tensor descriptor must be 1
  d.store({0, 0}, d.load({0, 0}));
}

template <int B>
TT_KERNEL void odd_block(Ptr<f32> x, i32 n) {
  auto d = make_tensor_descriptor(x, {n}, {1}, {B});
  // ODD: tensor_descriptors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: make_tensor_descriptor's block [{{48|512}}]: each size must be a power of two of at most 256
  d.store({0}, d.load({0}));
}

template <int B>
TT_KERNEL void narrow(Ptr<f32> x, i32 n) {
  auto d = make_tensor_descriptor(x, {n, n}, {n, 1}, {64, B});
  // NARROW: tensor_descriptors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: make_tensor_descriptor's block [64x2]: the innermost size must span at least 16 bytes (4 f32 elements)
  d.store({0, 0}, d.load({0, 0}));
}

template <int B>
TT_KERNEL void wrong_tile(Ptr<f32> x, i32 n) {
  auto d = make_tensor_descriptor(x, {n, n}, {n, 1}, {B, B});
  d.store({0, 0}, zeros<f32>({2 * B, B}));
  // TILE: tensor_descriptors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: a tensor descriptor's store writes a block of [16x16], got a tile of [32x16], which does not broadcast to it
}


// A descriptor made by a struct's default member initializer, from the
// members before it (the parsing front end's `this` is the struct being made).
struct Rows {
  Ptr<f32> p;
  i32 n;
  int bias = 2;
  TensorDescriptor<f32, 1> d = make_tensor_descriptor(p, {n}, {1}, {16});
};

template <int B>
TT_KERNEL void member(Ptr<f32> x, i32 n) {
  Rows r{x, n};
  r.d.store({0}, r.d.load({0}) + float(r.bias));
}

// A host unsigned size no i32 holds is an i64, as a u32 parameter would be.
template <int B>
TT_KERNEL void big_count(Ptr<f32> x) {
  auto d = make_tensor_descriptor(x, {3000000000u}, {1}, {B});
  d.store({program_id(0) * B}, d.load({program_id(0) * B}) * 2.0f);
}

// WIDE: %[[N:[0-9]+]] = constant {value = 3000000000} : i64
// WIDE: descriptor_load {block = [16]} %x, %[[N]], %{{[0-9]+}} : tile<16xf32>

template <int B>
TT_KERNEL void masks(Ptr<i1> m, i32 n) {
  auto d = make_tensor_descriptor(m, {n}, {1}, {B});
  // BOOL: tensor_descriptors.cpp:[[@LINE-1]]:{{[0-9]+}}: error: make_tensor_descriptor's elements are i1: a descriptor's are a byte or wider (load masks through a pointer)
  d.store({0}, d.load({0}));
}
