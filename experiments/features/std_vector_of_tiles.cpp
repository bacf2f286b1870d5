// A std::vector of tiles, built with push_back.
#include <vector>
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void std_vector_of_tiles(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  std::vector<Tile<f32>> parts;  // parse-error
  for (int i = 0; i < 2; ++i) parts.push_back(v + float(i));
  store(y + offs, parts[0] * parts[1], offs < n);
}
