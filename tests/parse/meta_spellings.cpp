// Kernels whose meta-parameters both front ends must spell alike: a class-type
// argument (plain and namespaced), a float non-type parameter, and integer
// arithmetic in the specialization's text (tests/parse/EquivalenceTest.cpp).
#include <twintile.h>
using namespace tt;

struct Silu {};
namespace act {
struct Gelu {};
} // namespace act

template <typename Act, int B>
TT_KERNEL void activated(Ptr<f32> x, i32 n) {
  auto o = arange(0, B);
  store(x + o, load(x + o, o < n, 0.0f) * 2.0f, o < n);
}

template <float S, int B>
TT_KERNEL void scaled(Ptr<f32> x, i32 n) {
  auto o = arange(0, B);
  store(x + o, load(x + o, o < n, 0.0f) * S, o < n);
}
