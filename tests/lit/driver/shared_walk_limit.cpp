// The front-end time limit watches Clang's work only: in twintile diff, the
// parse front end's walk of the AST the tracing front end's host compile
// shares (pipeline::compileBoth) runs inside that compile, and the watch
// pauses for it. Here the walk evaluates a host loop for about three
// seconds under a one-second limit that Clang's parse keeps easily. (Not
// under the sanitizers: there Clang's own parse may take the second.)
// UNSUPPORTED: asan
// RUN: rm -rf %t.cache
// RUN: env TWINTILE_CACHE_DIR=%t.cache TWINTILE_FRONTEND_SECONDS=1 twintile diff %s --kernel 'slow<64>' --no-cache | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int N>
TT_KERNEL void slow(Ptr<f32> x, Ptr<f32> y) {
  int s = 0;
  for (int k = 0; k < 1000000; ++k)
    for (int m = 0; m < 4; ++m) s += (k * m) % 7;
  auto i = arange(0, N);
  store(y + i, load(x + i) * float(s % 3));
}

// CHECK: equal: the parse and trace IR of slow<64> are structurally identical
