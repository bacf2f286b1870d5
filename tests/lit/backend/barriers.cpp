// The barrier before a shared-memory window's first write (earlier readers
// of the buffer are done) is left out where no earlier reader can exist:
// the program's first window, outside any loop. softmax's max is its first
// window: its partials are stored with no barrier before them; its sum's
// window comes after max's readers, so a barrier precedes its store.
// RUN: twintile compile --frontend=parse %S/../../../experiments/kernels/softmax.cpp --kernel 'softmax<f32,1024>' --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=TWO
// A reduction in a loop keeps it: the next iteration's partials would
// overwrite those a slower warp has yet to read.
// RUN: twintile compile --frontend=parse %s --kernel 'row_shares<1024>' --emit ptx | FileCheck %s --check-prefix=LOOP
// RUN: twintile compile --frontend=parse %s --kernel 'row_shares<1024>' --emit barriers | FileCheck %s --check-prefix=PLAN-LOOP
// RUN: twintile compile --frontend=trace %S/../../../experiments/kernels/softmax.cpp --kernel 'softmax<f32,1024>' --emit barriers | FileCheck %s --check-prefix=PLAN-TWO
// RUN: twintile run --frontend=trace %s --kernel 'row_shares<1024>' --arg x=5120 --arg out=1024 --arg rows=5 --grid 1 | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void row_shares(Ptr<f32> x, Ptr<f32> out, i32 rows) {
  auto cols = arange(0, B);
  auto acc = for_range(0, rows, 1, zeros<f32>({B}), [&](i32 r, Tile<f32> acc) {
    auto v = load(x + r * B + cols);
    return acc + v / sum(v, 0);
  });
  store(out + cols, acc);
}

// TWO-NOT: bar.sync
// TWO: st.shared.f32
// TWO-NEXT: bar.sync 0;
// TWO-NOT: bar.sync
// TWO: ld.shared
// TWO-NOT: st.shared
// TWO: bar.sync 0;
// TWO-NEXT: st.shared.f32
// TWO-NEXT: bar.sync 0;
// TWO-NEXT: ld.shared
// TWO-NOT: bar.sync
// TWO: ret;

// LOOP: $L__BB0_[[BODY:[0-9]+]]:
// LOOP-NOT: st.shared
// LOOP: bar.sync 0;
// LOOP-NEXT: st.shared.f32
// LOOP-NEXT: bar.sync 0;
// LOOP: @%p{{[0-9]+}} bra $L__BB0_[[BODY]];

// CHECK: ok: row_shares on emu, {{.*}}: matches the interpreter
// PLAN-LOOP: // barriers: 2, 1 of them decided
// PLAN-LOOP-NEXT: // decided  'sum' at {{.*}}: before its window's first write: in a loop, an earlier iteration may still read it
// PLAN-LOOP-NEXT: // inherent 'sum' at {{.*}}: its window written, before it is read
// PLAN-TWO: // barriers: 3, 1 of them decided
// PLAN-TWO-NEXT: // inherent 'max' at {{.*}}: its window written, before it is read
// PLAN-TWO-NEXT: // decided  'sum' at {{.*}}: before its window's first write: an earlier buffer's readers may still read it
// PLAN-TWO-NEXT: // inherent 'sum' at {{.*}}: its window written, before it is read
