// A kernel whose template parameters end in a pack: both front ends record
// the pack as one meta-parameter - the list of its integers, or its
// elements' names - so that they agree (twintile diff), empty packs
// included. An integer beyond 64 bits is recorded as its digits, not cut.
// RUN: twintile compile --frontend=parse %s --kernel 'scaled<64, 1, 2, 4>' --emit tile --no-locs | FileCheck %s --check-prefix=INTS
// RUN: twintile compile --frontend=trace %s --kernel 'scaled<64, 1, 2, 4>' --emit tile --no-locs --no-cache | FileCheck %s --check-prefix=INTS
// RUN: twintile diff %s --kernel 'scaled<64, 1, 2, 4>' | FileCheck %s --check-prefix=EQUAL
// RUN: twintile compile --frontend=parse %s --kernel 'scaled<32>' --emit tile --no-locs | FileCheck %s --check-prefix=EMPTY
// RUN: twintile compile --frontend=trace %s --kernel 'scaled<32>' --emit tile --no-locs --no-cache | FileCheck %s --check-prefix=EMPTY
// RUN: twintile compile --frontend=parse %s --kernel 'counted<64, f32, f16>' --emit tile --no-locs | FileCheck %s --check-prefix=TYPES
// RUN: twintile compile --frontend=trace %s --kernel 'counted<64, f32, f16>' --emit tile --no-locs --no-cache | FileCheck %s --check-prefix=TYPES
// RUN: twintile diff %s --kernel 'counted<64, f32, f16>' | FileCheck %s --check-prefix=EQUAL
// RUN: twintile compile --frontend=parse %s --kernel 'counted<32>' --emit tile --no-locs | FileCheck %s --check-prefix=NOTYPES
// RUN: twintile compile --frontend=trace %s --kernel 'counted<32>' --emit tile --no-locs --no-cache | FileCheck %s --check-prefix=NOTYPES
// RUN: twintile compile --frontend=parse %s --kernel 'seeded<18446744073709551615ull>' --emit tile --no-locs | FileCheck %s --check-prefix=WIDE
// RUN: twintile compile --frontend=trace %s --kernel 'seeded<18446744073709551615ull>' --emit tile --no-locs --no-cache | FileCheck %s --check-prefix=WIDE
#include <twintile.h>
using namespace tt;

template <int B, int... Scales>
TT_KERNEL void scaled(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  store(y + offs, load(x + offs) * float((1 * ... * Scales)));
}

template <int B, class... Ts>
TT_KERNEL void counted(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  store(y + offs, load(x + offs) * float(sizeof...(Ts)));
}

template <unsigned long long Seed>
TT_KERNEL void seeded(Ptr<f32> x) {
  auto offs = arange(0, 64);
  store(x + offs, load(x + offs) * float(Seed & 7));
}

// INTS: func @scaled({{.*}} meta {B = 64, Scales = [1, 2, 4]}
// EMPTY: func @scaled({{.*}} meta {B = 32, Scales = []}
// TYPES: func @counted({{.*}} meta {B = 64, Ts = "f32, f16"}
// EQUAL: equal: the parse and trace IR of {{.*}} are structurally identical
// NOTYPES: func @counted({{.*}} meta {B = 32, Ts = ""}
// WIDE: func @seeded({{.*}} meta {Seed = "18446744073709551615"}
