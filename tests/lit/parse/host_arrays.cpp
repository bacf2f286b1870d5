// A host array the parsing front end would evaluate at compile time with more
// than 2^24 elements in all (nested ones too) is refused at its initializer,
// the input's error: a 2^32-element one used to end in std::bad_alloc,
// reported as twintile's bug.
// RUN: not twintile compile --frontend=parse %s --kernel 'huge<16>' 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not twintile compile --frontend=parse %s --kernel 'nested<16>' 2>&1 | FileCheck %s --check-prefix=NESTED
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void huge(Ptr<f32> x) {
  int table[1ull << 32] = {1};
  auto i = arange(0, B);
  store(x + i, load(x + i) * float(table[0]));
}

template <int B>
TT_KERNEL void nested(Ptr<f32> x) {
  int grid[4096][8192] = {};
  auto i = arange(0, B);
  store(x + i, load(x + i) * float(grid[0][0]));
}

// HUGE: host_arrays.cpp:12:27: error: this host array has more than 16777216 elements, the most the parsing front end evaluates at compile time
// HUGE-NOT: internal error
// NESTED: host_arrays.cpp:19:26: error: this host array has more than 16777216 elements
