// runtime_block_size as the parser's message says: the global the kernel
// reads made a constant.
#include <twintile.h>
using namespace tt;

const int chosen_block = 64;

template <int UNUSED>
TT_KERNEL void runtime_block_size(Ptr<f32> x, Ptr<f32> y, i32 n) {
  int block = chosen_block;
  auto offs = program_id(0) * block + arange(0, block);
  store(y + offs, load(x + offs, offs < n, 0.0f) + 1.0f, offs < n);
}
