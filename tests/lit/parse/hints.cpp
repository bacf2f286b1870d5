// multiple_of and max_contiguous, from both front ends: promises the axis
// analysis takes as given, so that accesses the analysis could not prove
// aligned or contiguous become 16-byte vector accesses (Triton's pattern for a
// wrapped offset, `% n`, included); without them, one access per element.
// RUN: twintile compile --frontend=parse %s --kernel 'copy<1024, true>' --emit ptx --assume-aligned '*' | FileCheck %s --check-prefix=VEC
// RUN: twintile compile --frontend=trace %s --kernel 'copy<1024, true>' --emit ptx --assume-aligned '*' | FileCheck %s --check-prefix=VEC
// RUN: twintile compile --frontend=parse %s --kernel 'copy<1024, false>' --emit ptx --assume-aligned '*' | FileCheck %s --check-prefix=SCALAR
// RUN: twintile compile --frontend=trace %s --kernel 'wrapped<1024>' --no-locs | FileCheck %s --check-prefix=IR
// RUN: twintile compile --frontend=parse %s --kernel 'wrapped<1024>' --emit ptx --assume-aligned '*' | FileCheck %s --check-prefix=VEC
// RUN: twintile run --frontend=parse %s --kernel 'wrapped<1024>' --arg x=1024 --arg y=1024 --arg n=1024 --grid 1 | FileCheck %s --check-prefix=RAN
// RUN: not twintile compile --frontend=parse %s --kernel 'square<16>' 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not twintile compile --frontend=trace %s --kernel 'square<16>' 2>&1 | FileCheck %s --check-prefix=RANK
#include <twintile.h>
using namespace tt;

template <int B, bool HINT>
TT_KERNEL void copy(Ptr<f32> x, Ptr<f32> y, i32 start) {
  i32 s = start;
  if constexpr (HINT) s = multiple_of(start, 4);
  auto offs = s + arange(0, B);
  store(y + offs, load(x + offs));
}

template <int B>
TT_KERNEL void wrapped(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = max_contiguous(multiple_of((program_id(0) * B + arange(0, B)) % n, B), B);
  store(y + offs, load(x + offs) * 2.0f);
}

// One value for a 2-D tile would promise the strided axis too: refused.
template <int B>
TT_KERNEL void square(Ptr<f32> x) {
  auto offs = expand_dims(arange(0, B), 1) * B + expand_dims(arange(0, B), 0);
  store(x + max_contiguous(offs, B), 1.0f);
}

// VEC: ld.global.v4.b32
// VEC: st.global.v4.b32
// SCALAR-NOT: .v4.
// SCALAR: ld.global.f32
// SCALAR-NOT: .v4.
// IR: %[[M:[0-9]+]] = multiple_of {values = [1024]} %{{[0-9]+}} : tile<1024xi32>
// IR-NEXT: max_contiguous {values = [1024]} %[[M]] : tile<1024xi32>
// RAN: ok: wrapped on emu, grid (1, 1, 1), {{.*}}: matches the interpreter
// RANK: hints.cpp:34:13: error: max_contiguous needs one value per dimension of tile<16x16xi32> ({v0, v1, ...}), got 1
