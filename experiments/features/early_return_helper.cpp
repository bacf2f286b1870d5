// Helpers that return under device conditions: a tile from straight code,
// and a scalar from inside a device loop (the value each return gave reaches
// the caller; the code after a taken return does not run).
#include <twintile.h>
using namespace tt;

template <class T>
T scaled(T v) {
  if (sum(v, 0) > 0.0f) return v * 2.0f;
  return v - 1.0f;
}

inline i32 firstSquareAbove(i32 n, i32 limit) {
  for (i32 k = 0; k < n; k += 1)  // trace-error
    if (k * k > limit) return k;  // hybrid-error
  return n;
}

template <int BLOCK>
TT_KERNEL void early_return_helper(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  i32 k = firstSquareAbove(n, 10);  // 4, when n > 4
  store(y + offs, scaled(v) + cast<f32>(k), offs < n);
}
