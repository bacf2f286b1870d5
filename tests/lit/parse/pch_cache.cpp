// The parsing front end precompiles the language header once and keeps it
// in the cache beside a record of what it must be: a damaged, truncated or
// swapped header (or one without its record) is never given to Clang but
// rebuilt, with a note; the kernel's IR is the same either way. A cache
// that cannot keep it is a note, and the header is parsed with the kernel.
// RUN: rm -rf %t.cache
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=parse %s --kernel 'copy<64>' > %t.first.tir 2>%t.first.err
// RUN: ls %t.cache/pch/*.pch %t.cache/pch/*.sum
// RUN: not grep note %t.first.err
// RUN: for f in %t.cache/pch/*.pch; do head -c 4096 $f > %t.part && cp %t.part $f; done
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=parse %s --kernel 'copy<64>' > %t.rebuilt.tir 2>%t.rebuilt.err
// RUN: FileCheck %s --check-prefix=DAMAGED < %t.rebuilt.err
// RUN: cmp %t.first.tir %t.rebuilt.tir
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=parse %s --kernel 'copy<64>' 2>&1 >/dev/null | count 0
// RUN: rm %t.cache/pch/*.sum
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=parse %s --kernel 'copy<64>' 2>&1 >/dev/null | FileCheck %s --check-prefix=NORECORD
// RUN: rm -rf %t.file && touch %t.file
// RUN: env TWINTILE_CACHE_DIR=%t.file/cache twintile compile --frontend=parse %s --kernel 'copy<64>' > %t.nocache.tir 2>%t.nocache.err
// RUN: FileCheck %s --check-prefix=NOCACHE < %t.nocache.err
// RUN: not grep error %t.nocache.err
// RUN: cmp %t.first.tir %t.nocache.tir
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void copy(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  store(y + offs, load(x + offs));
}

// DAMAGED: twintile: note: the cached precompiled header {{.*}}.pch was not used: it does not match its record (truncated, damaged or replaced); rebuilt
// NORECORD: twintile: note: the cached precompiled header {{.*}}.pch was not used: its record {{.*}}.sum is missing; rebuilt
// NOCACHE: twintile: note: the precompiled language header cannot be kept in {{.*}}: the header is parsed with every kernel (slower, same result)
