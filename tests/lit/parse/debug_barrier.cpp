// debug_barrier: an op in both front ends, bar.sync in the PTX, and the
// emulator waits there as a GPU does (Triton's tl.debug_barrier).
// RUN: twintile compile --frontend=parse %s --kernel 'fence<64>' --no-locs | FileCheck %s --check-prefix=IR
// RUN: twintile compile --frontend=trace %s --kernel 'fence<64>' --no-locs | FileCheck %s --check-prefix=IR
// RUN: twintile compile --frontend=parse %s --kernel 'fence<64>' --emit ptx | FileCheck %s --check-prefix=PTX
// RUN: twintile run --frontend=trace %s --kernel 'fence<64>' --arg x=128 --arg y=128 --grid 2 | FileCheck %s --check-prefix=RAN
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void fence(Ptr<f32> x, Ptr<f32> y) {
  auto offs = program_id(0) * B + arange(0, B);
  store(y + offs, load(x + offs) * 2.0f);
  debug_barrier();
  store(y + offs, load(y + offs) + 1.0f);
}

// IR:      store
// IR-NEXT: debug_barrier
// IR-NEXT: splat %y
// PTX:     st.global
// PTX:     bar.sync 0
// PTX:     ld.global
// RAN: ok: fence on emu, grid (2, 1, 1), {{.*}}: matches the interpreter
