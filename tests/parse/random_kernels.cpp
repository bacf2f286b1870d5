// Kernels of the random-number functions (tests/parse/RandomTest.cpp).
#include <twintile.h>
using namespace tt;

// Philox 4x32-10 on a counter and key per lane: the known-answer vectors.
template <int B>
TT_KERNEL void philox_kat(Ptr<i32> c0, Ptr<i32> c1, Ptr<i32> c2, Ptr<i32> c3, Ptr<i32> k0, Ptr<i32> k1) {
  auto offs = arange(0, B);
  Philox4<Tile<i32>> r = philox(load(c0 + offs), load(c1 + offs), load(c2 + offs), load(c3 + offs),
                                load(k0 + offs), load(k1 + offs));
  store(c0 + offs, r.c0);
  store(c1 + offs, r.c1);
  store(c2 + offs, r.c2);
  store(c3 + offs, r.c3);
}

// The three streams at offsets program_id * B + 0..B-1.
template <int B>
TT_KERNEL void streams(Ptr<i32> ints, Ptr<f32> u, Ptr<f32> z, i32 seed) {
  auto offs = program_id(0) * B + arange(0, B);
  store(ints + offs, randint(seed, offs));
  store(u + offs, rand(seed, offs));
  store(z + offs, randn(seed, offs));
}
