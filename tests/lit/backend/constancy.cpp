// Registers that the axis analysis proves equal are computed once: with
// n divisible by 16, `cols < n` is constant over each thread's four
// consecutive columns, so each group of four selects shares one predicate
// (Triton deduplicates by constancy too). Without the promise every column
// gets its own comparison. Both match the interpreter, the second on a
// ragged n.
// RUN: twintile compile --frontend=parse %s --kernel 'centered<512>' --emit ptx --assume-aligned '*' --assume-divisible n | FileCheck %s --check-prefix=SHARED
// RUN: twintile compile --frontend=trace %s --kernel 'centered<512>' --emit ptx --assume-aligned '*' | FileCheck %s --check-prefix=OWN
// RUN: twintile run --frontend=parse %s --kernel 'centered<512>' --assume-aligned '*' --assume-divisible n --arg x=2048 --arg y=2048 --arg n=448 --grid 4 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'centered<512>' --assume-aligned '*' --arg x=2048 --arg y=2048 --arg n=437 --grid 4 | FileCheck %s --check-prefix=RAN
// A remainder of values that cross zero truncates toward zero: its runs do
// not count up, and a comparison of it is not constant over four columns.
// RUN: twintile run --frontend=parse %s --kernel 'wrapped<512>' --assume-aligned '*' --grid 1 | FileCheck %s --check-prefix=RAN-WRAPPED
#include <twintile.h>
using namespace tt;

// Each row's first n values minus their mean, zero beyond.
template <int B>
TT_KERNEL void centered(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto cols = arange(0, B);
  auto mask = cols < n;
  auto row = program_id(0) * B;
  auto v = load(x + row + cols, mask, 0.0f);
  auto mean = sum(v, 0) / cast<f32>(n);
  store(y + row + cols, where(mask, v - mean, 0.0f));
}

// Python's modulo of i - 64 by 32, from C's remainder.
template <int B>
TT_KERNEL void wrapped(Ptr<i32> y) {
  auto cols = arange(0, B);
  auto r = (cols - 64) % 32;
  store(y + cols, where(r < 0, r + 32, r));
}

// SHARED: selp.f32 %f{{[0-9]+}}, %f{{[0-9]+}}, 0f00000000, [[P:%p[0-9]+]];
// SHARED-NEXT: selp.f32 %f{{[0-9]+}}, %f{{[0-9]+}}, 0f00000000, [[P]];
// SHARED-NEXT: selp.f32 %f{{[0-9]+}}, %f{{[0-9]+}}, 0f00000000, [[P]];
// SHARED-NEXT: selp.f32 %f{{[0-9]+}}, %f{{[0-9]+}}, 0f00000000, [[P]];
// OWN: selp.f32 %f{{[0-9]+}}, %f{{[0-9]+}}, 0f00000000, [[P:%p[0-9]+]];
// OWN-NOT: selp.f32 %f{{[0-9]+}}, %f{{[0-9]+}}, 0f00000000, [[P]];
// OWN: ret;
// RAN: ok: centered on emu, {{.*}}: matches the interpreter
// RAN-WRAPPED: ok: wrapped on emu, {{.*}}: matches the interpreter
