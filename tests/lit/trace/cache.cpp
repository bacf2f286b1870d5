// The compiled kernel is cached by content and checked against the record
// written beside it before each use: the second trace skips the host
// compile; a damaged object, another kernel's object in its place, or a
// missing record is never loaded but rebuilt, with a note; --no-cache
// recompiles.
// RUN: rm -rf %t.cache
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' --time 2>&1 >/dev/null | FileCheck %s --check-prefix=FIRST
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' --time 2>&1 >/dev/null | FileCheck %s --check-prefix=CACHED
// RUN: for f in %t.cache/trace/*.so; do echo corrupt > $f; done
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' --time 2>%t.err | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=REBUILT < %t.err
// Another specialization's object in this one's place: refused, rebuilt, and the IR is this one's.
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<32>' > /dev/null
// RUN: cp $(ls -t %t.cache/trace/*.so | head -1) %t.other.so
// RUN: for f in %t.cache/trace/*.so; do cmp -s $f %t.other.so || cp %t.other.so $f; done
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' 2>%t.swap.err | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=REFUSED < %t.swap.err
// RUN: rm %t.cache/trace/*.sum
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' 2>&1 >/dev/null | FileCheck %s --check-prefix=NORECORD
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' --time --no-cache 2>&1 >/dev/null | FileCheck %s --check-prefix=FIRST
// A cache that cannot be written (its directory would be under a file) is a note, not an error.
// RUN: rm -rf %t.file && touch %t.file
// RUN: env TWINTILE_CACHE_DIR=%t.file/cache twintile compile --frontend=trace %s --kernel 'copy<64>' 2>%t.nocache.err | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=NOCACHE < %t.nocache.err
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
// REBUILT: twintile: note: the cached host object {{.*}}.so was not used: it does not match its record (truncated, damaged or replaced); rebuilt
// REBUILT: host-compile: {{[0-9.]+}} ms
// REFUSED: twintile: note: the cached host object {{.*}}.so was not used: it does not match its record
// NOCACHE: twintile: note: the trace cache {{.*}}.file/cache/trace cannot be written ({{.*}}): the kernel file was compiled without it
// NORECORD: twintile: note: the cached host object {{.*}}.so was not used: its record {{.*}}.sum is missing; rebuilt
