// Neighbouring regions guarded by the same mask share one branch
// (backend/MergeGuards.h): vector_add<128>, one f32 per thread, loads x,
// loads y and stores their sum under one test of the mask, not three.
// RUN: twintile compile --frontend=parse %S/../../../experiments/kernels/vector_add.cpp --kernel 'vector_add<128>' --emit ptx | FileCheck %s --check-prefix=VADD
// Values that cross the merged regions: y's `other` is x's value (a phi of
// the first region used by the second's), and both live past the last
// region, where a thread the mask skips sees 1.5 for each. n = 300 leaves
// the last program partly masked; against the interpreter, both front ends.
// RUN: twintile run --frontend=parse %s --kernel 'guards<128>' --arg x=384 --arg y=384 --arg out=384 --arg past=384 --arg n=300 --grid 3 | FileCheck %s
// RUN: twintile run --frontend=trace %s --kernel 'guards<128>' --arg x=384 --arg y=384 --arg out=384 --arg past=384 --arg n=300 --grid 3 --num-warps 2 | FileCheck %s
// RUN: twintile run --frontend=parse %s --kernel 'guards<1024>' --arg x=3072 --arg y=3072 --arg out=3072 --arg past=3072 --arg n=2500 --grid 3 | FileCheck %s
// RUN: twintile compile --frontend=parse %s --kernel 'guards<128>' --emit ptx | FileCheck %s --check-prefix=PTX
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void guards(Ptr<f32> x, Ptr<f32> y, Ptr<f32> out, Ptr<f32> past, i32 n) {
  auto offs = program_id(0) * B + arange(0, B);
  auto mask = offs < n;
  auto a = load(x + offs, mask, 1.5f);
  auto b = load(y + offs, mask, a);
  store(out + offs, a + b, mask);
  store(past + offs, a * 2.0f - b);
}

// CHECK: buffer out: {{384|3072}} f32 elements, {{300|2500}} written
// CHECK: buffer past: {{384|3072}} f32 elements, {{384|3072}} written
// CHECK: ok: guards on emu, {{.*}}: matches the interpreter

// VADD: setp.ge.s32 %p[[P:[0-9]+]],
// VADD-NEXT: @%p[[P]] bra
// VADD-NOT: bra
// VADD: ld.global.f32
// VADD-NOT: bra
// VADD: ld.global.f32
// VADD-NOT: bra
// VADD: st.global.f32
// VADD-NOT: bra
// VADD: ret;

// PTX: @%p{{[0-9]+}} bra
// PTX-NOT: bra
// PTX: st.global.f32
// PTX-NOT: bra
// PTX: st.global.f32
// PTX: ret;
