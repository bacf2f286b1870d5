// The atomics, from both front ends, with memory orders and scopes: the IR
// records sem and scope when they are not the defaults (relaxed, gpu), the
// PTX orders them with fences (LLVM 19's NVPTX emits every atomic relaxed),
// and the emulator matches the interpreter. Contended addresses take only the
// commutative operations, so the final memory does not depend on the order
// in which lanes arrive; exchange and compare-and-swap use one address each.
// RUN: twintile compile --frontend=parse %s --kernel 'atomics<64>' --no-locs | FileCheck %s --check-prefix=IR
// RUN: twintile compile --frontend=trace %s --kernel 'atomics<64>' --no-locs | FileCheck %s --check-prefix=IR
// RUN: twintile compile --frontend=parse %s --kernel 'atomics<64>' --emit ptx | FileCheck %s --check-prefix=PTX
// RUN: twintile run --frontend=parse %s --kernel 'atomics<64>' --arg x=128 --arg stats=8 --arg slots=128 --arg f=128 --arg top=1 --grid 2 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'atomics<64>' --arg x=128 --arg stats=8 --arg slots=128 --arg f=128 --arg top=1 --grid 2 | FileCheck %s --check-prefix=RAN
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void atomics(Ptr<i32> x, Ptr<i32> stats, Ptr<i32> slots, Ptr<f32> f, Ptr<f32> top) {
  auto offs = program_id(0) * B + arange(0, B);
  auto v = load(x + offs);
  auto one = arange(0, B) * 0;  // every lane at the same address
  auto all = v == v;
  atomic_max(stats + one, v);
  atomic_min(stats + 1 + one, v, all, Sem::AcqRel, Scope::Cta);
  atomic_or(stats + 2 + one, v, all, Sem::Release);
  atomic_xor(stats + 3 + one, v);
  atomic_and(stats + 4 + one, v, all, Sem::Acquire);
  atomic_add(stats + 5 + one, v, Sem::Relaxed, Scope::Cta);  // an order without a mask
  auto old = atomic_xchg(slots + offs, v + 1);
  atomic_cas(slots + offs, v + 1, old * 2, Sem::AcqRel);  // where the exchange wrote v + 1: the old value doubled
  atomic_max(top + one, load(f + offs));
}

// IR: atomic_max %{{[0-9]+}}, %{{[0-9]+}} : tile<64xi32>
// IR: atomic_min {scope = "cta", sem = "acq_rel"}
// IR: atomic_or {sem = "release"}
// IR: atomic_xor %
// IR: atomic_and {sem = "acquire"}
// IR: atomic_add {scope = "cta"} %
// IR: atomic_xchg %
// IR: atomic_cas {sem = "acq_rel"}
// IR: atomic_max %{{[0-9]+}}, %{{[0-9]+}} : tile<64xf32>
// PTX: atom.global.max.s32
// PTX: fence.acq_rel.cta;
// PTX: atom.global.min.s32
// PTX: fence.acq_rel.cta;
// PTX: fence.acq_rel.gpu;
// PTX: atom.global.or.b32
// PTX: atom.global.xor.b32
// PTX: atom.global.and.b32
// PTX: fence.acq_rel.gpu;
// PTX: atom.global.exch.b32
// PTX: atom.global.cas.b32
// RAN: ok: atomics on emu, grid (2, 1, 1), {{.*}}: matches the interpreter
