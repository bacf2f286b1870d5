// The shared stage: every shared-memory buffer, planned before lowering, in
// the order lowering takes it, with its offset, size, op and what it holds.
// A ring lives for its loop and windows come after it; a window lives for
// its op, so the next one reuses the offset.
// RUN: twintile compile --frontend=parse %s --kernel 'mm<128, 128, 32>' --assume-aligned '*' --assume-divisible '*' --emit shared | FileCheck %s --check-prefix=MM
// RUN: twintile compile --frontend=trace %s --kernel 'mm<128, 128, 32>' --assume-aligned '*' --assume-divisible '*' --emit shared | FileCheck %s --check-prefix=MM
// RUN: twintile compile --frontend=parse %s --kernel 'rows<32, 64>' --num-warps 8 --emit shared | FileCheck %s --check-prefix=ROWS
// RUN: twintile compile --frontend=trace %s --kernel 'counter<64>' --emit shared | FileCheck %s --check-prefix=COUNTER
// RUN: twintile compile --frontend=parse %s --kernel 'plain<128>' --emit shared | FileCheck %s --check-prefix=PLAIN
// Five stages of b's ring fit in sm_80's 163 KiB, but not with the window
// the dot stages a in after it: the plan is made again with four.
// RUN: twintile compile --frontend=parse %s --kernel 'scaled<128, 256, 64>' --num-stages 5 --target sm_80 --assume-aligned '*' --assume-divisible '*' --emit shared 2>&1 | FileCheck %s --check-prefix=FEWER
// RUN: twintile compile --frontend=parse %s --kernel 'scaled<128, 256, 64>' --num-stages 5 --target sm_80 --assume-aligned '*' --assume-divisible '*' --emit ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=FEWER-MANIFEST < %t.json
// Operands no plan can fit: the user's error, at the dot.
// RUN: not twintile compile --frontend=parse %s --kernel 'mm<128, 64, 512>' --target sm_80 --assume-aligned '*' --assume-divisible '*' --emit ptx 2>&1 | FileCheck %s --check-prefix=TOO-BIG
// What the plan says is what runs: on the emulator, against the interpreter.
// RUN: twintile run --frontend=parse %s --kernel 'rows<32, 64>' --num-warps 8 --grid 2 --arg x=4096 --arg y=64 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'counter<64>' --grid 3 --arg x=192 --arg count=1 --arg seen=192 | FileCheck %s --check-prefix=RAN
#include <twintile.h>
using namespace tt;

template <int BM, int BN, int BK>
TT_KERNEL void mm(Ptr<f16> a, Ptr<f16> b, Ptr<f32> c, i32 M, i32 N, i32 K) {
  auto rm = program_id(0) * BM + arange(0, BM);
  auto rn = program_id(1) * BN + arange(0, BN);
  auto rk = arange(0, BK);
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    auto ka = rk + k;
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(ka, 0), expand_dims(ka, 0) < K, 0.0f);
    auto tb = load(b + expand_dims(ka, 1) * N + expand_dims(rn, 0), expand_dims(ka, 1) < K, 0.0f);
    return dot(ta, tb, acc);
  });
  store(c + expand_dims(rm, 1) * N + expand_dims(rn, 0), acc, (expand_dims(rm, 1) < M) & (expand_dims(rn, 0) < N));
}

// a is scaled before the dot: the dot stages it itself, in a window after b's ring.
template <int BM, int BN, int BK>
TT_KERNEL void scaled(Ptr<f16> a, Ptr<f16> b, Ptr<f32> c, i32 K) {
  auto rm = arange(0, BM);
  auto rn = arange(0, BN);
  auto rk = arange(0, BK);
  auto acc = for_range(0, K, BK, zeros<f32>({BM, BN}), [&](i32 k, Tile<f32> acc) {
    auto ta = load(a + expand_dims(rm, 1) * K + expand_dims(rk + k, 0));
    auto tb = load(b + expand_dims(rk + k, 1) * BN + expand_dims(rn, 0));
    return dot(ta * ta, tb, acc);
  });
  store(c + expand_dims(rm, 1) * BN + expand_dims(rn, 0), acc);
}

// Row sums and the row maximum's column: partials across warps, twice, at one offset.
template <int R, int C>
TT_KERNEL void rows(Ptr<f32> x, Ptr<i32> y) {
  auto r = arange(0, R);
  auto t = load(x + program_id(0) * R * C + expand_dims(r, 1) * C + expand_dims(arange(0, C), 0));
  store(y + program_id(0) * R + r, cast<i32>(sum(t, 1)) + argmax(t, 1));
}

// A scalar atomic: thread 0 adds, and shares what it read.
template <int B>
TT_KERNEL void counter(Ptr<f32> x, Ptr<i32> count, Ptr<i32> seen) {
  auto ticket = atomic_add(count, 1);
  auto offs = program_id(0) * B + arange(0, B);
  store(seen + offs, load(x + offs) * 0.0f + cast<f32>(ticket) * 0.0f + cast<f32>(offs));
}

template <int B>
TT_KERNEL void plain(Ptr<f32> x) {
  auto i = arange(0, B);
  store(x + i, load(x + i) * 2.0f);
}

// MM: // shared: 65536 bytes, dynamic (over the 49152 a kernel may declare); a block may use 232448 on sm_90a
// MM-NEXT: //   offset    bytes  buffer  of op         at: holding
// MM-NEXT: //        0    65536  ring    'for'         "{{.*}}shared.cpp":[[@LINE-47]]:{{[0-9]+}}: 2 loads x 3 stages (4 buffers: the wgmma stays in flight)
// MM-NEXT: //        0    65536  window  'store'       "{{.*}}shared.cpp":[[@LINE-42]]:{{[0-9]+}}: tile<128x128xf32> of 'for' at {{.*}}: #blocked<spt=[1,2] tpw=[8,4] {{.*}}> -> #blocked<{{.*}}> (chunk 1 of 2)
// MM-NEXT: //        0    65536  window  'store'       {{.*}} (chunk 2 of 2)
// MM-NOT: //

// ROWS: // shared: 512 bytes, static
// ROWS: //        0      256  window  'sum'         {{.*}}: partials of 2 warps
// ROWS-NEXT: //        0      512  window  'argmax'      {{.*}}: partials of 2 warps
// ROWS-NEXT: //        0      128  window  'store'       {{.*}}: tile<32xi32> of 'add' at {{.*}}: #blocked<{{.*}}> -> #blocked<{{.*}}>

// COUNTER: // shared: 16 bytes, static
// COUNTER: //        0        8  window  'atomic_add'  {{.*}}: thread 0's result, shared

// PLAIN: // shared: 0 bytes; a block may use 232448 on sm_90a
// PLAIN-NEXT: // no shared memory

// FEWER: twintile: note: num_stages 5 needs more shared memory than a block may use on sm_80; pipelined with 4
// FEWER: // shared: 147456 bytes, dynamic (over the 49152 a kernel may declare); a block may use 166912 on sm_80
// FEWER: //        0   131072  ring    'for'         {{.*}}: 1 load x 4 stages
// FEWER-NEXT: //   131072    16384  window  'dot'         {{.*}}: a staged for ldmatrix
// FEWER-NEXT: //        0   133120  window  'store'       {{.*}}: tile<128x256xf32> of 'for' at {{.*}}: #blocked<

// FEWER-MANIFEST: "shared_bytes": 147456,
// FEWER-MANIFEST: "dynamic_shared_bytes": 147456,

// TOO-BIG: shared.cpp:[[@LINE-68]]:{{[0-9]+}}: error: 'dot' needs 196608 bytes of shared memory, more than the 166912 a block may use on sm_80; use smaller tiles

// RAN: ok: {{rows|counter}} on emu, {{.*}}: matches the interpreter
