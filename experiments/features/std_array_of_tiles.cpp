// A std::array of tiles, filled and summed in host loops.
#include <array>
#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void std_array_of_tiles(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto v = load(x + offs, offs < n, 0.0f);
  std::array<Tile<f32>, 3> parts;  // parse-error
  for (int i = 0; i < 3; ++i) parts[i] = v * float(i + 1);
  store(y + offs, parts[0] + parts[1] + parts[2], offs < n);
}
