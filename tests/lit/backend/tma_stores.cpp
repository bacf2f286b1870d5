// Descriptor stores on sm_90a: a tile is written by TMA (its threads stage it
// in swizzled panels, thread 0 copies each panel out as a box, cp.async.bulk
// .tensor ... bulk_group) wherever the promises prove the map's rules, for
// any element a map holds and rows of 32 bytes or more; elements outside the
// tensor are not written. Else, and on sm_80, a masked store, with a note on
// sm_90a saying why. The emulator runs each against the interpreter
// (tests/backend/DifferentialTest.cpp runs more: ragged, shifted, empty).
// RUN: twintile compile --frontend=parse %s --kernel 'shifted_copy<f16, 64, 64>' --assume-aligned '*' --assume-divisible N --emit ptx | FileCheck %s --check-prefix=WIDE
// RUN: twintile compile --frontend=trace %s --kernel 'shifted_copy<f32, 16, 8>' --assume-aligned '*' --assume-divisible N --emit ptx | FileCheck %s --check-prefix=NARROW
// RUN: twintile compile --frontend=parse %s --kernel 'shifted_copy<f32, 32, 64>' --assume-aligned '*' --assume-divisible N --emit shared | FileCheck %s --check-prefix=SHARED
// RUN: twintile compile --frontend=trace %s --kernel 'shifted_copy<f16, 16, 8>' --assume-aligned '*' --assume-divisible N --emit ptx 2>&1 | FileCheck %s --check-prefix=TOO-NARROW
// RUN: twintile compile --frontend=parse %s --kernel 'shifted_copy<f16, 64, 64>' --assume-aligned '*' --emit ptx 2>&1 | FileCheck %s --check-prefix=UNPROVEN
// RUN: twintile compile --frontend=parse %s --kernel 'shifted_copy<f16, 4, 128>' --assume-aligned '*' --assume-divisible N --emit ptx 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: twintile run --frontend=trace %s --kernel 'shifted_copy<f16, 4, 128>' --assume-aligned '*' --assume-divisible N --grid 3,2 --arg x=8000 --arg y=8000 --arg M=10 --arg N=160 --arg r0=1 --arg c0=-3 | FileCheck %s --check-prefix=RAN
// RUN: twintile compile --frontend=parse %s --kernel 'shifted_copy<f16, 64, 64>' --target sm_80 --assume-aligned '*' --assume-divisible N --emit ptx | FileCheck %s --check-prefix=AMPERE
// RUN: twintile run --frontend=parse %s --kernel 'shifted_copy<bf16, 32, 32>' --assume-aligned '*' --assume-divisible N --grid 4,3 --arg x=8000 --arg y=8000 --arg M=90 --arg N=80 --arg r0=-7 --arg c0=5 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'shifted_copy<i8, 16, 256>' --assume-aligned '*' --assume-divisible N --grid 3,2 --arg x=8000 --arg y=8000 --arg M=40 --arg N=160 --arg r0=3 --arg c0=-100 | FileCheck %s --check-prefix=RAN
#include <twintile.h>
using namespace tt;

// Each program copies the BM x BN block of x at its own block moved by (r0,
// c0) to the same place in y, plus one: blocks hang over every edge.
template <class T, int BM, int BN>
TT_KERNEL void shifted_copy(Ptr<T> x, Ptr<T> y, i32 M, i32 N, i32 r0, i32 c0) {
  auto dx = make_tensor_descriptor(x, {M, N}, {N, 1}, {BM, BN});
  auto dy = make_tensor_descriptor(y, {M, N}, {N, 1}, {BM, BN});
  i32 rm = program_id(0) * BM + r0, rn = program_id(1) * BN + c0;
  dy.store({rm, rn}, dx.load({rm, rn}) + full<T>({BM, BN}, 1));
}

// 128-byte rows: one panel, the 128-byte swizzle, one box.
// WIDE: .version 8.3
// WIDE: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%r{{[0-9]+}}], 0, 64;
// WIDE: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%r{{[0-9]+}}], 1, 64;
// WIDE: tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%r{{[0-9]+}}], 6;
// WIDE: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%r{{[0-9]+}}], 3;
// WIDE: fence.proxy.async;
// WIDE: bar.sync
// WIDE: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// WIDE-NOT: cp.async.bulk.tensor
// WIDE: cp.async.bulk.commit_group;
// WIDE-NEXT: cp.async.bulk.wait_group 0;
// WIDE: bar.sync
// WIDE-NOT: st.global

// 32-byte rows: the 32-byte swizzle, f32's element type.
// NARROW: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%r{{[0-9]+}}], 0, 8;
// NARROW: tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%r{{[0-9]+}}], 7;
// NARROW: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%r{{[0-9]+}}], 1;
// NARROW: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group

// 256-byte rows: two panels of 128 bytes, and the map's staging after them.
// SHARED: 0 8320 window 'descriptor_store' {{.*}}: the tile staged for its TMA store, and its map

// TOO-NARROW: note: the descriptor store at {{.*}}tma_stores.cpp{{.*}} is not copied by TMA: its rows are 16 bytes, and a box here is a swizzled panel of 32 or more; it is stored as a masked store is
// TOO-NARROW-NOT: bulk_group
// TOO-NARROW: st.global

// UNPROVEN: note: the descriptor store at {{.*}} is not copied by TMA: its row stride is not known to be a multiple of 16 bytes, as a tensor map's must be (--assume-divisible promises it); it is stored as a masked store is
// UNPROVEN-NOT: bulk_group

// SHORT: note: the descriptor store at {{.*}} is not copied by TMA: it has 4 rows in several panels, each of which must fill 8 rows of the swizzle the hardware applies by address; it is stored as a masked store is
// SHORT-NOT: bulk_group

// AMPERE-NOT: cp.async.bulk
// AMPERE: st.global

// RAN: ok: shifted_copy on emu, {{.*}}: matches the interpreter
