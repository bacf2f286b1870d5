// A `reduce` region is commutative as a value, not necessarily to the bit:
// a select-based max of +0 and -0 gives whichever comes second. After the
// butterfly the lanes of a warp may hold different zeros; every copy of
// the result is the first lane's (backend/LowerReduce.cpp), with one warp
// along the axis as with several. `spread` is NaN (inf - inf) when the 128
// copies of 1/r agree and +inf when some are +inf and some -inf.
// RUN: twintile run --frontend=parse %s --kernel 'zero_max<f32>' --num-warps 1 --grid 8 | FileCheck %s
// RUN: twintile run --frontend=trace %s --kernel 'zero_max<f32>' --num-warps 4 --grid 8 | FileCheck %s
// RUN: twintile run --frontend=parse %s --kernel 'zero_max<f16>' --num-warps 1 --grid 8 | FileCheck %s
// A region that fuses under --math=fast (the partner's square added to this
// lane's unrounded one): copies agree too.
// RUN: twintile run --frontend=parse %s --kernel 'hypot_all<f32>' --math=fast --num-warps 1 --grid 64 | FileCheck %s --check-prefix=HYP
#include <twintile.h>
using namespace tt;

template <class T>
TT_KERNEL void zero_max(Ptr<T> x, Ptr<T> spread) {
  auto v = where(load(x + program_id(0) * 128 + arange(0, 128)) > T(0.0f), T(0.0f), T(-0.0f));  // random signs
  auto r = reduce(v, 0, [](T a, T b) { return where(a > b, a, b); });
  auto inv = T(1.0f) / broadcast_to(expand_dims(r, 0), {128});  // +inf or -inf in every copy
  store(spread + program_id(0), max(inv, 0) - min(inv, 0));
}

template <class T>
TT_KERNEL void hypot_all(Ptr<T> x, Ptr<T> spread) {
  auto v = load(x + program_id(0) * 128 + arange(0, 128));
  auto r = broadcast_to(expand_dims(reduce(v, 0, [](T a, T b) { return sqrt(a * a + b * b); }), 0), {128});
  store(spread + program_id(0), cast<T>(max(r, 0) > min(r, 0)));  // 0 when every copy is the same, else 1
}

// CHECK: ok: zero_max on emu, {{.*}}: matches the interpreter
// HYP: ok: hypot_all on emu, {{.*}}: matches the interpreter
