// swiglu: out = silu(a) * b = a * sigmoid(a) * b, elementwise in f32.
// Meant for: T in {f16, bf16, f32}, BLOCK in {256, 1024}; grid cdiv(n, BLOCK).
#include <twintile.h>
using namespace tt;

template <typename T, int BLOCK>
TT_KERNEL void swiglu(Ptr<T> a, Ptr<T> b, Ptr<T> out, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto x = cast<f32>(load(a + offs, mask, 0.0f));
  auto g = cast<f32>(load(b + offs, mask, 0.0f));
  store(out + offs, cast<T>(x * sigmoid(x) * g), mask);
}
