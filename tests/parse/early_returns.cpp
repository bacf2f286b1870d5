// Returns under device conditions, read by the parsing front end
// (tests/parse/ReturnTest.cpp runs each in the interpreter against values
// worked out by hand). Every kernel has the signature (Ptr<f32> x, Ptr<f32> y,
// i32 n) and runs on a grid of cdiv(n, 64).
#include <twintile.h>
using namespace tt;

// A return inside an unrolled host loop: the iterations after it must not run,
// not even their statements before the return. n = 100 returns at k = 3.
template <int BLOCK>
TT_KERNEL void host_loop_return(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto v = load(x + offs, mask, 0.0f);
  for (int k = 0; k < 6; ++k) {
    v = v + 1.0f;
    if (n < 40 * k) return;
    store(y + offs, v, mask);
    if (k == 5) break;
  }
}

// A return in a device while loop nested in a device for loop ends both loops
// and the kernel: i = 0 and 1 run ten inner iterations and add 100, i = 2
// returns after four.
template <int BLOCK>
TT_KERNEL void nested_loop_return(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto v = load(x + offs, mask, 0.0f);
  for (i32 i = 0; i < n; i += 1) {
    i32 j = 0;
    while (j < 10) {
      v = v + 1.0f;
      if (i * 10 + j == 23) {
        store(y + offs, v, mask);
        return;
      }
      j = j + 1;
    }
    v = v + 100.0f;
  }
  store(y + offs, v * 0.0f - 1.0f, mask);
}

// A helper's return ends the helper, not the caller's loop: stores happen for
// k = 0, 1, 2 and the loop runs all six iterations.
inline void storeEarly(Ptr<f32> y, Tile<i32> offs, Tile<i1> mask, Tile<f32> v, i32 k) {
  if (k > 2) return;
  store(y + offs, v, mask);
}

template <int BLOCK>
TT_KERNEL void helper_return_in_loop(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto v = load(x + offs, mask, 0.0f);
  for (i32 k = 0; k < 6; k += 1) {
    v = v + 1.0f;
    storeEarly(y, offs, mask, v, k);
  }
  store(y + offs, load(y + offs, mask, 0.0f) + v, mask);  // (x + 3) + (x + 6)
}

// Several returns of a tile, nested, with the fall-through last.
inline Tile<f32> classify(Tile<f32> v) {
  auto s = sum(v, 0);
  if (s > 10.0f) {
    if (s > 20.0f) return v * 3.0f;
    return v * 2.0f;
  }
  if (s < -10.0f) return v - 1.0f;
  return v;
}

template <int BLOCK>
TT_KERNEL void nested_returns(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  store(y + offs, classify(load(x + offs, mask, 0.0f)), mask);
}

// A return on a host condition inside a device branch ends the walk there:
// the recursion ends on n, as C++'s does (it does not run on to n = -1, -2...).
template <class T>
T countdown(T v, int n) {
  if (sum(v, 0) > 0.0f) {
    if (n == 0) return v;
    return countdown(v - 1.0f, n - 1);
  }
  return -v;
}

template <int BLOCK>
TT_KERNEL void host_return_in_device_branch(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  store(y + offs, countdown(load(x + offs, mask, 0.0f), 3), mask);
}

// After a possible return, a host return (N == 0) ends the kernel before
// the division by N that C++ would never reach.
template <int BLOCK, int N>
TT_KERNEL void host_return_after_device(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  if (program_id(0) * BLOCK >= n) return;
  if (N == 0) return;
  int per = 64 / N;
  store(y + offs, load(x + offs, offs < n, 0.0f) * float(per), offs < n);
}

// A helper's assignment through a reference happens only where it did not
// return: program 0 adds, program 1 returns first.
inline void bump(Tile<f32> &acc, Tile<f32> v, i32 k) {
  if (k > 2) return;
  acc = acc + v;
}

template <int BLOCK>
TT_KERNEL void reference_after_return(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto acc = zeros<f32>({BLOCK});
  bump(acc, load(x + offs, offs < n, 0.0f), program_id(0) + 2);
  store(y + offs, acc, offs < n);
}

// Variables the code after a return uses: a host counter of an unrolled
// loop, and a device variable first assigned there.
template <int BLOCK>
TT_KERNEL void locals_after_return(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  int k = 0;
  i32 start;
  if (program_id(0) * BLOCK >= n) return;
  start = program_id(0) * BLOCK;
  auto v = load(x + start + arange(0, BLOCK), offs < n, 0.0f);
  while (k < 4) {
    v = v + 1.0f;
    ++k;
  }
  store(y + start + arange(0, BLOCK), v, offs < n);
}
