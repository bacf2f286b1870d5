// The trace and backend caches are kept within $TWINTILE_CACHE_MB each
// (support/CachePrune.h): a compile that stores a new entry removes the
// least recently used past the limit (here a stale 2 MB entry in each,
// against a 1 MiB limit) and keeps what it stored, which the next compile
// hits. A setting that is not a size is an error, said before any work.
// RUN: rm -rf %t.cache && mkdir -p %t.cache/trace %t.cache/backend/0123456789abcdef
// RUN: head -c 2000000 /dev/zero > %t.cache/trace/0000000000000000.o
// RUN: touch -d '2 days ago' %t.cache/trace/0000000000000000.o
// RUN: head -c 2000000 /dev/zero > %t.cache/backend/0123456789abcdef/kernel.ptx
// RUN: touch -d '2 days ago' %t.cache/backend/0123456789abcdef/kernel.ptx %t.cache/backend/0123456789abcdef
// RUN: env TWINTILE_CACHE_DIR=%t.cache TWINTILE_CACHE_MB=1 twintile compile --frontend=trace %s --kernel 'twice<16>' --emit ptx -o %t.ptx
// RUN: not ls %t.cache/trace/0000000000000000.o
// RUN: not ls %t.cache/backend/0123456789abcdef
// RUN: ls %t.cache/trace | grep -c '\.o$' | FileCheck %s --check-prefix=ONE
// RUN: ls %t.cache/backend | count 1
// RUN: env TWINTILE_CACHE_DIR=%t.cache TWINTILE_CACHE_MB=1 twintile compile --frontend=trace %s --kernel 'twice<16>' --emit ptx -o %t.ptx --json | FileCheck %s --check-prefix=HIT
// RUN: env TWINTILE_CACHE_MB=lots not twintile compile %s --kernel 'twice<16>' 2>&1 | FileCheck %s --check-prefix=BAD
#include <twintile.h>
using namespace tt;

template <int N>
TT_KERNEL void twice(Ptr<f32> x, Ptr<f32> y) {
  auto i = arange(0, N);
  store(y + i, load(x + i) * 2.0f);
}

// ONE: {{^}}1{{$}}
// HIT: "host_compile_cached": true,
// HIT: "cache_hit": true,
// BAD: twintile: error: TWINTILE_CACHE_MB is 'lots': it is the most the trace and backend caches each keep on disk, in MiB (0 for no limit, up to 1073741824)
