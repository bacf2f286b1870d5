// reduce and associative_scan with the user's combine function (Triton's
// tl.reduce and tl.associative_scan with a combine_fn): each element's
// running maximum in its program's block, less the block's maximum.
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void combine_function(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, -1e30f);
  auto larger = [](f32 a, f32 b) { return maximum(a, b); };
  store(y + offs, associative_scan(v, 0, larger) - reduce(v, 0, larger), offs < n);
}
