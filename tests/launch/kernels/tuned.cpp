// Kernels the autotuner's tests time (tests/launch/AutotuneTest.cpp,
// tests/lit/driver/tune.cpp) on the stand-in CUDA driver, whose events count
// the emulator's instructions: with n = 100, rowsum<128> on one warp runs
// fewer than rowsum<1024> on eight.
#include <twintile.h>
using namespace tt;

// One row's sum per program; BLOCK >= n.
template <int BLOCK>
TT_KERNEL void rowsum(Ptr<f32> x, Ptr<f32> out, i32 n) {
  auto cols = arange(0, BLOCK);
  auto v = load(x + program_id(0) * n + cols, cols < n, 0.0f);
  store(out + program_id(0), sum(v, 0));
}

// out = y[idx]; then idx += n, in place: a launch from the last one's idx
// would read past y, so every launch of a tuning must start from the
// caller's buffers.
template <int BLOCK>
TT_KERNEL void advance(Ptr<i32> idx, Ptr<f32> y, Ptr<f32> out, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto m = offs < n;
  auto at = load(idx + offs, m, 0);
  store(out + offs, load(y + at, m), m);
  store(idx + offs, at + n, m);
}
