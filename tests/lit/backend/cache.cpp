// Compiled kernels are cached by content: the second compile of the same
// kernel is a hit, --no-cache recompiles, a damaged entry is rebuilt, and a
// different target or assumption is a different entry.
// RUN: rm -rf %t.cache
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'scale<128>' --emit ptx --time -o %t.1.ptx 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'scale<128>' --emit ptx --time -o %t.2.ptx 2>&1 | FileCheck %s --check-prefix=HIT
// RUN: cmp %t.1.ptx %t.2.ptx
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'scale<128>' --emit ptx --time --no-cache 2>&1 >/dev/null | FileCheck %s --check-prefix=MISS
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'scale<128>' --emit ptx --time --target sm_80 2>&1 >/dev/null | FileCheck %s --check-prefix=MISS
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'scale<128>' --emit ptx --time --assume-aligned x 2>&1 >/dev/null | FileCheck %s --check-prefix=MISS
// Damage every cached PTX: each entry is detected, dropped and rebuilt.
// RUN: for f in %t.cache/backend/*/kernel.ptx; do echo garbage > $f; done
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'scale<128>' --emit ptx --time -o %t.3.ptx 2>%t.damaged.err
// RUN: FileCheck %s --check-prefix=MISS < %t.damaged.err
// RUN: FileCheck %s --check-prefix=DAMAGED < %t.damaged.err
// RUN: cmp %t.1.ptx %t.3.ptx
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void scale(Ptr<f32> x, f32 s) {
  auto offs = arange(0, B);
  store(x + offs, load(x + offs) * s);
}

// MISS: backend: {{ *}}{{[0-9.]+}} ms
// HIT: backend: {{ *}}cached,
// DAMAGED: twintile: note: the cached compile {{.*}}backend/{{[0-9a-f]+}} was damaged (kernel.ptx does not match the index): compiled again
