// The compiled kernel is cached by content and checked against the record
// written beside it before each use: the second trace skips the host
// compile; a damaged object, another kernel's object in its place, or a
// missing record is never loaded but rebuilt, with a note; --no-cache
// recompiles. Both ways of compiling the file for the host are cached
// apart: in process (an object for the JIT linker, *.o) and by clang++ (a
// shared object, *.so).
// RUN: rm -rf %t.cache
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' --time 2>&1 >/dev/null | FileCheck %s --check-prefix=FIRST
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' --time 2>&1 >/dev/null | FileCheck %s --check-prefix=CACHED
// RUN: for f in %t.cache/trace/*o; do echo corrupt > $f; done
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' --time 2>%t.err | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=REBUILT < %t.err
// Another specialization's object in this one's place: refused, rebuilt, and the IR is this one's.
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<32>' > /dev/null
// RUN: cp $(ls -t %t.cache/trace/*o | head -1) %t.other.o
// RUN: for f in %t.cache/trace/*o; do cmp -s $f %t.other.o || cp %t.other.o $f; done
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' 2>%t.swap.err | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=REFUSED < %t.swap.err
// RUN: rm %t.cache/trace/*.sum
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' 2>&1 >/dev/null | FileCheck %s --check-prefix=NORECORD
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' --time --no-cache 2>&1 >/dev/null | FileCheck %s --check-prefix=FIRST
// The clang++ process, by flag and by the environment: its own entry, then cached.
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' --trace-host clang++ --time 2>&1 >/dev/null | FileCheck %s --check-prefix=FIRST
// RUN: env TWINTILE_CACHE_DIR=%t.cache TWINTILE_TRACE_HOST=clang++ twintile compile --frontend=trace %s --kernel 'copy<64>' --time 2>&1 >/dev/null | FileCheck %s --check-prefix=CACHED
// RUN: ls %t.cache/trace | FileCheck %s --check-prefix=BOTH
// RUN: not env TWINTILE_TRACE_HOST=gcc twintile compile --frontend=trace %s --kernel 'copy<64>' 2>&1 | FileCheck %s --check-prefix=BADHOST
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
// FIRST: host-load: {{[0-9.]+}} ms
// CACHED: host-compile: cached
// IR: func @copy(%x: ptr<f32>, %y: ptr<f32>) meta {B = 64}
// REBUILT: twintile: note: the cached host object {{.*}}o was not used: it does not match its record (truncated, damaged or replaced); rebuilt
// REBUILT: host-compile: {{[0-9.]+}} ms
// REFUSED: twintile: note: the cached host object {{.*}}o was not used: it does not match its record
// NOCACHE: twintile: note: the trace cache {{.*}}.file/cache/trace cannot be written ({{.*}}): the kernel file was compiled without it
// NORECORD: twintile: note: the cached host object {{.*}}o was not used: its record {{.*}}.sum is missing; rebuilt
// BOTH-DAG: {{^[0-9a-f]+}}.o
// BOTH-DAG: {{^[0-9a-f]+}}.so
// BADHOST: TWINTILE_TRACE_HOST is 'gcc': it names how a kernel file is compiled for tracing, jit or clang++
