// RUN: twintile run --frontend=parse %s --kernel 'neg<64>' --assume-aligned '*' --assume-divisible '*' --grid 3,2 --arg a=40000 --arg b=60000 --arg c=40000 --arg M=160 --arg N=0 --arg K=208 --arg S=-208 --arg L=208 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'neg<64>' --assume-aligned '*' --assume-divisible '*' --grid 3,2 --arg a=40000 --arg b=60000 --arg c=40000 --arg M=160 --arg N=64 --arg K=208 --arg S=-208 --arg L=0 | FileCheck %s --check-prefix=RAN
// RUN: not twintile run --frontend=parse %s --kernel 'neg<64>' --assume-aligned '*' --assume-divisible '*' --grid 3,2 --arg a=40000 --arg b=60000 --arg c=40000 --arg M=160 --arg N=64 --arg K=208 --arg S=-208 --arg L=208 2>&1 | FileCheck %s --check-prefix=TRAP
// RUN: twintile run --frontend=parse %s --kernel 'neg<64>' --target sm_80 --assume-aligned '*' --assume-divisible '*' --grid 3,2 --arg a=40000 --arg b=60000 --arg c=40000 --arg M=160 --arg N=64 --arg K=208 --arg S=-208 --arg L=208 | FileCheck %s --check-prefix=RAN
// A descriptor whose row stride is negative (b's, read bottom-up from an
// offset base): the interpreter reads it, sm_80's masked loads too; on sm_90a
// its loads are copied by TMA, whose tensor maps hold no negative stride, so
// the kernel traps where a loop would read through such a map, and runs where
// none does (no iteration, or an empty tensor: every element reads 0).
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void neg(Ptr<f16> a, Ptr<f16> b, Ptr<f16> c, i32 M, i32 N, i32 K, i32 S, i32 L) {
  auto da = make_tensor_descriptor(a, {M, K}, {K, 1}, {B, B});
  auto db = make_tensor_descriptor(b + 30000, {N, K}, {S, 1}, {B, B});
  auto dc = make_tensor_descriptor(c, {M, N}, {N, 1}, {B, B});
  i32 rm = program_id(0) * B, rn = program_id(1) * B;
  auto acc = for_range(0, L, B, zeros<f32>({B, B}), [&](i32 k, Tile<f32> acc) {
    return dot(da.load({rm, k}), trans(db.load({rn, k})), acc);
  });
  dc.store({rm, rn}, cast<f16>(acc));
}

// RAN: ok: neg on emu, {{.*}}: matches the interpreter
// TRAP: the kernel failed on emu: trap instruction executed
