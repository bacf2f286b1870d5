// Random numbers take 32-bit offsets (Philox 4x32, Triton's streams for them);
// 64-bit ones are refused where they are given, not turned into numbers
// outside [0, 1).
// RUN: not twintile compile --frontend=parse %s --kernel 'wide<64>' 2>&1 | FileCheck %s
// RUN: not twintile compile --frontend=trace %s --kernel 'wide<64>' 2>&1 | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void wide(Ptr<f32> u, i32 seed) {
  store(u + arange(0, B), rand(seed, cast<i64>(arange(0, B))));
}

// CHECK: random_offsets.cpp:11:27: error: no matching function for call to 'rand'
// CHECK: note: because 'tt::Tile<tt::i64>' does not satisfy 'Offsets32'
