// On masks, '&&', '||' and '!' are Triton's `and`, `or` and `not`: element
// by element (and, or, not in the IR), both operands evaluated, a scalar mask
// broadcast against a tile, a host bool a constant; the same IR from both
// front ends, and the emulator agrees with the interpreter.
// RUN: twintile compile --frontend=parse %s --kernel 'logical<64,false>' --emit tile | FileCheck %s
// RUN: twintile compile --frontend=trace %s --kernel 'logical<64,false>' --emit tile | FileCheck %s
// RUN: twintile diff %s --kernel 'logical<64,true>' | FileCheck %s --check-prefix=SAME
// RUN: twintile run --frontend=parse %s --kernel 'logical<64,false>' --grid 2 --arg x=64 --arg y=64 --arg n=50 --arg m=40 | FileCheck %s --check-prefix=EMU
// RUN: twintile run --frontend=trace %s --kernel 'logical<64,true>' --grid 2 --arg x=64 --arg y=64 --arg n=50 --arg m=40 | FileCheck %s --check-prefix=EMU
#include <twintile.h>
using namespace tt;

template <int B, bool HAS_Y>
TT_KERNEL void logical(Ptr<f32> x, Ptr<f32> y, i32 n, i32 m) {
  auto offs = arange(0, B);
  auto in = offs < n && offs >= 0;            // `and` of two masks
  auto either = offs < n || offs > m;         // `or`
  auto outside = !in;                         // `not`
  auto rowok = program_id(0) < 1 && in;       // a scalar mask and a tile
  auto v = load(x + offs, in, 0.0f);
  store(x + offs, v + 1.0f, either && !outside && rowok);
  store(y + offs, v, in && HAS_Y);            // a host bool: a constant
}

// CHECK: [[LT:%[0-9]+]] = lt
// CHECK: [[GE:%[0-9]+]] = ge
// CHECK: [[IN:%[0-9]+]] = and [[LT]], [[GE]] : tile<64xi1>
// CHECK: [[EITHER:%[0-9]+]] = or {{%[0-9]+}}, {{%[0-9]+}} : tile<64xi1>
// CHECK: [[OUT:%[0-9]+]] = not [[IN]] : tile<64xi1>
// CHECK: [[PID:%[0-9]+]] = lt {{%[0-9]+}}, {{%[0-9]+}} : i1
// CHECK: [[ROW:%[0-9]+]] = splat [[PID]] : tile<64xi1>
// CHECK: [[OK:%[0-9]+]] = and [[ROW]], [[IN]] : tile<64xi1>
// CHECK: [[BACK:%[0-9]+]] = not [[OUT]]
// CHECK: [[A:%[0-9]+]] = and [[EITHER]], [[BACK]]
// CHECK: [[MASK:%[0-9]+]] = and [[A]], [[OK]]
// CHECK: store {{%[0-9]+}}, {{%[0-9]+}}, [[MASK]]
// CHECK: [[NO:%[0-9]+]] = constant {value = 0} : i1
// CHECK: and [[IN]], {{%[0-9]+}} : tile<64xi1>
// SAME: equal
// EMU: ok: logical on emu
