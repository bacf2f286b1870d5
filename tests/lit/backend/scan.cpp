// cumsum and associative_scan run in registers, lanes and warps (shfl.sync.up
// over the lanes, the warps' totals through shared memory) when the layout
// tiles the axis exactly, as Triton's scans do; both front ends, against the
// interpreter on ragged rows. A non-commutative combine (keep the later
// nonzero value) catches a prefix applied on the wrong side.
// RUN: twintile compile --frontend=parse %s --kernel 'running<512>' --emit ptx | FileCheck %s --check-prefix=PTX
// RUN: twintile compile --frontend=trace %S/../../../experiments/kernels/row_cumsum.cpp --kernel 'row_cumsum<f32,1024>' --emit ptx | FileCheck %s --check-prefix=PTX
// RUN: twintile run --frontend=parse %s --kernel 'running<512>' --arg x=1600 --arg sums=1600 --arg last=1600 --arg n=400 --grid 4 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'running<512>' --arg x=1600 --arg sums=1600 --arg last=1600 --arg n=400 --grid 4 --num-warps 8 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'running<64>' --arg x=1600 --arg sums=1600 --arg last=1600 --arg n=50 --grid 4 | FileCheck %s --check-prefix=RAN
// One warp (a run's tile total from the last lane), and four elements per
// thread (aligned rows of n divisible by 16: runs scanned in registers first).
// RUN: twintile run --frontend=parse %s --kernel 'running<512>' --arg x=1600 --arg sums=1600 --arg last=1600 --arg n=400 --grid 4 --num-warps 1 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'running<512>' --arg x=1600 --arg sums=1600 --arg last=1600 --arg n=400 --grid 4 --assume-aligned '*' --assume-divisible n | FileCheck %s --check-prefix=RAN
// RUN: twintile compile --frontend=parse %s --kernel 'running<512>' --assume-aligned '*' --assume-divisible n --emit layouts | FileCheck %s --check-prefix=RUNS
#include <twintile.h>
using namespace tt;

// Per row of n: the running sum, and the last nonzero value so far.
template <int B>
TT_KERNEL void running(Ptr<i32> x, Ptr<i32> sums, Ptr<i32> last, i32 n) {
  auto cols = arange(0, B);
  auto at = program_id(0) * n + cols;
  auto v = load(x + at, cols < n, 0) % 3;
  store(sums + at, cumsum(v, 0), cols < n);
  store(last + at, associative_scan(v, 0, [](auto a, auto b) { return where(b != 0, b, a); }), cols < n);
}

// PTX: shfl.sync.up.b32
// PTX-NOT: .local
// PTX: ret;
// RAN: ok: running on emu, {{.*}}: matches the interpreter
// RUNS: = cumsum {{.*}}spt=[4]
// RUNS: } loc({{.*}}#blocked<spt=[4]
