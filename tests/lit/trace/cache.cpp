// The compiled kernel is cached by content: the second trace skips the host compile,
// a corrupt cache entry is detected and rebuilt, and --no-cache recompiles.
// RUN: rm -rf %t.cache
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' --time 2>&1 >/dev/null | FileCheck %s --check-prefix=FIRST
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' --time 2>&1 >/dev/null | FileCheck %s --check-prefix=CACHED
// RUN: for f in %t.cache/trace/*.so; do echo corrupt > $f; done
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' --time 2>%t.err | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=REBUILT < %t.err
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' --time --no-cache 2>&1 >/dev/null | FileCheck %s --check-prefix=FIRST
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void copy(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  store(y + offs, load(x + offs));
}

// FIRST: host-compile: {{[0-9.]+}} ms
// CACHED: host-compile: cached
// IR: func @copy(%x: ptr<f32>, %y: ptr<f32>) meta {B = 64}
// REBUILT: host-compile: {{[0-9.]+}} ms
