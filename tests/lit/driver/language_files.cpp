// twintile carries the language's files (twintile.h, what it includes, the
// tracer's Entry.h) and writes them, once per content, where Clang reads
// them: under the cache, else in a directory of this user's own under the
// temporary directory. No run reads the source tree; a damaged copy is
// rewritten, never used; where nothing can be written, that is the error.
//
// Both front ends read the language from the cache, and its diagnostics
// point there.
// RUN: rm -rf %t.cache %t.saved %t.tmp %t.tmp2 %t.file && touch %t.file
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=parse %s --kernel 'copy<64>' > %t.parse.tir
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'copy<64>' > %t.trace.tir
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace --trace-host clang++ %s --kernel 'copy<64>' --no-cache > %t.clang.tir
// RUN: cmp %t.trace.tir %t.clang.tir
// RUN: ls %t.cache/language/*/include/twintile.h %t.cache/language/*/include/twintile/values.h %t.cache/language/*/frontends/trace/Entry.h
// RUN: not env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=parse %s --kernel 'refused<f32>' 2>&1 | FileCheck %s --check-prefix=WHERE -DCACHE=%t.cache
// RUN: not env TWINTILE_CACHE_DIR=%t.cache twintile compile --frontend=trace %s --kernel 'refused<f32>' 2>&1 | FileCheck %s --check-prefix=WHERE -DCACHE=%t.cache
//
// A copy edited or damaged is rewritten before Clang reads it; one removed
// is written again (without the precompiled header, so that Clang reads the
// headers themselves).
// RUN: cp -r %t.cache/language %t.saved
// RUN: for f in %t.cache/language/*/include/twintile/values.h; do echo '#error damaged' > $f; done
// RUN: rm %t.cache/language/*/frontends/trace/Entry.h
// RUN: env TWINTILE_CACHE_DIR=%t.cache TWINTILE_NO_PCH=1 twintile compile --frontend=parse %s --kernel 'copy<64>' | cmp - %t.parse.tir
// RUN: diff -r %t.saved %t.cache/language
// RUN: for f in %t.cache/language/*/include/twintile/values.h; do echo '#error damaged' > $f; done
// RUN: env TWINTILE_CACHE_DIR=%t.cache TWINTILE_NO_PCH=1 twintile compile --frontend=trace %s --kernel 'copy<64>' --no-cache | cmp - %t.trace.tir
// RUN: diff -r %t.saved %t.cache/language
//
// A cache that cannot be written: the temporary directory, in a directory
// only this user can write.
// RUN: mkdir %t.tmp
// RUN: env TWINTILE_CACHE_DIR=%t.file/cache TMPDIR=%t.tmp twintile compile --frontend=parse %s --kernel 'copy<64>' | cmp - %t.parse.tir
// RUN: env TWINTILE_CACHE_DIR=%t.file/cache TMPDIR=%t.tmp twintile compile --frontend=trace %s --kernel 'copy<64>' | cmp - %t.trace.tir
// RUN: ls %t.tmp/twintile-*/language-*/include/twintile.h
// RUN: stat -c %%a %t.tmp/twintile-* | FileCheck %s --check-prefix=MODE
//
// Neither: an error that says so, exit status 1, from both front ends.
// RUN: env TWINTILE_CACHE_DIR=%t.file/cache TMPDIR=%t.file twintile compile --frontend=parse %s --kernel 'copy<64>' 2>%t.none.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=NONE < %t.none.err
// RUN: env TWINTILE_CACHE_DIR=%t.file/cache TMPDIR=%t.file twintile compile --frontend=trace %s --kernel 'copy<64>' 2>%t.none.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=NONE < %t.none.err
// A temporary directory that others can write (a shared /tmp where someone
// made the name first) is not used.
// RUN: mkdir -p %t.tmp2/twintile-$(id -u) && chmod 777 %t.tmp2/twintile-$(id -u)
// RUN: env TWINTILE_CACHE_DIR=%t.file/cache TMPDIR=%t.tmp2 twintile compile --frontend=trace %s --kernel 'copy<64>' 2>%t.shared.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=SHARED < %t.shared.err
// RUN: not ls %t.tmp2/twintile-*/language-*
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void copy(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  store(y + offs, load(x + offs));
}

template <class T>
TT_KERNEL void refused(Ptr<T> x) {
  T a = load(x);
  auto b = a && a;
}

// WHERE: language_files.cpp:[[@LINE-3]]:14: error: overload resolution selected deleted operator '&&'
// WHERE: [[CACHE]]/language/{{[0-9a-f]+}}/include/twintile/{{.*}}values.h:{{[0-9]+}}:{{[0-9]+}}: note: candidate function has been explicitly deleted
// MODE: 700
// NONE: error: the language's headers cannot be written where Clang can read them (cannot write {{.*}}; no temporary directory
// SHARED: error: the language's headers cannot be written where Clang can read them ({{.*}}; {{.*}}twintile-{{[0-9]+}} is not a directory of this user's own)
