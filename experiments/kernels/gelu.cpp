// gelu: the tanh approximation, a fused elementwise chain computed in f32:
// y = 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
// Meant for: T in {f16, f32}, BLOCK in {256, 1024}; grid cdiv(n, BLOCK).
#include <twintile.h>
using namespace tt;

template <typename T, int BLOCK>
TT_KERNEL void gelu(Ptr<T> x, Ptr<T> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto v = cast<f32>(load(x + offs, mask, 0.0f));
  auto inner = 0.7978845608f * (v + 0.044715f * v * v * v);
  store(y + offs, cast<T>(0.5f * v * (1.0f + tanh(inner))), mask);
}
